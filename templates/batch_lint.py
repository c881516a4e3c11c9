"""Batch linter: check the Python files a batch of tool calls edited (PostToolBatch)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

# Tools whose input names the file they changed (PostToolBatch reports each call of the batch).
EDIT_TOOLS = {"Edit": "file_path", "MultiEdit": "file_path", "Write": "file_path"}
SUFFIXES = (".py",)
MAX_REPORT_CHARS = 3000
SYNTAX_CHECK = """
import ast, sys
failed = False
for name in sys.argv[1:]:
    try:
        ast.parse(open(name, encoding="utf-8").read(), name)
    except SyntaxError as error:
        failed = True
        print(f"{name}:{error.lineno}: {error.msg}")
sys.exit(1 if failed else 0)
"""


def edited_files(payload: dict[str, Any], project_dir: str) -> list[str]:
    files: list[str] = []
    for call in payload.get("tool_calls") or []:
        key = EDIT_TOOLS.get(call.get("tool_name"))
        path = (call.get("tool_input") or {}).get(key) if key else None
        if isinstance(path, str) and path.endswith(SUFFIXES):
            absolute = Path(project_dir, path)  # an absolute `path` stays as it is
            if absolute.is_file() and str(absolute) not in files:
                files.append(str(absolute))
    return files


def lint_command(files: list[str]) -> list[str]:
    """ruff when it is installed; otherwise Python's own parser, which finds syntax errors
    (and, unlike py_compile, leaves no __pycache__ behind)."""
    ruff = shutil.which("ruff")
    if ruff:
        return [ruff, "check", "--quiet", "--output-format", "concise", *files]
    return [sys.executable, "-c", SYNTAX_CHECK, *files]


def hook(pi: Any) -> None:
    def lint_batch(event: dict[str, Any], ctx: Any) -> dict[str, Any] | None:
        files = edited_files(event, ctx.cwd)
        if not files:
            return None
        command = lint_command(files)
        result = pi.exec(command[0], command[1:], timeout=20)
        if result.code == 0:
            return None
        report = (result.stdout + result.stderr).strip()[:MAX_REPORT_CHARS]
        context = f"The linter found problems in the files you edited:\n{report}"
        # additionalContext tells the model what to fix, once, after the whole batch.
        return {
            "hookSpecificOutput": {
                "hookEventName": "PostToolBatch",
                "additionalContext": context,
            }
        }

    # A handler under Claude Code's own event name gets the raw payload and returns
    # Claude Code's output fields: PostToolBatch has no runtime event of its own.
    pi.on("PostToolBatch", lint_batch)
