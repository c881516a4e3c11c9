"""Shared helpers for the command tests: run the CLI in-process, write hook modules."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from hookman.cli.app import app

GUARD = """\
def hook(pi):
    def check(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no"}
    pi.on("tool_call", check, tools=["Bash"])
"""
NOTES = """\
def hook(pi):
    pi.on("session_start", lambda event, ctx: None)
    pi.on("tool_result", lambda event, ctx: None, tools=["Edit", "Write"])
"""
DIRS = """\
def hook(pi):
    pi.on("DirectoryAdded", lambda event, ctx: None)
    pi.on("tool_call", lambda event, ctx: None, tools=["Read"])
"""

NOTIFIER = """\
def hook(pi):
    def note(event, ctx):
        pi.send_message("NOTIFIED " + event["input"].get("command", ""))
        return {"content": [{"type": "text", "text": "async cannot rewrite"}]}
    pi.on("tool_result", note, tools=["Bash"])
"""
# A tool_call hook installed with --async: its guarded part stays blocking.
ASYNC_GUARD = """\
def hook(pi):
    def note(event, ctx):
        pi.send_message("NOTIFIED " + event["input"].get("command", ""))
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "still blocks"}
    pi.on("tool_call", note, tools=["Bash"])
    pi.on("tool_result", note, tools=["Bash"])
"""

ASYNC_VERSION = ("--claude-version", "2.1.328")


def hookman(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def hookman_json(*args: str) -> dict[str, Any]:
    result = hookman(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def write_hook(project: Path, name: str, source: str) -> Path:
    path = project / "hooks" / f"{name}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return path


def local_settings(project: Path) -> dict[str, Any]:
    return json.loads((project / ".claude" / "settings.local.json").read_text())


def snapshot(*paths: Path) -> dict[Path, tuple[bytes, int] | None]:
    """Bytes and mtime of each file (None when absent)."""
    return {
        path: (path.read_bytes(), path.stat().st_mtime_ns) if path.exists() else None
        for path in paths
    }


ANSI_SEQUENCE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
TERMINAL_COLUMNS = 100


def run_on_terminal(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    """Run `hookman ARGS` on a pseudo-terminal of TERMINAL_COLUMNS columns, as a user would.

    Returns (exit code, the text with ANSI styling removed, the raw text): stdout and
    stderr share the terminal, and line endings are normalised to \\n. `env` adds to the
    environment (NO_COLOR is dropped from the inherited one).
    """
    main_fd, child_fd = pty.openpty()
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, TERMINAL_COLUMNS, 0, 0))
    environment = {
        key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "COLUMNS")
    }
    environment.update(TERM="xterm-256color", PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    process = subprocess.Popen(
        [sys.executable, "-m", "hookman", *args],
        stdin=child_fd,
        stdout=child_fd,
        stderr=child_fd,
        cwd=cwd,
        env=environment,
        close_fds=True,
    )
    os.close(child_fd)
    chunks: list[bytes] = []
    while True:
        try:
            data = os.read(main_fd, 65536)
        except OSError:  # EIO: the child side is closed
            break
        if not data:
            break
        chunks.append(data)
    process.wait(timeout=60)
    os.close(main_fd)
    raw = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return process.returncode, ANSI_SEQUENCE.sub("", raw), raw


def run_piped(*args: str, cwd: Path) -> tuple[int, str, str]:
    """Run `hookman ARGS` with stdout and stderr piped (as in a script or CI)."""
    done = subprocess.run(
        [sys.executable, "-m", "hookman", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        timeout=60,
    )
    return done.returncode, done.stdout, done.stderr


def pulled_after_install(project: Path, *files: Path) -> None:
    """Date `files` (written since install, as a pull would) and their directories past the
    sentinel's stamp
    (project/sentinel.py): install dates the stamp up to a second ahead, and a file changed
    within that second is the prompt gate's to catch, not the sentinel's."""

    wait_past_stamp(project)
    for path in files:  # dated now, as a pull made now dates them
        os.utime(path)
        # git writes a pulled file anew (a new inode), which changes its directory too
        os.utime(path.parent)


def wait_past_stamp(project: Path) -> None:
    """Until the clock is past the sentinel's stamp (up to a second ahead of install): what
    a pull made then writes is newer than it, as a real pull, made later, is."""
    from hookman.project.sentinel import stamp_path

    stamp = stamp_path(project).stat().st_mtime
    while time.time() <= stamp + 0.01:
        time.sleep(0.05)


def matcher_matches(matcher: str | None, tool: str) -> bool:
    """Claude Code's rule (docs/claude-code-facts.md, matchers): a list of exact names when
    the matcher has only letters, digits, `_`, `|`, `,`, `-` and spaces, else an unanchored
    JavaScript regex (what hookman writes reads the same in Python's `re`)."""
    if not matcher or matcher == "*":
        return True
    if re.fullmatch(r"[A-Za-z0-9_|, -]+", matcher):
        return tool in [name.strip() for name in re.split(r"[|,]", matcher)]
    return re.search(matcher, tool) is not None


def tool_payload(project: Path, tool: str, event: str = "PreToolUse") -> dict[str, Any]:
    """A `tool` call as Claude Code sends it: `rm -rf victim` for Bash, a file otherwise."""
    return {
        "session_id": "s",
        "transcript_path": str(project / "t.jsonl"),
        "cwd": str(project),
        "hook_event_name": event,
        "permission_mode": "default",
        "tool_name": tool,
        "tool_input": {"command": "rm -rf victim"}
        if tool == "Bash"
        else {"file_path": str(project / "x"), "content": "x"},
        "tool_use_id": "toolu_1",
    }


def client_verdicts(
    project: Path, tool: str, *, event: str = "PreToolUse", shell: str = "/bin/sh"
) -> list[Any]:
    """What Claude Code does with an `event` call of `tool`: it runs, under `shell -c`, every
    entry of settings.local.json whose matcher matches (tests/bridge/attack_support.py
    run_settings_command judges each answer); one verdict per entry run, none when no entry
    reaches the call (the tool then runs without hookman)."""
    from tests.bridge.attack_support import run_settings_command

    verdicts = []
    for group in local_settings(project).get("hooks", {}).get(event, []):
        if not matcher_matches(group.get("matcher"), tool):
            continue
        for handler in group.get("hooks", []):
            verdicts.append(
                run_settings_command(
                    handler["command"],
                    event,
                    tool_payload(project, tool, event),
                    timeout=handler.get("timeout", 600),
                    cwd=project,
                    shell=shell,
                )
            )
    return verdicts
