"""Output redaction: replace secrets in tool output before the model sees them (tool_result)."""

from __future__ import annotations

import re
from typing import Any

REPLACEMENT = "[REDACTED]"
# Token shapes that are secret wherever they appear. Add your own; keep them specific, since
# a redaction the model cannot explain makes it retry the command.
SECRETS: list[re.Pattern[str]] = [
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),  # AWS access key id
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),  # GitHub tokens
    re.compile(r"\bsk-[A-Za-z0-9_-]{16,}\b"),  # OpenAI/Anthropic-style API keys
    re.compile(r"\bxox[abpr]-[A-Za-z0-9-]{10,}\b"),  # Slack tokens
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.DOTALL),
]
# `NAME=value` lines whose name says secret: the value goes, the name stays readable.
ASSIGNMENT = re.compile(
    r"(?im)^(\s*(?:export\s+)?[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_KEY)[A-Z0-9_]*\s*[=:]\s*)\S.*$"
)


def redact(text: str) -> str:
    for pattern in SECRETS:
        text = pattern.sub(REPLACEMENT, text)
    return ASSIGNMENT.sub(lambda match: match.group(1) + REPLACEMENT, text)


def redact_result(event: dict[str, Any], ctx: Any) -> dict[str, Any] | None:
    if event["is_error"]:
        return None  # a failed tool's error text cannot be replaced
    changed = False
    content = []
    for item in event["content"] or []:
        if isinstance(item, dict) and isinstance(item.get("text"), str):
            clean = redact(item["text"])
            changed = changed or clean != item["text"]
            item = {**item, "text": clean}
        content.append(item)
    # Returning nothing when nothing changed leaves the tool's output exactly as it was.
    return {"content": content} if changed else None


def hook(pi: Any) -> None:
    # Bash output is replaced in Bash's own shape; `hookman fire PostToolUse --payload F`
    # shows whether your Claude Code applies a replacement for another tool you add here.
    pi.on("tool_result", redact_result, tools=["Bash"])
