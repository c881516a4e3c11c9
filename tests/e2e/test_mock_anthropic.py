"""The mock Messages API on its own: the SSE stream it writes, routing, recording."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .mock_anthropic import (
    EXHAUSTED_TEXT,
    SIDE_REQUEST_TEXT,
    MockAnthropic,
    Text,
    ToolUse,
    bash,
    say,
    sse_events,
)

pytestmark = pytest.mark.e2e

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
blocks = st.one_of(
    st.builds(Text, st.text()),
    st.builds(
        ToolUse,
        st.sampled_from(["Bash", "Read", "Agent"]),
        st.dictionaries(st.text(), json_values, max_size=4),
    ),
)


def parse_sse(stream: bytes) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for chunk in stream.decode().split("\n\n"):
        if not chunk:
            continue
        kind_line, data_line = chunk.split("\n")
        assert kind_line.startswith("event: ") and data_line.startswith("data: ")
        data = json.loads(data_line.removeprefix("data: "))
        assert data["type"] == kind_line.removeprefix("event: ")
        events.append((data["type"], data))
    return events


def rebuild_turn(events: list[tuple[str, dict[str, Any]]]) -> list[Text | ToolUse]:
    rebuilt: list[Text | ToolUse] = []
    for kind, data in events:
        if kind == "content_block_start":
            assert data["index"] == len(rebuilt)
            start = data["content_block"]
            rebuilt.append(
                Text("") if start["type"] == "text" else ToolUse(start["name"], {}, start["id"])
            )
        elif kind == "content_block_delta":
            block, delta = rebuilt[data["index"]], data["delta"]
            if isinstance(block, Text):
                rebuilt[data["index"]] = Text(block.text + delta["text"])
            else:
                rebuilt[data["index"]] = ToolUse(
                    block.name, json.loads(delta["partial_json"]), block.id
                )
    return rebuilt


@settings(max_examples=60, deadline=None)
@given(st.lists(blocks, min_size=1, max_size=4))
def test_the_stream_carries_every_block_of_the_turn_exactly(turn: list[Text | ToolUse]) -> None:
    events = parse_sse(b"".join(sse_events(turn, model="m")))

    kinds = [kind for kind, _ in events]
    assert kinds[0] == "message_start"
    assert kinds[-2:] == ["message_delta", "message_stop"]
    assert kinds[1:-2] == [
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
    ] * len(turn)
    assert rebuild_turn(events) == turn
    has_tool = any(isinstance(block, ToolUse) for block in turn)
    assert events[-2][1]["delta"]["stop_reason"] == ("tool_use" if has_tool else "end_turn")


@pytest.fixture
def mock(tmp_path: Path) -> Iterator[MockAnthropic]:
    server = MockAnthropic(unix_socket=tmp_path / "api.sock").start()
    yield server
    server.stop()


def post(mock: MockAnthropic, body: dict[str, Any], path: str = "/v1/messages?beta=true") -> bytes:
    request = urllib.request.Request(mock.url + path, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


def conversation(text: str, *, tools: bool = True) -> dict[str, Any]:
    body: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": text}]}
    if tools:
        body["tools"] = [{"name": "Bash"}]
    return body


def streamed_texts(stream: bytes) -> list[str]:
    return [b.text for b in rebuild_turn(parse_sse(stream)) if isinstance(b, Text)]


def test_main_requests_consume_the_script_in_order_then_say_it_is_exhausted(
    mock: MockAnthropic,
) -> None:
    mock.script([say("first"), say("second")])

    answers = [streamed_texts(post(mock, conversation("hi"))) for _ in range(3)]

    assert answers == [["first"], ["second"], [EXHAUSTED_TEXT]]
    assert [r.route for r in mock.requests] == ["main"] * 3
    assert mock.remaining_turns() == {"main": 0}


def test_side_requests_never_consume_the_script(mock: MockAnthropic) -> None:
    mock.script([say("scripted")])

    untooled = streamed_texts(post(mock, conversation("title please", tools=False)))
    summary = streamed_texts(post(mock, conversation("CRITICAL: Do NOT call any tools.")))
    counted = json.loads(post(mock, conversation("x"), "/v1/messages/count_tokens"))
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(mock.url + "/", timeout=10)

    assert untooled == summary == [SIDE_REQUEST_TEXT]
    assert counted == {"input_tokens": 1000}
    assert [r.route for r in mock.requests] == ["side"] * 4
    assert mock.remaining_turns() == {"main": 1}


def test_a_subagent_conversation_is_routed_by_the_marker_in_its_first_message(
    mock: MockAnthropic,
) -> None:
    mock.script([say("main")], {"SUB-1": [bash("echo sub"), say("sub done")]})

    sub_first = rebuild_turn(parse_sse(post(mock, conversation("SUB-1: do the thing"))))
    main = streamed_texts(post(mock, conversation("the user's prompt")))
    later = {
        "model": "m",
        "tools": [{}],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "SUB-1: do the thing"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "..."}]},
            {"role": "user", "content": "more"},
        ],
    }
    sub_second = streamed_texts(post(mock, later))

    assert isinstance(sub_first[0], ToolUse) and sub_first[0].input["command"] == "echo sub"
    assert main == ["main"] and sub_second == ["sub done"]
    assert [r.route for r in mock.requests] == ["subagent", "main", "subagent"]


def test_every_request_body_is_recorded_and_its_text_is_searchable(mock: MockAnthropic) -> None:
    mock.script([say("ok")])
    body = {
        "model": "m",
        "tools": [{}],
        "messages": [
            {"role": "system", "content": "hook context: CTX-1"},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "content": [{"type": "text", "text": "RESULT-2"}]}
                ],
            },
        ],
    }

    post(mock, body)

    [recorded] = mock.requests
    assert recorded.body == body
    assert "CTX-1" in recorded.message_text() and "RESULT-2" in recorded.message_text()
    assert recorded.tool_results()[0]["content"][0]["text"] == "RESULT-2"


def test_the_unix_socket_serves_the_same_api(mock: MockAnthropic) -> None:
    import http.client
    import socket

    class UnixConnection(http.client.HTTPConnection):
        def connect(self) -> None:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.connect(str(mock.unix_socket))

    mock.script([say("over the socket")])
    connection = UnixConnection("localhost")
    connection.request("POST", "/v1/messages", body=json.dumps(conversation("hi")))
    stream = connection.getresponse().read()
    connection.close()

    assert streamed_texts(stream) == ["over the socket"]
