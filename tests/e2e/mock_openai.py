"""A scripted mock of the OpenAI Responses API for driving the real Codex CLI offline.

Codex, given a model provider whose `base_url` is this server and `wire_api = "responses"`,
sends each model request as `POST /v1/responses` and reads a server-sent event stream
(measured on 0.171.0 and 0.150.0). Each request is answered from a per-run script of turns:
a turn is a list of `exec_command` calls (Codex's shell tool, arguments `{"cmd": ...}`) and
texts, as mock_anthropic's ToolUse and Text blocks. Every request is recorded, so a test
asserts exactly what the model received (its `input` items: messages, developer messages,
function-call outputs).

It also answers the Chat Completions API (`POST .../chat/completions`, streamed or not),
which Qwen Code (`--auth-type openai`) and Factory droid (`generic-chat-completion-api`)
send: the same turns become `tool_calls` and content; a chat request that offers no tools is
a side request of the client's own (a title, a next-speaker check) and is answered with
SIDE_TEXT without consuming the script.

Requests that are neither (model lists, telemetry) get a 404 and are recorded as side
requests. Like mock_anthropic.py it listens on 127.0.0.1 and, optionally, a
Unix socket, which a client in a private network namespace reaches through netns_relay.py.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .mock_anthropic import Text, ToolUse, _strings
from .mock_server import MockServer, QuietHandler

EXHAUSTED_TEXT = "(mock: the script for this conversation is exhausted)"
SIDE_TEXT = "(mock: a side request)"
SHELL_TOOL = "exec_command"

_ids = itertools.count(1)
# A turn is mock_anthropic's: ToolUse blocks (here function calls: `name`, `input` as the
# arguments, `id` as the call id) and Text blocks.
Turn = Sequence[ToolUse | Text]


def typed_into_session(chars: str) -> Any:
    """A turn that types `chars` into the last running command Codex named (write_stdin, its
    tool for a command that is still running: `Process running with session ID N`)."""

    def turn(body: dict[str, Any]) -> list[ToolUse | Text]:
        ids = re.findall(r"session ID (\d+)", json.dumps(body.get("input")))
        arguments = {"session_id": int(ids[-1]) if ids else 0, "chars": chars}
        return [ToolUse("write_stdin", {**arguments, "yield_time_ms": 1500})]

    return turn


def shell(command: str) -> list[ToolUse | Text]:
    """A model turn that runs one shell command through Codex's shell tool."""
    return [ToolUse(SHELL_TOOL, {"cmd": command})]


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    body: dict[str, Any]

    @property
    def is_chat(self) -> bool:
        return self.method == "POST" and self.path.split("?")[0].endswith("/chat/completions")

    @property
    def is_model_request(self) -> bool:
        if self.is_chat:
            return bool(self.body.get("tools"))
        return self.method == "POST" and self.path.split("?")[0].endswith("/responses")

    @property
    def input_items(self) -> list[dict[str, Any]]:
        items = self.body.get("input")
        return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []

    @property
    def messages(self) -> list[dict[str, Any]]:
        """A chat request's messages (system, user, assistant, tool)."""
        items = self.body.get("messages")
        return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []

    @property
    def tool_names(self) -> list[str]:
        """The names of the tools the request offers the model."""
        names = []
        for tool in self.body.get("tools") or []:
            if isinstance(tool, dict):
                function = tool.get("function")
                named = function if isinstance(function, dict) else tool
                names.append(str(named.get("name")))
        return names

    def text(self) -> str:
        """Every string of the request's input items or messages, joined: what the model
        'heard'."""
        return "\n".join(_strings(self.input_items + self.messages))

    def chat_tool_results(self) -> list[str]:
        """The contents of a chat request's tool messages, in order."""
        return [
            message["content"]
            if isinstance(message.get("content"), str)
            else "\n".join(_strings(message.get("content")))
            for message in self.messages
            if message.get("role") == "tool"
        ]

    def developer_texts(self) -> list[str]:
        """The texts of the developer messages in the input, in order."""
        return [
            "\n".join(
                str(part.get("text"))
                for part in item.get("content") or []
                if isinstance(part, dict) and "text" in part
            )
            for item in self.input_items
            if item.get("type", "message") == "message" and item.get("role") == "developer"
        ]

    def tool_outputs(self) -> list[str]:
        """The outputs of the function calls the request carries, in order."""
        outputs = []
        for item in self.input_items:
            if item.get("type") == "function_call_output":
                output = item.get("output")
                outputs.append(output if isinstance(output, str) else "\n".join(_strings(output)))
        return outputs


class MockOpenAI(MockServer):
    """The scripted API. `script(...)` before each client run; read `model_requests` after."""

    def __init__(self, unix_socket: Path | None = None) -> None:
        self._lock = threading.Lock()
        self._turns: list[Turn] = []
        self._router: Any = None
        self.requests: list[RecordedRequest] = []
        super().__init__(_ResponsesHandler, unix_socket)

    def start(self) -> MockOpenAI:
        return super().start()

    def script(self, turns: Sequence[Turn]) -> None:
        """Replace the script and forget earlier requests."""
        with self._lock:
            self._turns = list(turns)
            self._router = None
            self.requests = []

    def route(self, router: Any) -> None:
        """Answer every model request with `router(request)` instead of a script (for
        requests whose order is not fixed: a sub-agent's beside its parent's)."""
        with self._lock:
            self._router = router

    @property
    def model_requests(self) -> list[RecordedRequest]:
        with self._lock:
            return [request for request in self.requests if request.is_model_request]

    def remaining_turns(self) -> int:
        with self._lock:
            return len(self._turns)

    def answer(self, method: str, path: str, body: dict[str, Any]) -> Turn | None:
        request = RecordedRequest(method, path, body)
        with self._lock:
            self.requests.append(request)
            if not request.is_model_request:
                return None
            router = self._router
            if router is None and not self._turns:
                return [Text(EXHAUSTED_TEXT)]
            turn = None if router is not None else self._turns.pop(0)
        if router is not None:
            return router(request)
        # A turn may be made from the request (a session id Codex just gave the model).
        return turn(body) if callable(turn) else turn


class _ResponsesHandler(QuietHandler):
    api: MockOpenAI

    def do_GET(self) -> None:
        self.api.answer("GET", self.path, {})
        self._send_json(404, {"error": {"message": "not found", "type": "not_found"}})

    do_HEAD = do_GET

    def do_POST(self) -> None:
        body = self._read_json_body()
        body = body if isinstance(body, dict) else {}
        turn = self.api.answer("POST", self.path, body)
        model = str(body.get("model") or "mock-model")
        if RecordedRequest("POST", self.path, body).is_chat:
            self._chat(body, turn if turn is not None else [Text(SIDE_TEXT)], model)
            return
        if turn is None:
            self._send_json(404, {"error": {"message": "not found", "type": "not_found"}})
            return
        self._start_stream()
        for event in sse_events(turn, model=model):
            self.wfile.write(event)
        self.wfile.flush()

    def _chat(self, body: dict[str, Any], turn: Turn, model: str) -> None:
        if not body.get("stream"):
            self._send_json(200, chat_completion(turn, model=model))
            return
        self._start_stream()
        for chunk in chat_chunks(turn, model=model):
            self.wfile.write(chunk)
        self.wfile.flush()


def sse_events(turn: Turn, *, model: str) -> Iterator[bytes]:
    """The server-sent events of one streamed response."""
    response_id = f"resp_mock_{next(_ids):04d}"

    def event(kind: str, data: dict[str, Any]) -> bytes:
        return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n".encode()

    yield event("response.created", {"response": {"id": response_id, "model": model}})
    for index, item in enumerate(turn):
        if isinstance(item, Text):
            output: dict[str, Any] = {
                "type": "message",
                "id": f"msg_mock_{next(_ids):04d}",
                "role": "assistant",
                "content": [{"type": "output_text", "text": item.text, "annotations": []}],
            }
        else:
            namespace, _, name = item.name.rpartition(".")  # "multi_agent_v1.spawn_agent"
            output = {
                "type": "function_call",
                "id": f"fc_mock_{next(_ids):04d}",
                "call_id": item.id,
                "name": name,
                "arguments": json.dumps(item.input),
            }
            if namespace:
                output["namespace"] = namespace
        yield event("response.output_item.done", {"output_index": index, "item": output})
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    yield event(
        "response.completed",
        {"response": {"id": response_id, "model": model, "usage": usage, "output": []}},
    )


_CHAT_USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _chat_message(turn: Turn) -> dict[str, Any]:
    texts = [item.text for item in turn if isinstance(item, Text)]
    calls = [
        {
            "id": item.id,
            "type": "function",
            "function": {"name": item.name, "arguments": json.dumps(item.input)},
        }
        for item in turn
        if isinstance(item, ToolUse)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": "\n".join(texts) or None}
    if calls:
        message["tool_calls"] = calls
    return message


def chat_completion(turn: Turn, *, model: str) -> dict[str, Any]:
    """One Chat Completions answer, not streamed."""
    message = _chat_message(turn)
    return {
        "id": f"chatcmpl-mock-{next(_ids):04d}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
            }
        ],
        "usage": _CHAT_USAGE,
    }


def chat_chunks(turn: Turn, *, model: str) -> Iterator[bytes]:
    """The server-sent chunks of one streamed Chat Completions answer."""
    completion_id = f"chatcmpl-mock-{next(_ids):04d}"
    message = _chat_message(turn)

    def chunk(delta: dict[str, Any], finish: str | None, **extra: Any) -> bytes:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        data = {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [choice],
            **extra,
        }
        return f"data: {json.dumps(data)}\n\n".encode()

    yield chunk({"role": "assistant", "content": ""}, None)
    if message["content"]:
        yield chunk({"content": message["content"]}, None)
    for index, call in enumerate(message.get("tool_calls") or []):
        yield chunk({"tool_calls": [{"index": index, **call}]}, None)
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    yield chunk({}, finish, usage=_CHAT_USAGE)
    yield b"data: [DONE]\n\n"
