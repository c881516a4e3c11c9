"""Reading commands run without the CLI layer when their command line is plain.

`hookman list` and `hookman doctor` are typed often and do little: importing typer and
building its click command costs more than most of their work (BENCHMARKS.md, "`list` and
`doctor` against the firing log"). When every word after the command is one of its own
long options from the command index (`--json`, `--project DIR`, `--project=DIR`), the
command's function is called here with what typer would pass it: only the options given,
converted as typer converts them. Anything else (`--help`, a short option, an unknown or
repeated word, a value that looks like an option) returns None and typer parses the line,
so its help and usage errors stay its own. A failure goes through the CLI's error handler
(cli/error_handler.py), which loads typer then: the same line, hint and exit code.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LEAN_COMMANDS = ("list", "doctor")
INDEX_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "command_index.json")


def main(name: str, words: list[str]) -> int | None:
    """Run command `name` with `words`; None when typer must parse them."""
    entry = _entry(name)
    arguments = None if entry is None else parse(entry, words)
    if entry is None or arguments is None:
        return None
    module, _, attribute = entry["function"].partition(":")
    try:
        function = getattr(__import__(module, fromlist=["__name__"]), attribute)
        code = function(**arguments)
    except SystemExit as exit_:  # as cli/app.py's main reads one
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException as error:  # handed to the CLI's own error handler
        code = _handled(error)
    return _flush_stdout() or (code or 0)


def parse(entry: dict[str, Any], words: list[str]) -> dict[str, Any] | None:
    """The keyword arguments typer would pass for `words`, or None when they are not plain
    long options of the command, each given once."""
    params = entry["params"]
    if entry["rest"] or any(not _plain(param) for param in params):
        return None
    by_flag = {flag: param for param in params for flag in param["flags"]}
    arguments: dict[str, Any] = {}
    remaining = iter(words)
    for word in remaining:
        flag, equals, value = word.partition("=")
        param = by_flag.get(flag)
        if param is None or not flag.startswith("--") or param["dest"] in arguments:
            return None
        if param["flag"]:
            if equals:
                return None
            arguments[param["dest"]] = param["value"]
            continue
        if not equals:
            value = next(remaining, "")
        converted = _converted(param["type"], value)
        if converted is None:
            return None
        arguments[param["dest"]] = converted
    return arguments


def _plain(param: dict[str, Any]) -> bool:
    return (
        param["kind"] == "option"
        and not (param["multiple"] or param["secondary"] or param["passthrough"])
        and not param["required"]
    )


def _converted(kind: str, value: str) -> Any:
    if not value or value.startswith("-"):
        return None  # typer's to judge (a missing value, an option taken for one)
    if kind == "str":
        return value
    if kind == "path":
        from pathlib import Path

        return Path(value)
    return None


def _entry(name: str) -> dict[str, Any] | None:
    from hookman.bridge import lean_json

    try:
        with open(INDEX_FILE, "rb") as handle:
            index = lean_json.loads(handle.read())
    except (OSError, ValueError):
        return None
    found = [entry for entry in index["commands"] if entry["path"] == [name]]  # type: ignore[index]
    return found[0] if found else None


def _handled(error: BaseException) -> int:
    """The exit code (and the printed line) of the CLI's error handler for `error`."""
    import typer

    from hookman.cli.error_handler import run_command

    def again() -> None:
        raise error

    try:
        run_command(False, again)
    except typer.Exit as exit_:
        return int(exit_.exit_code)
    return 1  # pragma: no cover - run_command always exits


def _flush_stdout() -> int:
    """As cli/app.py: output into a pipe the reader closed ends quietly (exit 141)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        from hookman.cli.error_handler import BROKEN_PIPE_EXIT, silence_stdout

        silence_stdout()
        return BROKEN_PIPE_EXIT
    return 0
