"""The `statusLine` that runs `hookman statusline`: whether Claude Code can run it, and
whether it is this hookman's (project/status_line_entry.py tells hookman's apart).

Claude Code runs the statusLine command with its own PATH, which often lacks the virtual
environment hookman is installed in: a bare `hookman statusline` then prints nothing, with no
error anywhere. Read from the settings files (which one wins: managed, then local, project,
user); with `--probe` the command also runs once on a sample status payload.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from hookman.doctor.context import Context
from hookman.doctor.model import Finding, Source
from hookman.project.status_line_entry import (
    STATUS_LINE_KEY,
    StatusLineCommand,
    hookman_status_line,
)

INSTALL_FIX = (
    "run `hookman statusline --install` (it writes the statusLine with this Python's path)."
)
RUN_TIMEOUT_S = 10.0


def check_status_line(ctx: Context, *, run: bool) -> None:
    """Findings about the statusLine Claude Code uses here, when it is hookman's."""
    source = _winning_source(ctx)
    if source is None:
        return
    value = source.data[STATUS_LINE_KEY]
    found = hookman_status_line(value)
    if found is None:
        return
    problem = _static_problem(found, source)
    if problem is not None:
        ctx.add(problem)
        return
    if found.interpreter is not None and not _same_file(found.interpreter, sys.executable):
        ctx.add(
            Finding(
                "statusline-other-hookman",
                "info",
                source.path,
                f"the statusLine runs hookman with {found.interpreter}, not with this "
                f"hookman's Python ({sys.executable}).",
                f"to use this hookman: {INSTALL_FIX}",
                path=STATUS_LINE_KEY,
            )
        )
    if run:
        failure = _run_problem(value["command"], ctx, source)
        if failure is not None:
            ctx.add(failure)


def _winning_source(ctx: Context) -> Source | None:
    """The settings file whose statusLine the client uses (managed wins, then local,
    project, user)."""
    order = ("managed", "local", "project", "user")
    for kind in order:
        for source in ctx.sources.settings():
            if (
                source.kind == kind
                and isinstance(source.data, dict)
                and STATUS_LINE_KEY in source.data
            ):
                return source
    return None


def _static_problem(found: StatusLineCommand, source: Source) -> Finding | None:
    program = found.program
    if "/" not in program:
        where = shutil.which(program)
        seen = f" (this shell finds it at {where})" if where else ""
        return Finding(
            "statusline-bare-name",
            "warning",
            source.path,
            f"the statusLine runs `{program}` by name{seen}: Claude Code finds it only when "
            "its own PATH holds hookman's environment, and otherwise shows no status line, "
            "with no error.",
            INSTALL_FIX
            if source.kind == "local"
            else f"{INSTALL_FIX[:-1]}, then remove the statusLine from {source.path}.",
            path=STATUS_LINE_KEY,
        )
    if not os.path.isfile(program) or not os.access(program, os.X_OK):
        return Finding(
            "statusline-missing",
            "error",
            source.path,
            f"the statusLine runs {program}, which is not an executable file here (a removed "
            "virtual environment?), so Claude Code shows no status line.",
            INSTALL_FIX,
            path=STATUS_LINE_KEY,
        )
    return None


def _run_problem(command: str, ctx: Context, source: Source) -> Finding | None:
    payload = json.dumps(
        {"session_id": "doctor probe", "workspace": {"project_dir": str(ctx.project_dir)}}
    )
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", command],
            input=payload,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            check=False,
            cwd=ctx.project_dir,
        )
    except subprocess.TimeoutExpired:
        reason = f"did not end within {RUN_TIMEOUT_S:g} seconds"
    except OSError as error:
        reason = f"could not start: {error.strerror or error}"
    else:
        if done.returncode == 0:
            return None
        said = (done.stderr.strip().splitlines() or [""])[-1]
        reason = f"exited with status {done.returncode}" + (f" ({said})" if said else "")
    return Finding(
        "statusline-fails",
        "error",
        source.path,
        f"the statusLine command {reason}, so Claude Code shows no status line.",
        INSTALL_FIX,
        path=STATUS_LINE_KEY,
    )


def _same_file(first: str, second: str) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False
