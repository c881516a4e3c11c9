"""Shared helpers for the command tests: run the CLI in-process, write hook modules."""

from __future__ import annotations

import json
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
        return {"block": True, "reason": "async cannot block"}
    pi.on("tool_call", note, tools=["Bash"])
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
