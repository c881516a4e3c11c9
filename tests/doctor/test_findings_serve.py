"""doctor on the warm hook server's entries: entries that do not match the opt-in (either way),
a guard reaching the server without a blocking failure, a server that is not running (the
events named), another process on the port (its identity proof checked), entries on another
port than the recorded one. doctor only asks the port; it starts nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookman.project.settings_entries import find_hookman_entries
from tests.serve_fake import (
    HOOKMAN,
    NOT_HOOKMAN,
    WRONG_PROOF,
    fake_server,
    free_port,
    opt_in,
    opt_out,
    record_port,
)

from .conftest import GUARD, codes, diagnose, hookman_cli, loud, the, write_hook

NOTES = """\
def hook(pi):
    pi.on("tool_result", lambda event, ctx: None, tools=["Bash"])
"""
SERVE_CODES = {
    "hookman-serve-path-stale",
    "hookman-serve-guard-fails-open",
    "hookman-serve-not-running",
    "hookman-serve-impostor",
    "hookman-serve-port-mismatch",
    "hookman-serve-token-stale",
}


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)


def _install(project: Path, version: str = "2.1.332") -> None:
    guard = write_hook(project, "guard", GUARD)
    notes = write_hook(project, "notes", NOTES)
    done = hookman_cli(
        "install", str(guard), str(notes), "--claude-version", version, "--project", str(project)
    )
    assert done.exit_code == 0, done.output


def _serve_codes(project: Path, version: str = "2.1.332") -> list[str]:
    return sorted(c for c in codes(diagnose(project, version)) if c in SERVE_CODES)


def test_no_server_story_no_finding_and_no_question_asked(project: Path) -> None:
    _install(project)
    assert _serve_codes(project) == []


def test_running_server_with_the_proof_is_quiet(project: Path) -> None:
    with fake_server(HOOKMAN) as port:
        opt_in(port)
        _install(project)
        ctx = diagnose(project, "2.1.332")
    assert [f for f in loud(ctx) if f["code"] in SERVE_CODES] == []
    handlers = [h for h in ctx.handlers if h.hookman and h.type == "http"]
    assert {h.event for h in handlers} == {
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PreSkillShellCommand",
    }


def test_server_not_running_warns_naming_the_events(project: Path) -> None:
    opt_in(free_port())
    _install(project)
    ctx = diagnose(project, "2.1.332")
    finding = the(ctx, "hookman-serve-not-running")
    assert finding.severity == "warning"
    assert "PreToolUse, PreSkillShellCommand calls are denied" in finding.message
    assert "PostToolUse, PostToolUseFailure hooks do not run" in finding.message
    assert "hookman serve start" in finding.fix


@pytest.mark.parametrize("mode", [WRONG_PROOF, NOT_HOOKMAN])
def test_another_process_on_the_port_is_an_error(project: Path, mode: str) -> None:
    opt_in(free_port())
    _install(project)
    with fake_server(mode) as port:
        record_port(port)
        _install(project)  # the entries now post to the impostor's port
        ctx = diagnose(project, "2.1.332")
    finding = the(ctx, "hookman-serve-impostor")
    assert finding.severity == "error"
    assert "another process" in finding.message and f"holds port {port}" in finding.message
    assert f"pid {os.getpid()} (" in finding.message  # this test process holds it
    assert "hookman-serve-not-running" not in codes(ctx)
    assert finding.fix.endswith("then `hookman serve start`.")


def test_another_process_on_the_port_once_opted_out_names_install(project: Path) -> None:
    with fake_server(NOT_HOOKMAN) as port:
        opt_in(port)
        _install(project)
        opt_out()
        finding = the(diagnose(project, "2.1.332"), "hookman-serve-impostor")
    assert finding.fix.endswith(
        "then run `hookman install` in the project (the hook server is turned off)."
    )
    assert "hookman serve start" not in finding.fix


def test_opted_in_but_command_entries_says_install(project: Path) -> None:
    _install(project)
    opt_in(free_port())
    finding = the(diagnose(project, "2.1.332"), "hookman-serve-path-stale")
    assert "still run as command entries" in finding.message
    assert "PreToolUse" in finding.message and "UserPromptSubmit" not in finding.message
    assert finding.fix == "run `hookman install` in the project."


def test_http_entries_but_opted_out_says_install(project: Path) -> None:
    opt_in(free_port())
    _install(project)
    opt_out()
    ctx = diagnose(project, "2.1.332")
    finding = the(ctx, "hookman-serve-path-stale")
    assert "the warm hook server is turned off" in finding.message
    stopped = the(ctx, "hookman-serve-not-running")  # install, not a start of what is off
    assert stopped.fix == "run `hookman install` in the project (the hook server is turned off)."
    assert "hookman serve" not in stopped.fix


def test_guard_entry_on_a_client_without_on_failure_fails_open(project: Path) -> None:
    opt_in(free_port())
    _install(project, "2.1.332")
    ctx = diagnose(project, "2.1.197")  # the client was downgraded since install
    found = [f for f in ctx.findings if f.code == "hookman-serve-guard-fails-open"]
    assert {f.event for f in found} == {"PreToolUse", "PreSkillShellCommand"}
    assert all(f.severity == "error" for f in found)


def test_guard_entry_without_on_failure_block_fails_open(project: Path) -> None:
    opt_in(free_port())
    _install(project)
    path = project / ".claude" / "settings.local.json"
    data = json.loads(path.read_text())
    for _, handler in find_hookman_entries(data):
        assert handler["type"] == "http" or handler["command"]
    del data["hooks"]["PreToolUse"][0]["hooks"][0]["onFailure"]
    path.write_text(json.dumps(data))
    found = [f for f in diagnose(project, "2.1.332").findings if f.code.endswith("fails-open")]
    assert [f.event for f in found] == ["PreToolUse"]


def test_entries_on_another_port_than_the_recorded_one(project: Path) -> None:
    opt_in(free_port())
    _install(project)
    moved = free_port()
    record_port(moved)
    finding = the(diagnose(project, "2.1.332"), "hookman-serve-port-mismatch")
    assert f"({moved})" in finding.message
    assert finding.fix == "run `hookman install` in the project."


def test_doctor_json_lists_the_findings_additively(project: Path) -> None:
    opt_in(free_port())
    _install(project)
    result = hookman_cli(
        "doctor", "--json", "--project", str(project), "--claude-version", "2.1.332"
    )
    shown = json.loads(result.stdout)
    assert "hookman-serve-not-running" in [f["code"] for f in shown["findings"]]
    http = [h for h in shown["handlers"] if h["type"] == "http"]
    assert http and all(h["hookman"] and h["command"] is None for h in http)


def test_a_token_made_with_another_secret_is_refused(project: Path) -> None:
    from hookman.serve import wire

    with fake_server(HOOKMAN) as port:
        opt_in(port)
        _install(project)
        assert _serve_codes(project) == []
        secret = Path(wire.serve_dir()) / wire.SECRET_NAME
        secret.unlink()
        wire.ensure_secret()  # made again: the entries' token is the old secret's
        finding = the(diagnose(project, "2.1.332"), "hookman-serve-token-stale")
    assert "PreToolUse" in finding.message
    assert finding.fix == "run `hookman install` in the project."


def test_async_http_entries_are_held_to_the_async_paths(project: Path) -> None:
    notes = write_hook(project, "notes", NOTES)
    opt_in(free_port())
    version = ("--claude-version", "2.1.332", "--project", str(project))
    assert hookman_cli("install", str(notes), "--async", *version).exit_code == 0
    assert "hookman-serve-path-stale" not in codes(diagnose(project, "2.1.332"))
    opt_out()
    finding = the(diagnose(project, "2.1.332"), "hookman-serve-path-stale")
    assert "PostToolUse (async)" in finding.message


def test_an_http_entry_naming_a_gone_manifest_is_an_error(project: Path) -> None:
    from hookman import paths

    opt_in(free_port())
    _install(project)
    paths.manifest_path(project).unlink()
    found = [
        f for f in diagnose(project, "2.1.332").findings if f.code == "hookman-manifest-missing"
    ]
    paths_of = {f.event: f.path for f in found}
    # one per entry, none on the sentinels (command entries on PreToolUse and
    # PreSkillShellCommand that run the prompt gate's launcher, whose finding names it)
    assert len(paths_of) == len(found), found
    assert paths_of["PreToolUse"].endswith(".headers")
    assert paths_of["UserPromptSubmit"].endswith(".command")  # the prompt gate's command
