"""The warm hook server (`hookman serve`) in the real-client suite: a project whose client
reaches the host's loopback, a server of its own on a free port, and an impostor.

The suite's private network namespace (netns_relay.py) relays only the mock API's port, so a
client inside it could not reach a server on the host's 127.0.0.1: these projects run the
client on the host's loopback (the API is still the local mock, nonessential traffic off).
HOOKMAN_HOME is each test's own (tests/conftest.py), so the server's secret, port, pid file
and opt-in are too; the port is a free one chosen per test (`hookman serve enable --port N`),
so two tests, or two agents' suites, never share a server."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import threading
import time
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from hookman.project.settings_entries import hookman_handler_is_sentinel

from .harness import ClaudeClient, E2EProject, NetworkIsolation, find_client
from .mock_anthropic import MockAnthropic

FULL = os.environ.get("HOOKMAN_E2E_SERVE_FULL", "") == "1"
LOOPBACK = NetworkIsolation(None, "host loopback: the client must reach the hook server")
SERVE_DIR = ("state", "serve")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@cache
def _client(version: str) -> ClaudeClient | str:
    return find_client(version)


def client_or_skip(version: str) -> ClaudeClient:
    """The installed client, or a loud skip (a failure when CI=true), as conftest does."""
    found = _client(version)
    if isinstance(found, str):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"E2E CLIENT MISSING IN CI: {found}", pytrace=False)
        pytest.skip(f"E2E SKIPPED, REAL CLIENT NOT INSTALLED: {found}")
    return found


def serve_project(client: ClaudeClient, mock: MockAnthropic, workdir: Path) -> E2EProject:
    """A temp project whose client runs on the host's loopback (see above)."""
    return E2EProject(client, mock, LOOPBACK, workdir)


class HookServer:
    """The project's user's hook server: opted in on a free port, started and stopped with
    hookman's own commands."""

    def __init__(self, e2e: E2EProject) -> None:
        self.e2e = e2e
        self.port = free_port()

    @property
    def directory(self) -> Path:
        return Path(self.e2e.env()["HOOKMAN_HOME"]).joinpath(*SERVE_DIR)

    def enable(self) -> None:
        self.e2e.hookman("serve", "enable", "--port", str(self.port))

    def start(self) -> int:
        self.e2e.hookman("serve", "start")
        pid = self.pid()
        assert pid is not None, "hookman serve start left no pid file"
        return pid

    def stop(self) -> None:
        self.e2e.hookman("serve", "stop", check=False)

    def pid(self) -> int | None:
        try:
            text = (self.directory / "pid").read_text(encoding="ascii").strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None

    def running(self) -> bool:
        return self.e2e.hookman("serve", "status", check=False).returncode == 0

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return (self.directory / "server.log").read_text(errors="replace")
        return ""

    def cleanup(self) -> None:
        """Stop whatever server this test's user has (one the prompt gate started too), and
        the port keeper it leaves (hookman/serve/keeper.py)."""
        pid = self.pid()
        self.stop()
        self.e2e.hookman("serve", "disable", check=False)  # the keeper lets the port go
        for leftover in (pid, self.keeper_pid()):
            if leftover is not None:
                with contextlib.suppress(OSError):
                    os.kill(leftover, signal.SIGKILL)

    def keeper_pid(self) -> int | None:
        try:
            text = (self.directory / "keeper.pid").read_text(encoding="ascii").strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None


class Impostor:
    """Another process's server on the port: answers `{}` to every request (an http entry
    reading it would let a guarded call through), and no identity proof."""

    def __init__(self, port: int) -> None:
        impostor = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                impostor.requests.append(f"{self.command} {self.path}")
                body = json.dumps({}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

        self.requests: list[str] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True

    def __enter__(self) -> Impostor:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


class ImpostorOnceFree:
    """An Impostor that takes the port as soon as the server there lets it go (a thread
    polls), for as long as the `with` block lasts."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.requests: list[str] = []
        self._impostor: Impostor | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._take, daemon=True)

    def _take(self) -> None:
        while not self._done.is_set():
            try:
                impostor = Impostor(self.port)
            except OSError:
                time.sleep(0.02)
                continue
            impostor.requests = self.requests
            self._impostor = impostor.__enter__()
            return

    def __enter__(self) -> ImpostorOnceFree:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join(timeout=5)
        if self._impostor is not None:
            self._impostor.__exit__()


def handlers(settings: dict[str, Any], event: str) -> list[dict[str, Any]]:
    """Every handler of `event` in a settings file but hookman's sentinel (sentinels)."""
    return [h for h in _every_handler(settings, event) if not hookman_handler_is_sentinel(h)]


def sentinels(settings: dict[str, Any], event: str) -> list[dict[str, Any]]:
    """hookman's sentinel of `event` (project/sentinel.py): a command entry, server or not."""
    return [h for h in _every_handler(settings, event) if hookman_handler_is_sentinel(h)]


def _every_handler(settings: dict[str, Any], event: str) -> list[dict[str, Any]]:
    return [
        handler
        for group in settings.get("hooks", {}).get(event, [])
        for handler in group.get("hooks", [])
    ]
