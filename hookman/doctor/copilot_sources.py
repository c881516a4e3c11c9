"""What GitHub Copilot CLI reads besides Claude Code's project settings: its own hook files
(agent_files, doctor_facts.json "agents.copilot") and the folders its user trusts.

Copilot runs a project's hooks (`.claude/settings.json`, `.claude/settings.local.json`,
`.github/hooks/*.json`) in `copilot -p` only for a trusted folder: `--trust-folder` for one
session, or a saved trust, the `trustedFolders` list in $COPILOT_HOME/config.json (default
~/.copilot/config.json, two `//` comment lines first). A folder trusts everything under it,
symbolic links resolved; a config.json that does not parse trusts nothing (measured with the
package's own runtime, docs/agents.md).
"""

from __future__ import annotations

import os
from pathlib import Path

from hookman.doctor.agent_files import AgentFile, agent_home, doctor_facts_of, read_file

AGENT = "copilot"


def trust_file() -> Path:
    return agent_home(AGENT) / str(doctor_facts_of(AGENT)["trust_file"])


def trusted_folders() -> list[str] | None:
    """The folders Copilot trusts (None: its config.json is there but does not parse)."""
    file = read_file(AgentFile(AGENT, "user", trust_file(), None), comments=True)
    if not file.exists:
        return []
    if file.error is not None:
        return None
    folders = file.data.get(str(doctor_facts_of(AGENT)["trust_key"]))
    if not isinstance(folders, list):
        return []
    return [folder for folder in folders if isinstance(folder, str)]


def is_trusted(project_dir: Path, folders: list[str]) -> bool:
    real = os.path.realpath(project_dir)
    for folder in folders:
        base = os.path.realpath(folder)
        if real == base or real.startswith(base.rstrip(os.sep) + os.sep):
            return True
    return False


def trust_by_environment() -> str | None:
    """The variable that makes Copilot load repository hooks without trust, when set."""
    for name in doctor_facts_of(AGENT)["trust_variables"]:
        if os.environ.get(name) == "true":
            return str(name)
    return None
