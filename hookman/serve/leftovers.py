"""What an event run in a warm worker may have left behind: the worker compares the process
with what it was before (a Baseline taken when it started, and the few things each event sets
up: the environment and the working directory) and ends when anything differs, so that no
state of one event reaches the next (the next event gets a fresh worker, forked from the
server's image as a per-event child is).

Checked: threads still alive, child processes, the working directory, os.environ, sys.path
and the import machinery, every signal handler, the blocked signals and the interval timer,
the umask, the resource limits, open file descriptors, sys's hooks and streams, gc and
atexit, a module imported once the event's were dropped (by a finalizer the worker's collect
ran), a replaced or added name in the namespace of hookman's modules and of the standard
library modules the runner relies on (a monkeypatch), classes of hookman's modules included,
and copyreg's tables. What cannot be listed afterwards is noted when it is done (tripwires
armed with the baseline): an audit hook added (sys.addaudithook), a codec search function
registered. Not seen: in-place changes inside objects, os.register_at_fork callbacks,
environment changes made in C (putenv without os.environ)."""

from __future__ import annotations

import _locale
import _signal
import _thread
import atexit
import builtins
import codecs
import copyreg
import gc
import os
import resource
import signal
import socket
import sys
import warnings
from typing import Any

_FD_DIR = "/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"
_TASK_DIR = "/proc/self/task"
# Standard library modules whose functions the runner's answer goes through (or that hooks
# commonly patch): a replaced name there would change what the next event does.
_WATCHED_STDLIB = (
    "builtins",
    "os",
    "posix",
    "signal",
    "_signal",
    "_thread",
    "threading",
    "io",
    "_io",
    "json",
    "time",
    "subprocess",
    "socket",
    "importlib",
    "importlib._bootstrap",
    "importlib._bootstrap_external",
    "importlib.util",
    "faulthandler",
    "fcntl",
    "traceback",
    "errno",
    "stat",
    "posixpath",
    "shutil",
)
# What the runner keeps per process (caches of loaded hook modules, counters), put back as
# the warm image had it after each event: a fresh process starts with these.
RUNNER_STATE = {
    "hookman.runtime.loader": ("_modules_by_path", "_repository_packages", "_imports_started"),
    "hookman.runtime.verified_import": ("_by_root", "_by_name"),
    "hookman.runtime.awaiting": ("_loops_by_thread",),
    "hookman.bridge.capture": ("_active",),
    "hookman.bridge.output_schema": ("_schema",),
    "hookman.bridge.run_command": ("_hard_stop_sink",),
}
_SYS_HOOKS = (
    "excepthook",
    "displayhook",
    "unraisablehook",
    "breakpointhook",
    "stdin",
    "stdout",
    "stderr",
    "__stdin__",
    "__stdout__",
    "__stderr__",
)


# Process-wide tables a module keeps that an event may add to (pickling's reducers and
# extension codes): compared as namespaces are.
_WATCHED_TABLES = (
    ("copyreg.dispatch_table", copyreg.dispatch_table),
    ("copyreg._extension_registry", copyreg._extension_registry),  # type: ignore[attr-defined]
    ("copyreg._inverted_registry", copyreg._inverted_registry),  # type: ignore[attr-defined]
)
_LIMITS = tuple(
    sorted(
        {
            value
            for name, value in vars(resource).items()
            if name.startswith("RLIMIT_") and isinstance(value, int)
        }
    )
)
# Calls whose effect lasts for the process and cannot be listed or undone afterwards: the
# baseline replaces each (module, name) with a wrapper that notes the call (_TRIPPED).
_TRIPWIRES = (
    (sys, "addaudithook", "it added an audit hook (sys.addaudithook)"),
    (codecs, "register", "it registered a codec search function (codecs.register)"),
)
_TRIPPED: list[str] = []


def _arm_tripwires() -> None:
    """Once per process: each _TRIPWIRES call notes itself in _TRIPPED, then runs."""
    import _codecs

    for owner, name, said in _TRIPWIRES:
        original = getattr(owner, name)
        if getattr(original, "_hookman_tripwire", False):
            continue
        wrapper = _tripwire(original, said)
        setattr(owner, name, wrapper)
        if owner is codecs and getattr(_codecs, name, None) is original:
            setattr(_codecs, name, wrapper)


def _tripwire(original: Any, said: str) -> Any:
    def noted(*args: Any, **kwargs: Any) -> Any:
        _TRIPPED.append(said)
        return original(*args, **kwargs)

    noted._hookman_tripwire = True  # type: ignore[attr-defined]
    noted.__wrapped__ = original  # type: ignore[attr-defined]
    return noted


def _namespaces() -> list[tuple[str, dict[str, object]]]:
    """(whose, namespace) of the watched modules and tables and of hookman's classes."""
    spaces: list[tuple[str, dict[str, object]]] = list(_WATCHED_TABLES)
    for name, module in list(sys.modules.items()):
        if module is None:
            continue
        if not (name.startswith("hookman") or name in _WATCHED_STDLIB):
            continue
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        spaces.append((name, namespace))
        if name.startswith("hookman"):
            for value in list(namespace.values()):
                if isinstance(value, type) and getattr(value, "__module__", "") == name:
                    spaces.append((f"{name}.{value.__qualname__}", value.__dict__))  # type: ignore[arg-type]
    return spaces


def _open_fds() -> frozenset[int]:
    """The open descriptors (the listing's own, closed once listed, left out)."""
    try:
        names = os.listdir(_FD_DIR)
    except OSError:
        return frozenset()
    return frozenset(int(name) for name in names if name.isdigit() and _is_open(int(name)))


def _is_open(descriptor: int) -> bool:
    try:
        os.fstat(descriptor)
    except OSError:
        return False
    return True


def _task_count() -> int:
    try:
        return len(os.listdir(_TASK_DIR))
    except OSError:
        return 1


def _umask() -> int:
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


_SIGNALS = tuple(signal.valid_signals())


def _blocked() -> object:
    """The signals blocked in this thread (None where the platform cannot say)."""
    try:
        return frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, ()))
    except (AttributeError, OSError, ValueError):
        return None


def _limits() -> tuple[object, ...]:
    return _each(resource.getrlimit, _LIMITS)


def _handlers() -> tuple[object, ...]:
    return _each(_signal.getsignal, _SIGNALS)  # _signal's: no enum made per handler


def _each(read: Any, numbers: tuple[int, ...]) -> tuple[object, ...]:
    """read(number) for each number, in one pass in C; where one fails, None for it."""
    try:
        return tuple(map(read, numbers))
    except (OSError, ValueError):
        return tuple(_or_none(read, number) for number in numbers)


def _or_none(read: Any, number: int) -> object:
    try:
        return read(number)
    except (OSError, ValueError):
        return None


def environment() -> dict[object, object]:
    """os.environ as it is now (its bytes, where the platform keeps them: cheaper)."""
    data = getattr(os.environ, "_data", None)
    return dict(data) if isinstance(data, dict) else dict(os.environ)


def _sys_state() -> tuple[object, ...]:
    return (
        tuple(getattr(sys, name, None) for name in _SYS_HOOKS),
        tuple(sys.path),
        tuple(sys.meta_path),
        tuple(sys.path_hooks),
        sys.gettrace(),
        sys.getprofile(),
        sys.getrecursionlimit(),
        sys.getswitchinterval(),
        gc.isenabled(),
        gc.get_threshold(),
        tuple(gc.callbacks),
        atexit._ncallbacks(),
    )


def _settings() -> tuple[object, ...]:
    """Process-wide settings an event may change in passing."""
    return (
        tuple(sys.argv),
        sys.get_asyncgen_hooks(),
        sys.getdlopenflags(),
        _int_max_str_digits(),
        _thread.stack_size(),
        gc.get_debug(),
        tuple(warnings.filters),
        socket.getdefaulttimeout(),
        _locale.setlocale(_locale.LC_ALL),
    )


def _int_max_str_digits() -> object:
    read = getattr(sys, "get_int_max_str_digits", None)  # Python 3.11+
    return read() if read is not None else None


def _ids(all_three: str, *each: str) -> tuple[int, ...]:
    """The process's real, effective (and saved) user or group ids: os.getresuid where the
    platform has it (Linux), else the real and effective ones (macOS)."""
    read = getattr(os, all_three, None)
    if read is not None:
        return tuple(read())
    return tuple(getattr(os, name)() for name in each)


def _process_state() -> tuple[object, ...]:
    """Who the process runs as, its priority and its root directory."""
    root = os.stat("/")
    return (
        _ids("getresuid", "getuid", "geteuid"),
        _ids("getresgid", "getgid", "getegid"),
        tuple(os.getgroups()),
        os.getpriority(os.PRIO_PROCESS, 0),
        (root.st_dev, root.st_ino),
    )


def _runner_state() -> list[tuple[dict[str, object], str, object, object]]:
    kept: list[tuple[dict[str, object], str, object, object]] = []
    for module_name, names in RUNNER_STATE.items():
        module = sys.modules.get(module_name)
        if module is None:
            continue
        namespace = module.__dict__
        for name in names:
            if name in namespace:
                value = namespace[name]
                content = (
                    dict(value)
                    if isinstance(value, dict)
                    else list(value)
                    if isinstance(value, list)
                    else None
                )
                kept.append((namespace, name, value, content))
    return kept


def _containers() -> list[tuple[object, object]]:
    """The tables (dict, list, set) at the top of hookman's modules, each with a copy of
    what it holds (the builtins' namespace, which every module holds, is a watched one)."""
    found: dict[int, tuple[object, object]] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("hookman"):
            continue
        skipped = (vars(module), vars(builtins))
        for value in list(vars(module).values()):
            if isinstance(value, (dict, list, set)) and not any(value is s for s in skipped):
                found[id(value)] = (value, _content(value))
    return list(found.values())


def _content(table: dict[object, object] | list[object] | set[object]) -> object:
    """What a table holds, compared by identity first (a value replaced in place shows)."""
    if isinstance(table, dict):
        return list(table.items())
    if isinstance(table, list):
        return list(table)
    return set(table)


class Baseline:
    """The worker's state between events, taken once when it starts."""

    def __init__(self) -> None:
        _arm_tripwires()
        self.tripped = len(_TRIPPED)
        self.cwd = os.getcwd()
        self.umask = _umask()
        self.limits = _limits()
        self.process = _process_state()
        self.settings = _settings()
        self.blocked = _blocked()
        self.fds = _open_fds()
        self.threads = _thread._count()
        self.tasks = _task_count()
        self.handlers = _handlers()
        self.sys_state = _sys_state()
        self.pycache = (sys.pycache_prefix, sys.dont_write_bytecode)
        self.modules = dict(sys.modules)
        self.module_names = list(self.modules)
        self.module_objects = list(self.modules.values())
        self.runner_state = _runner_state()
        self.namespaces = [(whose, space, list(space.values())) for whose, space in _namespaces()]
        self.containers = _containers()

    def restore_runner_state(self) -> None:
        """Put back what the runner itself keeps per process (RUNNER_STATE) and sets per
        event (the hooks' bytecode cache)."""
        sys.pycache_prefix, sys.dont_write_bytecode = self.pycache
        for namespace, name, value, content in self.runner_state:
            if isinstance(content, dict):
                value.clear()  # type: ignore[attr-defined]
                value.update(content)  # type: ignore[attr-defined]
            elif isinstance(content, list):
                value[:] = content  # type: ignore[index]
            namespace[name] = value

    def drop_new_modules(self) -> None:
        """Forget every module the event imported (its hooks, their sibling modules and
        whatever they loaded), so the next event imports them as they are then."""
        for name in [name for name in sys.modules if name not in self.modules]:
            del sys.modules[name]

    def problem(self, environ: dict[object, object], cwd: str) -> str | None:
        """What the event left changed (None: nothing), given the environment and the
        working directory it started with."""
        if _thread._count() != self.threads or _task_count() != self.tasks:
            return "a thread it started still runs"
        try:
            if os.waitpid(-1, os.WNOHANG) is not None:
                return "a process it started was left"
        except ChildProcessError:
            pass
        try:
            if os.getcwd() != cwd:
                return "it changed the working directory"
        except OSError:
            return "its working directory is gone"
        if environment() != environ:
            return "it changed the environment"
        if _umask() != self.umask:
            return "it changed the umask"
        if len(_TRIPPED) != self.tripped:
            return _TRIPPED[-1]
        if _limits() != self.limits:
            return "it changed a resource limit (resource.setrlimit)"
        if _process_state() != self.process:
            return "it changed the process's user, group, priority or root directory"
        if _open_fds() != self.fds:
            return "it left a file descriptor open (or closed one)"
        if signal.getitimer(signal.ITIMER_REAL) != (0.0, 0.0) or _handlers() != self.handlers:
            return "it changed a signal handler or the interval timer"
        if _blocked() != self.blocked:
            return "it changed which signals are blocked"
        if _sys_state() != self.sys_state:
            return "it changed sys.path, the import machinery or a hook of sys"
        if _settings() != self.settings:
            return (
                "it changed a process-wide setting (sys.argv, the warnings filters, the locale, "
                "socket's default timeout, gc's debugging or the threads' stack size)"
            )
        modules = sys.modules
        if [modules.get(name) for name in self.module_names] != self.module_objects:
            return "it replaced or removed a module"
        if len(modules) != len(self.module_names):  # dropped, then imported again (by a
            return "a module was imported again after the event (a finalizer imported it)"
        for container, content in self.containers:
            if _content(container) != content:  # type: ignore[arg-type]
                return "it changed a table of hookman's modules"
        for whose, space, kept in self.namespaces:
            # Values compared in order (identity first): an added, removed or replaced name
            if list(space.values()) != kept:
                return f"it replaced a name in a module or class ({whose})"
        return None
