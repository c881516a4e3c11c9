"""The settings writer through `hookman install`: what tools/mutants.py found no test
noticing (settings_file.py, settings_entries.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.commands.helpers import GUARD, NOTIFIER, hookman, write_hook

VERSION = ("--claude-version", "2.1.328")
FOREIGN = {"type": "command", "command": "echo foreign"}


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)


def _install(*args: str) -> None:
    done = hookman("install", *args, *VERSION)
    assert done.exit_code == 0, done.output


def test_a_file_with_raw_non_ascii_gets_new_text_raw_too(project: Path) -> None:
    """A file that writes non-ASCII raw, with one `\\u` escape in it as well, is not an
    escaping file: what install adds (the matcher of a guard on the MCP tool
    `mcp__café__run`) is written raw, not as `caf\\u00e9`."""
    settings = project / ".claude" / "settings.local.json"
    settings.write_text('{\n  "note": "grüß \\u00e9"\n}\n', encoding="utf-8")
    write_hook(project, "guard", GUARD.replace('tools=["Bash"]', 'tools=["mcp__café__run"]'))
    _install("hooks/guard.py")
    text = settings.read_text(encoding="utf-8")
    assert text.startswith('{\n  "note": "grüß \\u00e9",\n')  # the user's text as it was
    assert "mcp__café__run" in text and "caf\\u00e9" not in text


def test_a_second_install_of_blocking_and_async_entries_on_one_event_changes_nothing(
    project: Path,
) -> None:
    """A blocking and an async hookman entry on PostToolUse, then a group of the user's:
    installing again finds each entry where it is (blocking and async told apart), so not
    a byte moves."""
    watcher = GUARD.replace('"tool_call", check', '"tool_result", check')
    write_hook(project, "watcher", watcher)
    write_hook(project, "notifier", NOTIFIER)
    _install("hooks/watcher.py")
    _install("hooks/notifier.py", "--async")
    settings = project / ".claude" / "settings.local.json"
    data = json.loads(settings.read_text())
    post = data["hooks"]["PostToolUse"]
    assert [bool(group["hooks"][0].get("async")) for group in post] == [False, True]
    post.append({"matcher": "Write", "hooks": [FOREIGN]})
    settings.write_text(json.dumps(data, indent=2) + "\n")
    before = settings.read_bytes()
    _install()
    assert settings.read_bytes() == before


def test_a_key_added_by_hand_to_hookmans_guard_entry_goes_at_the_next_install(
    project: Path,
) -> None:
    """`"async": true` on the guard's entry would make Claude Code stop waiting for it (no
    deny could arrive): install writes the handler's keys as it wants them, and removes it."""
    write_hook(project, "guard", GUARD)
    _install("hooks/guard.py")
    settings = project / ".claude" / "settings.local.json"
    data = json.loads(settings.read_text())
    (handler,) = data["hooks"]["PreToolUse"][0]["hooks"]
    handler["async"] = True
    settings.write_text(json.dumps(data, indent=2) + "\n")
    _install()
    (handler,) = json.loads(settings.read_text())["hooks"]["PreToolUse"][0]["hooks"]
    assert "async" not in handler and handler["timeout"] == 30
