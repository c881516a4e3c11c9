"""hookman's own server holding its port without answering (stopped with SIGSTOP, or too busy
to prove itself in time) is named as hookman's server by every command and by the prompt gate,
with the fix that works then (`hookman serve stop`, then `hookman serve start`), never as
"another process" to stop or a port to leave."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookman.bridge.serve_proof import OURS
from tests.client_shell import as_client

from .served import Served, wait_for


@pytest.fixture
def stopped(tmp_path: Path) -> Iterator[Served]:
    """An opted-in, installed project whose running server was stopped (SIGSTOP)."""
    project = Served(tmp_path)
    project.install()
    project.hookman("serve", "enable", "--port", str(project.port))
    project.hookman("install", "--claude-version", "2.1.332")
    project.start()
    assert project.process is not None
    os.kill(project.process.pid, signal.SIGSTOP)
    yield project
    os.kill(project.process.pid, signal.SIGCONT)
    project.stop()


def _holder(project: Served) -> str:
    assert project.process is not None
    return f"hookman's server (pid {project.process.pid})"


def test_serve_status_names_hookmans_own_server(stopped: Served) -> None:
    done = stopped.hookman("serve", "status", check=False)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"the hook server does not answer: {_holder(stopped)} holds port")
    assert "stopped, or too busy to answer" in lines[0]
    assert lines[1] == "run `hookman serve stop`, then `hookman serve start`"
    assert "another process" not in done.stdout
    shown = json.loads(stopped.hookman("serve", "status", "--json", check=False).stdout)
    assert shown["running"] is False
    assert shown["problem"].startswith(_holder(stopped))


def test_doctor_names_hookmans_own_server(stopped: Served) -> None:
    done = stopped.hookman("doctor", "--json", check=False)
    findings = {f["code"]: f for f in json.loads(done.stdout)["findings"]}
    assert "hookman-serve-impostor" not in findings
    found = findings["hookman-serve-unresponsive"]
    assert found["severity"] == "error"
    assert found["message"].startswith(f"{_holder(stopped)} holds port {stopped.port}")
    assert "Until it answers, PreToolUse" in found["message"]
    assert "calls are denied" in found["message"]
    assert found["fix"] == "`hookman serve stop`, then `hookman serve start`."


def test_install_and_fire_name_hookmans_own_server(stopped: Served) -> None:
    installed = stopped.hookman("install", "--claude-version", "2.1.332")
    said = " ".join(installed.stdout.split())
    assert f"warning: {_holder(stopped)} holds port" in said
    assert "(`hookman serve stop`, then `hookman serve start`)" in said
    fired = json.loads(stopped.hookman("fire", "PreToolUse", "--json").stdout)
    assert any(
        effect.startswith(f"{_holder(stopped)} does not answer now, so Claude Code denies")
        for effect in fired["effects"]
    ), fired["effects"]


def test_the_prompt_gate_names_hookmans_own_server(stopped: Served) -> None:
    launcher = Path(stopped.manifest).parent / "hookman-run.sh"
    done = subprocess.run(
        as_client("sh", str(launcher), "UserPromptSubmit"),
        input=json.dumps(stopped.payload("UserPromptSubmit", prompt="hello")),
        env={**stopped.environment, "CLAUDE_PROJECT_DIR": str(stopped.root)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    answer = json.loads(done.stdout)
    assert answer["continue"] is False
    reason = answer["stopReason"]
    assert reason.startswith(f"hookman stopped this prompt because {_holder(stopped)} holds port")
    assert "Run `hookman serve stop`, then `hookman serve start`" in reason
    assert "another process" not in reason


def test_the_fix_it_names_works(stopped: Served) -> None:
    stopped.hookman("serve", "stop")
    stopped.hookman("serve", "start")
    wait_for(lambda: stopped.identity() == OURS)
