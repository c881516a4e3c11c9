"""Learns what hooks subscribe to by running their factories with the runtime loader.

What was learned is cached in the project's state dir (hooks/subscription_cache.py), keyed by
the digests of each module, of the files it imported from outside the interpreter's own
directories (the project's helper modules) and of the files its loading opened (a data file
its factory reads, seen by an audit hook on `open`), so installing an unchanged hook again
starts no child. A factory whose subscriptions depend on something else (an environment
variable, the time) is learned again only when one of those files changes.

Every hook whose cache entry is stale is loaded in ONE child process (`sys.executable -c
...`, cwd = the project), one after the other, as the runner loads them: a project of
hundreds of hooks starts one child, not one per hook. Each factory gets its own timeout, so
a hook that hangs, crashes, forks or calls `sys.exit()` on import cannot hang or kill the
CLI; whatever the child leaves running is killed with its process group. The child writes
one JSON line when it starts a hook and one with the hook's answer when it is done, so the
parent knows which hook hung or crashed it; the hook's own prints are redirected to stderr
inside the child so they cannot corrupt the answers.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import subprocess

import hookman
from hookman.catalog import event_catalog
from hookman.errors import HookmanError
from hookman.hooks.subscription_cache import (
    CACHE_FILE_NAME,
    CACHE_FORMAT,
    SubscriptionCache,
    learned_before,
    remember,
)

__all__ = ["CACHE_FILE_NAME", "CACHE_FORMAT", "learned_before", "remember"]

LEARN_TIMEOUT_S = 10.0
_POSIX = os.name == "posix"
ERROR_TEXT_LIMIT = 400
ALL_TOOLS = "*"
_POLL_S = 0.02

# Runs in the child. Reads the hooks to load (JSON) from stdin, then gives the hooks
# /dev/null there; keeps the real stdout for the answers, then points fd 1 and sys.stdout
# at stderr so nothing the hooks print (or their subprocesses write) reaches it. A hook's
# sources are the files of the modules new since the hooks before it and the files its
# loading opened (a data file its factory reads), with those of the hooks before it (which
# it may share): never fewer than its own.
_CHILD_CODE = r"""
import json, os, sys
answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
sys.stdout = sys.stderr
requests = json.loads(sys.stdin.read())
null = os.open(os.devnull, os.O_RDONLY)
os.dup2(null, 0)
os.close(null)
if sys.path and sys.path[0] in ("", "."):
    del sys.path[0]
cwd, package_root = sys.argv[1:3]
try:
    from hookman.runtime.loader import load_hooks
except ImportError:
    sys.path.insert(0, package_root)
    from hookman.runtime.loader import load_hooks
def send(value):
    answer.write(json.dumps(value) + "\n")
    answer.flush()
opened = set()
def _note_open(event, args):
    # a data file a factory reads (its tools in a JSON file) is a source too
    if event == "open" and args and isinstance(args[0], (str, bytes)):
        path = os.path.abspath(os.fsdecode(args[0]))
        if "__pycache__" not in path and not path.startswith(("/proc/", "/sys/", "/dev/")):
            opened.add(path)
sys.addaudithook(_note_open)
hook_files = {request["path"] for request in requests}
earlier = set()
for index, request in enumerate(requests):
    send({"start": index})
    before = set(sys.modules)
    opened.clear()
    result = load_hooks([request["path"]], cwd, request["root"] or None)
    new = {getattr(sys.modules.get(name), "__file__", None) or ""
           for name in list(sys.modules) if name not in before} - {""}
    new |= {path for path in opened if os.path.isfile(path)}
    others = hook_files - {request["path"]}
    sources = sorted((new | earlier) - others)
    earlier |= new
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
    send({"done": index, "loaded": loaded, "errors": errors, "sources": sources})
"""


@dataclass(frozen=True)
class Subscriptions:
    """What a hook's factory registered: events in registration order, the tool names each
    tool event was narrowed to (absent = all tools), and its command names."""

    events: tuple[str, ...]
    tools: dict[str, tuple[str, ...]] = field(default_factory=dict)
    commands: tuple[str, ...] = ()


class LearnRequest(NamedTuple):
    """One hook to learn: its name, its module, the store tree a repository hook imports
    its siblings against, and what the user gives `hookman install` to try again (None:
    the hook's name, right only for a hook hookman.toml or the registry already knows)."""

    name: str
    module_path: Path
    repository_root: Path | None = None
    retry: str | None = None


# name -> what the hook subscribes to, or why it could not be learned (a HookmanError
# naming the hook, with a hint); a hook the child never reached (an earlier one hung or
# crashed it) is absent.
Learned = dict[str, "Subscriptions | HookmanError"]


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
    request = LearnRequest(hook_name, module_path, repository_root, retry_argument)
    learned = learn_many([request], project_dir, timeout=timeout, keep=keep)
    return subscriptions_or_raise(learned, hook_name)


def subscriptions_or_raise(learned: Learned, hook_name: str) -> Subscriptions:
    """The hook's subscriptions, or its error raised."""
    outcome = learned.get(hook_name)
    if outcome is None:  # an earlier hook hung or crashed the child before this one
        raise HookmanError(
            f"the hook {hook_name!r} was not loaded: an earlier hook stopped the loading.",
            "fix that hook first, then run the command again.",
        )
    if isinstance(outcome, HookmanError):
        raise outcome
    return outcome


def learn_many(
    requests: Sequence[LearnRequest],
    project_dir: Path,
    *,
    timeout: float | None = None,
    keep: bool = True,
    stop_at_first_failure: bool = True,
) -> Learned:
    """What each hook subscribes to: from the cache when its entry is good, else from ONE
    child that loads every other hook in turn (their answers kept in the cache when
    `keep`). A hook that hangs (over `timeout` seconds, default LEARN_TIMEOUT_S) or crashes
    the child ends it: that hook's error is in the result, and the hooks after it are
    learned in a new child unless `stop_at_first_failure` (they are then absent)."""
    limit = LEARN_TIMEOUT_S if timeout is None else timeout
    cache = SubscriptionCache(project_dir)
    answers: dict[str, dict[str, Any]] = {}
    stale: list[LearnRequest] = []
    for request in requests:
        answer = cache.answer(request.module_path)
        if answer is None:
            stale.append(request)
        else:
            answers[request.name] = answer
    learned: Learned = {}
    fresh: dict[Path, dict[str, Any]] = {}
    while stale:
        done, failure = _run_batch(stale, project_dir, limit)
        for request in stale[: len(done)]:
            answers[request.name] = done[request.name]
            if _is_whole(done[request.name]):
                fresh[request.module_path] = done[request.name]
        if failure is None:
            break
        learned[stale[len(done)].name] = failure
        stale = [] if stop_at_first_failure else stale[len(done) + 1 :]
    if keep and fresh:
        cache.remember(fresh)
    for request in requests:
        if request.name in answers:
            learned[request.name] = _outcome(request, answers[request.name])
    return {request.name: learned[request.name] for request in requests if request.name in learned}


def _is_whole(answer: dict[str, Any]) -> bool:
    """An answer worth keeping: the hook loaded, once, without an error."""
    return not answer.get("errors") and len(answer.get("loaded") or []) == 1


def _outcome(request: LearnRequest, answer: dict[str, Any]) -> Subscriptions | HookmanError:
    """The hook's subscriptions from the child's answer, or the error that names it."""
    hook_name, module_path = request.name, request.module_path
    retry = hook_name if request.retry is None else request.retry
    errors = answer.get("errors") or []
    if errors:
        from hookman.runtime.loader import LOAD_FAILED_PREFIX  # here: the runtime is not light

        return HookmanError(
            f"the hook {hook_name!r} ({module_path}) failed to load: "
            f"{_shorten(str(errors[0].get('error')).removeprefix(LOAD_FAILED_PREFIX))}",
            f"fix the module and run `hookman install {retry}` again "
            "(`hookman fire` shows the hook's own output).",
        )
    loaded = answer.get("loaded") or []
    if len(loaded) != 1:
        return HookmanError(
            f"the hook {hook_name!r} ({module_path}) did not load.",
            "check that the module defines `def hook(pi): ...`.",
        )
    subscriptions = _subscriptions_from(loaded[0])
    for event, names in subscriptions.tools.items():
        if "" in names:
            return HookmanError(
                f"the hook {hook_name!r} ({module_path}) narrows {event!r} to an empty tool name.",
                'name the tools in `pi.on(event, handler, tools=["Bash"])`, or leave `tools` '
                "out for every tool.",
            )
    return subscriptions


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


class _Progress:
    """The child's answers as they arrive: which hook it is loading, since when, and the
    answers of the hooks it finished."""

    def __init__(self, started: float) -> None:
        self.current: int | None = None
        self.since = started
        self.done: list[dict[str, Any]] = []
        self._text = ""
        self._read = 0

    def take(self, data: bytes, now: float) -> None:
        self._read += len(data)
        self._text += data.decode("utf-8", errors="replace")
        *lines, self._text = self._text.split("\n")
        for line in lines:
            message = _parse_answer(line)
            if message is None:
                continue
            if "start" in message:
                self.current, self.since = message["start"], now
            elif message.get("done") == len(self.done):
                self.done.append(message)
                self.current = None

    def read_from(self, handle: IO[bytes], now: float) -> None:
        """Take what the child wrote since the last read, without moving the shared file
        offset the child writes at."""
        fileno = handle.fileno()
        while True:
            data = os.pread(fileno, 1 << 16, self._read) if _POSIX else b""
            if not data:
                return
            self.take(data, now)


def _run_batch(
    requests: Sequence[LearnRequest], project_dir: Path, timeout: float
) -> tuple[dict[str, dict[str, Any]], HookmanError | None]:
    """Load `requests` in one child: the answers of the hooks it finished, in order, and
    the error of the hook that hung or crashed it (None when it finished them all)."""
    package_root = str(Path(hookman.__file__).resolve().parent.parent)
    argv = [sys.executable, "-c", _CHILD_CODE, str(project_dir), package_root]
    given = [{"path": str(r.module_path), "root": str(r.repository_root or "")} for r in requests]
    code, killed, progress, stderr = _run_and_reap(
        argv, project_dir, timeout, json.dumps(given), len(requests)
    )
    answers = {requests[i].name: progress.done[i] for i in range(len(progress.done))}
    if len(progress.done) == len(requests):
        return answers, None
    request = requests[len(progress.done)]
    if killed:
        return answers, HookmanError(
            f"loading the hook {request.name!r} ({request.module_path}) did not finish within "
            f"{timeout:g} seconds.",
            "a factory should only register handlers: move slow or blocking work "
            "(network, input(), sleeps) into the handlers.",
        )
    detail = _last_lines(stderr) or f"the process ended with exit code {code}"
    return answers, HookmanError(
        f"loading the hook {request.name!r} ({request.module_path}) crashed: {detail}",
        f"run `{Path(sys.executable).name} {request.module_path}` to see the full error, fix "
        "it, and install again.",
    )


def _run_and_reap(
    argv: list[str], cwd: Path, timeout: float, given: str, count: int = 1
) -> tuple[int | None, bool, _Progress, str]:
    """Run the child until it exits (or a hook takes more than `timeout`), then kill
    whatever it left behind.

    Output goes to files, not pipes, and only the child itself is waited for: a factory
    that forks a helper (which inherits the output) must not make install wait for the
    helper, nor leave it running. Returns (exit code, killed by the timeout, the answers,
    stderr).
    """
    import subprocess  # here: `hookman list` and doctor import this module, never a child
    import tempfile

    with (
        tempfile.TemporaryFile() as in_file,
        tempfile.TemporaryFile() as out_file,
        tempfile.TemporaryFile() as err_file,
    ):
        in_file.write(given.encode("utf-8"))
        in_file.seek(0)
        try:
            process = subprocess.Popen(
                argv,
                cwd=cwd,
                # as the client (and fire, and a plugin's load check) run a hook: a factory
                # may read the project's root from CLAUDE_PROJECT_DIR
                env={**os.environ, "CLAUDE_PROJECT_DIR": str(cwd)},
                stdin=in_file,
                stdout=out_file,
                stderr=err_file,
                start_new_session=_POSIX,  # its own process group, so leftovers can be killed
            )
        except OSError as error:
            raise HookmanError(
                f"hookman could not start {argv[0]} to load the hooks: {error.strerror or error}.",
                "check that the Python interpreter running hookman still exists.",
            ) from error
        progress = _Progress(time.monotonic())
        killed = False
        try:
            killed = _wait_for(process, out_file, progress, timeout, count)
        finally:
            _kill_process_group(process)
            process.wait()
        progress.read_from(out_file, time.monotonic())
        if not _POSIX:
            out_file.seek(0)
            progress.take(out_file.read(), time.monotonic())
        err_file.seek(0)
        stderr = err_file.read().decode("utf-8", errors="replace")
    return (None if killed else process.returncode), killed, progress, stderr


def _wait_for(
    process: subprocess.Popen[bytes],
    out_file: IO[bytes],
    progress: _Progress,
    timeout: float,
    count: int,
) -> bool:
    """Wait for the child, watching the hook it loads: True when one took more than
    `timeout` seconds (the child is then still running). Without pread (Windows) the
    answers are read at the end, and the whole child gets `timeout` per hook."""
    import subprocess

    if not _POSIX:
        try:
            process.wait(timeout=timeout * count)
        except subprocess.TimeoutExpired:
            return True
        return False
    while True:
        try:
            process.wait(timeout=_POLL_S)
            return False
        except subprocess.TimeoutExpired:
            pass
        now = time.monotonic()
        progress.read_from(out_file, now)
        if now - progress.since > timeout:
            return True


def _kill_process_group(process: subprocess.Popen[bytes]) -> None:
    if not _POSIX:
        if process.poll() is None:
            process.kill()
        return
    import signal

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
