"""Learns what a hook subscribes to by running its factory with the runtime loader.

What was learned is cached in the project's state dir (subscriptions.json), keyed by the
digests of the module and of the files it imported from outside the interpreter's own
directories (the project's helper modules), so installing an unchanged hook again starts no
child. A factory whose subscriptions depend on something else (an environment variable, a
data file it reads) is learned again only when one of those files changes.

The factory runs in a child process (`sys.executable -c ...`, cwd = the project) with a
timeout, so a hook that hangs, crashes, forks or calls `sys.exit()` on import cannot hang or
kill the CLI; whatever the child leaves running is killed with its process group. The
child's stdout carries one JSON document; the hook's own prints are redirected to stderr
inside the child so they cannot corrupt it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hookman
from hookman.atomic_file import atomic_write_text
from hookman.catalog import event_catalog
from hookman.errors import HookmanError

LEARN_TIMEOUT_S = 10.0
_POSIX = os.name == "posix"
ERROR_TEXT_LIMIT = 400
ALL_TOOLS = "*"
CACHE_FILE_NAME = "subscriptions.json"
CACHE_FORMAT = 1

# Runs in the child. Keeps the real stdout for the JSON answer, then points fd 1 and
# sys.stdout at stderr so nothing the hook prints (or its subprocesses write) reaches it.
_CHILD_CODE = r"""
import json, os, sys
answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
sys.stdout = sys.stderr
if sys.path and sys.path[0] in ("", "."):
    del sys.path[0]
hook_path, cwd, package_root, repository_root = sys.argv[1:5]
try:
    from hookman.runtime.loader import load_hooks
except ImportError:
    sys.path.insert(0, package_root)
    from hookman.runtime.loader import load_hooks
before = set(sys.modules)
result = load_hooks([hook_path], cwd, repository_root or None)
sources = sorted({getattr(sys.modules[name], "__file__", None) or ""
                  for name in list(sys.modules) if name not in before} - {""})
loaded = []
for hook in result.hooks:
    filters = getattr(hook, "tool_filters", None) or {}
    loaded.append({
        "events": list(hook.handlers),
        "tools": {event: (None if names is None else list(names))
                  for event, names in filters.items()},
        "commands": list(getattr(hook, "commands", None) or {}),
    })
errors = [{"path": error.path, "error": error.error} for error in result.errors]
json.dump({"loaded": loaded, "errors": errors, "sources": sources}, answer)
answer.flush()
"""


@dataclass(frozen=True)
class Subscriptions:
    """What a hook's factory registered: events in registration order, the tool names each
    tool event was narrowed to (absent = all tools), and its command names."""

    events: tuple[str, ...]
    tools: dict[str, tuple[str, ...]] = field(default_factory=dict)
    commands: tuple[str, ...] = ()


def learn_subscriptions(
    hook_name: str,
    module_path: Path,
    project_dir: Path,
    *,
    timeout: float | None = None,
    retry_argument: str | None = None,
    keep: bool = True,
    repository_root: Path | None = None,
) -> Subscriptions:
    """Load the hook in a child process and report what it subscribes to (the factory
    gets `timeout` seconds, default LEARN_TIMEOUT_S), unless this module was learned before
    (kept when `keep`). `retry_argument` is what the user gives `hookman install` to try
    again (default: the hook's name, right only for a hook hookman.toml or the registry
    already knows). `repository_root`: a repository hook's store tree, against which it
    imports its siblings (the cache is keyed by module path, which names the commit)."""
    retry = hook_name if retry_argument is None else retry_argument
    limit = LEARN_TIMEOUT_S if timeout is None else timeout
    answer = learned_before(module_path, project_dir)
    if answer is None:
        answer = _run_child(hook_name, module_path, project_dir, limit, repository_root)
        if keep and not answer.get("errors") and len(answer.get("loaded") or []) == 1:
            remember(module_path, project_dir, answer)
    errors = answer.get("errors") or []
    if errors:
        from hookman.runtime.loader import LOAD_FAILED_PREFIX  # here: the runtime is not light

        raise HookmanError(
            f"the hook {hook_name!r} ({module_path}) failed to load: "
            f"{_shorten(str(errors[0].get('error')).removeprefix(LOAD_FAILED_PREFIX))}",
            f"fix the module and run `hookman install {retry}` again "
            "(`hookman fire` shows the hook's own output).",
        )
    loaded = answer.get("loaded") or []
    if len(loaded) != 1:
        raise HookmanError(
            f"the hook {hook_name!r} ({module_path}) did not load.",
            "check that the module defines `def hook(pi): ...`.",
        )
    subscriptions = _subscriptions_from(loaded[0])
    for event, names in subscriptions.tools.items():
        if "" in names:
            raise HookmanError(
                f"the hook {hook_name!r} ({module_path}) narrows {event!r} to an empty tool name.",
                'name the tools in `pi.on(event, handler, tools=["Bash"])`, or leave `tools` '
                "out for every tool.",
            )
    return subscriptions


def learned_before(module_path: Path, project_dir: Path) -> dict[str, Any] | None:
    """The child's answer for this module from the cache, when the module and every file
    it imported from outside the interpreter's own directories (the project's helpers) are
    byte for byte what they were, for the same hookman and interpreter; else None."""
    entry = _read_cache(project_dir).get(str(module_path))
    if not isinstance(entry, dict) or entry.get("key") != _cache_key(project_dir):
        return None
    sources = entry.get("sources")
    answer = entry.get("answer")
    if not isinstance(sources, dict) or not isinstance(answer, dict):
        return None
    if str(module_path) not in sources:
        return None
    for path, digest in sources.items():
        if _digest(path) != digest:
            return None
    return answer


def remember(module_path: Path, project_dir: Path, answer: dict[str, Any]) -> None:
    """Cache the child's answer with the digests of the files it depends on; best effort."""
    files = [str(module_path), *(answer.get("sources") or [])]
    prefixes = tuple(
        os.path.join(os.path.realpath(prefix), "")
        for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix}
    )
    sources = {
        path: _digest(path)
        for path in dict.fromkeys(files)
        if not os.path.realpath(path).startswith(prefixes)
    }
    if any(digest is None for digest in sources.values()):
        return
    cache = _read_cache(project_dir)
    cache[str(module_path)] = {"key": _cache_key(project_dir), "sources": sources, "answer": answer}
    from hookman import paths
    from hookman.bridge.private_dir import make_private_dir

    state_dir, problem = make_private_dir(str(paths.project_state_dir(project_dir)))
    if problem is not None:  # another user could write there: no cache
        return
    path = Path(state_dir) / CACHE_FILE_NAME
    with contextlib.suppress(OSError):  # atomic_file's sweeper knows its temporary files
        atomic_write_text(path, json.dumps({"format": CACHE_FORMAT, "modules": cache}))


def _cache_path(project_dir: Path) -> str | None:
    """The cache, only in a state directory no other user can write (they could plant what
    a hook subscribes to); else None."""
    from hookman import paths
    from hookman.bridge.private_dir import private_dir_problem

    state_dir = paths.project_state_dir(project_dir)
    if private_dir_problem(str(state_dir)) is not None:
        return None
    return str(state_dir / CACHE_FILE_NAME)


def _cache_key(project_dir: Path) -> list[str]:
    return [hookman.__version__, sys.executable, str(project_dir.resolve())]


def _read_cache(project_dir: Path) -> dict[str, Any]:
    path = _cache_path(project_dir)
    if path is None:
        return {}
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return {}
    modules = data.get("modules")
    return modules if isinstance(modules, dict) else {}


def _digest(path: str) -> str | None:
    import hashlib

    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def unknown_events(events: Sequence[str]) -> list[str]:
    """The names that are neither Claude Code nor runtime events."""
    return [event for event in events if not event_catalog.is_known_event(event)]


def check_event_names(hook_name: str, events: Sequence[str], *, allow_unknown: bool) -> list[str]:
    """Refuse unknown event names (with a did-you-mean) unless allowed; returns them."""
    unknown = unknown_events(events)
    if unknown and not allow_unknown:
        name = unknown[0]
        suggestion = event_catalog.did_you_mean(name)
        guess = f"did you mean {suggestion!r}? " if suggestion else ""
        raise HookmanError(
            f"the hook {hook_name!r} subscribes to {name!r}, which is neither a Claude Code "
            "event nor a hookman runtime event.",
            f"{guess}Fix the name in the hook, or pass --allow-unknown-event to keep it (inert).",
        )
    return unknown


def _run_child(
    hook_name: str,
    module_path: Path,
    project_dir: Path,
    timeout: float,
    repository_root: Path | None = None,
) -> dict[str, Any]:
    package_root = str(Path(hookman.__file__).resolve().parent.parent)
    root = "" if repository_root is None else str(repository_root)
    argv = [sys.executable, "-c", _CHILD_CODE, str(module_path), str(project_dir), package_root]
    argv.append(root)
    code, killed, stdout, stderr = _run_and_reap(argv, project_dir, timeout)
    if killed:
        raise HookmanError(
            f"loading the hook {hook_name!r} ({module_path}) did not finish within "
            f"{timeout:g} seconds.",
            "a factory should only register handlers: move slow or blocking work "
            "(network, input(), sleeps) into the handlers.",
        )
    answer = _parse_answer(stdout)
    if code != 0 or answer is None:
        detail = _last_lines(stderr) or f"the process ended with exit code {code}"
        raise HookmanError(
            f"loading the hook {hook_name!r} ({module_path}) crashed: {detail}",
            f"run `{Path(sys.executable).name} {module_path}` to see the full error, fix it, "
            "and install again.",
        )
    return answer


def _run_and_reap(argv: list[str], cwd: Path, timeout: float) -> tuple[int | None, bool, str, str]:
    """Run the child until it exits (or `timeout`), then kill whatever it left behind.

    Output goes to files, not pipes, and only the child itself is waited for: a factory
    that forks a helper (which inherits the output) must not make install wait for the
    helper, nor leave it running. Returns (exit code, killed by the timeout, stdout, stderr).
    """
    import tempfile

    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        try:
            process = subprocess.Popen(
                argv,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=out_file,
                stderr=err_file,
                start_new_session=_POSIX,  # its own process group, so leftovers can be killed
            )
        except OSError as error:
            raise HookmanError(
                f"hookman could not start {argv[0]} to load the hook: {error.strerror or error}.",
                "check that the Python interpreter running hookman still exists.",
            ) from error
        killed = False
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            killed = True
        finally:
            _kill_process_group(process)
            process.wait()
        out_file.seek(0)
        err_file.seek(0)
        stdout = out_file.read().decode("utf-8", errors="replace")
        stderr = err_file.read().decode("utf-8", errors="replace")
    return (None if killed else process.returncode), killed, stdout, stderr


def _kill_process_group(process: subprocess.Popen[bytes]) -> None:
    if not _POSIX:
        if process.poll() is None:
            process.kill()
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):  # nothing left in it
        os.killpg(process.pid, signal.SIGKILL)


def _parse_answer(stdout: str) -> dict[str, Any] | None:
    try:
        answer = json.loads(stdout)
    except ValueError:
        return None
    return answer if isinstance(answer, dict) else None


def _subscriptions_from(loaded: dict[str, Any]) -> Subscriptions:
    events = tuple(str(event) for event in loaded.get("events") or [])
    filters = loaded.get("tools") or {}
    tools: dict[str, tuple[str, ...]] = {}
    for event in events:
        names = filters.get(event)
        # No list, an empty list or "*" all mean every tool: never narrow by accident.
        if not names or ALL_TOOLS in names or not event_catalog.is_tool_subscription(event):
            continue
        tools[event] = tuple(dict.fromkeys(str(name) for name in names))
    commands = tuple(str(name) for name in loaded.get("commands") or [])
    return Subscriptions(events=events, tools=tools, commands=commands)


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return _shorten(" | ".join(lines[-count:]))


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= ERROR_TEXT_LIMIT else text[: ERROR_TEXT_LIMIT - 3] + "..."
