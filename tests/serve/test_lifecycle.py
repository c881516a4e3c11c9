"""`hookman serve enable/start/status/stop/disable/run` as a user runs them: one sentence
each, the next step named, `status --json`'s shape, a taken port refused in one sentence."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .served import free_port

HOOKMAN = [sys.executable, "-m", "hookman"]


def _hookman(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKMAN, *words], capture_output=True, text=True, timeout=60)


@pytest.fixture
def port(hookman_home: Path) -> Iterator[int]:
    chosen = free_port()
    done = _hookman("serve", "enable", "--port", str(chosen))
    assert done.returncode == 0, done.stderr
    assert "hookman install" in done.stdout  # the next step
    yield chosen
    _hookman("serve", "stop")


def test_start_status_stop(port: int, hookman_home: Path) -> None:
    assert (hookman_home / "state" / "serve" / "secret").stat().st_mode & 0o077 == 0
    started = _hookman("serve", "start")
    assert started.returncode == 0, started.stderr
    assert f"started the hook server on port {port}" in started.stdout
    again = _hookman("serve", "start")
    assert f"already runs on port {port}" in again.stdout
    status = _hookman("serve", "status", "--json")
    shown = json.loads(status.stdout)
    assert status.returncode == 0
    assert shown["running"] is True and shown["port"] == port and shown["opted_in"] is True
    assert isinstance(shown["pid"], int) and shown["version"]
    stopped = _hookman("serve", "stop")
    assert f"stopped the hook server (pid {shown['pid']})" in stopped.stdout
    after = json.loads(_hookman("serve", "status", "--json").stdout)
    assert after["running"] is False and after["pid"] is None


def test_disable_removes_the_opt_in_and_lets_a_port_no_project_posts_to_go(port: int) -> None:
    done = _hookman("serve", "disable")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "the hook server is off for your projects",
        f"no project's entries post to port {port}: hookman lets it go",
    ]
    assert json.loads(_hookman("serve", "status", "--json").stdout)["opted_in"] is False


def test_status_after_opting_out_names_install_never_start(port: int) -> None:
    """Opted out, a project not installed since still reaches the server (its next prompt
    starts it): status names `hookman install` there, running or not, and never offers to
    start what the user turned off. A user who never opted in reads neither."""
    assert _hookman("serve", "disable").returncode == 0
    stopped = _hookman("serve", "status")
    assert stopped.returncode == 1
    assert "hookman serve start" not in stopped.stdout, stopped.stdout
    assert "run `hookman install` there" in stopped.stdout, stopped.stdout
    assert _hookman("serve", "start").returncode == 0  # as a project's prompt gate does
    running = _hookman("serve", "status")
    assert running.returncode == 0 and "runs on port" in running.stdout
    assert "opt-in: off" in running.stdout and "run `hookman install` there" in running.stdout
    stopped = _hookman("serve", "stop")
    assert "stopped the hook server" in stopped.stdout
    assert "hookman serve start" not in stopped.stdout, stopped.stdout
    assert "run `hookman install` there" in stopped.stdout, stopped.stdout


def test_status_of_a_user_who_never_opted_in_offers_no_install(hookman_home: Path) -> None:
    shown = _hookman("serve", "status")
    assert shown.returncode == 1
    assert "opt-in: off (`hookman serve enable` turns it on)" in shown.stdout
    assert "hookman install" not in shown.stdout, shown.stdout


def test_a_taken_port_is_one_sentence(port: int) -> None:
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.bind(("127.0.0.1", port))
        holder.listen()
        done = _hookman("serve", "run")
        status = _hookman("serve", "status")
    assert done.returncode == 1
    assert f"port {port} is taken by" in done.stderr
    assert "hookman serve enable --port N" in done.stderr
    assert "Traceback" not in done.stderr
    assert status.returncode == 1
    assert "holds the port" in status.stdout


def test_an_unusable_port_is_refused(hookman_home: Path) -> None:
    done = _hookman("serve", "enable", "--port", "80")
    assert done.returncode == 2
    assert "1024 to 65535" in done.stderr


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_enable_with_another_port_moves_a_running_server(port: int) -> None:
    assert _hookman("serve", "start").returncode == 0
    other = free_port()
    try:
        moved = _hookman("serve", "enable", "--port", str(other))
        assert moved.returncode == 0, moved.stderr
        assert f"moved the hook server from port {port} to port {other}" in moved.stdout
        assert f"hookman keeps port {port} until you opt out" in moved.stdout
        shown = json.loads(_hookman("serve", "status", "--json").stdout)
        assert shown["running"] is True and shown["port"] == other, shown
        assert _listening(port)  # its keeper: no other process can take the old port
        assert "already runs on port" in _hookman("serve", "start").stdout
    finally:
        _hookman("serve", "disable")


def test_a_server_left_on_another_port_is_named_by_start_status_and_stop(
    port: int, hookman_home: Path
) -> None:
    """The recorded port moved while the server ran (a move that failed, a hand edit): every
    command says where the server runs and how it moves, none waits for it on the new port."""
    assert _hookman("serve", "start").returncode == 0
    other = free_port()
    (hookman_home / "state" / "serve" / "port").write_text(f"{other}\n")
    try:
        started = _hookman("serve", "start")
        assert started.returncode == 1
        assert f"the hook server runs on port {port} (pid " in started.stderr
        assert f"not on the recorded port {other}." in started.stderr
        hint = f"`hookman serve stop` then `hookman serve start` moves it to port {other}"
        assert hint in started.stderr and "Traceback" not in started.stderr
        status = _hookman("serve", "status")
        assert status.returncode == 1
        assert f"runs on port {port}" in status.stdout and hint in status.stdout
        shown = json.loads(_hookman("serve", "status", "--json").stdout)
        assert shown["running"] is False and f"runs on port {port}" in shown["problem"]
        stopped = _hookman("serve", "stop")
        assert f"hookman keeps port {port} (pid" in stopped.stdout
        assert _hookman("serve", "start").returncode == 0  # now on the recorded port
        assert json.loads(_hookman("serve", "status", "--json").stdout)["port"] == other
    finally:
        _hookman("serve", "disable")


@pytest.mark.parametrize("limit", [5, 7])
def test_too_low_an_open_file_limit_is_one_sentence(port: int, limit: int) -> None:
    import resource

    def low() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    for words in (("serve", "run"), ("serve", "start")):
        done = subprocess.run(
            [*HOOKMAN, *words], capture_output=True, text=True, timeout=60, preexec_fn=low
        )
        assert done.returncode == 1, (words, done.stderr)
        assert "too few open files for hookman" in done.stderr, (words, done.stderr)
        assert "ulimit -n" in done.stderr
        assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_status_with_an_unusable_secret_names_the_secret_not_another_process(
    port: int, hookman_home: Path
) -> None:
    assert _hookman("serve", "start").returncode == 0
    secret = hookman_home / "state" / "serve" / "secret"
    secret.chmod(0o644)
    try:
        status = _hookman("serve", "status")
        assert status.returncode == 1
        assert "cannot use the warm hook server's secret" in status.stdout
        assert f"rm {secret}" in status.stdout  # the hint: what to do
        assert "holds the port" not in status.stdout and "stop that process" not in status.stdout
        shown = json.loads(_hookman("serve", "status", "--json").stdout)
        assert "secret" in shown["problem"] and shown["running"] is False
    finally:
        secret.chmod(0o600)


def test_enable_moves_a_server_that_does_not_say_its_port(port: int, hookman_home: Path) -> None:
    """A server of an older hookman (no `listening` file) still runs after an upgrade:
    `enable --port` cannot tell where it listens, so it moves it."""
    assert _hookman("serve", "start").returncode == 0
    (hookman_home / "state" / "serve" / "listening").unlink()
    other = free_port()
    try:
        moved = _hookman("serve", "enable", "--port", str(other))
        assert moved.returncode == 0, moved.stderr
        assert f"moved the hook server to port {other}" in moved.stdout
        shown = json.loads(_hookman("serve", "status", "--json").stdout)
        assert shown["running"] is True and shown["port"] == other, shown
    finally:
        _hookman("serve", "disable")


def test_status_names_the_keeper_of_the_recorded_port(port: int) -> None:
    """Two keepers (the server moved P -> Q and stopped; P recorded again): `keeper.pid`
    names Q's, status names the one that holds P."""
    from hookman.bridge.port_holder import port_holders

    assert _hookman("serve", "start").returncode == 0
    other = free_port()
    try:
        assert _hookman("serve", "enable", "--port", str(other)).returncode == 0  # moved
        assert "hookman keeps port" in _hookman("serve", "stop").stdout  # Q's keeper
        assert _hookman("serve", "enable", "--port", str(port)).returncode == 0
        holders = port_holders(port)
        assert len(holders) == 1
        shown = json.loads(_hookman("serve", "status", "--json").stdout)
        assert shown["kept"] is True and shown["port"] == port
        status = _hookman("serve", "status").stdout
        assert f"hookman keeps the port (pid {holders[0]})" in status
    finally:
        _hookman("serve", "disable")


def test_start_names_a_server_that_does_not_say_its_port(port: int, hookman_home: Path) -> None:
    """A server of an older hookman (no `listening` file) runs while another port is
    recorded: `start` says so at once, not after waiting 10 s for the recorded port."""
    assert _hookman("serve", "start").returncode == 0
    serve = hookman_home / "state" / "serve"
    (serve / "listening").unlink()
    other = free_port()
    (serve / "port").write_text(f"{other}\n")
    try:
        started = _hookman("serve", "start")
        assert started.returncode == 1
        assert f"does not answer on the recorded port {other}." in started.stderr
        assert f"moves it to port {other}" in started.stderr
        status = _hookman("serve", "status")
        assert status.returncode == 1 and "does not answer on the recorded port" in status.stdout
    finally:
        _hookman("serve", "disable")
