"""`hookman fire EVENT` says which path the installed entry takes (the warm hook server or the
command), and the answer it shows is the runner's either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookman.serve import wire
from tests.serve_fake import HOOKMAN, fake_server, free_port, opt_in

from .helpers import GUARD, hookman, hookman_json, write_hook

NEWEST = ("--claude-version", "2.1.332")
RM_RF = '{"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}'


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    write_hook(project, "guard", GUARD)


def _fire(project: Path, event: str) -> dict:
    payload = project / "rm.json"
    payload.write_text(RM_RF)
    return hookman_json("fire", event, "--payload", str(payload))


def test_fire_says_the_guard_reaches_the_server_and_shows_the_runners_deny(
    project: Path,
) -> None:
    port = free_port()
    opt_in(port)
    assert hookman("install", "hooks/guard.py", *NEWEST).exit_code == 0
    shown = _fire(project, "PreToolUse")
    assert shown["entry"] == {"path": "server", "port": port, "on_failure": "block"}
    assert shown["answer"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    said = " ".join(hookman("fire", "PreToolUse").output.split())
    assert f"warm hook server on port {port} (onFailure block)" in said


def test_fire_says_the_prompt_gate_runs_the_command(project: Path) -> None:
    opt_in(free_port())
    assert hookman("install", "hooks/guard.py", *NEWEST).exit_code == 0
    assert _fire(project, "UserPromptSubmit")["entry"]["path"] == "command"
    said = hookman("fire", "UserPromptSubmit").output
    assert "Claude Code runs the command" in said


def test_not_opted_in_the_answer_is_the_same_and_no_line_is_added(project: Path) -> None:
    assert hookman("install", "hooks/guard.py", *NEWEST).exit_code == 0
    command_path = _fire(project, "PreToolUse")
    assert command_path["entry"] == {"path": "command", "port": None, "on_failure": None}
    assert "installed entry" not in hookman("fire", "PreToolUse").output
    opt_in(free_port())
    assert hookman("install", *NEWEST).exit_code == 0
    server_path = _fire(project, "PreToolUse")
    assert server_path["answer"] == command_path["answer"]
    assert wire.opted_in()


def test_fire_says_a_server_that_is_not_running_denies_the_guarded_call(project: Path) -> None:
    port = free_port()
    opt_in(port)
    assert hookman("install", "hooks/guard.py", *NEWEST).exit_code == 0
    said = " ".join(hookman("fire", "PreToolUse").output.split())
    assert (
        "effect: the warm hook server is not running now, so Claude Code denies this call, not "
        "what the answer shown says (`hookman serve start`, or the next prompt, starts it)"
    ) in said, said
    assert "effect: once the server runs: " in said  # the rehearsal's own effect, qualified
    effects = _fire(project, "PreToolUse")["effects"]
    assert effects[0].startswith("the warm hook server is not running now"), effects
    assert all(e.startswith("once the server runs: ") for e in effects[1:]), effects


def test_fire_adds_nothing_while_hookman_s_server_answers(project: Path) -> None:
    with fake_server(HOOKMAN) as port:
        opt_in(port)
        assert hookman("install", "hooks/guard.py", *NEWEST).exit_code == 0
        said = " ".join(hookman("fire", "PreToolUse").output.split())
    assert f"warm hook server on port {port} (onFailure block)" in said
    assert "not running" not in said


def test_fire_gives_the_port_keeper_s_reason_or_names_another_process(project: Path) -> None:
    from hookman.serve.answers import stopped_reason
    from tests.serve_fake import KEEPER, NOT_HOOKMAN

    with fake_server(KEEPER) as port:
        opt_in(port)
        assert hookman("install", "hooks/guard.py", *NEWEST).exit_code == 0
        [now, *rest] = _fire(project, "PreToolUse")["effects"]
    assert now.startswith("the warm hook server is not running now, so Claude Code denies")
    assert now.endswith(f"the model reads: {stopped_reason('PreToolUse')}"), now
    assert rest and all(e.startswith("once the server runs: ") for e in rest)
    with fake_server(NOT_HOOKMAN) as port:
        opt_in(port)
        assert hookman("install", *NEWEST).exit_code == 0
        said = " ".join(hookman("fire", "PreToolUse").output.split())
    assert f"effect: another process holds port {port}: Claude Code takes its answer" in said
