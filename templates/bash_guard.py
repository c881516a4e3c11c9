"""Bash guard: deny dangerous shell commands before they run (tool_call)."""

from __future__ import annotations

import re
import shlex
from typing import Any

# Each pattern names what it stops; the reason is what the model reads, so it says what to
# do instead. Patterns are searched anywhere in the command: `cd x && git push -f` is caught.
DANGEROUS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"\bgit\s+push\b.*(\s--force\b|\s--force-with-lease\b|\s-f\b)"),
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
RM_RF_REASON = "rm -rf deletes without asking; remove the files you mean by name"
# Splits a command line into simple commands: `a && b; c | d` -> a, b, c, d.
COMMAND_SEPARATORS = re.compile(r"&&|\|\||[;|&\n()`]|\$\(")


def is_recursive_force_rm(command: str, depth: int = 0) -> bool:
    """True when some simple command in `command` runs rm with both a recursive flag
    (-r, -R, --recursive) and a force flag (-f, --force), in any order or spelling:
    `rm -rf`, `rm -fR`, `rm -r -f`, `sudo /bin/rm --recursive --force`, `xargs rm -rf`,
    and inside quoted commands such as `bash -c "rm -rf /"`."""
    for part in COMMAND_SEPARATORS.split(command):
        try:
            words = shlex.split(part)
        except ValueError:  # unbalanced quotes: judge the raw words rather than give up
            words = part.split()
        # A quoted argument may itself be a command line (`sh -c "..."`, `eval "..."`).
        if depth < 3 and any(
            " " in word and is_recursive_force_rm(word, depth + 1) for word in words
        ):
            return True
        rm_at = next((i for i, word in enumerate(words) if word.rsplit("/", 1)[-1] == "rm"), None)
        if rm_at is None:
            continue
        flags = [word for word in words[rm_at + 1 :] if word.startswith("-")]
        short = "".join(flag[1:] for flag in flags if not flag.startswith("--"))
        recursive = "r" in short or "R" in short or "--recursive" in flags
        force = "f" in short or "--force" in flags
        if recursive and force:
            return True
    return False


def check_command(event: dict[str, Any], ctx: Any) -> dict[str, Any] | None:
    command = event["input"].get("command")
    if not isinstance(command, str):
        return None
    if is_recursive_force_rm(command):
        return {"block": True, "reason": f"Blocked by the bash guard: {RM_RF_REASON}."}
    for pattern, why in DANGEROUS:
        if pattern.search(command):
            return {"block": True, "reason": f"Blocked by the bash guard: {why}."}
    return None  # no opinion: the call goes on


def hook(pi: Any) -> None:
    # tools=["Bash"] narrows the Claude Code matcher, so other tools never start this hook.
    pi.on("tool_call", check_command, tools=["Bash"])
