"""Bash guard: deny dangerous shell commands before they run (tool_call)."""

from __future__ import annotations

import re
from typing import Any

# Each pattern names what it stops; the reason is what the model reads, so it says what to
# do instead. Patterns are searched anywhere in the command: `cd x && rm -rf /` is caught.
DANGEROUS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"\brm\s+(-[a-zA-Z]*r[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*r|-r\s+-f|-f\s+-r)\b"),
        "rm -rf deletes without asking; remove the files you mean by name",
    ),
    (
        re.compile(r"\bgit\s+push\b.*(\s--force\b|\s-f\b)"),
        "force-pushing rewrites shared history; push normally or ask the user",
    ),
    (
        re.compile(r"\bgit\s+reset\s+--hard\b"),
        "git reset --hard throws away uncommitted work; use git stash",
    ),
    (
        re.compile(r"\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z)?sh\b"),
        "piping a download into a shell runs unreviewed code; download and read it first",
    ),
    (re.compile(r"\bmkfs(\.\w+)?\b"), "mkfs formats a disk"),
    (re.compile(r"\bdd\b.*\bof=/dev/"), "dd onto a device overwrites it"),
    (re.compile(r"\bchmod\s+(-R\s+)?777\b"), "chmod 777 opens files to every user"),
]


def check_command(event: dict[str, Any], ctx: Any) -> dict[str, Any] | None:
    command = event["input"].get("command")
    if not isinstance(command, str):
        return None
    for pattern, why in DANGEROUS:
        if pattern.search(command):
            return {"block": True, "reason": f"Blocked by the bash guard: {why}."}
    return None  # no opinion: the call goes on


def hook(pi: Any) -> None:
    # tools=["Bash"] narrows the Claude Code matcher, so other tools never start this hook.
    pi.on("tool_call", check_command, tools=["Bash"])
