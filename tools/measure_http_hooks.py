#!/usr/bin/env python3
"""Measure Claude Code's `type: "http"` hooks in the real clients (docs/claude-code-facts.md,
"HTTP hooks"; the catalog's `http_hooks`).

Drives each pinned client (tools/install_claude_clients.py) offline against the E2E suite's mock
Messages API, with a hermetic HOME and project, and a small stdlib HTTP server of its own on
127.0.0.1 written into the project's .claude/settings.local.json as `type: "http"` entries for
PreToolUse (matcher Bash), PostToolUse, UserPromptSubmit and Stop. The server answers by the
case named in the request (the Bash command or the prompt holds `case=NAME`):

    deny     the event's own blocking answer (PreToolUse: hookSpecificOutput deny; others:
             decision block), with a reason the model could read
    ctx      additionalContext (PostToolUse, UserPromptSubmit)
    obj      `{}`                      empty    200 with no body
    nonjson  200, a text body           401/500  that status, a JSON deny as the body
    hang     no answer until past the entry's timeout (the body would be a deny)
    refused  the entry's URL names a port nothing listens on

each with `onFailure` absent, "continue" and "block". For every case it records whether the
tool ran / the prompt went on, what the model read next (the tool_result and the rest of that
user message), what the user read (stream-json system events, the result, stderr), what the
client sent (method, path, headers, content-type; literal `headers` of the entry), how long a
hung request was held (how `timeout` is read) and whether a command hook of the same file still
ran (an entry the client rejects can disable the file: catalog invalid_entry_effect).

The client runs on the host's loopback (no private network namespace: the hook server must
be reachable as the client sees it); the API is the local mock and nonessential traffic is off.

    python tools/measure_http_hooks.py --out /tmp/http-facts.json            # all three
    python tools/measure_http_hooks.py --version 2.1.332 --on-failure block  # a subset
"""

from __future__ import annotations

import argparse
import json
import os
import select
import socket
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from e2e.harness import (  # noqa: E402
    CLIENT_VERSIONS,
    E2EProject,
    NetworkIsolation,
    find_client,
)
from e2e.mock_anthropic import MockAnthropic, bash, say  # noqa: E402

EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop")
CASES = ("deny", "ctx", "obj", "empty", "nonjson", "401", "500", "hang")
ON_FAILURE = (None, "continue", "block")
TIMEOUT_S = 2  # the entries' `timeout`; a hung answer waits HANG_S
HANG_S = 8
LITERAL_HEADERS = {
    "X-Probe": "literal value",
    "Authorization": "Bearer tok-123",
    "X-Env": "$HOME",  # the client expands $NAME and ${NAME}; nothing escapes them
    "X-Env-Braced": "p/${HOME}/q",
    "X-Env-Doubled": "$$HOME",
    "X-Env-Backslash": "\\$HOME",
    "X-Dollar-Kept": "a$ $1x",
}


def deny_body(event: str) -> dict[str, Any]:
    reason = f"HTTPDENY {event} reason"
    if event == "PreToolUse":
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }
    return {"decision": "block", "reason": reason}


def ctx_body(event: str) -> dict[str, Any]:
    if event in ("PostToolUse", "UserPromptSubmit"):
        return {
            "hookSpecificOutput": {"hookEventName": event, "additionalContext": f"HTTPCTX {event}"}
        }
    return {}


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.prompt = ""

    def add(self, record: dict[str, Any]) -> None:
        with self.lock:
            self.requests.append(record)


def case_of(event: str, payload: dict[str, Any], recorder: Recorder) -> str:
    if event in ("PreToolUse", "PostToolUse"):
        command = str((payload.get("tool_input") or {}).get("command", ""))
        prefix = "pre" if event == "PreToolUse" else "post"
        for word in command.split():
            if word.startswith("case=") and f"{prefix} case=" in command:
                return word[5:]
        return "obj"
    if event == "UserPromptSubmit" or event == "Stop":
        if event == "Stop" and payload.get("stop_hook_active"):
            return "obj"
        key = "case=" if event == "UserPromptSubmit" else "stopcase="
        for word in str(recorder.prompt).split():
            if word.startswith(key):
                return word[len(key) :]
        return "obj"
    return "obj"


def make_handler(recorder: Recorder) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            started = time.monotonic()
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                payload = json.loads(raw)
            except ValueError:
                payload = {}
            event = self.path.rsplit("/", 1)[-1]
            case = case_of(event, payload, recorder)
            record: dict[str, Any] = {
                "method": self.command,
                "path": self.path,
                "event": event,
                "case": case,
                "headers": dict(self.headers.items()),
                "payload_keys": sorted(payload) if isinstance(payload, dict) else None,
                "hook_event_name": payload.get("hook_event_name"),
            }
            recorder.add(record)
            if case == "hang":
                record["held_s"] = self._hold(started)
                self._answer(200, json.dumps(deny_body(event)).encode(), "application/json")
                return
            if case == "deny":
                self._answer(200, json.dumps(deny_body(event)).encode(), "application/json")
            elif case == "ctx":
                self._answer(200, json.dumps(ctx_body(event)).encode(), "application/json")
            elif case == "obj":
                self._answer(200, b"{}", "application/json")
            elif case == "empty":
                self._answer(200, b"", None)
            elif case == "nonjson":
                self._answer(200, f"NONJSON {event} text".encode(), "text/plain")
            elif case in ("401", "500"):
                body = json.dumps(deny_body(event) | {"status": f"STATUS{case} {event}"})
                self._answer(int(case), body.encode(), "application/json")
            else:
                self._answer(200, b"{}", "application/json")

        def _hold(self, started: float) -> float | None:
            """Wait HANG_S; return when the client gave up (its EOF), or None if it waited."""
            sock: socket.socket = self.connection
            while time.monotonic() - started < HANG_S:
                ready, _, _ = select.select([sock], [], [], 0.05)
                if ready:
                    try:
                        if not sock.recv(1, socket.MSG_PEEK):
                            return round(time.monotonic() - started, 2)
                    except OSError:
                        return round(time.monotonic() - started, 2)
            return None

        def _answer(self, status: int, body: bytes, content_type: str | None) -> None:
            try:
                self.send_response(status)
                if content_type:
                    self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:
                pass

    return Handler


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def settings_for(ports: dict[str, int], on_failure: str | None) -> dict[str, Any]:
    def entry(event: str) -> dict[str, Any]:
        handler: dict[str, Any] = {
            "type": "http",
            "url": f"http://127.0.0.1:{ports[event]}/hook/{event}",
            "timeout": TIMEOUT_S,
            "headers": LITERAL_HEADERS,
        }
        if on_failure is not None:
            handler["onFailure"] = on_failure
        group: dict[str, Any] = {"hooks": [handler]}
        if event in ("PreToolUse", "PostToolUse"):
            group["matcher"] = "Bash"
        return group

    hooks: dict[str, Any] = {event: [entry(event)] for event in EVENTS}
    marker = 'echo fired >> "$CLAUDE_PROJECT_DIR/command-hook-fired"'
    probe = {"type": "http", "url": f"http://127.0.0.1:{ports['PreToolUse']}/hook/SessionStart"}
    hooks["SessionStart"] = [{"hooks": [{"type": "command", "command": marker}, probe]}]
    return {"hooks": hooks}


def model_text_after(run: Any, tool_use_id: str) -> dict[str, Any]:
    """The tool_result for `tool_use_id` and every other string of that user message and of
    the messages after it in the next request (what the model read next)."""
    for request in run.main_requests:
        messages = request.messages
        for index, message in enumerate(messages):
            content = message.get("content")
            if message.get("role") != "user" or not isinstance(content, list):
                continue
            for block in content:
                if block.get("type") == "tool_result" and block.get("tool_use_id") == tool_use_id:
                    from e2e.harness import tool_result_text
                    from e2e.mock_anthropic import _strings

                    rest = [b for b in content if b is not block]
                    later = messages[index + 1 :]
                    return {
                        "tool_result": tool_result_text(block),
                        "is_error": bool(block.get("is_error")),
                        "same_message_rest": list(_strings(rest)),
                        "later_messages": list(_strings(later)),
                    }
    return {"tool_result": None}


def hook_texts(request: Any) -> list[str]:
    """The strings of a request's messages that a hook put there (or that name one)."""
    from e2e.mock_anthropic import _strings

    markers = (
        "HTTPCTX",
        "HTTPDENY",
        "NONJSON",
        "STATUS",
        "hook error",
        "hook blocking",
        "Stop hook",
    )
    markers += ("onFailure", "HTTP 4", "HTTP 5", "ECONNREFUSED", "timed out")
    return [s[:800] for s in _strings(request.messages) if any(m in s for m in markers)]


def user_view(run: Any) -> dict[str, Any]:
    shown = []
    for event in run.events:
        if event.get("type") == "system" and event.get("subtype") not in ("init",):
            shown.append({k: v for k, v in event.items() if k not in ("session_id", "uuid")})
    return {
        "system_events": shown,
        "result": run.result.get("result"),
        "result_subtype": run.result.get("subtype"),
        "is_error": run.result.get("is_error"),
        "stderr": run.stderr.strip()[-1500:],
        "returncode": run.returncode,
    }


def hook_debug_lines(run: Any) -> list[str]:
    keys = ("http", "hook")
    return [
        line[:400]
        for line in run.debug_log.splitlines()
        if any(k in line.lower() for k in keys) and "http" in line.lower()
    ][-40:]


def measure(version: str, on_failure: str | None, mock: MockAnthropic, work: Path) -> list[dict]:
    client = find_client(version)
    if isinstance(client, str):
        raise SystemExit(client)
    recorder = Recorder()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(recorder))
    server.daemon_threads = True
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    port = int(server.server_address[1])
    isolation = NetworkIsolation(None, "loopback: the hook server must be reachable")
    rows: list[dict] = []
    label = on_failure or "absent"

    def project(name: str, dead: tuple[str, ...] = ()) -> E2EProject:
        e2e = E2EProject(client, mock, isolation, work / f"{version}-{label}-{name}")
        ports = {event: (free_port() if event in dead else port) for event in EVENTS}
        e2e.write_settings(settings_for(ports, on_failure))
        return e2e

    def fired(e2e: E2EProject) -> bool:
        return (e2e.root / "command-hook-fired").exists()

    # 1. PreToolUse and PostToolUse, every case in one session (the command names it).
    e2e = project("tools")
    recorder.requests.clear()
    recorder.prompt = "run the probes"
    calls = []
    turns = []
    for prefix in ("pre", "post"):
        for case in CASES:
            if prefix == "pre" and case == "ctx":
                continue
            turn = bash(f"echo RAN-{prefix}-{case} {prefix} case={case}")
            calls.append((prefix, case, turn[0].id))
            turns.append(turn)
    turns.append(say("done"))
    run = e2e.run_claude("run the probes", turns)
    for prefix, case, tool_id in calls:
        seen = model_text_after(run, tool_id)
        event = "PreToolUse" if prefix == "pre" else "PostToolUse"
        ran = seen.get("tool_result") is not None and f"RAN-{prefix}-{case}" in (
            seen["tool_result"] or ""
        ).replace(f"echo RAN-{prefix}-{case}", "")
        held = [
            r.get("held_s") for r in recorder.requests if r["event"] == event and r["case"] == case
        ]
        rows.append(
            {
                "version": version,
                "onFailure": label,
                "event": event,
                "case": case,
                "tool_ran": ran,
                "model_read": seen,
                "hung_request_closed_after_s": held,
                "command_hook_of_file_ran": fired(e2e),
            }
        )
    rows.append(
        {
            "version": version,
            "onFailure": label,
            "session": "tools",
            "requests": recorder.requests[:4],
            "events_posted": sorted({r["event"] for r in recorder.requests}),
            "http_skipped": sorted(
                {
                    line.split("not supported for ", 1)[1].strip()
                    for line in run.debug_log.splitlines()
                    if "HTTP hooks are not supported for" in line
                }
            ),
            "user_view": user_view(run),
            "debug": hook_debug_lines(run),
            "turns_left": run.turns_left,
        }
    )

    # 2. UserPromptSubmit, then Stop, one session per case (the prompt names it).
    for case, event in [(c, "UserPromptSubmit") for c in CASES] + [
        (c, "Stop") for c in CASES if c != "ctx"
    ]:
        e2e = project(f"{event}-{case}")
        recorder.requests.clear()
        recorder.prompt = f"hello {'case' if event == 'UserPromptSubmit' else 'stopcase'}={case}"
        run = e2e.run_claude(recorder.prompt, [say("FIRST-ANSWER"), say("SECOND-ANSWER")])
        main = run.main_requests
        stop_posts = [r for r in recorder.requests if r["event"] == "Stop"]
        rows.append(
            {
                "version": version,
                "onFailure": label,
                "event": event,
                "case": case,
                "prompt_went_on": bool(main),
                "model_read_first": hook_texts(main[0]) if main else None,
                "stop_posts": len(stop_posts),
                "agent_went_on_after_stop": len(main) > 1,
                "model_read_after_stop": hook_texts(main[1]) if len(main) > 1 else None,
                "stopped_by_hook": run.stopped_by_hook(),
                "user_view": user_view(run),
                "hung_request_closed_after_s": [
                    r.get("held_s") for r in recorder.requests if "held_s" in r
                ],
                "command_hook_of_file_ran": fired(e2e),
                "debug": hook_debug_lines(run),
            }
        )

    # 3. Connection refused: the tool events' entries, then the prompt events', name a port
    # nothing listens on (the others answer `{}`).
    for dead, name in (
        (("PreToolUse", "PostToolUse"), "tools"),
        (("UserPromptSubmit", "Stop"), "prompt"),
    ):
        e2e = project(f"refused-{name}", dead)
        recorder.requests.clear()
        recorder.prompt = "hello refused"
        turn = bash("echo RAN-refused pre case=obj")
        run = e2e.run_claude(recorder.prompt, [turn, say("FIRST-ANSWER"), say("SECOND-ANSWER")])
        seen = model_text_after(run, turn[0].id)
        main = run.main_requests
        rows.append(
            {
                "version": version,
                "onFailure": label,
                "event": "+".join(dead),
                "case": "refused",
                "prompt_went_on": bool(main),
                "tool_ran": "RAN-refused"
                in (seen.get("tool_result") or "").replace("echo RAN-refused", ""),
                "model_read": seen,
                "main_requests": len(main),
                "model_read_last": hook_texts(main[-1]) if main else None,
                "stopped_by_hook": run.stopped_by_hook(),
                "user_view": user_view(run),
                "command_hook_of_file_ran": fired(e2e),
                "debug": hook_debug_lines(run),
            }
        )
    server.shutdown()
    server.server_close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="append", choices=CLIENT_VERSIONS)
    parser.add_argument("--on-failure", action="append", choices=("absent", "continue", "block"))
    parser.add_argument("--out", default="-")
    args = parser.parse_args(argv)
    versions = args.version or list(CLIENT_VERSIONS)
    modes = [
        None if m == "absent" else m for m in (args.on_failure or ["absent", "continue", "block"])
    ]
    mock = MockAnthropic().start()
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="hm-http-") as temp:
        for version in versions:
            for mode in modes:
                started = time.monotonic()
                rows += measure(version, mode, mock, Path(temp))
                print(
                    f"{version} onFailure={mode}: {time.monotonic() - started:.0f}s",
                    file=sys.stderr,
                )
    mock.stop()
    text = json.dumps(rows, indent=1)
    if args.out == "-":
        print(text)
    else:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
