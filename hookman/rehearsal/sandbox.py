"""Where rehearsed hooks run, so that what they write cannot reach the user's project.

`fire` and `doctor --probe` run the project's hooks in this process. Inside `sandboxed`, the
working directory, `ctx.cwd` (the manifest's project dir), the payload's `cwd` and
`CLAUDE_PROJECT_DIR` all name a scratch copy of the project's `.claude/` directory (its
settings, hookman.toml and hook modules: what hooks commonly read), and the variables a
desktop notifier needs (DISPLAY, WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS) are unset, with
NOTIFY_DESKTOP=0 for the bundled notify template. Tool inputs keep their paths (a
linter must read the file the call names), so a hook that writes to a path it is given, or to
an absolute path it builds itself (e.g. under the user's home), still escapes: the report's
`sandbox.note` says so.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from hookman.project.location import CLAUDE_DIR

SANDBOX_NAME = "project"
COPY_LIMIT_BYTES = 16 * 1024 * 1024
UNSET = ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS")
SET = {"NOTIFY_DESKTOP": "0"}
ESCAPES = (
    "hooks ran in a scratch copy of the project's .claude/ (cwd, ctx.cwd, the payload's cwd "
    "and CLAUDE_PROJECT_DIR name it) with desktop notifications off; only writes to paths the "
    "payload's tool input names, or to absolute paths a hook builds itself (e.g. under your "
    "home directory), reach outside it"
)


def sandbox_project(project_dir: Path, scratch: str) -> Path:
    """A scratch project holding a copy of `project_dir`'s .claude/ (symlinks kept as links,
    nothing copied past COPY_LIMIT_BYTES)."""
    target = Path(scratch) / SANDBOX_NAME
    target.mkdir(parents=True, exist_ok=True)
    source = project_dir / CLAUDE_DIR
    budget = [COPY_LIMIT_BYTES]

    def copy(src: str, dst: str) -> None:
        with suppress(OSError):
            size = os.path.getsize(src)
            if size <= budget[0]:
                budget[0] -= size
                shutil.copy2(src, dst)

    if source.is_dir() and not source.is_symlink():
        with suppress(OSError, shutil.Error):
            shutil.copytree(source, target / CLAUDE_DIR, symlinks=True, copy_function=copy)
    return target


@contextmanager
def sandboxed(directory: Path) -> Iterator[None]:
    """cwd and the environment point at `directory` for the block, then are put back."""
    saved_env = {name: os.environ.get(name) for name in (*UNSET, *SET, "CLAUDE_PROJECT_DIR")}
    saved_cwd = os.getcwd()
    try:
        for name in UNSET:
            os.environ.pop(name, None)
        os.environ.update(SET)
        os.environ["CLAUDE_PROJECT_DIR"] = str(directory)
        os.chdir(directory)
        yield
    finally:
        with suppress(OSError):
            os.chdir(saved_cwd)
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
