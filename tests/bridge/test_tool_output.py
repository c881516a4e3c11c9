from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.tool_output import (
    ToolOutputOverride,
    content_from_response,
    rebuild_response,
)

BASH = {"stdout": "hi", "stderr": "", "interrupted": False, "isImage": False}


def test_bash_content_is_stdout_then_stderr() -> None:
    assert content_from_response({**BASH, "stderr": "warn"}) == [
        {"type": "text", "text": "hi\nwarn"}
    ]
    assert content_from_response(BASH) == [{"type": "text", "text": "hi"}]


def test_other_response_shapes() -> None:
    assert content_from_response("plain") == [{"type": "text", "text": "plain"}]
    assert content_from_response(None) == []
    blocks = [{"type": "text", "text": "mcp"}]
    assert content_from_response(blocks) == blocks
    read = {"type": "text", "file": {"filePath": "/a", "content": "body"}}
    assert content_from_response(read) == [{"type": "text", "text": "body"}]
    assert content_from_response({"x": 1}) == [{"type": "text", "text": '{"x": 1}'}]


def test_rebuild_keeps_the_tools_shape() -> None:
    assert rebuild_response(BASH, "new") == {**BASH, "stdout": "new", "stderr": ""}
    read = {"type": "text", "file": {"filePath": "/a", "content": "body"}}
    assert rebuild_response(read, "new") == {
        "type": "text",
        "file": {"filePath": "/a", "content": "new"},
    }
    assert rebuild_response("plain", "new") == "new"
    assert rebuild_response([{"type": "text", "text": "x"}], "new") == [
        {"type": "text", "text": "new"}
    ]


def test_an_override_of_content_only() -> None:
    content = content_from_response(BASH)
    override = ToolOutputOverride(BASH, content, BASH, {"content": [{"type": "text", "text": "X"}]})

    assert override.changed and override.content_changed and not override.details_changed
    assert override.updated_tool_output() == {**BASH, "stdout": "X", "stderr": ""}
    assert override.updated_mcp_tool_output() == [{"type": "text", "text": "X"}]


def test_none_and_equal_values_are_no_override() -> None:
    content = content_from_response(BASH)
    assert not ToolOutputOverride(BASH, content, BASH, {}).changed
    assert not ToolOutputOverride(BASH, content, BASH, {"content": None, "details": None}).changed
    assert not ToolOutputOverride(BASH, content, BASH, {"content": list(content)}).changed


def test_a_details_override_is_the_new_output() -> None:
    details = {**BASH, "stdout": "clean"}
    override = ToolOutputOverride(BASH, content_from_response(BASH), BASH, {"details": details})

    assert override.updated_tool_output() == details


texts = st.text()


@given(stdout=texts, stderr=texts, new=texts)
def test_a_rebuilt_bash_response_shows_exactly_the_new_text(
    stdout: str, stderr: str, new: str
) -> None:
    response = {"stdout": stdout, "stderr": stderr, "interrupted": False}
    rebuilt = rebuild_response(response, new)

    assert content_from_response(rebuilt) == [{"type": "text", "text": new}]
    assert rebuilt["interrupted"] is False


@given(st.text(), texts)
def test_text_responses_round_trip(original: str, new: str) -> None:
    assert content_from_response(rebuild_response(original, new)) == [{"type": "text", "text": new}]
