"""What install, remove, list and fire print, exactly: on a terminal (a real pseudo-terminal,
so rich decides as it does for a user) and piped. Every line is part of the contract."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.commands.helpers import GUARD, NOTES, hookman, run_on_terminal, run_piped, write_hook

VERSION = ("--claude-version", "2.1.328")
BOLD = "\x1b[1m"
# The older target lacks PreSkillShellCommand: every command that writes or lists a Bash
# guard says what that leaves unguarded (wrapped on a 100-column terminal, one line piped).
SKILL_SHELL_WARNING_TERMINAL = """\
warning: PreSkillShellCommand is held back (it needs Claude Code >= 2.1.332), so tool_call guards do
not see the inline shell commands (!`cmd`) of skills and slash commands, which run unguarded on that
client; upgrade Claude Code and run `hookman install` again to guard them.
"""
SKILL_SHELL_WARNING_PIPED = SKILL_SHELL_WARNING_TERMINAL.replace("\n", " ").rstrip() + "\n"
# The PreToolUse sentinel (project/sentinel.py): every tool the Bash entry does not reach
# (wrapped on a 100-column terminal, one line piped).
SENTINEL_PIPED = (
    "  PreToolUse every other tool timeout 30s (sentinel: denies if the project changed)\n"
)
SENTINEL_TERMINAL = SENTINEL_PIPED  # 82 columns: no wrap on a 100-column terminal

INSTALLED_HEAD = """\
installed guard
installed notes
Claude Code target: 2.1.328 (from flag)
  PreToolUse matcher Bash timeout 30s
  PostToolUse matcher Edit|Write timeout 30s
  PostToolUseFailure matcher Edit|Write timeout 30s
  UserPromptSubmit timeout 30s (prompt gate: stops a prompt when the project changed since install)
  SessionStart timeout 30s
"""
INSTALLED_TAIL = """\
held back PreSkillShellCommand: needs Claude Code >= 2.1.332, target is 2.1.328
.claude/hookman.toml changed
.claude/settings.local.json changed
"""
INSTALLED_TERMINAL = INSTALLED_HEAD + SENTINEL_TERMINAL + INSTALLED_TAIL
INSTALLED_PIPED = INSTALLED_HEAD + SENTINEL_PIPED + INSTALLED_TAIL
INSTALLED_AGAIN = """\
Claude Code target: 2.1.328 (from flag)
  PreToolUse matcher Bash timeout 30s
  PostToolUse matcher Edit|Write timeout 30s
  PostToolUseFailure matcher Edit|Write timeout 30s
  UserPromptSubmit timeout 30s (prompt gate: stops a prompt when the project changed since install)
  SessionStart timeout 30s
"""
INSTALLED_AGAIN += SENTINEL_PIPED
INSTALLED_AGAIN += """\
held back PreSkillShellCommand: needs Claude Code >= 2.1.332, target is 2.1.328
.claude/settings.local.json unchanged
"""
INSTALLED_AGAIN += SKILL_SHELL_WARNING_PIPED
REMOVED = """\
removed notes
Claude Code target: 2.1.328 (from flag)
  PreToolUse matcher Bash timeout 30s
  UserPromptSubmit timeout 30s (prompt gate: stops a prompt when the project changed since install)
"""
REMOVED += SENTINEL_TERMINAL
REMOVED += """\
held back PreSkillShellCommand: needs Claude Code >= 2.1.332, target is 2.1.328
.claude/hookman.toml changed
.claude/settings.local.json changed
"""
REMOVED += SKILL_SHELL_WARNING_TERMINAL
REMOVED_LAST = """\
removed guard
Claude Code target: 2.1.328 (from flag)
  no hookman entries (no enabled hook needs a Claude Code event)
.claude/hookman.toml changed
.claude/settings.local.json changed
"""
LIST_TERMINAL = """\
project <P>, Claude Code target 2.1.328 (from flag)
┏━━━┳━━━━━━━━━━┳━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┓
┃ # ┃ hook     ┃ source         ┃ events        ┃ Claude Code                         ┃ last fired ┃
┡━━━╇━━━━━━━━━━╇━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━┩
│ 1 │ guard    │ hooks/guard.py │ tool_call     │ PreToolUse[Bash]                    │ never      │
│   │          │                │               │ PreSkillShellCommand (held back:    │            │
│   │          │                │               │ needs >= 2.1.332)                   │            │
│ 2 │ notes    │ hooks/notes.py │ session_start │ SessionStart (disabled)             │ never      │
│   │ disabled │                │ tool_result   │ PostToolUse (disabled)              │            │
│   │          │                │               │ PostToolUseFailure (disabled)       │            │
└───┴──────────┴────────────────┴───────────────┴─────────────────────────────────────┴────────────┘
"""
LIST_TERMINAL += SKILL_SHELL_WARNING_TERMINAL
LIST_PIPED = """\
project <P>, Claude Code target 2.1.328 (from flag)
1. guard  [hooks/guard.py]  enabled  events: tool_call  claude: PreToolUse[Bash], \
PreSkillShellCommand (held back: needs >= 2.1.332)  last fired: never
2. notes  [hooks/notes.py]  disabled  events: session_start, tool_result  \
claude: SessionStart (disabled), PostToolUse (disabled), PostToolUseFailure (disabled)  \
last fired: never
"""
LIST_PIPED += SKILL_SHELL_WARNING_PIPED
FIRE = """\
PreToolUse in <P> (rm.json)

hook guard
  tool_call -> {"block": true, "reason": "no"}

answer to Claude Code (exit 0)
{
  "hookSpecificOutput": {
    "hookEventName": "PreToolUse",
    "permissionDecision": "deny",
    "permissionDecisionReason": "no"
  }
}

the model sees
  PreToolUse:Bash hook error: no
effect: the tool call is denied; the model reads the reason as its result
"""
UNKNOWN_HOOK = """\
hookman: the project has no hook named 'gaurd'.
  hint: did you mean 'guard'? `hookman list` shows the project's hooks.
"""


@pytest.fixture
def project() -> Iterator[Path]:
    """A project at a path of fixed length, so the terminal wraps every run the same way."""
    parent = Path(tempfile.mkdtemp(prefix="hm-", dir="/tmp"))
    root = parent / "proj"
    (root / ".claude").mkdir(parents=True)
    write_hook(root, "guard", GUARD)
    write_hook(root, "notes", NOTES)
    (root / "rm.json").write_text(
        json.dumps(
            {
                "session_id": "s1",
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": "rm -rf /"},
                "tool_use_id": "t1",
            }
        )
    )
    yield root
    shutil.rmtree(parent, ignore_errors=True)


def _installed(project: Path) -> Path:
    hooks = [str(project / "hooks" / name) for name in ("guard.py", "notes.py")]
    done = hookman("install", *hooks, "--project", str(project), *VERSION)
    assert done.exit_code == 0, done.output
    return project


def _plain(text: str, project: Path) -> str:
    return text.replace(str(project), "<P>")


def test_install_on_a_terminal(project: Path) -> None:
    code, text, raw = run_on_terminal(
        "install", "hooks/guard.py", "hooks/notes.py", *VERSION, cwd=project
    )

    assert code == 0
    assert text == INSTALLED_TERMINAL + SKILL_SHELL_WARNING_TERMINAL
    assert f"installed {BOLD}guard" in raw  # styled, since it is a terminal


def test_install_piped_and_again(project: Path) -> None:
    code, out, err = run_piped("install", "hooks/guard.py", "hooks/notes.py", *VERSION, cwd=project)
    assert (code, out, err) == (0, INSTALLED_PIPED + SKILL_SHELL_WARNING_PIPED, "")

    again = run_piped("install", *VERSION, cwd=project)
    assert again == (0, INSTALLED_AGAIN, "")


def test_remove_on_a_terminal_and_piped(project: Path) -> None:
    _installed(project)

    code, text, _raw = run_on_terminal("remove", "notes", *VERSION, cwd=project)
    assert (code, text) == (0, REMOVED)

    assert run_piped("remove", "guard", *VERSION, cwd=project) == (0, REMOVED_LAST, "")


def test_list_on_a_terminal_and_piped(project: Path) -> None:
    _installed(project)
    assert hookman("disable", "notes", "--project", str(project), *VERSION).exit_code == 0

    code, text, _raw = run_on_terminal("list", *VERSION, cwd=project)
    assert code == 0
    assert _plain(text, project) == LIST_TERMINAL

    code, out, err = run_piped("list", *VERSION, cwd=project)
    assert (code, _plain(out, project), err) == (0, LIST_PIPED, "")


def test_fire_on_a_terminal_and_piped(project: Path) -> None:
    _installed(project)

    code, text, raw = run_on_terminal("fire", "PreToolUse", "--payload", "rm.json", cwd=project)
    assert code == 0
    assert _plain(text, project) == FIRE
    assert f"{BOLD}hook guard" in raw

    code, out, err = run_piped("fire", "PreToolUse", "--payload", "rm.json", cwd=project)
    assert (code, _plain(out, project), err) == (0, FIRE, "")
    assert "\x1b" not in out


def test_no_color_on_a_terminal_prints_the_plain_form(project: Path) -> None:
    _installed(project)

    code, text, raw = run_on_terminal("list", *VERSION, cwd=project, env={"NO_COLOR": "1"})

    assert code == 0 and "\x1b" not in raw
    assert "1. guard  [hooks/guard.py]  enabled" in text


def test_an_error_is_one_sentence_and_a_hint_on_a_terminal_and_piped(project: Path) -> None:
    _installed(project)

    code, text, _raw = run_on_terminal("remove", "gaurd", cwd=project)
    assert (code, text) == (1, UNKNOWN_HOOK)

    assert run_piped("remove", "gaurd", cwd=project) == (1, "", UNKNOWN_HOOK)


def test_list_of_an_empty_project_names_the_commands_that_add_hooks(project: Path) -> None:
    code, out, err = run_piped("list", *VERSION, cwd=project)

    assert (code, err) == (0, "")
    assert _plain(out, project) == (
        "project <P>, Claude Code target 2.1.328 (from flag)\n"
        "no hooks yet: `hookman new NAME --template T` or `hookman install PATH.py` adds one.\n"
    )
