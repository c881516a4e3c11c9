"""The port keeper (hookman/serve/keeper.py): once the server ends, however it ends, the port
stays this user's while the user opts in. The keeper denies guarded events saying why, answers
other events `{}`, proves itself marked "kept", hands the port to a server that starts, and
lets it go when the user opts out. Another process (of this user or another) cannot take the
port in between: an impostor's `{}` would let a guarded call through."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hookman.bridge.serve_proof import KEPT, NOTHING, OURS

from .served import Served, deny_reason

KEPT_REASON = "because its hook server is not running"


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[Served]:
    """An opted-in user's server, started then stopped: its keeper holds the port."""
    project = Served(tmp_path)
    project.install()
    project.hookman("serve", "enable", "--port", str(project.port))
    project.start()
    project.stop(keep_port=True)
    _wait_for(lambda: project.identity() == KEPT)
    yield project
    project.stop()
    project.hookman("serve", "disable", check=False)


def _wait_for(condition: Callable[[], object], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("the condition never held")


def _bind(port: int) -> socket.socket:
    """What an impostor does: bind the port (SO_REUSEADDR, as http.server does)."""
    taker = socket.socket()
    taker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        taker.bind(("127.0.0.1", port))
        taker.listen(1)
    except OSError:
        taker.close()
        raise
    return taker


def _serve_dir(project: Served) -> Path:
    return project.home / "state" / "serve"


def test_a_stopped_servers_keeper_denies_guarded_calls_saying_why(kept: Served) -> None:
    status, body = kept.post("PreToolUse", kept.bash("PreToolUse", "ls"))
    assert status == 200
    reason = deny_reason(body)
    assert reason is not None and KEPT_REASON in reason, body
    assert "`hookman serve start`" in reason


def test_the_keeper_answers_observe_only_events_empty(kept: Served) -> None:
    payload = kept.bash("PostToolUse", "ls", tool_response={})
    assert kept.post("PostToolUse", payload) == (200, {})


def test_the_keeper_refuses_a_request_without_the_projects_token(kept: Served) -> None:
    status, _ = kept.post("PreToolUse", kept.bash("PreToolUse", "ls"), token="nope")
    assert status == 401


def test_no_other_process_can_take_a_kept_port(kept: Served) -> None:
    with pytest.raises(OSError):
        _bind(kept.port)


def test_a_killed_server_leaves_the_port_to_its_keeper(tmp_path: Path) -> None:
    project = Served(tmp_path)
    project.install()
    project.hookman("serve", "enable", "--port", str(project.port))
    project.start()
    try:
        assert project.process is not None
        project.process.send_signal(signal.SIGKILL)
        project.process.wait(timeout=10)
        _wait_for(lambda: project.identity() == KEPT)
        with pytest.raises(OSError):
            _bind(project.port)
        reason = deny_reason(project.post("PreToolUse", project.bash("PreToolUse", "ls"))[1])
        assert reason is not None and KEPT_REASON in reason
    finally:
        project.stop()


def test_a_starting_server_takes_the_port_from_the_keeper(kept: Served) -> None:
    old_keeper = kept.keeper_pid()
    assert old_keeper is not None
    kept.start()
    assert kept.identity() == OURS
    status, body = kept.post("PreToolUse", kept.bash("PreToolUse", "rm -rf /"))
    assert (status, deny_reason(body)) == (200, "no rm -rf in this project")  # the guard runs
    _wait_for(lambda: not _alive(old_keeper))
    new_keeper = kept.keeper_pid()
    assert new_keeper not in (None, old_keeper)
    assert kept.process is not None and _parent(new_keeper) == kept.process.pid


def test_serve_disable_lets_the_port_go(kept: Served) -> None:
    keeper = kept.keeper_pid()
    kept.hookman("serve", "disable")
    _wait_for(lambda: keeper is not None and not _alive(keeper))
    assert kept.identity() == NOTHING
    _bind(kept.port).close()


def test_an_opt_out_by_hand_lets_the_port_go(kept: Served) -> None:
    (_serve_dir(kept) / "use").unlink()
    _wait_for(lambda: kept.identity() == NOTHING)


def test_a_keeper_is_no_reason_to_keep_a_port_the_user_opted_out_of(tmp_path: Path) -> None:
    """Not opted in when the server ends (`hookman serve run` alone): nothing keeps the port."""
    project = Served(tmp_path)
    project.install()
    project.start()
    project.stop(keep_port=True)
    _wait_for(lambda: project.identity() == NOTHING)
    _bind(project.port).close()


def test_status_and_stop_say_the_port_is_kept(kept: Served) -> None:
    done = kept.hookman("serve", "status", check=False)
    assert done.returncode == 1
    assert f"the hook server is not running (port {kept.port})" in done.stdout
    assert f"hookman keeps the port (pid {kept.keeper_pid()})" in done.stdout
    assert "`hookman serve start`" in done.stdout
    shown = json.loads(kept.hookman("serve", "status", "--json", check=False).stdout)
    assert (shown["running"], shown["kept"], shown["port"]) == (False, True, kept.port)
    started = kept.hookman("serve", "start")
    assert "started the hook server" in started.stdout
    stopped = kept.hookman("serve", "stop")
    assert f"hookman keeps port {kept.port} (pid " in stopped.stdout
    assert "guarded calls are denied until it runs again" in stopped.stdout
    _wait_for(lambda: kept.identity() == KEPT)


def test_the_keeper_holds_no_descriptor_of_whoever_ran_the_server(kept: Served) -> None:
    """A foreground server's terminal or pipes would wait on the keeper: its stdout and
    stderr are the server's log, its stdin /dev/null, and it holds no lock of the server's."""
    pid = kept.keeper_pid()
    assert pid is not None
    log = str(_serve_dir(kept) / "server.log")
    assert os.readlink(f"/proc/{pid}/fd/0") == os.devnull
    assert os.readlink(f"/proc/{pid}/fd/1") == log
    assert os.readlink(f"/proc/{pid}/fd/2") == log
    lock = str(_serve_dir(kept) / "lock")
    held = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    assert lock not in held


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _parent(pid: int | None) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_a_keeper_without_a_secret_keeps_the_port_and_refuses_every_token(
    tmp_path: Path,
) -> None:
    project = Served(tmp_path)
    project.install()
    project.hookman("serve", "enable", "--port", str(project.port))
    project.start()
    try:
        token = project.token()
        (_serve_dir(project) / "secret").unlink()
        project.stop(keep_port=True)
        _wait_for(lambda: project.keeper_pid() is not None and _listening(project.port))
        status, _ = project.post("PreToolUse", project.bash("PreToolUse", "ls"), token=token)
        assert status == 401  # a failed request: the client's onFailure block denies
        with pytest.raises(OSError):
            _bind(project.port)
    finally:
        project.stop()


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0
