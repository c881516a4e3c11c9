"""Claude Code tool responses <-> the pi tool_result `content`/`details`, and back.

The hook sees `content` (text items) and `details` (the raw tool_response). When a hook
overrides them, the new output must go back in the tool's own output shape, because Claude
Code renders `updatedToolOutput` with the tool's own formatter (Bash: `stdout`/`stderr`).
"""

from __future__ import annotations

from hookman.bridge import lean_json
from hookman.bridge.content_text import content_text, text_item

# Fields that carry a tool's main text, for responses that are objects (Bash has its own rule).
_TEXT_FIELDS = ("content", "result", "output")


def content_from_response(response: object) -> list[dict[str, object]]:
    """The tool_result `content` a hook sees for a Claude Code `tool_response`."""
    if response is None:
        return []
    if isinstance(response, str):
        return [text_item(response)]
    if isinstance(response, list) and all(
        isinstance(item, dict) and "type" in item for item in response
    ):
        return [dict(item) for item in response]
    if isinstance(response, dict):
        text = _main_text(response)
        if text is not None:
            return [text_item(text)]
    return [text_item(lean_json.dumps(response, ensure_ascii=False))]


def _main_text(response: dict[str, object]) -> str | None:
    stdout = response.get("stdout")
    if isinstance(stdout, str):
        stderr = response.get("stderr")
        if isinstance(stderr, str) and stderr:
            return f"{stdout}\n{stderr}" if stdout else stderr
        return stdout
    file = response.get("file")
    if isinstance(file, dict) and isinstance(file.get("content"), str):
        return file["content"]
    for field in _TEXT_FIELDS:
        value = response.get(field)
        if isinstance(value, str):
            return value
    return None


def rebuild_response(response: object, text: str) -> object:
    """`response` in its own shape, with its main text replaced by `text`."""
    if isinstance(response, list):
        return [text_item(text)]
    if isinstance(response, dict):
        if "stdout" in response:
            return {**response, "stdout": text, "stderr": ""}
        file = response.get("file")
        if isinstance(file, dict) and "content" in file:
            return {**response, "file": {**file, "content": text}}
        for field in _TEXT_FIELDS:
            if isinstance(response.get(field), str):
                return {**response, field: text}
    return text


class ToolOutputOverride:
    """What a tool_result handler changed, resolved against the original response."""

    __slots__ = ("content", "content_changed", "details", "details_changed", "response")

    def __init__(self, response: object, content: object, details: object, result: dict) -> None:
        self.response = response
        new_content = result.get("content")
        new_details = result.get("details")
        # `None` falls back to the original, as in the pi tool wrapper (a hook cannot clear).
        self.content_changed = new_content is not None and new_content != content
        self.details_changed = new_details is not None and new_details != details
        self.content = new_content if new_content is not None else content
        self.details = new_details if new_details is not None else details

    @property
    def changed(self) -> bool:
        return self.content_changed or self.details_changed

    def updated_tool_output(self) -> object:
        """The replacement for `tool_response`, in the tool's own output shape."""
        base = self.details if self.details_changed else self.response
        if not self.content_changed:
            return base
        return rebuild_response(base, content_text(self.content))

    def updated_mcp_tool_output(self) -> object:
        """The replacement for an MCP tool's output (its content blocks)."""
        if self.content_changed:
            content = self.content
            return content if isinstance(content, list) else [text_item(content_text(content))]
        return self.details
