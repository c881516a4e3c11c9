"""Printing for the CLI: rich on a terminal, plain text when piped or NO_COLOR, JSON on --json."""

from __future__ import annotations

import json
import os
import sys
from functools import cache
from typing import Any

from rich.console import Console
from rich.markup import escape


def _plain() -> bool:
    return bool(os.environ.get("NO_COLOR")) or not sys.stdout.isatty()


@cache
def console() -> Console:
    plain = _plain()
    return Console(
        no_color=plain,
        highlight=not plain,
        soft_wrap=plain,
        force_terminal=None if not plain else False,
    )


@cache
def error_console() -> Console:
    plain = bool(os.environ.get("NO_COLOR")) or not sys.stderr.isatty()
    return Console(stderr=True, no_color=plain, highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """Machine-readable output: one JSON document on stdout, nothing else."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def print_error(message: str, hint: str | None = None) -> None:
    err = error_console()
    err.print(f"[bold red]hookman:[/] {escape(message)}", markup=True, highlight=False)
    if hint:
        err.print(f"  [dim]hint:[/] {escape(hint)}", markup=True, highlight=False)
