"""The runner's command without the launcher, as hookman wrote settings entries before it had
one (`install` still recognises and replaces them): tests and bench/run_overhead.py write
such entries. Not product code: hookman writes only the launcher form."""

from __future__ import annotations

import functools
import re
import shlex
import subprocess
import sys
from pathlib import Path

from hookman.bridge.protocol import ASYNC_FLAG, MANIFEST_FLAG

RUNNER_CODE = "from hookman.__main__ import main; raise SystemExit(main())"
NO_SAFE_PATH_SINCE = (3, 11)
_INTERPRETER_NAME_VERSION = re.compile(r"python(\d+)\.(\d+)")


def build_direct_command(
    event: str, manifest_path: Path, *, python: str | None = None, run_async: bool = False
) -> str:
    """The runner without the launcher, as hookman wrote entries before it had one (the
    launcher runs the same words with `--launched`)."""
    interpreter = python if python is not None else sys.executable
    words = [interpreter]
    if supports_safe_path_flag(interpreter):
        words.append("-P")
    words += ["-c", RUNNER_CODE, "run", event]
    if run_async:
        words.append(ASYNC_FLAG)
    words += [MANIFEST_FLAG, str(manifest_path)]
    return " ".join(shlex.quote(word) for word in words)


def supports_safe_path_flag(interpreter: str) -> bool:
    """Whether the interpreter takes -P (no unsafe sys.path[0]): Python 3.11 and later."""
    return _interpreter_version(interpreter) >= NO_SAFE_PATH_SINCE


@functools.lru_cache(maxsize=16)
def _interpreter_version(interpreter: str) -> tuple[int, int]:
    """The interpreter's (major, minor), or (0, 0) when it cannot be learned cheaply."""
    if _same_file(interpreter, sys.executable):
        return sys.version_info[:2]
    named = _INTERPRETER_NAME_VERSION.fullmatch(Path(interpreter).name)
    if named:
        return (int(named.group(1)), int(named.group(2)))
    try:
        done = subprocess.run(
            [interpreter, "-I", "-S", "-c", "import sys; print(*sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
        major, minor = (int(part) for part in done.stdout.split())
    except (OSError, subprocess.SubprocessError, ValueError):
        return (0, 0)
    return (major, minor) if done.returncode == 0 else (0, 0)


def _same_file(first: str, second: str) -> bool:
    try:
        return Path(first).samefile(second)
    except OSError:
        return False
