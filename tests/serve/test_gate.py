"""The prompt gate of a project whose entries reach the warm server (the manifest's "serve"
key): hookman's server lets the prompt go on, nothing listening starts it, another process
on the port stops the prompt naming it. Run through the installed launcher, as Claude Code
runs the UserPromptSubmit entry."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookman.bridge.serve_proof import KEPT, NOTHING, OURS
from tests.client_shell import as_client

from .served import Served


@pytest.fixture
def gated(tmp_path: Path) -> Iterator[Served]:
    project = Served(tmp_path)
    project.install()
    project.hookman("serve", "enable", "--port", str(project.port))
    manifest = Path(project.manifest)
    data = json.loads(manifest.read_text())
    data["serve"] = {"port": project.port}  # as install writes it for an opted-in user
    manifest.write_text(json.dumps(data))
    yield project
    project.hookman("serve", "stop", check=False)
    project.hookman("serve", "disable", check=False)  # and the port keeper it leaves


def _prompt(project: Served) -> dict[str, object]:
    launcher = Path(project.manifest).parent / "hookman-run.sh"
    payload = project.payload("UserPromptSubmit", prompt="hello")
    done = subprocess.run(
        as_client("sh", str(launcher), "UserPromptSubmit"),
        input=json.dumps(payload),
        env={**project.environment, "CLAUDE_PROJECT_DIR": str(project.root)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_kept_port_starts_the_server_and_the_prompt_goes_on(gated: Served) -> None:
    """The server ended and hookman's keeper holds its port (hookman/serve/keeper.py): the
    gate starts the server, which takes the port from the keeper."""
    gated.start()
    gated.stop(keep_port=True)
    deadline = time.monotonic() + 20
    while gated.identity() != KEPT and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gated.identity() == KEPT
    assert _prompt(gated).get("continue") is not False
    while gated.identity() != OURS and time.monotonic() < deadline + 20:
        time.sleep(0.05)
    assert gated.identity() == OURS


def test_nothing_on_the_port_starts_the_server_and_the_prompt_goes_on(gated: Served) -> None:
    assert gated.identity() == NOTHING
    assert _prompt(gated).get("continue") is not False
    deadline = time.monotonic() + 20
    while gated.identity() != OURS and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gated.identity() == OURS
    assert _prompt(gated).get("continue") is not False  # hookman's own: the prompt goes on


def test_another_process_on_the_port_stops_the_prompt_naming_it(gated: Served) -> None:
    with _impostor(gated.port):
        answer = _prompt(gated)
    assert answer["continue"] is False
    reason = str(answer["stopReason"])
    assert f"port {gated.port}" in reason
    assert "hookman serve status" in reason
    assert "proof" in reason
    assert gated.identity() != OURS  # and nothing was started in its place


class _impostor:
    """A process-local server on the port answering every request `{}`."""

    def __init__(self, port: int) -> None:
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.listener.listen()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                connection.recv(65536)
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")

    def __enter__(self) -> _impostor:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.listener.close()


def _post_to(gated: Served, port: int) -> None:
    """The project's entries (its manifest) post to `port`, as an install for it wrote."""
    manifest = Path(gated.manifest)
    data = json.loads(manifest.read_text())
    data["serve"] = {"port": port}
    manifest.write_text(json.dumps(data))


def _serve_file(gated: Served, name: str) -> Path:
    return gated.home / "state" / "serve" / name


@pytest.mark.parametrize("recorded", ["project's", "server's"])
def test_a_server_on_another_port_stops_the_prompt_naming_the_fix(
    gated: Served, recorded: str
) -> None:
    """Nothing on the project's port while hookman's server runs on another: no server can
    start on the project's port (the running one holds the lock), so its guarded calls would
    reach nothing, or an impostor that takes the port for the whole session."""
    gated.start()
    other = socket.socket()
    other.bind(("127.0.0.1", 0))
    elsewhere = other.getsockname()[1]
    other.close()
    _post_to(gated, elsewhere)
    if recorded == "project's":  # `serve enable --port` whose move did not happen
        _serve_file(gated, "port").write_text(f"{elsewhere}\n")
    answer = _prompt(gated)
    assert answer["continue"] is False
    reason = str(answer["stopReason"])
    assert f"runs on port {gated.port}" in reason and f"not on port {elsewhere}" in reason
    if recorded == "project's":
        fix = f"`hookman serve stop` then `hookman serve start` moves it to port {elsewhere}"
        assert fix in reason
    else:
        assert "`hookman install` in the project" in reason


def test_a_server_that_does_not_say_its_port_is_elsewhere_too(gated: Served) -> None:
    """A server of an older hookman writes no `listening` file: nothing on the project's
    port while it runs means it runs on another."""
    gated.start()
    _serve_file(gated, "listening").unlink()
    other = socket.socket()
    other.bind(("127.0.0.1", 0))
    elsewhere = other.getsockname()[1]
    other.close()
    _post_to(gated, elsewhere)
    answer = _prompt(gated)
    assert answer["continue"] is False
    assert "runs on another port" in str(answer["stopReason"])


def test_the_servers_own_port_is_not_elsewhere(gated: Served) -> None:
    gated.start()
    assert _prompt(gated).get("continue") is not False
