"""A project installed by the real `hookman install` and the real `hookman serve run` serving
it, in a HOOKMAN_HOME of their own; requests made as Claude Code's http entries make them."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hookman.bridge.serve_proof import OURS, check_identity
from hookman.serve import wire

HOOKMAN = [sys.executable, "-m", "hookman"]
START_WAIT_S = 20.0
# The guard's entry timeout in these projects: the runner's deadline 2.7 s, its hard stop
# 2.85 s, the server's own deadline 2.925 s.
GUARD_TIMEOUT = 3

GUARD = """
import ctypes
import os
import signal
import sys
import time


def check(event, ctx):
    command = event["input"].get("command", "")
    if "rm -rf" in command:
        return {"block": True, "reason": "no rm -rf in this project"}
    if command == "hang":
        while True:
            time.sleep(0.05)
    if command == "freeze":  # the whole process, its deadline's thread and timer too
        os.kill(os.getpid(), signal.SIGSTOP)
    if command == "exit-0":
        os._exit(0)
    if command == "exit-3":
        os._exit(3)
    if command == "segfault":
        ctypes.string_at(0)
    if command == "sys-exit":
        sys.exit(5)
    print("guard saw", command)
    return None


def hook(pi):
    pi.on("tool_call", check, tools=["Bash"])
"""

CONTEXT = """
import os


def after(event, ctx):
    if event.get("tool_input", {}).get("command") == "crash-after":
        os._exit(3)
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                   "additionalContext": "context from the served hook"}}


def hook(pi):
    pi.on("PostToolUse", after)
"""

NOTES = """
import os
import time


def note(event, ctx):
    time.sleep(0.3)
    marker = os.path.join(os.path.dirname(__file__), "async-ran.txt")
    with open(marker, "a") as handle:
        handle.write(event.get("tool_input", {}).get("command", "") + "\\n")


def hook(pi):
    pi.on("PostToolUse", note)
"""

TOML = f"""
[[hooks]]
name = "guard"
path = "hooks/guard.py"
timeout = {GUARD_TIMEOUT}

[[hooks]]
name = "context"
path = "hooks/context.py"

[[hooks]]
name = "notes"
path = "hooks/notes.py"
async = true
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Served:
    """The project, its home, and the server answering its hooks."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.home = base / "hookman-home"
        self.root = base / "project"
        self.port = free_port()
        self.environment = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("CLAUDE_", "HOOKMAN_"))
        }
        self.environment["HOOKMAN_HOME"] = str(self.home)
        self.environment["HOME"] = str(base)
        self.process: subprocess.Popen[bytes] | None = None
        self.manifest = ""

    def install(self, sources: dict[str, str] | None = None, toml: str = TOML) -> None:
        """Install the project (these hooks' sources by name, hookman.toml's text)."""
        hooks = self.root / "hooks"
        hooks.mkdir(parents=True)
        (self.root / ".claude").mkdir()
        if sources is None:
            sources = {"guard": GUARD, "context": CONTEXT, "notes": NOTES}
        for name, source in sources.items():
            (hooks / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        (self.root / ".claude" / "hookman.toml").write_text(toml, encoding="utf-8")
        before = set((self.home / "state" / "projects").glob("*/manifest.json"))
        self.hookman("install", "--claude-version", "2.1.332")
        manifests = set((self.home / "state" / "projects").glob("*/manifest.json")) - before
        assert len(manifests) == 1, manifests
        self.manifest = str(manifests.pop())

    def share_server_of(self, other: Served) -> None:
        """Use `other`'s home and server (install this project after this)."""
        self.home = other.home
        self.port = other.port
        self.environment = dict(other.environment)

    def server_log(self) -> str:
        path = self.base / "server.err"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def hookman(
        self, *words: str, check: bool = True, isolated: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """hookman run in the project (`isolated`: with `-I`, as the console script finds its
        own package: neither the directory nor PYTHONPATH on its path)."""
        done = subprocess.run(
            [sys.executable, *(["-I"] if isolated else []), "-m", "hookman", *words],
            cwd=self.root,
            env=self.environment,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if check:
            assert done.returncode == 0, done.stdout + done.stderr
        return done

    def start(self, **environment: str) -> None:
        """Start the server (`environment`: variables set for it alone)."""
        with open(self.base / "server.err", "ab") as log:
            self.process = subprocess.Popen(
                [*HOOKMAN, "serve", "run", "--port", str(self.port)],
                env={**self.environment, **environment},
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + START_WAIT_S
        while time.monotonic() < deadline:
            if self.identity() == OURS:
                return
            if self.process.poll() is not None:
                raise AssertionError(self.server_log())
            time.sleep(0.05)
        raise AssertionError("the server did not start")

    def identity(self) -> str:
        path = self.home / "state" / "serve" / "secret"
        return check_identity(self.port, path.read_bytes() if path.exists() else None).state

    def stop(self, *, keep_port: bool = False) -> None:
        """Stop the server and (unless `keep_port`) the port keeper it leaves behind
        (hookman/serve/keeper.py), as `hookman serve disable` would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not keep_port:
            self.end_keeper()

    def keeper_pid(self) -> int | None:
        path = self.home / "state" / "serve" / "keeper.pid"
        text = path.read_text(encoding="ascii").strip() if path.exists() else ""
        return int(text) if text.isdigit() else None

    def end_keeper(self) -> None:
        pid = self.keeper_pid()
        with contextlib.suppress(OSError):
            if pid is not None and b"hookman" in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGTERM)

    def secret(self) -> bytes:
        return (self.home / "state" / "serve" / "secret").read_bytes()

    def token(self, manifest: str | None = None) -> str:
        return wire.project_token(self.secret(), manifest or self.manifest)

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        return {
            "session_id": "served-session",
            "transcript_path": str(self.base / "transcript.jsonl"),
            "cwd": str(self.root),
            "permission_mode": "default",
            "hook_event_name": event,
            **fields,
        }

    def bash(self, event: str, command: str, **fields: Any) -> dict[str, Any]:
        return self.payload(
            event,
            tool_name="Bash",
            tool_input={"command": command},
            tool_use_id=f"toolu_{abs(hash(command)) % 10**8}",
            **fields,
        )

    def post(
        self,
        event: str,
        payload: dict[str, Any] | bytes,
        *,
        token: str | None = None,
        manifest: str | None = None,
        run_async: bool = False,
        timeout: float = 30.0,
    ) -> tuple[int, Any]:
        """(status, the body as JSON, or the raw bytes when it is not JSON)."""
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        headers = {
            "Content-Type": "application/json",
            wire.MANIFEST_HEADER: manifest or self.manifest,
            wire.TOKEN_HEADER: wire.TOKEN_SCHEME + (token if token is not None else self.token()),
            wire.PROJECT_HEADER: str(self.root),
        }
        path = wire.hook_url(self.port, event, run_async).split(str(self.port), 1)[1]
        return self.request("POST", path, body, headers, timeout)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30.0,
    ) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            raw = response.read()
        finally:
            connection.close()
        try:
            return response.status, json.loads(raw)
        except ValueError:
            return response.status, raw

    def log_records(self) -> list[dict[str, Any]]:
        path = self.home / "log" / "firing.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def deny_reason(body: Any) -> str | None:
    """The reason of a PreToolUse deny in `body`, None when it is no deny."""
    if not isinstance(body, dict):
        return None
    specific = body.get("hookSpecificOutput")
    if not isinstance(specific, dict) or specific.get("permissionDecision") != "deny":
        return None
    assert specific.get("hookEventName") == "PreToolUse"
    reason = specific.get("permissionDecisionReason")
    assert isinstance(reason, str) and reason
    return reason


def wait_for(condition: Callable[[], object], seconds: float = 30.0) -> None:
    """Until `condition()` holds (polled every 50 ms), at most `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("the condition never held")
