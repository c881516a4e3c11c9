"""Helpers of the hostile tests of the warm server (test_attack_serve.py): raw sockets, a
server with a low descriptor limit, a relaying impostor, the prompt gate run as Claude Code
runs it."""

from __future__ import annotations

import http.client
import json
import os
import resource
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from hookman.bridge.serve_proof import OURS
from tests.client_shell import as_client

from .served import HOOKMAN, START_WAIT_S, Served

# A guard whose commands misbehave in the ways a real hook can, each then blocking.
ATTACK_GUARD = """
import os
import signal
import subprocess
import sys
import time


def check(event, ctx):
    command = event["input"].get("command", "")
    if command.startswith("flood"):
        chunk = b"x" * (1 << 20)
        for _ in range(24):
            os.write(1, chunk)
            os.write(2, chunk)
    if command.startswith("daemon"):
        if os.fork() == 0:
            os.setsid()
            time.sleep(40)
            os._exit(0)
    if command.startswith("echo-empty"):
        subprocess.run(["sh", "-c", "echo '{}'; echo '{}' >&2"])
        print("{}")
        sys.stdout.flush()
    if command.startswith("closefds"):
        os.closerange(0, 4096)
    if command.startswith("closehigh"):  # what the worker holds, not stdin, stdout, stderr
        os.closerange(3, 4096)
    if command.startswith("killpg"):
        os.killpg(0, signal.SIGKILL)
    if "rm -rf" in command:
        return {"block": True, "reason": "no rm -rf in this project"}
    return None


def hook(pi):
    pi.on("tool_call", check, tools=["Bash"])
"""


def raw_exchange(port: int, raw: bytes, *, half_close: bool = False, timeout: float = 20) -> bytes:
    """Send `raw` on one connection and read until the server closes it (b"" when it closes
    without a word)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def body_of(answer: bytes) -> Any:
    body = answer.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in answer else b""
    try:
        return json.loads(body)
    except ValueError:
        return body


def hook_head(served: Served, event: str, length: int, *, token: str | None = None) -> bytes:
    return (
        f"POST /v1/hook/{event} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\n"
        f"X-Hookman-Manifest: {served.manifest}\r\n"
        f"Authorization: Bearer {token if token is not None else served.token()}\r\n"
        f"X-Hookman-Project: {served.root}\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def try_post(served: Served, event: str, payload: Any, **kw: Any) -> tuple[int, Any] | str:
    """served.post, or what went wrong at the connection (the client's failed request)."""
    try:
        return served.post(event, payload, **kw)
    except (OSError, http.client.HTTPException) as error:
        return f"failed: {type(error).__name__}"


def server_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def start_limited(served: Served, nofile: int, *, hard: bool = True) -> None:
    """served.start with the server's descriptor limit lowered: the soft limit, and the hard
    one too unless `hard` is False (the server raises its soft limit to the hard one). Its
    log goes to served.server_log()."""

    def lower() -> None:
        _soft, hard_limit = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile if hard else hard_limit))

    with open(served.base / "server.err", "ab") as log:
        served.process = subprocess.Popen(
            [*HOOKMAN, "serve", "run", "--port", str(served.port)],
            env=served.environment,
            stdout=subprocess.DEVNULL,
            stderr=log,
            preexec_fn=lower,
        )
    deadline = time.monotonic() + START_WAIT_S
    while time.monotonic() < deadline:
        if served.identity() == OURS:
            return
        time.sleep(0.05)
    raise AssertionError("the server did not start")


def wait_for(condition: Any, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


class Relay:
    """A process-local impostor on `port`: it relays the identity check to hookman's real
    server on `target` (so the proof is right) and answers every hook request `{}`."""

    def __init__(self, port: int, target: int) -> None:
        self.target = target
        self.hook_requests = 0
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
                connection.settimeout(5)
                try:
                    request = connection.recv(65536)
                    if request.startswith(b"GET /v1/identity"):
                        connection.sendall(raw_exchange(self.target, request, timeout=5))
                    else:
                        self.hook_requests += 1
                        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
                except OSError:
                    continue

    def __enter__(self) -> Relay:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.listener.close()


def gate_manifest(served: Served, port: int) -> None:
    """The manifest's "serve" key as install writes it for an opted-in user on `port`."""
    manifest = Path(served.manifest)
    data = json.loads(manifest.read_text())
    data["serve"] = {"port": port}
    manifest.write_text(json.dumps(data))


def prompt(served: Served) -> dict[str, Any]:
    """The prompt gate, run through the installed launcher as Claude Code runs it."""
    launcher = Path(served.manifest).parent / "hookman-run.sh"
    payload = served.payload("UserPromptSubmit", prompt="hello")
    done = subprocess.run(
        as_client("sh", str(launcher), "UserPromptSubmit"),
        input=json.dumps(payload),
        env={**served.environment, "CLAUDE_PROJECT_DIR": str(served.root)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert isinstance(answer, dict)
    return answer
