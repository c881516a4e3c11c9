"""`hookman fire EVENT --agent codex` after a pull that added a guard, not installed since:
where .codex/hooks.json has no hookman entry reaching the call, Codex runs it without
hookman, even when the installed manifest has no hook for the event (fire's rehearsal then
shows only the runner's project-changed deny). fire says that first, and the deny's effects
as what follows once installed."""

from __future__ import annotations

from pathlib import Path

from .helpers import hookman, hookman_json, pulled_after_install, write_hook
from .test_install_codex import codex_home  # noqa: F401  (the fixture)

SESSION_ONLY = """\
def hook(pi):
    pi.on("session_start", lambda event, ctx: None)
"""
BASH_GUARD = """\
def hook(pi):
    def check(event, ctx):
        return {"block": True, "reason": "TEAM-BLOCK"}
    pi.on("tool_call", check, tools=["Bash"])
"""


def test_fire_as_codex_after_a_pull_adding_a_guard_says_codex_runs_the_call(
    project: Path,
    codex_home: Path,  # noqa: F811
) -> None:
    """Only a session_start hook was installed (no PreToolUse entry in .codex/hooks.json);
    a pull adds a Bash guard, not installed: Codex runs the command without hookman
    (measured by the tester on 0.171.0). fire said only the runner's deny and 'the command
    does not run'; it must say first that Codex does not call hookman there."""
    write_hook(project, "notes", SESSION_ONLY)
    assert hookman("install", "hooks/notes.py", "--agent", "codex").exit_code == 0
    guard = write_hook(project, "team", BASH_GUARD)
    config = project / ".claude" / "hookman.toml"
    config.write_text(
        config.read_text()
        + '\n[[hooks]]\nname = "team"\npath = "hooks/team.py"\n'
        + 'events = ["tool_call"]\ntools = { tool_call = ["Bash"] }\n'
    )
    pulled_after_install(project, config, guard)
    fired = hookman_json("fire", "PreToolUse", "--agent", "codex")
    said = fired["agent_entry"]
    assert said.startswith(f"{project / '.codex' / 'hooks.json'} has no hookman entry for")
    assert "runs it without hookman (nothing denies it) until `hookman install`" in said
    assert fired["codex"]["effects"], fired["codex"]
    assert all(e.startswith("once installed: ") for e in fired["codex"]["effects"])
    shown = hookman("fire", "PreToolUse", "--agent", "codex").output
    assert shown.splitlines()[1].startswith("not installed here: "), shown
    assert "effect: the command does not run" not in shown
