"""`hookman enable` / `hookman disable`: only the `enabled` key changes; settings follow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.bridge.attack_support import installed_handlers, sentinel_handlers

from .helpers import GUARD, NOTES, hookman, local_settings, snapshot, write_hook

VERSION = ("--claude-version", "2.1.328")
HAND_WRITTEN = """\
# our hooks, reviewed by the team
[[hooks]]
name = "guard"   # keeps rm -rf out
path = "hooks/guard.py"
events = ["tool_call"]
tools = {tool_call = ["Bash"]}

[[hooks]]
name = "notes"
path = "hooks/notes.py"
enabled = true
events = ["session_start", "tool_result"]
tools = {tool_result = ["Edit", "Write"]}
"""


def _project(project: Path) -> Path:
    write_hook(project, "guard", GUARD)
    write_hook(project, "notes", NOTES)
    config = project / ".claude" / "hookman.toml"
    config.write_text(HAND_WRITTEN)
    assert hookman("install", "--project", str(project), *VERSION).exit_code == 0
    return config


def test_disable_switches_only_the_enabled_key_and_drops_the_entry(project: Path) -> None:
    config = _project(project)

    done = hookman("disable", "guard", "--project", str(project), *VERSION)

    assert done.exit_code == 0, done.output
    assert config.read_text() == HAND_WRITTEN.replace(
        'tool_call = ["Bash"]}\n', 'tool_call = ["Bash"]}\nenabled = false\n'
    )
    settings = local_settings(project)
    assert installed_handlers(settings, "PreToolUse") == []  # no enabled guard: no entry
    # what is left is the sentinel, now over every tool (project/sentinel.py)
    assert [group.get("matcher") for group in settings["hooks"]["PreToolUse"]] == [None]
    assert len(sentinel_handlers(settings, "PreToolUse")) == 1
    assert done.stdout.splitlines()[0] == "disabled guard"
    assert ".claude/hookman.toml changed" in done.stdout.splitlines()


def test_enable_brings_the_entry_back_and_keeps_the_layout(project: Path) -> None:
    config = _project(project)
    settings_before = local_settings(project)
    assert hookman("disable", "guard", "--project", str(project), *VERSION).exit_code == 0

    done = hookman("enable", "guard", "--project", str(project), *VERSION)

    assert done.exit_code == 0, done.output
    assert config.read_text() == HAND_WRITTEN.replace(
        'tool_call = ["Bash"]}\n', 'tool_call = ["Bash"]}\nenabled = true\n'
    )
    # The same entries: the blocking group comes back after the sentinel's, which stayed
    # (the order of an event's groups means nothing to Claude Code: all matching run).
    assert _groups_in_any_order(local_settings(project)) == _groups_in_any_order(settings_before)


def _groups_in_any_order(settings: dict[str, Any]) -> dict[str, Any]:
    return {
        **settings,
        "hooks": {
            event: sorted(groups, key=lambda group: json.dumps(group, sort_keys=True))
            for event, groups in settings["hooks"].items()
        },
    }


def test_already_in_that_state_says_so_and_changes_nothing(project: Path) -> None:
    config = _project(project)
    files = snapshot(config, project / ".claude" / "settings.local.json")

    done = hookman("enable", "notes", "--project", str(project), *VERSION)

    assert done.exit_code == 0
    assert done.stdout == "notes is already enabled; nothing changed.\n"
    assert snapshot(*files) == files


def test_an_unknown_name_gets_did_you_mean(project: Path) -> None:
    config = _project(project)
    before = config.read_bytes()

    done = hookman("disable", "gaurd", "--project", str(project))

    assert done.exit_code == 1
    assert done.stderr == (
        "hookman: the project has no hook named 'gaurd'.\n"
        "  hint: did you mean 'guard'? `hookman list` shows the project's hooks.\n"
    )
    assert config.read_bytes() == before


def test_json_names_what_changed(project: Path) -> None:
    _project(project)

    changed = json.loads(hookman("disable", "notes", "--project", str(project), "--json").stdout)
    same = json.loads(hookman("disable", "notes", "--project", str(project), "--json").stdout)

    assert changed["disabled"] == ["notes"] and changed["settings_changed"] is True
    assert [hook["enabled"] for hook in changed["hooks"]] == [True, False]
    assert same == {"project": str(project.resolve()), "disabled": [], "unchanged": ["notes"]}


def test_dry_run_writes_nothing(project: Path) -> None:
    config = _project(project)
    files = snapshot(config, project / ".claude" / "settings.local.json")

    done = hookman("disable", "guard", "--dry-run", "--project", str(project), *VERSION)

    assert done.exit_code == 0 and "enabled = false" in done.stdout
    assert snapshot(*files) == files
