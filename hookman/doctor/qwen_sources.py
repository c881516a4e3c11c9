"""Whether Qwen Code reads the project's .qwen/settings.json at all: with folder trust on
(`security.folderTrust.enabled` in the user's settings; off by default) it ignores the
settings, hooks included, of a folder its trustedFolders.json does not trust. Read in the
package (0.24.4): rules map a path to TRUST_FOLDER, TRUST_PARENT (the path's parent) or
DO_NOT_TRUST; the deepest rule holding the project wins, DO_NOT_TRUST on a tie; no rule is
not trusted. The file is $QWEN_CODE_TRUSTED_FOLDERS_PATH, else trustedFolders.json in
$QWEN_HOME (else ~/.qwen).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hookman.doctor.agent_files import AgentFile, agent_home, read_file

AGENT = "qwen"
TRUSTED_LEVELS = {"TRUST_FOLDER": "trusted", "TRUST_PARENT": "trusted", "DO_NOT_TRUST": "untrusted"}


def folder_trust_on(user_settings: Any) -> bool:
    security = user_settings.get("security") if isinstance(user_settings, dict) else None
    folder = security.get("folderTrust") if isinstance(security, dict) else None
    return isinstance(folder, dict) and folder.get("enabled") is True


def trust_file() -> Path:
    override = os.environ.get("QWEN_CODE_TRUSTED_FOLDERS_PATH")
    return Path(override) if override else agent_home(AGENT) / "trustedFolders.json"


def project_trusted(project_dir: Path) -> bool:
    """Whether trustedFolders.json trusts the project (folder trust being on)."""
    file = read_file(AgentFile(AGENT, "user", trust_file(), None), comments=True)
    rules = file.data if isinstance(file.data, dict) and file.error is None else {}
    project = Path(os.path.realpath(project_dir))
    winner: tuple[int, str] | None = None
    for path, level in rules.items():
        verdict = TRUSTED_LEVELS.get(level) if isinstance(level, str) else None
        if verdict is None:
            continue
        base = Path(os.path.realpath(path))
        base = base.parent if level == "TRUST_PARENT" else base
        if project != base and base not in project.parents:
            continue
        depth = len(base.parts)
        if winner is None or depth > winner[0] or (depth == winner[0] and verdict == "untrusted"):
            winner = (depth, verdict)
    return winner is not None and winner[1] == "trusted"
