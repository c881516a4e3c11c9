"""Plain text out of the pi content shapes: strings, `{type: "text", text}` item lists, and
messages whose `content` is either."""

from __future__ import annotations


def text_item(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def content_text(content: object) -> str:
    """The text items of a content list joined by newlines (a string is its own text)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts: list[str] = []
        for item in content:
            if isinstance(item, str):
                texts.append(item)
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                texts.append(item["text"])
        return "\n".join(texts)
    if isinstance(content, dict) and isinstance(content.get("text"), str):
        return content["text"]
    return str(content)


def message_text(message: object) -> str:
    """What a `send_message` or before_agent_start message says to the model."""
    if isinstance(message, dict):
        return content_text(message.get("content"))
    return content_text(message)
