"""The port keeper (hookman/serve/keeper.py): once the server ends, however it ends, the port
stays this user's while the user opts in. The keeper denies guarded events saying why, answers
other events `{}`, proves itself marked "kept", hands the port to a server that starts, and
lets it go when the user opts out. Another process (of this user or another) cannot take the
port in between: an impostor's `{}` would let a guarded call through."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookman.bridge.serve_proof import KEPT, NOTHING, OURS
from hookman.serve import keeper

from .served import Served, deny_reason, wait_for

KEPT_REASON = "because its hook server is not running"


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[Served]:
    """An opted-in user's server, started then stopped: its keeper holds the port."""
    project = Served(tmp_path)
    project.install()
    project.hookman("serve", "enable", "--port", str(project.port))
    project.start()
    project.stop(keep_port=True)
    wait_for(lambda: project.identity() == KEPT)
    yield project
    project.stop()
    project.hookman("serve", "disable", check=False)


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
    # `hookman log` shows the deny, as the runner's own (the walk found it missing)
    [logged] = [r for r in kept.log_records() if r.get("reason") == reason]
    assert logged["outcome"] == "failed-closed" and logged["event"] == "PreToolUse"
    assert logged["project"] == str(kept.root) and logged["session"] == "served-session"
    assert "port keeper denied" in logged["notices"][0]
    shown = kept.hookman("log").stdout
    assert "failed-closed" in shown and KEPT_REASON in " ".join(shown.split()), shown


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
        wait_for(lambda: project.identity() == KEPT)
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
    wait_for(lambda: not _alive(old_keeper))
    new_keeper = kept.keeper_pid()
    assert new_keeper not in (None, old_keeper)
    assert kept.process is not None and _parent(new_keeper) == kept.process.pid


def test_serve_disable_lets_the_port_go(kept: Served) -> None:
    keeper = kept.keeper_pid()
    kept.hookman("serve", "disable")
    wait_for(lambda: keeper is not None and not _alive(keeper))
    assert kept.identity() == NOTHING
    _bind(kept.port).close()


def test_an_opt_out_by_hand_lets_the_port_go(kept: Served) -> None:
    (_serve_dir(kept) / "use").unlink()
    wait_for(lambda: kept.identity() == NOTHING)


def test_a_keeper_is_no_reason_to_keep_a_port_the_user_opted_out_of(tmp_path: Path) -> None:
    """Not opted in when the server ends (`hookman serve run` alone): nothing keeps the port."""
    project = Served(tmp_path)
    project.install()
    project.start()
    project.stop(keep_port=True)
    wait_for(lambda: project.identity() == NOTHING)
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
    wait_for(lambda: kept.identity() == KEPT)


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
        wait_for(lambda: project.keeper_pid() is not None and _listening(project.port))
        status, _ = project.post("PreToolUse", project.bash("PreToolUse", "ls"), token=token)
        assert status == 401  # a failed request: the client's onFailure block denies
        with pytest.raises(OSError):
            _bind(project.port)
    finally:
        project.stop()


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


# -- the handoff, attacked (a same user's process; another user cannot reach the directory) --


def _ask(project: Served, port: int) -> socket.socket:
    """Connect to the keeper's handoff socket of `port` as a starting server would."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.settimeout(10)
    keeper._connect_relative(client, str(_serve_dir(project)), f"handoff-{port}")
    return client


def _still_kept(project: Served) -> None:
    with pytest.raises(OSError):
        _bind(project.port)
    reason = deny_reason(project.post("PreToolUse", project.bash("PreToolUse", "ls"))[1])
    assert reason is not None and KEPT_REASON in reason


def test_a_connection_that_takes_nothing_leaves_the_port_kept(kept: Served) -> None:
    _ask(kept, kept.port).close()
    time.sleep(0.2)
    _still_kept(kept)


def test_a_server_that_takes_the_socket_but_never_confirms_leaves_the_port_kept(
    kept: Served,
) -> None:
    client = _ask(kept, kept.port)
    client.sendall(f"{kept.port}\n".encode())
    message, fds, _, _ = socket.recv_fds(client, 16, 1)
    assert message == b"O" and len(fds) == 1
    os.close(fds[0])
    client.close()  # refused it, or died: no confirmation
    _still_kept(kept)
    assert kept.identity() == KEPT


_TAKE_AND_DIE = """
import os, sys
from hookman.serve import keeper
handoff = keeper.take_port(int(sys.argv[1]))
assert handoff is not None
keeper.fork_keeper(handoff.listener)  # its keeper, then gone before it confirms
os._exit(0)
"""


def _take_and_die(kept: Served) -> None:
    """A starting server that takes the kept port's socket, forks its keeper and ends before
    it confirms the handoff."""
    subprocess.run(
        [sys.executable, "-c", _TAKE_AND_DIE, str(kept.port)],
        env=kept.environment,
        check=True,
        timeout=30,
    )


def test_a_keeper_left_beside_a_running_server_leaves_it_the_port(kept: Served) -> None:
    """A starting server that took the socket and forked its keeper, then died before it
    confirmed, leaves two keepers; a later server takes the port from one. The other must not
    answer "not running" for the running server on the connections it accepts: it leaves."""
    first = kept.keeper_pid()
    _take_and_die(kept)
    second = kept.keeper_pid()
    assert first is not None and second not in (None, first)
    wait_for(lambda: kept.identity() == KEPT)
    assert _alive(first) and _alive(second)  # both hold the port, both deny
    _still_kept(kept)
    kept.start()
    wait_for(lambda: not _alive(first) and not _alive(second))
    own = kept.keeper_pid()
    assert kept.process is not None and own is not None and _parent(own) == kept.process.pid
    for _ in range(12):  # every connection reaches the running server's guard
        status, body = kept.post("PreToolUse", kept.bash("PreToolUse", "rm -rf /"))
        assert (status, deny_reason(body)) == (200, "no rm -rf in this project")


def test_two_keepers_with_no_server_both_stay(kept: Served) -> None:
    """Without a running server, a keeper beside another keeps the port too (it is not
    superseded: nothing but keepers answers)."""
    first = kept.keeper_pid()
    _take_and_die(kept)
    second = kept.keeper_pid()
    time.sleep(2.5)  # two of the keepers' ticks
    assert first is not None and second is not None and _alive(first) and _alive(second)
    _still_kept(kept)


def test_a_keeper_offers_its_port_only(kept: Served) -> None:
    client = _ask(kept, kept.port)
    client.sendall(b"1\n")
    assert socket.recv_fds(client, 16, 1)[:2] == (b"", [])
    client.close()
    _still_kept(kept)


def test_a_removed_handoff_socket_is_made_again_and_start_works(kept: Served) -> None:
    (_serve_dir(kept) / f"handoff-{kept.port}").unlink()
    wait_for(lambda: (_serve_dir(kept) / f"handoff-{kept.port}").exists())
    kept.start()
    assert kept.identity() == OURS


def test_a_start_on_another_port_leaves_the_kept_one_kept(kept: Served) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        other = taken.getsockname()[1]
        done = kept.hookman("serve", "run", "--port", str(other), check=False)
    assert done.returncode != 0 and f"port {other} is taken by" in done.stderr, done.stderr
    _still_kept(kept)


def test_a_planted_offer_of_something_else_is_refused_in_one_sentence(tmp_path: Path) -> None:
    """A same user's fake keeper that offers a pipe: the starting server refuses it, says so
    in one sentence, no traceback."""
    project = Served(tmp_path)
    project.root.mkdir()
    project.hookman("serve", "enable", "--port", str(project.port))
    serve_dir = _serve_dir(project)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", project.port))
        squatter.listen(1)
        fake = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        previous = os.getcwd()
        os.chdir(serve_dir)
        try:
            fake.bind(f"handoff-{project.port}")
        finally:
            os.chdir(previous)
        fake.listen(1)
        read_end, write_end = os.pipe()
        offer = threading.Thread(target=_offer_once, args=(fake, read_end), daemon=True)
        offer.start()
        done = project.hookman("serve", "run", "--port", str(project.port), check=False)
        fake.close()
        os.close(write_end)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert f"port {project.port} is taken by" in done.stderr


def _offer_once(fake: socket.socket, descriptor: int) -> None:
    with contextlib.suppress(OSError):
        peer, _ = fake.accept()
        with peer:
            peer.recv(16)
            socket.send_fds(peer, [b"O"], [descriptor])
            peer.recv(1)


def test_a_keeper_ended_while_the_server_runs_is_forked_again_on_opt_in(kept: Served) -> None:
    """`serve disable` ends the waiting keeper (and it is reaped, no zombie); `serve enable`
    again: the server forks a new one, which keeps the port once the server is killed."""
    kept.start()
    first = kept.keeper_pid()
    assert first is not None
    kept.hookman("serve", "disable")
    wait_for(lambda: not _alive(first) and not Path(f"/proc/{first}").exists())
    kept.hookman("serve", "enable", "--port", str(kept.port))
    wait_for(lambda: kept.keeper_pid() not in (None, first))
    assert kept.process is not None
    kept.process.send_signal(signal.SIGKILL)
    kept.process.wait(timeout=10)
    wait_for(lambda: kept.identity() == KEPT)
    _still_kept(kept)


def test_the_keeper_of_a_port_the_server_left_names_install(kept: Served) -> None:
    other = socket.socket()
    other.bind(("127.0.0.1", 0))
    moved_to = other.getsockname()[1]
    other.close()
    kept.hookman("serve", "enable", "--port", str(moved_to))
    reason = deny_reason(kept.post("PreToolUse", kept.bash("PreToolUse", "ls"))[1])
    assert reason is not None
    assert f"post to port {kept.port}" in reason and f"uses port {moved_to} now" in reason
    assert "`hookman install`" in reason


def test_a_handoff_socket_replaced_by_another_is_bound_again(kept: Served) -> None:
    """A planted socket file in place of the keeper's (that would never offer the port)."""
    name = f"handoff-{kept.port}"
    (_serve_dir(kept) / name).unlink()
    planted = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    previous = os.getcwd()
    os.chdir(_serve_dir(kept))
    try:
        planted.bind(name)
        inode = os.lstat(name).st_ino
    finally:
        os.chdir(previous)
    planted.listen(1)
    try:
        wait_for(lambda: os.lstat(_serve_dir(kept) / name).st_ino != inode)
        kept.start()
        assert kept.identity() == OURS
    finally:
        planted.close()


def test_a_keeper_never_leaves_for_a_server_that_holds_another_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server on another port (`serve run --port Q`, a move, a hand-edited port file) with
    a keeper of its own does not hold the keeper's socket: the keeper of the recorded port P
    stays, or P would be free for an impostor."""
    project = Served(tmp_path)
    project.install()
    project.hookman("serve", "enable", "--port", str(project.port))
    project.start()
    try:
        monkeypatch.setenv("HOOKMAN_HOME", str(project.home))
        with socket.socket() as other:
            other.bind(("127.0.0.1", 0))
            other.listen(1)
            recorded = _serve_dir(project) / "port"
            recorded.write_text(f"{other.getsockname()[1]}\n")  # P recorded, the server on Q
            assert project.keeper_pid() is not None
            assert not keeper._superseded(other)
    finally:
        project.stop()


def test_a_zombie_server_is_not_running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that ended but was not reaped (its parent, e.g. a container's init, does not
    reap) counts as ended: `stop` returns, and `start` may follow."""
    from hookman.serve import wire

    monkeypatch.setenv("HOOKMAN_HOME", str(tmp_path / "home"))
    Path(wire.serve_dir()).mkdir(parents=True, mode=0o700)
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    try:
        wait_for(lambda: wire.zombie(pid))
        wire.write_pid(wire.SERVER_PID_NAME, pid)
        assert wire.live_pid(wire.SERVER_PID_NAME) is None
    finally:
        os.waitpid(pid, 0)
    assert not wire.zombie(os.getpid())


_LAST_PID = Path("/proc/sys/kernel/ns_last_pid")


@pytest.mark.skipif(not os.access(_LAST_PID, os.W_OK), reason="needs ns_last_pid (root)")
def test_a_keeper_whose_pid_a_worker_took_is_forked_again(tmp_path: Path) -> None:
    """The server's waitpid(-1) reaps a killed keeper at once; a warm worker forked next may
    get its pid. The server must still see the keeper gone (its pipe, not its pid) and fork
    a new one, or the port is free once the server ends."""
    project = Served(tmp_path / "one")
    project.install()
    project.hookman("serve", "enable", "--port", str(project.port))
    project.start()
    try:
        other = Served(tmp_path / "two")
        other.share_server_of(project)
        other.install()
        assert project.post("PreToolUse", project.bash("PreToolUse", "ls"))[0] == 200
        old = project.keeper_pid()
        assert old is not None
        os.kill(old, signal.SIGKILL)
        wait_for(lambda: not _alive(old))  # reaped by the server
        _LAST_PID.write_text(f"{old - 1}")
        assert other.post("PreToolUse", other.bash("PreToolUse", "ls"))[0] == 200  # a worker
        assert project.process is not None
        if not Path(f"/proc/{old}").exists() or _parent(old) != project.process.pid:
            pytest.skip("another process took the pid first")
        wait_for(lambda: project.keeper_pid() not in (None, old))
        project.process.send_signal(signal.SIGKILL)
        project.process.wait(timeout=10)
        wait_for(lambda: project.identity() == KEPT)
        with pytest.raises(OSError):
            _bind(project.port)
    finally:
        project.stop()


@pytest.fixture
def posting(tmp_path: Path) -> Iterator[Served]:
    """A project installed while the user opted in (its guards' entries post to the server),
    its server running."""
    project = Served(tmp_path)
    project.root.mkdir(parents=True)
    project.hookman("serve", "enable", "--port", str(project.port))
    project.install()
    settings = (project.root / ".claude" / "settings.local.json").read_text(encoding="utf-8")
    assert f"http://127.0.0.1:{project.port}/v1/hook/" in settings
    project.start()
    yield project
    project.stop()
    project.hookman("serve", "disable", check=False)
    project.end_keeper()


def test_an_opt_out_keeps_the_port_while_a_projects_entries_post_to_it(posting: Served) -> None:
    """`serve disable`, then the server stops (the walk: a running session's guarded call
    went to whatever took the free port): the keeper stays and denies, naming install."""
    done = posting.hookman("serve", "disable")
    assert done.stdout.splitlines() == [
        "the hook server is off for your projects",
        f"1 project still posts to port {posting.port}: hookman keeps the port, so that no "
        "other process answers their guarded calls, until each is installed again:",
        f"  {posting.root}",
        "next: run `hookman install` in each so its entries are commands again; then "
        "`hookman serve stop`",
    ]
    posting.stop(keep_port=True)
    wait_for(lambda: posting.identity() == KEPT)
    with pytest.raises(OSError):
        _bind(posting.port).close()
    status, body = posting.post("PreToolUse", posting.bash("PreToolUse", "rm -rf /"))
    reason = deny_reason(body)
    assert status == 200 and reason is not None, body
    assert "hook server was turned off (`hookman serve disable`)" in reason
    assert "Run `hookman install` in the project" in reason
    time.sleep(1.5)  # past the keeper's tick: it still holds the port
    assert posting.identity() == KEPT

    posting.hookman("install")  # opted out: command entries, and the manifest forgets the port
    settings = (posting.root / ".claude" / "settings.local.json").read_text(encoding="utf-8")
    assert f"http://127.0.0.1:{posting.port}/" not in settings
    wait_for(lambda: posting.identity() == NOTHING)
    _bind(posting.port).close()


def test_a_server_ending_opted_out_leaves_the_port_to_its_keeper_for_posting_projects(
    posting: Served,
) -> None:
    """The opt-out by hand (the `use` file removed), then the server ends: the keeper it
    forked at start holds the port since the project still posts to it."""
    (_serve_dir(posting) / "use").unlink()
    posting.stop(keep_port=True)
    wait_for(lambda: posting.identity() == KEPT)


def test_only_a_keeper_that_proves_itself_is_named_as_hookmans(
    kept: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookman.serve.lifecycle import port_keeper

    for name, value in kept.environment.items():
        monkeypatch.setenv(name, value)
    found = port_keeper(kept.port)
    assert found.kept and found.pid == kept.keeper_pid() and found.detail == ""
    kept.hookman("serve", "disable")
    wait_for(lambda: kept.identity() == NOTHING)
    impostor = _bind(kept.port)
    try:
        found = port_keeper(kept.port)
    finally:
        impostor.close()
    assert not found.kept and found.pid is None
    assert found.detail.startswith(("another process holds it: ", "pid ")), found.detail
