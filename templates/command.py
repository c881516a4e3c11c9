"""Slash-style command: `hookman command todos` lists TODO and FIXME comments (register_command)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

MARKER = re.compile(r"#\s*(TODO|FIXME)\b:?\s*(.*)")
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", "build", "dist"}
MAX_LINES = 200


def find_todos(root: Path) -> list[str]:
    found: list[str] = []
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = Path(directory, name)
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            for number, line in enumerate(lines, start=1):
                match = MARKER.search(line)
                if match:
                    where = path.relative_to(root).as_posix()
                    found.append(f"{where}:{number}: {match.group(1)} {match.group(2)}".rstrip())
    return found[:MAX_LINES]


def todos(args: str, ctx: Any) -> str:
    # `args` is the rest of the command line: an optional subdirectory to search.
    root = Path(ctx.cwd, args.strip() or ".")
    found = find_todos(root)
    return "\n".join(found) if found else f"no TODO or FIXME under {args.strip() or '.'}"


def hook(pi: Any) -> None:
    pi.register_command("todos", description="List TODO and FIXME comments", handler=todos)
