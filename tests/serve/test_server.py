"""The warm server end to end: the real `hookman serve run` in a HOOKMAN_HOME of its own,
answering a project installed by the real `hookman install`, asked as Claude Code's http
entries ask. Every assert is on what the client (and so the model) receives."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import signal
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hookman.bridge.serve_proof import OURS, identity_proof
from hookman.serve import wire

from .served import Served, deny_reason


def test_a_guard_denies_and_the_model_reads_its_reason(served: Served) -> None:
    status, body = served.post("PreToolUse", served.bash("PreToolUse", "rm -rf /"))
    assert status == 200
    assert body == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no rm -rf in this project",
        }
    }


def test_a_call_the_guard_allows_gets_the_runners_empty_answer(served: Served) -> None:
    assert served.post("PreToolUse", served.bash("PreToolUse", "ls")) == (200, {})


def test_context_reaches_the_answer(served: Served) -> None:
    status, body = served.post("PostToolUse", served.bash("PostToolUse", "ls", tool_response={}))
    assert status == 200
    assert body["hookSpecificOutput"]["additionalContext"] == "context from the served hook"


@pytest.mark.parametrize("token", ["", "0" * 64, "not-a-token"])
def test_a_request_without_the_projects_token_is_refused(served: Served, token: str) -> None:
    status, body = served.post("PreToolUse", served.bash("PreToolUse", "ls"), token=token)
    assert status == 401
    assert "token" in body["error"]


def test_another_projects_token_opens_no_other_manifest(served: Served) -> None:
    """A token read from one project's settings names that project's manifest only."""
    other = served.token("/elsewhere/manifest.json")
    status, _ = served.post("PreToolUse", served.bash("PreToolUse", "ls"), token=other)
    assert status == 401


def test_the_identity_proof_needs_the_users_secret(served: Served) -> None:
    status, body = served.request("GET", f"{wire.IDENTITY_PATH}?nonce=00ff")
    assert status == 200
    assert body["proof"] == identity_proof(served.secret(), "00ff", served.port)
    assert body["proof"] != identity_proof(b"0" * 64, "00ff", served.port)
    assert served.identity() == OURS


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("exit-0", "ended without an answer"),
        ("exit-3", "ended with status 3"),
        ("segfault", "was ended by SIGSEGV"),
    ],
)
def test_a_child_that_dies_denies_naming_hookman(served: Served, command: str, said: str) -> None:
    status, body = served.post("PreToolUse", served.bash("PreToolUse", command))
    assert status == 200
    reason = deny_reason(body)
    assert reason is not None
    assert "hookman blocked this tool call" in reason
    assert said in reason


def test_a_guard_that_calls_sys_exit_denies(served: Served) -> None:
    status, body = served.post("PreToolUse", served.bash("PreToolUse", "sys-exit"))
    assert status == 200
    reason = deny_reason(body)
    assert reason is not None and "guard" in reason


def test_an_observe_only_event_whose_child_dies_is_answered_empty(served: Served) -> None:
    """Never a deny where nothing is guarded: at most the event is lost."""
    payload = served.bash("PostToolUse", "crash-after", tool_response={})
    assert served.post("PostToolUse", payload) == (200, {})


@pytest.mark.waits  # the entry's whole deadline, or bash's 15 s of fork retries
def test_a_hanging_guard_denies_at_the_deadline_while_others_are_answered(served: Served) -> None:
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        hanging = pool.submit(served.post, "PreToolUse", served.bash("PreToolUse", "hang"))
        frozen = pool.submit(served.post, "PreToolUse", served.bash("PreToolUse", "freeze"))
        allowed = served.post("PreToolUse", served.bash("PreToolUse", "ls"))
        denied = served.post("PreToolUse", served.bash("PreToolUse", "rm -rf ~"))
        assert not hanging.done() and not frozen.done()  # answered while those still hang
        assert allowed == (200, {})
        assert deny_reason(denied[1]) == "no rm -rf in this project"
        hanging_reason = deny_reason(hanging.result()[1])
        frozen_reason = deny_reason(frozen.result()[1])
    assert hanging_reason is not None and "deadline" in hanging_reason  # the runner's own
    assert frozen_reason is not None and "did not finish within" in frozen_reason  # the server's
    assert "hookman" in frozen_reason


def test_an_async_entry_is_answered_at_once_and_its_hooks_run_on(served: Served) -> None:
    marker = served.root / "hooks" / "async-ran.txt"
    payload = served.bash("PostToolUse", "async-one", tool_response={})
    assert served.post("PostToolUse", payload, run_async=True) == (200, {})
    assert not marker.exists() or "async-one" not in marker.read_text()  # the hook sleeps first
    _wait_for(lambda: marker.exists() and "async-one" in marker.read_text())


def test_the_firing_log_has_the_servers_runs(served: Served) -> None:
    served.post("PreToolUse", served.bash("PreToolUse", "rm -rf /tmp/logged"))
    served.post("PreToolUse", served.bash("PreToolUse", "echo logged"))
    # The answer is given as soon as it is whole; the child writes its log line after it.
    _wait_for(lambda: any("guard saw echo logged" in r["output"] for r in served.log_records()))
    records = served.log_records()
    denied = [r for r in records if r.get("reason") == "no rm -rf in this project"]
    assert denied and denied[-1]["event"] == "PreToolUse" and denied[-1]["hooks"] == ["guard"]
    allowed = [r for r in records if "guard saw echo logged" in r.get("output", "")]
    assert allowed and allowed[-1]["outcome"] == "ok"


@pytest.mark.parametrize(
    "raw",
    [
        b"garbage\r\n\r\n",
        b"POST /v1/hook/PreToolUse HTTP/1.1\r\nContent-Length: x\r\n\r\n",
        b"POST /v1/hook/PreToolUse HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
        b"POST /v1/hook/PreToolUse HTTP/1.1\r\nBad Header\r\n\r\n",
    ],
)
def test_bad_http_is_a_400_never_a_traceback(served: Served, raw: bytes) -> None:
    answer = _raw_exchange(served.port, raw)
    assert answer.startswith(b"HTTP/1.1 4")
    assert b"Traceback" not in answer
    assert served.post("PreToolUse", served.bash("PreToolUse", "ls")) == (200, {})


def test_a_body_past_the_limit_still_denies_a_guarded_event(served: Served) -> None:
    head = (
        f"POST /v1/hook/PreToolUse HTTP/1.1\r\n{wire.MANIFEST_HEADER}: {served.manifest}\r\n"
        f"{wire.TOKEN_HEADER}: {wire.TOKEN_SCHEME}{served.token()}\r\n"
        f"Content-Length: {1 << 40}\r\n\r\n"
    )
    answer = _raw_exchange(served.port, head.encode())
    assert answer.startswith(b"HTTP/1.1 200")
    assert deny_reason(json.loads(answer.split(b"\r\n\r\n", 1)[1])) is not None
    tokenless = head.replace(f"{wire.TOKEN_HEADER}: {wire.TOKEN_SCHEME}{served.token()}\r\n", "")
    assert _raw_exchange(served.port, tokenless.encode()).startswith(b"HTTP/1.1 401")


def test_a_slow_client_does_not_stall_the_server(served: Served) -> None:
    with socket.create_connection(("127.0.0.1", served.port)) as slow:
        slow.sendall(b"POST /v1/hook/PreToolUse HTTP/1.1\r\nContent-Le")
        assert served.post("PreToolUse", served.bash("PreToolUse", "ls")) == (200, {})


def test_a_second_server_refuses_to_start(served: Served) -> None:
    done = served.hookman("serve", "run", "--port", str(served.port), check=False)
    assert done.returncode == 1
    assert "already runs" in done.stderr
    assert "Traceback" not in done.stderr


def test_edits_to_hook_code_and_to_hookman_toml_are_picked_up(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    project = Served(tmp_path_factory.mktemp("edited"))
    project.install()
    project.start()
    try:
        guard = project.root / "hooks" / "guard.py"
        assert project.post("PreToolUse", project.bash("PreToolUse", "echo edited")) == (200, {})
        guard.write_text(
            guard.read_text().replace('"rm -rf" in command', '"echo edited" in command')
        )
        _, body = project.post("PreToolUse", project.bash("PreToolUse", "echo edited"))
        assert deny_reason(body) == "no rm -rf in this project"
        config = project.root / ".claude" / "hookman.toml"
        config.write_text(config.read_text() + "\n# edited\n")
        _, body = project.post("PreToolUse", project.bash("PreToolUse", "ls"))
        reason = deny_reason(body)
        assert reason is not None and "hookman install" in reason
    finally:
        project.stop()


def test_stop_ends_the_server_and_a_guard_is_not_answered_empty(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    project = Served(tmp_path_factory.mktemp("stopped"))
    project.install()
    project.start()
    assert project.process is not None
    project.process.send_signal(signal.SIGTERM)
    project.process.wait(timeout=10)
    with pytest.raises(OSError):
        project.post("PreToolUse", project.bash("PreToolUse", "ls"), timeout=2)


def _raw_exchange(port: int, raw: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        chunks = []
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def _wait_for(condition: object, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("the condition never held")


def test_a_secret_made_anew_is_the_one_tokens_are_checked_against(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    project = Served(tmp_path_factory.mktemp("new-secret"))
    project.install()
    project.start()
    try:
        old_token = project.token()
        secret = project.home / "state" / "serve" / "secret"
        secret.unlink()
        secret.write_bytes(os.urandom(32).hex().encode())
        secret.chmod(0o600)
        _wait_for(lambda: project.post("PreToolUse", project.bash("PreToolUse", "ls"))[0] == 200)
        status, _ = project.post("PreToolUse", project.bash("PreToolUse", "ls"), token=old_token)
        assert status == 401
    finally:
        project.stop()


STUCK = """
import os
import subprocess


def check(event, ctx):
    child = subprocess.Popen(["sleep", "300"])
    marker = os.path.join(os.path.dirname(__file__), "stuck.pids")
    with open(marker + ".part", "w") as handle:
        handle.write(f"{os.getpid()} {child.pid}")
    os.rename(marker + ".part", marker)
    child.wait()


def hook(pi):
    pi.on("tool_call", check, tools=["Bash"])
"""
STUCK_TOML = """
[[hooks]]
name = "stuck"
path = "hooks/stuck.py"
timeout = 120
"""


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def _stuck_server(tmp_path: Path) -> Served:
    served = Served(tmp_path)
    served.install({"stuck": STUCK}, STUCK_TOML)
    served.start()
    return served


@contextlib.contextmanager
def _stuck_request(
    served: Served,
) -> Iterator[tuple[concurrent.futures.Future[tuple[int, Any]], list[int]]]:
    """A guarded request whose guard is stuck in its own child: (its answer to come, the
    run's pid and the child's), once the guard says it is stuck."""
    marker = served.root / "hooks" / "stuck.pids"
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        asked = pool.submit(served.post, "PreToolUse", served.bash("PreToolUse", "ls"), timeout=60)
        _wait_for(marker.exists)
        yield asked, [int(word) for word in marker.read_text().split()]


def test_a_stopped_server_ends_the_runs_under_way_and_their_processes(
    tmp_path: Path,
) -> None:
    """A guard stuck in its own child far from its deadline: stopping the server (SIGTERM,
    as `hookman serve stop` sends before it kills the server 5 s later) denies the call
    saying why, ends the run's process group (the hook's child too) and the server itself
    within its grace: nothing of the run outlives it."""
    served = _stuck_server(tmp_path)
    try:
        with _stuck_request(served) as (asked, pids):
            assert served.process is not None
            served.process.send_signal(signal.SIGTERM)
            status, body = asked.result()
        ended = served.process.wait(timeout=30)
    finally:
        served.stop()
    assert status == 200
    reason = deny_reason(body)
    assert reason is not None and "cut off because the server was stopped" in reason, body
    assert ended == 0  # ended by itself, not killed
    _wait_for(lambda: all(_gone(pid) for pid in pids))
    [logged] = [r for r in served.log_records() if r.get("reason") == reason]  # `hookman log`
    assert logged["outcome"] == "failed-closed" and logged["project"] == str(served.root)
    assert logged["notices"] == ["the hook server's run was cut off because the server was stopped"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_server_killed_outright_takes_the_runs_under_way_with_it(tmp_path: Path) -> None:
    """SIGKILL (or the out-of-memory killer) gives the server no chance to end its runs: the
    guard stuck in its own child far from its deadline, and that child, end with it (they
    lived on until the run ended). The client's request fails: a guard's entry blocks."""
    served = _stuck_server(tmp_path)
    marker = served.root / "hooks" / "stuck.pids"
    try:
        with _stuck_request(served) as (asked, pids):
            assert served.process is not None
            served.process.send_signal(signal.SIGKILL)
            with pytest.raises(OSError):  # no answer at all: never an empty allow
                asked.result()
        served.process.wait(timeout=30)
        _wait_for(lambda: all(_gone(pid) for pid in pids))
    finally:
        for pid in map(int, marker.read_text().split() if marker.exists() else ()):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        served.stop()
