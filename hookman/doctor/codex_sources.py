"""The files Codex CLI takes hooks from, read as doctor reads Claude Code's: without running
anything, never writing them (a file that does not parse is reported and left as it is).

Codex reads `hooks.json` and the inline `[hooks]` tables of `config.toml` beside each config
layer it loads: the user's, CODEX_HOME (else ~/.codex), and the project's `.codex/`, which it
reads only for a project trusted in the user's config.toml (`[projects."<dir>"] trust_level =
"trusted"`, for the project or a folder above it: measured with its git root). Both forms are
Claude Code's hooks section: `{EVENT: [{"matcher": ..., "hooks": [{"type": "command", ...}]}]}`.
`[hooks.state]` holds Codex's trust records, not hooks.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from hookman.bridge.protocol import CODEX_AGENT
from hookman.errors import HookmanError
from hookman.paths import codex_home
from hookman.project.config import read_project_config
from hookman.toml_data import toml_parser

Layer = Literal["user", "project"]
STATE_KEY = "state"  # [hooks.state]: trust records
TRUSTED = "trusted"


class CodexFile:
    """One file Codex reads hooks from (a plain class: doctor imports this module on every
    run, and a dataclass costs a compile at import)."""

    def __init__(self, layer: Layer, path: Path, form: Literal["json", "toml"]) -> None:
        self.layer = layer
        self.path = path
        self.form = form
        self.exists = False
        self.error: str | None = None  # why it cannot be read or parsed
        self.data: Any = None  # the whole parsed document
        self.hooks: dict[str, Any] | None = None  # its hooks object (events -> groups)

    @property
    def label(self) -> str:
        return f"{self.layer} {self.path.name}"


def project_codex_dir(project_dir: Path) -> Path:
    return project_dir / ".codex"


def wants_codex(project_dir: Path) -> bool:
    """Whether doctor looks at Codex at all: the project opts in (`agents` in hookman.toml
    names codex) or a hooks.json of Codex's holds hooks. File reads only, no child process."""
    try:  # the parsed values install kept beside the manifest: no TOML parser on this path
        if CODEX_AGENT in read_project_config(project_dir).agents:
            return True
    except HookmanError:  # a hookman.toml that cannot be read is doctor's finding elsewhere
        pass
    for directory in (codex_home(), project_codex_dir(project_dir)):
        path = directory / "hooks.json"
        if not path.is_file():
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig"))
        except (OSError, ValueError):
            return True  # a broken hooks file is worth a finding
        if not isinstance(data, dict) or data.get("hooks"):
            return True
    return False


def read_codex_files(project_dir: Path) -> list[CodexFile]:
    """The user layer's then the project's hooks.json and config.toml, each read."""
    files = []
    layers = [("user", codex_home()), ("project", project_codex_dir(project_dir))]
    if os.path.realpath(layers[0][1]) == os.path.realpath(layers[1][1]):
        layers.pop()  # CODEX_HOME is the project's .codex: one layer
    for layer, directory in layers:
        files.append(_read(CodexFile(layer, directory / "hooks.json", "json")))  # type: ignore[arg-type]
        files.append(_read(CodexFile(layer, directory / "config.toml", "toml")))  # type: ignore[arg-type]
    return files


def _read(file: CodexFile) -> CodexFile:
    try:
        text = file.path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return file
    except UnicodeDecodeError:
        file.exists, file.error = True, "it is not UTF-8 text"
        return file
    except OSError as error:
        file.exists, file.error = True, f"it cannot be read ({error.strerror or error})"
        return file
    file.exists = True
    try:
        file.data = json.loads(text) if file.form == "json" else toml_parser().loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        file.error = f"it is not valid JSON ({error.msg} at {where})"
        return file
    except ValueError as error:  # tomllib.TOMLDecodeError
        file.error = f"it is not valid TOML ({error})"
        return file
    if not isinstance(file.data, dict):
        file.error = "it is not a JSON object"
        return file
    hooks = file.data.get("hooks")
    if hooks is None:
        return file
    if not isinstance(hooks, dict):
        file.error = "its `hooks` is not an object of events"
        return file
    file.hooks = {
        key: value for key, value in hooks.items() if key != STATE_KEY or file.form == "json"
    }
    return file


def user_config(files: list[CodexFile]) -> CodexFile:
    return next(f for f in files if f.layer == "user" and f.form == "toml")


def project_trust(files: list[CodexFile], project_dir: Path) -> str | None:
    """The trust level the user's config.toml gives the project: the nearest entry for the
    project or a folder above it, up to its git root ("trusted", "untrusted", or None when
    none names it)."""
    config = user_config(files).data
    projects = config.get("projects") if isinstance(config, dict) else None
    if not isinstance(projects, dict):
        return None
    for directory in _candidates(project_dir):
        for spelled in dict.fromkeys((str(directory), os.path.realpath(directory))):
            entry = projects.get(spelled)
            if isinstance(entry, dict) and isinstance(entry.get("trust_level"), str):
                return str(entry["trust_level"])
    return None


def _candidates(project_dir: Path) -> list[Path]:
    """The project and the folders above it up to the git work tree's root (the project
    alone outside git)."""
    chain = [project_dir, *project_dir.parents]
    for index, directory in enumerate(chain):
        if (directory / ".git").exists():
            return chain[: index + 1]
    return [project_dir]
