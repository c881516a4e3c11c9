"""The hook files of Qwen Code, Factory droid and GitHub Copilot CLI, read as doctor reads
Claude Code's: without running anything, never writing them (a file that does not parse is
reported and left as it is). Where each agent looks is data (doctor_facts.json, "agents");
this module only reads.

All three take Claude Code's hooks shape, `{EVENT: [{"matcher": ..., "hooks": [{"type":
"command", ...}]}]}`, either under a key (`hooks` in a settings.json) or at the top of the
file (droid's hooks.json).
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from hookman.doctor.facts import doctor_facts


@cache
def doctor_facts_of(agent: str) -> dict[str, Any]:
    return dict(doctor_facts()["agents"][agent])


def pattern_facts(name: str) -> list[str]:
    return list(doctor_facts()["agents"][name])


class AgentFile:
    """One file an agent reads hooks from (a plain class, as codex_sources.CodexFile)."""

    def __init__(self, agent: str, layer: str, path: Path, hooks_key: str | None) -> None:
        self.agent = agent
        self.layer = layer
        self.path = path
        self.hooks_key = hooks_key  # None: the events are the file's top-level keys
        self.exists = False
        self.error: str | None = None  # why it cannot be read or parsed
        self.data: Any = None  # the whole parsed document
        self.hooks: dict[str, Any] | None = None  # events -> groups

    @property
    def label(self) -> str:
        return f"{self.layer} {self.path.name}"


def agent_home(agent: str) -> Path:
    """The agent's user directory: its variable when set (QWEN_HOME, COPILOT_HOME), else
    ~/.qwen, ~/.factory, ~/.copilot."""
    facts = doctor_facts_of(agent)
    variable = facts.get("home_variable")
    value = os.environ.get(variable) if variable else None
    return Path(value) if value else Path.home() / str(facts["home"])


def read_agent_files(agent: str, project_dir: Path) -> list[AgentFile]:
    """Every file the agent's facts name, user layer first, each read (missing ones too,
    so the merged view lists where the agent looks)."""
    facts = doctor_facts_of(agent)
    found: list[AgentFile] = []
    for place in facts["files"]:
        base = agent_home(agent) if place["where"] == "home" else project_dir
        paths = sorted(base.glob(place["glob"])) if "glob" in place else [base / place["path"]]
        for path in paths:
            file = AgentFile(agent, place["layer"], path, place["hooks_key"])
            found.append(read_file(file, comments=bool(facts.get("comments"))))
    return found


def read_file(file: AgentFile, *, comments: bool) -> AgentFile:
    try:
        text = file.path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return file
    except IsADirectoryError:
        return file
    except UnicodeDecodeError:
        file.exists, file.error = True, "it is not UTF-8 text"
        return file
    except OSError as error:
        file.exists, file.error = True, f"it cannot be read ({error.strerror or error})"
        return file
    file.exists = True
    try:
        file.data = parse_json(text, comments=comments)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        file.error = f"it is not valid JSON ({error.msg} at {where})"
        return file
    if not isinstance(file.data, dict):
        file.error = "it is not a JSON object"
        return file
    hooks = file.data if file.hooks_key is None else file.data.get(file.hooks_key)
    if hooks is None:
        return file
    if not isinstance(hooks, dict):
        file.error = f"its `{file.hooks_key}` is not an object of events"
        return file
    file.hooks = hooks
    return file


def parse_json(text: str, *, comments: bool) -> Any:
    """JSON, or with `comments` JSON with `//` and `/* */` comments (what the agents' own
    readers take: strip-json-comments, jsonc-parser; a trailing comma makes droid 0.225.2
    skip the file, measured, and Qwen's JSON.parse refuse it)."""
    return json.loads(strip_comments(text) if comments else text)


def strip_comments(text: str, *, trailing_commas: bool = False) -> str:
    """The text with comments outside strings blanked (line and column numbers kept); with
    `trailing_commas`, commas before `}` or `]` dropped too."""
    out: list[str] = []
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char == '"':
            end = _string_end(text, index)
            out.append(text[index:end])
            index = end
        elif text.startswith("//", index):
            end = text.find("\n", index)
            end = size if end < 0 else end
            out.append(" " * (end - index))
            index = end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = size if end < 0 else end + 2
            out.append("".join(c if c == "\n" else " " for c in text[index:end]))
            index = end
        elif trailing_commas and char == "," and _closes_next(text, index + 1):
            out.append(" ")
            index += 1
        else:
            out.append(char)
            index += 1
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    index = start + 1
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text[index] == '"':
            return index + 1
        index += 1
    return len(text)


def _closes_next(text: str, index: int) -> bool:
    """Whether only blanks and comments stand between `index` and a `}` or `]`."""
    while index < len(text):
        if text[index].isspace():
            index += 1
        elif text.startswith("//", index):
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            index = len(text) if end < 0 else end + 2
        else:
            return text[index] in "}]"
    return False


def wants_agent(agent: str, project_dir: Path) -> bool:
    """Whether doctor looks at the agent at all: hookman.toml's `agents` names it or its own
    files hold hooks (file reads only; the agent's family of findings is imported after)."""
    return named_in_agents(agent, project_dir) or holds_hooks(read_agent_files(agent, project_dir))


def named_in_agents(agent: str, project_dir: Path) -> bool:
    """Whether hookman.toml's `agents` names the agent (file reads only)."""
    from hookman.errors import HookmanError
    from hookman.project.config import read_project_config

    try:
        return agent in read_project_config(project_dir).agents
    except HookmanError:  # reported by findings_hookman
        return False


def events_file_beside(settings: AgentFile, files: list[AgentFile]) -> AgentFile | None:
    """The file of top-level events (droid's hooks.json) in the folder of `settings` (a file
    with a `hooks` key), when it parses and holds events: droid takes its events over the
    same events in that settings file."""
    beside = next(
        (f for f in files if f.hooks_key is None and f.path.parent == settings.path.parent), None
    )
    if beside is None or not beside.hooks or beside.error is not None:
        return None
    return beside


def holds_hooks(files: list[AgentFile]) -> bool:
    return any(f.hooks or (f.exists and f.error is not None) for f in files)
