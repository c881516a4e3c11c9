"""A scripted mock of the Anthropic Messages API for driving the real Claude Code client.

The client's conversation requests are answered from a per-run script of turns (each turn a
list of `tool_use`/`text` blocks, streamed as server-sent events); every request is recorded
so a test can assert exactly what the model received.

Routing (measured on 2.1.328 and 2.1.197 in `-p` mode):
- a `POST /v1/messages` whose first user message contains the marker of a scripted subagent
  belongs to that subagent's conversation (the Agent/Task tool's `prompt` becomes the
  subagent's first user message, so the test puts the marker there);
- a `POST /v1/messages` without tools is a side request (conversation summary for /compact,
  title generation): answered with a canned text, never consuming the script;
- `count_tokens` and any other method or path are side requests as well;
- everything else is the main conversation.

The server listens on 127.0.0.1 (a free port) and, optionally, on a Unix socket: the socket
is what a client inside a private network namespace reaches through `netns_relay.py`.
"""

from __future__ import annotations

import itertools
import json
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .mock_server import MockServer, QuietHandler

Route = Literal["main", "subagent", "side"]

SIDE_REQUEST_TEXT = (
    "<analysis>mock analysis</analysis>\n<summary>mock summary of the conversation</summary>"
)
# The conversation-summary request (/compact) carries the tools but forbids using them.
SUMMARY_REQUEST_MARKER = "Do NOT call any tools"
EXHAUSTED_TEXT = "(mock: the script for this conversation is exhausted)"

_tool_ids = itertools.count(1)


@dataclass(frozen=True)
class ToolUse:
    name: str
    input: dict[str, Any]
    id: str = field(default_factory=lambda: f"toolu_mock_{next(_tool_ids):04d}")


@dataclass(frozen=True)
class Text:
    text: str


Block = ToolUse | Text
Turn = Sequence[Block]


def bash(command: str) -> list[Block]:
    """A model turn that calls the Bash tool once."""
    return [ToolUse("Bash", {"command": command, "description": "run a command"})]


def say(text: str) -> list[Block]:
    """A model turn that answers with text and ends the conversation."""
    return [Text(text)]


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    route: Route
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    def message_text(self) -> str:
        """Every string in the conversation messages, joined: what the model 'heard'."""
        return "\n".join(_strings(self.messages))

    def tool_results(self) -> list[dict[str, Any]]:
        """The tool_result blocks of the last user message."""
        for message in reversed(self.messages):
            if message.get("role") == "user" and isinstance(message.get("content"), list):
                return [b for b in message["content"] if b.get("type") == "tool_result"]
        return []


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def first_user_text(body: dict[str, Any]) -> str:
    for message in body.get("messages") or []:
        if message.get("role") == "user":
            return "\n".join(_strings(message.get("content")))
    return ""


def last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            return "\n".join(_strings(message.get("content")))
    return ""


class MockAnthropic(MockServer):
    """The scripted API. Use `script(...)` before each client run, read `requests` after."""

    def __init__(self, unix_socket: Path | None = None) -> None:
        self._lock = threading.Lock()
        self._main: list[Turn] = []
        self._subagents: dict[str, list[Turn]] = {}
        self.requests: list[RecordedRequest] = []
        super().__init__(_MessagesHandler, unix_socket)

    def start(self) -> MockAnthropic:
        return super().start()

    def script(
        self, main: Sequence[Turn], subagents: dict[str, Sequence[Turn]] | None = None
    ) -> None:
        """Replace the script and forget earlier requests."""
        with self._lock:
            self._main = list(main)
            self._subagents = {marker: list(turns) for marker, turns in (subagents or {}).items()}
            self.requests = []

    def remaining_turns(self) -> dict[str, int]:
        with self._lock:
            left = {"main": len(self._main)}
            left.update({marker: len(turns) for marker, turns in self._subagents.items()})
            return left

    def answer(self, method: str, path: str, body: dict[str, Any]) -> tuple[Route, Turn | None]:
        """Record a request; return its route and the turn to stream (None: not a turn)."""
        route, marker = self._classify(method, path, body)
        with self._lock:
            self.requests.append(RecordedRequest(method, path, route, body))
            if route == "side":
                return route, None
            queue = self._main if route == "main" else self._subagents[marker]
            turn = queue.pop(0) if queue else [Text(EXHAUSTED_TEXT)]
            return route, turn

    def _classify(self, method: str, path: str, body: dict[str, Any]) -> tuple[Route, str]:
        if method != "POST" or not path.split("?")[0].endswith("/v1/messages"):
            return "side", ""
        opening = first_user_text(body)
        with self._lock:
            markers = list(self._subagents)
        for marker in markers:
            if marker in opening:
                return "subagent", marker
        if not body.get("tools") or SUMMARY_REQUEST_MARKER in last_user_text(body):
            return "side", ""
        return "main", ""


class _MessagesHandler(QuietHandler):
    api: MockAnthropic

    def do_GET(self) -> None:
        self.api.answer("GET", self.path, {})
        self._send_json(404, {"type": "error", "error": {"type": "not_found_error"}})

    do_HEAD = do_GET

    def do_POST(self) -> None:
        body = self._read_json_body()
        route, turn = self.api.answer("POST", self.path, body)
        if "count_tokens" in self.path:
            self._send_json(200, {"input_tokens": 1000})
        elif route == "side" and not self.path.split("?")[0].endswith("/v1/messages"):
            self._send_json(404, {"type": "error", "error": {"type": "not_found_error"}})
        else:
            self._stream(body, turn if turn is not None else [Text(SIDE_REQUEST_TEXT)])

    def _stream(self, body: dict[str, Any], turn: Turn) -> None:
        self._start_stream()
        for event in sse_events(turn, model=str(body.get("model") or "claude-mock")):
            self.wfile.write(event)
        self.wfile.flush()


def sse_events(turn: Turn, *, model: str) -> Iterator[bytes]:
    """The server-sent events of one streamed assistant message."""

    def event(kind: str, data: dict[str, Any]) -> bytes:
        return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n".encode()

    yield event(
        "message_start",
        {
            "message": {
                "id": f"msg_mock_{os.getpid()}_{next(_tool_ids)}",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 1},
            }
        },
    )
    for index, block in enumerate(turn):
        if isinstance(block, Text):
            yield event(
                "content_block_start",
                {"index": index, "content_block": {"type": "text", "text": ""}},
            )
            delta = {"type": "text_delta", "text": block.text}
        else:
            start = {"type": "tool_use", "id": block.id, "name": block.name, "input": {}}
            yield event("content_block_start", {"index": index, "content_block": start})
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block.input)}
        yield event("content_block_delta", {"index": index, "delta": delta})
        yield event("content_block_stop", {"index": index})
    stop_reason = "tool_use" if any(isinstance(b, ToolUse) for b in turn) else "end_turn"
    yield event(
        "message_delta",
        {
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": 5},
        },
    )
    yield event("message_stop", {})
