"""A repeated bare `hookman install` whose inputs did not change, answered without the CLI.

A bare `install` that found nothing to write (install/sync.py `sync_if_nothing_changes`)
remembers, in the project's state dir (`install-unchanged`), what it printed and the stat
of every file its answer came from: hookman.toml, the settings and agents' hooks files, the
pins, the manifest and the launcher, the registry, each hook's module and the helper files
the subscriptions cache lists for it (what `bridge/guard_drift.py`'s `code-checked`
compares), the sentinels' stamp, the `claude` on PATH, the user's opt-in to the warm server
(serve/wire.py) and
what git reads to say whether settings.local.json is ignored; with the environment those
lookups depend on and hookman's own code. (What install comes to read, add here.) While every
one of those stats is the same, the next bare `install` prints the same lines and exits 0
without loading typer, the config or a hook: a hook whose code changed (its stat changed)
is learned again by the full install, as before. Anything else (arguments, a repository
hook, Codex or another agent's file to write, a file changed within the last second) takes
the full path.

Standard library and lean modules only: `lean_main` runs before typer loads (__main__.py).
"""

from __future__ import annotations

import json
import os
import sys
import time

from hookman.bridge.protocol import SENTINEL_STAMP_NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from pathlib import Path
    from typing import Any

    from hookman.install.sync import SyncResult
    from hookman.output import Printer

STAMP_NAME = "install-unchanged"
STAMP_FORMAT = 1
# A file changed this recently may change again within the same stat (a coarse clock):
# such a run remembers nothing ("racily clean", as git says).
RACY_NS = 1_000_000_000
_ENV_PREFIXES = ("HOOKMAN_", "XDG_", "GIT_", "CLAUDE_")
_ENV_NAMES = ("HOME", "PATH", "USERPROFILE")
# What git said of settings.local.json that another run says again while its files stay
_STABLE_GIT = frozenset({"already-ignored", "tracked", "not-a-work-tree"})


def lean_main(argv: list[str]) -> int | None:
    """A bare `hookman install` (or with `--project DIR`) answered from the stamp; None when
    the full command must run (anything else given, no stamp, an input changed)."""
    project = _project_argument(argv)
    if project is False:
        return None
    from hookman.errors import HookmanError
    from hookman.project.location import CLAUDE_DIR, checked_project_dir

    try:
        project_dir = checked_project_dir(project) if project else _claude_root(os.getcwd())
    except HookmanError:
        return None
    if project_dir is None or not os.path.isdir(os.path.join(project_dir, CLAUDE_DIR)):
        return None
    stamp = _read_stamp(project_dir)
    if stamp is None or not _still_current(stamp, project_dir):
        return None
    from hookman.output import console

    out = console()
    for objects, options in stamp["lines"]:
        out.print(*objects, **options)
    return int(stamp["code"])


class Recorder:
    """A printer that prints through `printer` and keeps each call, to replay it."""

    def __init__(self, printer: Printer) -> None:
        self._printer = printer
        self.lines: list[tuple[list[str], dict[str, Any]]] = []

    @property
    def is_terminal(self) -> bool:
        return self._printer.is_terminal

    def print(self, *objects: Any, **options: Any) -> None:
        self._printer.print(*objects, **options)
        self.lines.append(([str(item) for item in objects], dict(options)))


def started_ns() -> int:
    """The clock a run compares its inputs' stats with (`remember_unchanged`'s `since`)."""
    return time.time_ns()


def remember_unchanged(
    project_dir: Path, result: SyncResult, recorder: Recorder, code: int, since: int
) -> None:
    """Keep what this bare install printed, when it wrote nothing and its answer depends on
    nothing but the files listed (best effort: no stamp, the full path next time)."""
    files = _inputs(project_dir, result)
    if files is None or code != 0 or not _plain_options(recorder.lines):
        return
    stats = {path: _stat_text(path) for path in files}
    if any(_is_racy(path, since) for path in files):
        return
    stamp = {
        "format": STAMP_FORMAT,
        "hookman": _hookman_identity(),
        "env": _environment(),
        "files": stats,
        "lines": recorder.lines,
        "code": code,
    }
    state_dir = _state_dir(str(project_dir))
    if state_dir is None:
        return
    from hookman.bridge.state_file import replace_file

    replace_file(os.path.join(state_dir, STAMP_NAME), json.dumps(stamp))


def _project_argument(argv: Sequence[str]) -> str | bool | None:
    """The --project value, None for none, False for any other argument."""
    if not argv:
        return None
    if len(argv) == 1 and argv[0].startswith("--project="):
        return argv[0].partition("=")[2] or False
    if len(argv) == 2 and argv[0] == "--project" and argv[1] and not argv[1].startswith("-"):
        return argv[1]
    return False


def _claude_root(start: str) -> str | None:
    """location.project_root's answer when an ancestor holds .claude/ (else None: the git
    root, which that asks git for, is the full command's business)."""
    from hookman.project.location import CLAUDE_DIR

    here = os.path.realpath(start)
    home = os.path.realpath(os.path.expanduser("~"))
    candidate = here
    while True:
        if candidate != home and os.path.isdir(os.path.join(candidate, CLAUDE_DIR)):
            return candidate
        parent = os.path.dirname(candidate)
        if parent == candidate:
            return None
        candidate = parent


def _state_dir(project_dir: str) -> str | None:
    """The project's state dir when no other user can write there (else: no stamp)."""
    from hookman import user_dirs
    from hookman.bridge.private_dir import private_dir_problem

    state_dir = user_dirs.project_state_dir(os.path.realpath(project_dir))
    if private_dir_problem(state_dir) is not None:
        return None
    return state_dir


def _read_stamp(project_dir: str) -> dict[str, Any] | None:
    state_dir = _state_dir(project_dir)
    if state_dir is None:
        return None
    from hookman.bridge.state_file import read_text

    text = read_text(os.path.join(state_dir, STAMP_NAME))
    if text is None:
        return None
    try:
        stamp = json.loads(text)
    except ValueError:
        return None
    if not isinstance(stamp, dict) or stamp.get("format") != STAMP_FORMAT:
        return None
    if not isinstance(stamp.get("files"), dict) or not isinstance(stamp.get("lines"), list):
        return None
    return stamp


def _still_current(stamp: dict[str, Any], project_dir: str) -> bool:
    if stamp.get("hookman") != _hookman_identity() or stamp.get("env") != _environment():
        return False
    files: dict[str, str] = stamp["files"]
    if os.path.join(project_dir, ".claude", "hookman.toml") not in files:
        return False  # a stamp of another project's (a moved state dir): not this one's
    return all(_stat_text(path) == text for path, text in files.items())


def _plain_options(lines: Iterable[tuple[list[str], dict[str, Any]]]) -> bool:
    """Whether every call can be kept as JSON and replayed as it was made."""
    allowed = (str, bool, int, type(None))
    return all(isinstance(value, allowed) for _, options in lines for value in options.values())


def _stat_text(path: str) -> str:
    from hookman.bridge.project_moved import stat_text

    return stat_text(path)


def _is_racy(path: str, since: int) -> bool:
    try:
        found = os.stat(path)
    except OSError:
        return False
    if os.path.basename(path) == SENTINEL_STAMP_NAME:
        # empty, and its modification time set ahead on purpose (project/sentinel.py): a
        # touch is seen by its change time, which no one sets
        return found.st_ctime_ns > since - RACY_NS
    return max(found.st_mtime_ns, found.st_ctime_ns) > since - RACY_NS


def _environment() -> dict[str, str]:
    return {
        name: value
        for name, value in sorted(os.environ.items())
        if name in _ENV_NAMES or name.startswith(_ENV_PREFIXES)
    }


def _hookman_identity() -> list[Any]:
    """hookman's version, interpreter and code: an upgrade, or an edited checkout, makes
    every stamp stale."""
    import hookman

    package = os.path.dirname(os.path.abspath(hookman.__file__))
    newest, count, size = 0, 0, 0
    pending = [package]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.name == "__pycache__":
                    continue
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                    continue
                status = entry.stat(follow_symlinks=False)
                newest = max(newest, status.st_mtime_ns, status.st_ctime_ns)
                count += 1
                size += status.st_size
    return [hookman.__version__, sys.executable, package, newest, count, size]


def _inputs(project_dir: Path, result: SyncResult) -> list[str] | None:
    """Every file the answer of this bare install came from (None: one it depends on is
    not a file whose stat says it changed: a repository hook's store, another agent)."""
    if result.dry_run or result.missing or result.broken or result.subscription_changes:
        return None
    if result.codex is not None or result.codex_change is not None or result.agents:
        return None
    if result.repo_warnings or result.fetched or result.pin_changes or result.repaired:
        return None
    if any(hook.source.kind == "repo" for hook in result.hooks):
        return None
    from hookman.project.hooks_gitignore import PycacheIgnore

    if result.git is not None and result.git.outcome.value not in _STABLE_GIT:
        return None  # it wrote the exclude file, or git did not answer: say it again
    if result.pycache not in (PycacheIgnore.ALREADY, PycacheIgnore.NO_HOOKS_DIR):
        return None
    from hookman import paths
    from hookman.agents.codex_files import codex_hooks_path
    from hookman.install.agent_step import written_paths
    from hookman.project.launcher import launcher_path

    root = str(project_dir)
    claude = os.path.join(root, ".claude")
    files = [
        os.path.join(claude, name)
        for name in ("hookman.toml", "settings.local.json", "settings.json", "hookman-pins.json")
    ]
    # .claude/hooks/ appearing gets a .gitignore for its bytecode
    files += [os.path.join(claude, "hooks"), os.path.join(claude, "hooks", ".gitignore")]
    files += [str(codex_hooks_path(project_dir)), *map(str, written_paths(project_dir))]
    state = paths.project_state_dir(project_dir)
    manifest = state / "manifest.json"
    files += [str(manifest), str(launcher_path(project_dir)), str(paths.registry_path())]
    from hookman.bridge.guard_drift import CACHE_FILE_NAME
    from hookman.serve import wire

    files.append(str(state / CACHE_FILE_NAME))
    files.append(str(state / SENTINEL_STAMP_NAME))  # one gone or stale: install touches it
    # The user's opt-in to the warm server and its port decide which entries install writes.
    serve = wire.serve_dir()
    files += [os.path.join(serve, name) for name in (wire.USE_NAME, wire.PORT_NAME)]
    files.append(os.path.join(serve, wire.SECRET_NAME))
    modules = _module_files(str(manifest), str(state / CACHE_FILE_NAME))
    found = _claude_files()
    gitfiles = _git_files(root)
    if modules is None or gitfiles is None or found is None:
        return None
    return list(dict.fromkeys([*files, *modules, *found, *gitfiles]))


def _module_files(manifest: str, cache: str) -> list[str] | None:
    """Each installed (enabled) hook's module and the files its loading read, as the
    subscriptions cache lists them; None when one has no entry there."""
    try:
        with open(manifest, encoding="utf-8") as handle:
            hooks = json.load(handle).get("hooks") or []
        with open(cache, encoding="utf-8") as handle:
            modules = json.load(handle).get("modules") or {}
    except (OSError, ValueError, AttributeError):
        return None
    files: list[str] = []
    for hook in hooks:
        if not isinstance(hook, dict) or hook.get("repo") or hook.get("package_root"):
            return None
        path = hook.get("path")
        if not isinstance(path, str):
            return None
        entry = modules.get(path)
        sources = entry.get("sources") if isinstance(entry, dict) else None
        if not isinstance(sources, dict):
            return None  # learned afresh on every install: what it reads is not known
        files += [path, *(name for name in sources if isinstance(name, str))]
    return files


def _claude_files() -> list[str] | None:
    """Where `claude` is looked for on PATH (one appearing earlier is another client) and
    the file the one found resolves to (an upgrade rewrites or replaces it); None when that
    is a dispatcher (an asdf shim, mise, volta) whose answer can change while it does not,
    as client_version.binary_identity tells."""
    import shutil

    from hookman.catalog.client_version import binary_identity

    candidates = [
        os.path.join(folder or ".", "claude")
        for folder in os.environ.get("PATH", "").split(os.pathsep)
    ]
    found = shutil.which("claude")
    if found is not None and binary_identity(found) is None:
        return None
    return [*candidates, *([os.path.realpath(found)] if found else [])]


def _git_files(project_dir: str) -> list[str] | None:
    """What git reads to tell whether .claude/settings.local.json is ignored or tracked:
    the .gitignore files from .claude/ up to the work tree's root, the repository's
    exclude file, config and index, and the user's and system's git config and ignore
    file; None for a .git that is a file (a worktree: the exclude file is elsewhere)."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files = [
        os.path.join(home, ".gitconfig"),
        os.path.join(xdg, "git", "config"),
        os.path.join(xdg, "git", "ignore"),
        "/etc/gitconfig",
        *[
            os.environ[name]
            for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM")
            if name in os.environ
        ],
    ]
    directory = os.path.join(project_dir, ".claude")
    while True:
        files.append(os.path.join(directory, ".gitignore"))
        dot_git = os.path.join(directory, ".git")
        files.append(dot_git)
        if os.path.isdir(dot_git):
            names = ("info/exclude", "config", "index")
            return files + [os.path.join(dot_git, name) for name in names]
        if os.path.lexists(dot_git):
            return None
        parent = os.path.dirname(directory)
        if parent == directory:
            return files  # no repository: git has nothing to say
        directory = parent
