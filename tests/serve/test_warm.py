"""The server's warm workers (hookman/serve/workers.py, worker_loop.py) end to end: the real
`hookman serve run`, a project installed by the real `hookman install`. Each event must be
run as a fresh process would run it: edits are picked up, nothing one event leaves behind
reaches the next, a hung or crashed worker denies and is replaced, one project's hung
worker stalls no other project."""

from __future__ import annotations

import concurrent.futures
import json
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hookman.serve.workers import WORKERS_VARIABLE

from .served import GUARD_TIMEOUT, Served, deny_reason, wait_for

WORDS = 'BLOCKED = "rm -rf"\n'

# A path hook that imports a module beside it (its directory on sys.path while it loads).
GUARD = """
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
try:
    import words
finally:
    sys.path.pop(0)


class _Hanging:
    def write(self, text):
        return len(text)

    def flush(self):  # the runner flushes the hook's stdout after its answer went out
        time.sleep(3600)


def check(event, ctx):
    command = event["input"].get("command", "")
    if command == "hang-after-answer":
        sys.stdout = _Hanging()
    if words.BLOCKED in command:
        return {"block": True, "reason": "blocked: " + words.BLOCKED}
    if command == "hang":
        while True:
            time.sleep(0.05)
    if command == "freeze":
        os.kill(os.getpid(), signal.SIGSTOP)
    if command == "crash":
        os.kill(os.getpid(), signal.SIGKILL)
    if command == "fork-allow":  # the fork denies, and ends before this process allows
        pid = os.fork()
        if pid == 0:
            return {"block": True, "reason": "the fork's answer"}
        os.waitpid(pid, 0)
    return None


def hook(pi):
    pi.on("tool_call", check, tools=["Bash"])
"""

# Reports what the process looks like, then (by the command) leaves something behind.
STATE = """
import codecs
import json
import os
import resource
import signal
import socket
import stat
import threading
import time

_armed = []


class _SetsEnvironment:  # kept by the module: collected once the worker dropped it
    def __del__(self):
        if "env" in _armed:
            os.environ["HOOKMAN_TEST_LEAK"] = "1"
        if "import" in _armed:  # a module the next event would find imported, as it was
            import colorsys  # noqa: F401


_kept = _SetsEnvironment()


def _sockets():
    found = []
    for name in os.listdir("/proc/self/fd"):
        try:
            if stat.S_ISSOCK(os.fstat(int(name)).st_mode):
                found.append(int(name))
        except OSError:
            pass
    return found


def _leave_daemon(report, copy=False):
    # Detached twice (no child of the worker is left): it answers any request it can take;
    # `copy`: with a copy of each socket made before the fork, under another number.
    copies = [os.dup(descriptor) for descriptor in _sockets()] if copy else []
    if os.fork() == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                held = _sockets()
                with open(report, "w") as out:
                    out.write(json.dumps(held))
                for descriptor in held:
                    peer = socket.socket(fileno=descriptor)
                    peer.settimeout(5)
                    try:
                        _data, answers, _flags, _address = socket.recv_fds(peer, 1 << 17, 4)
                    except OSError:
                        continue
                    for answer in answers:
                        os.write(answer, b"{}\\n")
        finally:
            os._exit(0)
    os.wait()
    for descriptor in copies:
        os.close(descriptor)


def _has_codec():
    try:
        codecs.lookup("leaked")
    except LookupError:
        return False
    return True


def after(event, ctx):
    command = event.get("tool_input", {}).get("command", "")
    seen = {
        "pid": os.getpid(),
        "leak": os.environ.get("HOOKMAN_TEST_LEAK"),
        "cwd": os.getcwd(),
        "threads": threading.active_count(),
        "system": getattr(os.system, "__name__", "?"),
        "usr1": str(signal.getsignal(signal.SIGUSR1)),
        "codec": _has_codec(),
        "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
    }
    if command == "leak-env":
        os.environ["HOOKMAN_TEST_LEAK"] = "1"
    elif command == "leak-thread":
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
    elif command == "leak-cwd":
        os.chdir("/")
    elif command == "leak-patch":
        os.system = lambda command: 0
    elif command == "leak-signal":
        signal.signal(signal.SIGUSR1, lambda *_: None)
    elif command == "leak-fd":
        os.open(os.devnull, os.O_RDONLY)
    elif command == "leave-daemon":
        _leave_daemon(os.path.join(ctx.cwd, "daemon.json"))
    elif command == "leave-copying-daemon":
        _leave_daemon(os.path.join(ctx.cwd, "daemon.json"), copy=True)
    elif command == "leak-codec":
        codecs.register(lambda name: codecs.lookup("utf-8") if name == "leaked" else None)
    elif command == "leak-limit":
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft - 1, hard))
    elif command == "leak-by-finalizer":
        _armed.append("env")
    elif command == "import-by-finalizer":
        _armed.append("import")
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                   "additionalContext": json.dumps(seen)}}


def hook(pi):
    pi.on("PostToolUse", after)
"""

TOML = f"""
[[hooks]]
name = "guard"
path = "hooks/guard.py"
timeout = {GUARD_TIMEOUT}

[[hooks]]
name = "state"
path = "hooks/state.py"
timeout = {GUARD_TIMEOUT}
"""

SOURCES = {"guard": GUARD, "state": STATE, "words": WORDS}


def _project(factory: pytest.TempPathFactory, name: str) -> Served:
    project = Served(factory.mktemp(name))
    project.install(SOURCES, TOML)
    return project


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One worker per project at most: a run that leaves something behind would meet the
    next event in the same process if the worker did not end."""
    project = _project(tmp_path_factory, "warm")
    project.start(**{WORKERS_VARIABLE: "1"})
    yield project
    project.stop()


def _seen(project: Served, command: str) -> dict[str, Any]:
    status, body = project.post(
        "PostToolUse", project.bash("PostToolUse", command, tool_response={})
    )
    assert status == 200, body
    return json.loads(body["hookSpecificOutput"]["additionalContext"])


def _settled(project: Served, count: int) -> None:
    """Wait until the firing log has `count` records (a run logs after it answers), and a
    moment more for the worker to say its run ended."""
    wait_for(lambda: len(project.log_records()) >= count)
    time.sleep(0.2)


def test_events_run_warm_in_a_worker_that_outlives_them(warm: Served) -> None:
    pids = []
    for _ in range(5):
        count = len(warm.log_records())
        pids.append(_seen(warm, "probe")["pid"])
        _settled(warm, count + 1)
    assert len(set(pids)) < len(pids)  # some event ran in a process an earlier one ran in


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("leak-env", "changed the environment"),
        ("leak-thread", "a thread it started still runs"),
        ("leak-cwd", "changed the working directory"),
        ("leak-patch", "replaced a name in a module"),
        ("leak-signal", "changed a signal handler"),
        ("leak-fd", "left a file descriptor open"),
        ("leak-codec", "registered a codec search function"),
        ("leak-limit", "changed a resource limit"),
        ("leak-by-finalizer", "changed the environment"),
        ("import-by-finalizer", "a module was imported again after the event"),
    ],
)
def test_what_an_event_leaves_behind_never_reaches_the_next(
    warm: Served, command: str, said: str
) -> None:
    fresh = _seen(warm, "probe")
    ended = warm.server_log().count(said)
    # Sent until a worker ran it (a request that finds the worker busy runs in a child
    # forked for it, which leaves nothing behind either): the worker says why it ends.
    for _ in range(20):
        _seen(warm, command)
        try:
            wait_for(lambda: warm.server_log().count(said) > ended, seconds=3.0)
            break
        except AssertionError:
            continue
    else:
        raise AssertionError(f"no worker ended after {command}: {warm.server_log()}")
    after = _seen(warm, "probe")
    assert after["leak"] is None
    assert after["cwd"] == str(warm.root)
    assert after["threads"] == 1
    assert after["system"] == "system"
    assert after["usr1"] == fresh["usr1"]
    assert after["codec"] is False
    assert after["nofile"] == fresh["nofile"]


def test_edits_to_a_guard_and_its_sibling_module_reach_a_warm_worker(warm: Served) -> None:
    hooks = warm.root / "hooks"
    count = len(warm.log_records())
    assert warm.post("PreToolUse", warm.bash("PreToolUse", "git push --force")) == (200, {})
    _settled(warm, count + 1)
    (hooks / "words.py").write_text('BLOCKED = "--force"\n', encoding="utf-8")
    _, body = warm.post("PreToolUse", warm.bash("PreToolUse", "git push --force"))
    assert deny_reason(body) == "blocked: --force"
    _settled(warm, count + 2)
    guard = hooks / "guard.py"
    original = guard.read_text(encoding="utf-8")
    try:
        guard.write_text(original.replace('"blocked: "', '"edited: "'), encoding="utf-8")
        _, body = warm.post("PreToolUse", warm.bash("PreToolUse", "git push --force"))
        assert deny_reason(body) == "edited: --force"
    finally:
        guard.write_text(original, encoding="utf-8")
        (hooks / "words.py").write_text(WORDS, encoding="utf-8")


def test_a_worker_killed_mid_event_denies_and_the_next_event_gets_a_fresh_one(
    warm: Served,
) -> None:
    status, body = warm.post("PreToolUse", warm.bash("PreToolUse", "crash"))
    assert status == 200
    reason = deny_reason(body)
    assert reason is not None and "was ended by SIGKILL" in reason
    assert warm.post("PreToolUse", warm.bash("PreToolUse", "ls")) == (200, {})
    _, body = warm.post("PreToolUse", warm.bash("PreToolUse", "rm -rf /"))
    assert deny_reason(body) == "blocked: rm -rf"


@pytest.mark.waits  # the entry's whole deadline, or bash's 15 s of fork retries
def test_a_frozen_worker_is_killed_at_the_deadline_and_replaced(warm: Served) -> None:
    status, body = warm.post("PreToolUse", warm.bash("PreToolUse", "freeze"))
    assert status == 200
    reason = deny_reason(body)
    assert reason is not None and "did not finish within" in reason
    assert warm.post("PreToolUse", warm.bash("PreToolUse", "ls")) == (200, {})
    _, body = warm.post("PreToolUse", warm.bash("PreToolUse", "rm -rf /"))
    assert deny_reason(body) == "blocked: rm -rf"


@pytest.mark.waits  # the entry's whole deadline, or bash's 15 s of fork retries
def test_a_hung_worker_of_one_project_stalls_no_other_project(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    first = _project(tmp_path_factory, "first")
    second = Served(tmp_path_factory.mktemp("second"))
    second.share_server_of(first)
    second.install(SOURCES, TOML)
    first.start(**{WORKERS_VARIABLE: "1"})
    try:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            hanging = pool.submit(first.post, "PreToolUse", first.bash("PreToolUse", "hang"))
            frozen = pool.submit(second.post, "PreToolUse", second.bash("PreToolUse", "hang"))
            assert (
                second.post("PostToolUse", second.bash("PostToolUse", "x", tool_response={}))[0]
                == 200
            )
            allowed = first.post("PreToolUse", first.bash("PreToolUse", "ls"))
            denied = second.post("PreToolUse", second.bash("PreToolUse", "rm -rf ~"))
            assert not hanging.done() and not frozen.done()  # answered while those hang
            assert allowed == (200, {})
            assert deny_reason(denied[1]) == "blocked: rm -rf"
            assert deny_reason(hanging.result()[1]) is not None
            assert deny_reason(frozen.result()[1]) is not None
        assert first.post("PreToolUse", first.bash("PreToolUse", "ls")) == (200, {})
        assert second.post("PreToolUse", second.bash("PreToolUse", "ls")) == (200, {})
    finally:
        first.stop()


def test_a_hooks_fork_that_returns_into_the_worker_never_answers_for_it(warm: Served) -> None:
    """A hook that forks without exec: its child returns through the runner into the
    worker's loop, which ends it before it can take a request or say a run ended."""
    hooks = warm.root / "hooks"
    state = hooks / "state.py"
    original = state.read_text(encoding="utf-8")
    try:
        state.write_text(
            original.replace(
                'if command == "leak-env":',
                'if command == "fork":\n        os.fork()\n    elif command == "leak-env":',
            ),
            encoding="utf-8",
        )
        for _ in range(3):
            assert "pid" in _seen(warm, "fork")
            assert warm.post("PreToolUse", warm.bash("PreToolUse", "ls")) == (200, {})
            _, body = warm.post("PreToolUse", warm.bash("PreToolUse", "rm -rf /"))
            assert deny_reason(body) == "blocked: rm -rf"
    finally:
        state.write_text(original, encoding="utf-8")


def _leave(warm: Served, command: str) -> list[int]:
    """Run `command` in the project's warm worker (not a child forked for a busy one); the
    sockets the daemon it leaves found itself holding."""
    report = warm.root / "daemon.json"
    report.unlink(missing_ok=True)
    ran = _seen(warm, "probe")["pid"]
    while _seen(warm, command)["pid"] != ran:  # until the worker itself left it
        ran = _seen(warm, "probe")["pid"]
        report.unlink(missing_ok=True)
    wait_for(report.exists)
    wait_for(lambda: report.read_text(encoding="utf-8").startswith("["))
    for _ in range(6):
        _, body = warm.post("PreToolUse", warm.bash("PreToolUse", "rm -rf /"))
        assert deny_reason(body) == "blocked: rm -rf"
    return list(json.loads(report.read_text(encoding="utf-8")))


def test_a_daemon_a_hook_leaves_holds_no_socket_to_the_server(warm: Served) -> None:
    """A hook's process detached from the worker (forked twice, so no child of the worker is
    left) would take later events' requests on the worker's socket and answer them `{}`: it
    never holds that socket, and every later guarded call is denied."""
    assert _leave(warm, "leave-daemon") == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_CHILD_SUBREAPER")
def test_a_daemon_with_a_copy_of_the_socket_ends_its_worker(warm: Served) -> None:
    """The same daemon holding a copy of the worker's socket made before the fork: the
    worker adopts what its hooks leave (its descendants become its children), sees the
    process its event left and ends, so the copy reaches a closed socket: every later
    guarded call is denied."""
    ended = warm.server_log().count("a process it started was left")
    assert _leave(warm, "leave-copying-daemon")  # it does hold a copy
    wait_for(lambda: warm.server_log().count("a process it started was left") > ended)


def test_a_fork_that_answers_first_is_not_heard(warm: Served) -> None:
    """The fork's runner gives its answer (a deny) before the worker's own (it allows):
    only the worker's reaches the client."""
    for _ in range(2):
        assert warm.post("PreToolUse", warm.bash("PreToolUse", "fork-allow")) == (200, {})


@pytest.mark.waits  # the entry's whole deadline
def test_a_worker_that_hangs_after_its_answer_is_ended_at_its_deadline(warm: Served) -> None:
    """Its answer went out at once; nothing waits for the rest of its run, which would hold
    the worker (one of the project's) for ever: past the run's deadline it is killed."""
    stuck = _seen(warm, "x")["pid"]  # the project's one worker
    assert warm.post("PreToolUse", warm.bash("PreToolUse", "hang-after-answer")) == (200, {})
    wait_for(lambda: "past its deadline after its answer" in warm.server_log(), 60)
    wait_for(lambda: not _alive(stuck))
    assert _seen(warm, "x")["pid"] != stuck
    _, body = warm.post("PreToolUse", warm.bash("PreToolUse", "rm -rf /"))
    assert deny_reason(body) == "blocked: rm -rf"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_without_workers_every_event_runs_in_a_child_of_its_own(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    project = _project(tmp_path_factory, "forked")
    project.start(**{WORKERS_VARIABLE: "0"})
    try:
        pids = {_seen(project, "probe")["pid"] for _ in range(3)}
        assert len(pids) == 3
        assert project.post("PreToolUse", project.bash("PreToolUse", "ls")) == (200, {})
        _, body = project.post("PreToolUse", project.bash("PreToolUse", "rm -rf /"))
        assert deny_reason(body) == "blocked: rm -rf"
    finally:
        project.stop()


def test_back_to_back_events_wait_for_the_worker_that_only_logs(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """An event that arrives while the project's worker logs the run it has answered waits
    for it (free in a fraction of a millisecond) rather than start a second worker that
    would share the CPUs with it: one agent's events run in one warm process."""
    project = _project(tmp_path_factory, "back-to-back")
    project.start(**{WORKERS_VARIABLE: "2"})
    try:
        pids = {_seen(project, "probe")["pid"] for _ in range(20)}
        assert len(pids) == 1, pids
    finally:
        project.stop()


# A guard whose module keeps an object whose finalizer never returns (tests/serve: the
# hostile tester's module). A process that ends with os._exit never runs it; a warm worker
# drops the module after each event, and its cycle is collected some time later.
STUCK_FINALIZER = """
import time


class Stuck:
    def __del__(self):
        time.sleep(10**6)


_keep = Stuck()


def check(event, ctx):
    scratch = [[] for _ in range(2000)]  # garbage, as any hook makes: the collector runs
    if "rm -rf" in event["input"].get("command", ""):
        return {"block": True, "reason": "blocked: rm -rf"}
    return None


def hook(pi):
    pi.on("tool_call", check, tools=["Bash"])
"""


def test_a_finalizer_that_never_returns_holds_up_no_later_event(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The worker collects each event's garbage after its answer went out, so the hook's
    finalizer runs then (the worker is ended at that run's deadline), never inside a
    later event, whose guard it would make miss its deadline."""
    project = Served(tmp_path_factory.mktemp("finalizer"))
    project.install(
        {"guard": STUCK_FINALIZER},
        f'[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\ntimeout = {GUARD_TIMEOUT}\n',
    )
    project.start(**{WORKERS_VARIABLE: "1"})
    try:
        for _ in range(12):
            started = time.monotonic()
            assert project.post("PreToolUse", project.bash("PreToolUse", "ls")) == (200, {})
            assert time.monotonic() - started < 2.0
        _, body = project.post("PreToolUse", project.bash("PreToolUse", "rm -rf /"))
        assert deny_reason(body) == "blocked: rm -rf"
    finally:
        project.stop()
