"""`hookman list` says which path each hook's installed entries take (`via`: the warm hook
server or the command) where the user opted in to the server; not opted in, list's output
is what it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookman.json_shapes import ListJson
from hookman.project.settings_entries import hookman_handler_is_sentinel
from tests.serve_fake import free_port, opt_in, opt_out
from tests.shape_check import shape_problems

from .helpers import GUARD, NOTES, hookman, hookman_json, run_on_terminal, run_piped, write_hook

NEWEST = ("--claude-version", "2.1.332")
NO_ON_FAILURE = ("--claude-version", "2.1.197")  # http hooks, but no onFailure: guards stay
# A guard that also watches results: its guarded event and its observe-only one.
WATCHING_GUARD = """\
def hook(pi):
    def check(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no"}
    pi.on("tool_call", check, tools=["Bash"])
    pi.on("tool_result", lambda event, ctx: None, tools=["Bash"])
"""
RESULTS = """\
def hook(pi):
    pi.on("tool_result", lambda event, ctx: None, tools=["Edit"])
"""


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)


def _events(listed: dict, name: str) -> dict:
    (row,) = [row for row in listed["hooks"] if row["name"] == name]
    return row["claude_events"]


def _listed(*args: str) -> dict:
    listed = hookman_json("list", *args)
    assert shape_problems(listed, ListJson) == []
    return listed


def test_opted_in_each_entry_says_server_or_command(project: Path) -> None:
    write_hook(project, "guard", WATCHING_GUARD)
    opt_in(free_port())
    assert hookman("install", "hooks/guard.py", *NEWEST).exit_code == 0
    events = _events(_listed(*NEWEST), "guard")
    assert events["PreToolUse"]["via"] == "server"  # guarded: onFailure block on 2.1.332
    assert events["PostToolUse"]["via"] == "server"  # observe-only
    assert events["PreSkillShellCommand"]["via"] in ("server", "command")
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    group, sentinel = settings["hooks"]["PreToolUse"]
    assert group["hooks"][0]["type"] == "http"  # what list read, not what it guessed
    # the sentinel beside it is always a command, and list does not take it for the path
    assert sentinel["matcher"] == "^(?!(?:Bash)$).*"
    assert sentinel["hooks"][0]["type"] == "command"
    assert hookman_handler_is_sentinel(sentinel["hooks"][0])


def test_guards_on_a_client_without_on_failure_say_command(project: Path) -> None:
    write_hook(project, "guard", WATCHING_GUARD)
    opt_in(free_port())
    assert hookman("install", "hooks/guard.py", *NO_ON_FAILURE).exit_code == 0
    events = _events(_listed(*NO_ON_FAILURE), "guard")
    assert events["PreToolUse"]["via"] == "command"
    assert events["PostToolUse"]["via"] == "server"


def test_an_event_without_an_installed_entry_has_no_path(project: Path) -> None:
    write_hook(project, "guard", WATCHING_GUARD)
    write_hook(project, "notes", NOTES)
    opt_in(free_port())
    assert hookman("install", "hooks/guard.py", *NO_ON_FAILURE).exit_code == 0
    assert hookman("disable", "guard").exit_code == 0
    toml = project / ".claude" / "hookman.toml"
    toml.write_text(
        toml.read_text() + '\n[[hooks]]\nname = "notes"\npath = "hooks/notes.py"\n'
        'events = ["session_start"]\n'
    )  # in hookman.toml, not installed here yet
    listed = _listed(*NO_ON_FAILURE)
    assert {facts["via"] for facts in _events(listed, "guard").values()} == {None}  # disabled
    notes = _events(listed, "notes")
    assert {facts["status"] for facts in notes.values()} == {"not_installed"}
    assert {facts["via"] for facts in notes.values()} == {None}
    _, text, _ = run_piped("list", *NO_ON_FAILURE, cwd=project)
    assert "via: -  last fired" in text


def test_a_held_back_event_has_no_path(project: Path) -> None:
    write_hook(project, "guard", WATCHING_GUARD)
    opt_in(free_port())
    assert hookman("install", "hooks/guard.py", *NO_ON_FAILURE).exit_code == 0
    events = _events(_listed(*NO_ON_FAILURE), "guard")
    assert events["PreSkillShellCommand"] == {
        "status": "held_back",
        "matcher": None,
        "since": "2.1.332",
        "via": None,
    }


def test_entries_installed_before_the_opt_in_say_command(project: Path) -> None:
    write_hook(project, "guard", WATCHING_GUARD)
    assert hookman("install", "hooks/guard.py", *NEWEST).exit_code == 0
    opt_in(free_port())  # install not run again: the entries are still command entries
    events = _events(_listed(*NEWEST), "guard")
    assert events["PreToolUse"]["via"] == "command"
    assert events["PostToolUse"]["via"] == "command"


def test_not_opted_in_nothing_is_added(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    assert hookman("install", "hooks/guard.py", *NEWEST).exit_code == 0
    before_json = _listed(*NEWEST)
    assert all("via" not in facts for facts in _events(before_json, "guard").values())
    _, before_text, _ = run_piped("list", *NEWEST, cwd=project)
    assert "via" not in before_text
    _, table, _ = run_on_terminal("list", *NEWEST, cwd=project)
    assert "via" not in table
    opt_in(free_port())
    assert "via" in _events(_listed(*NEWEST), "guard")["PreToolUse"]
    opt_out()
    assert _listed(*NEWEST) == before_json
    assert run_piped("list", *NEWEST, cwd=project)[1] == before_text


def test_piped_lines_say_the_path_once_or_per_event(project: Path) -> None:
    write_hook(project, "guard", WATCHING_GUARD)
    write_hook(project, "results", RESULTS)
    opt_in(free_port())
    installed = hookman("install", "hooks/guard.py", "hooks/results.py", *NO_ON_FAILURE)
    assert installed.exit_code == 0
    code, text, _ = run_piped("list", *NO_ON_FAILURE, cwd=project)
    assert code == 0
    guard, results = (line for line in text.splitlines() if line[:3] in ("1. ", "2. "))
    assert (
        "via: PreToolUse command, PreSkillShellCommand -, PostToolUse server, "
        "PostToolUseFailure server  last fired: never"
    ) in guard
    assert "via: server  last fired: never" in results


def test_the_terminal_table_has_a_via_column(project: Path) -> None:
    write_hook(project, "guard", WATCHING_GUARD)
    opt_in(free_port())
    assert hookman("install", "hooks/guard.py", *NO_ON_FAILURE).exit_code == 0
    code, text, _ = run_on_terminal("list", *NO_ON_FAILURE, cwd=project)
    assert code == 0
    lines = text.splitlines()
    # the table's head (the first line, "project PATH, Claude Code target ...", names the
    # client too, whole or wrapped as the length of the temporary path has it)
    header = next(line for line in lines if "Claude Code" in line and "┃" in line)
    assert header.index("Claude Code") < header.index("via") < header.index("last fired")
    claude = [cell(line, header, "Claude Code") for line in lines[lines.index(header) + 2 :]]
    paths = [cell(line, header, "via") for line in lines[lines.index(header) + 2 :]]
    # each event's path beside it, though "held back: needs ..." wraps onto a second line
    assert claude[:5] == [
        "PreToolUse[Bash]",
        "PreSkillShellCommand (held",
        "back: needs >= 2.1.332)",
        "PostToolUse[Bash]",
        "PostToolUseFailure[Bash]",
    ]
    assert paths[:5] == ["command", "-", "", "server", "server"]


def cell(line: str, header: str, title: str) -> str:
    """The text of column `title` in a table line (columns split at the header's bars)."""
    bars = [index for index, char in enumerate(header) if char == "┃"]
    start = header.index(title)
    left = max(bar for bar in bars if bar < start)
    right = min(bar for bar in bars if bar > start)
    return line[left + 1 : right].strip()
