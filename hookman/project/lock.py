"""One lock per project, held while hookman changes hookman.toml, settings.local.json and the
manifest, so these three change together as one transaction.

The lock file lives in hookman's per-project state dir, never inside the user's project (it
would show up in `git status` and could be committed).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

from hookman import paths
from hookman.bridge.private_dir import make_private_dir
from hookman.errors import HookmanError

LOCK_FILE_NAME = "project.lock"


def project_lock_path(project_dir: Path) -> Path:
    return paths.project_state_dir(project_dir) / LOCK_FILE_NAME


@contextmanager
def project_lock(project_dir: Path, *, timeout: float = 30.0) -> Iterator[None]:
    """Hold the project's lock for the `with` block.

    Waits up to `timeout` seconds for another hookman to finish; after that raises
    HookmanError rather than waiting forever. Re-entrant within one thread; other threads and
    processes wait.
    """
    lock_path = project_lock_path(project_dir)
    _check_state_dir(lock_path.parent)
    import filelock  # here: it costs about 1.5x a bare Python start; only writers lock

    # One instance per lock path in this process, so a nested project_lock (a command calling
    # another that also locks) counts up instead of deadlocking on its own flock.
    lock = filelock.FileLock(lock_path, is_singleton=True)
    try:
        lock.acquire(timeout=timeout)
    except filelock.Timeout as error:
        raise HookmanError(
            f"another hookman is changing this project ({project_dir}) and did not finish "
            f"within {timeout:g} seconds.",
            "wait for the other hookman command to end and try again; if none is running, "
            f"delete {str(lock_path)!r}.",
        ) from error
    except OSError as error:
        raise HookmanError(
            f"hookman cannot take its lock file {str(lock_path)!r}: {error.strerror or error}.",
            "check the permissions of hookman's state directory, or set HOOKMAN_HOME.",
        ) from error
    try:
        yield
    finally:
        lock.release()


def _check_state_dir(state_dir: Path) -> None:
    """Make the project's state directory (mode 0700) and refuse, before anything is written
    there, one another user could write: the launcher and manifest live in it, and the runner
    loads the hooks' bytecode from it (bridge/private_dir.py)."""
    _resolved, problem = make_private_dir(str(state_dir))
    if problem is None:
        return
    if "cannot be made" in problem:
        raise HookmanError(
            f"hookman cannot create its state directory {str(state_dir)!r}: "
            f"{problem.split(' cannot be made ', 1)[1].strip('()')}.",
            "check the permissions of that directory, or set HOOKMAN_HOME to a writable one.",
        )
    raise HookmanError(
        f"hookman will not keep this project's launcher and state in {str(state_dir)!r}: "
        f"{problem}, so another user could change what the hooks run; nothing was changed.",
        "remove that directory, or make it yours and writable by you alone (`chmod go-w`), "
        "or set HOOKMAN_HOME (or XDG_STATE_HOME) to a directory only you can write.",
    )


def edit_lock(project_dir: Path, *, dry_run: bool) -> AbstractContextManager[None]:
    """The project lock for a command that edits the project; for a dry run, which only
    reads, no lock at all, so it creates nothing (not even hookman's state dir)."""
    return nullcontext() if dry_run else project_lock(project_dir)
