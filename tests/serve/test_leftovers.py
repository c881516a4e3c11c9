"""serve/leftovers.py: each thing an event can leave behind in a warm worker is seen (the
worker then ends), and what the runner itself keeps per process is put back. Each case runs
in a fresh interpreter: the baseline, then the event's "leftover", then the check."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = """
import gc, os, signal, sys, threading, time, json
import hookman.bridge.run_command
import hookman.bridge.capture
import hookman.runtime.loader
import hookman.bridge.runtime_events
from hookman.serve.leftovers import Baseline, environment
baseline = Baseline()
environ, cwd = environment(), os.getcwd()
{action}
baseline.restore_runner_state()
print("PROBLEM:", baseline.problem(environ, cwd))
"""


def _problem(action: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(action=textwrap.dedent(action).strip())],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split("PROBLEM:", 1)[1].strip()


@pytest.mark.parametrize(
    ("action", "said"),
    [
        ("os.environ['HOOKMAN_TEST_LEAK'] = '1'", "changed the environment"),
        ("os.environ.pop('PATH', None)", "changed the environment"),
        (
            "threading.Thread(target=time.sleep, args=(5,), daemon=True).start()",
            "a thread it started still runs",
        ),
        ("os.chdir('/')", "changed the working directory"),
        ("os.umask(0)", "changed the umask"),
        ("os.open(os.devnull, os.O_RDONLY)", "left a file descriptor open"),
        ("os.close(0)", "left a file descriptor open (or closed one)"),
        ("signal.signal(signal.SIGUSR1, lambda *_: None)", "changed a signal handler"),
        ("signal.setitimer(signal.ITIMER_REAL, 50)", "the interval timer"),
        ("sys.path.append('/elsewhere')", "changed sys.path"),
        ("sys.excepthook = print", "a hook of sys"),
        ("os.system = len", "replaced a name in a module or class (os)"),
        (
            "import hookman.bridge.protocol as p; p.deny_answer = lambda *a: {}",
            "(hookman.bridge.protocol)",
        ),
        (
            "hookman.bridge.capture.OutputCapture.write_answer = lambda self, text: None",
            "(hookman.bridge.capture.OutputCapture)",
        ),
        ("sys.modules['json'] = type(sys)('json')", "replaced or removed a module"),
        ("hookman.bridge.run_command._own_path_entry.append('/x')", "a table of hookman"),
        ("os.fork() or time.sleep(0.2)\nif os.getpid() != 0: pass", "a process it started"),
        ("sys.addaudithook(lambda *a: None)", "it added an audit hook (sys.addaudithook)"),
        ("import codecs; codecs.register(lambda name: None)", "registered a codec search"),
        ("import _codecs; _codecs.register(lambda name: None)", "registered a codec search"),
        (
            "import copyreg; copyreg.pickle(type('K', (), {}), lambda o: (object, ()))",
            "(copyreg.dispatch_table)",
        ),
        ("import copyreg; copyreg.add_extension('m', 'n', 9999)", "(copyreg._extension_regi"),
        (
            "import resource\n"
            "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
            "resource.setrlimit(resource.RLIMIT_NOFILE, (soft - 1, hard))",
            "it changed a resource limit",
        ),
        (
            "signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR2])",
            "it changed which signals are blocked",
        ),
        (
            "events = hookman.bridge.runtime_events._BUILDERS\n"
            "events['PreToolUse'] = events['Stop']",
            "it changed a table of hookman's modules",
        ),
        ("import warnings; warnings.simplefilter('ignore')", "the warnings filters"),
        ("import socket; socket.setdefaulttimeout(0.01)", "socket's default timeout"),
        ("import locale; locale.setlocale(locale.LC_ALL, 'C.UTF-8')", "the locale"),
        ("sys.argv.append('--more')", "sys.argv"),
        ("gc.set_debug(gc.DEBUG_STATS)", "gc's debugging"),
        ("import threading; threading.stack_size(1 << 20)", "the threads' stack size"),
        ("os.nice(1)", "the process's user, group, priority or root directory"),
    ],
)
def test_a_leftover_is_seen(action: str, said: str) -> None:
    problem = _problem(action)
    assert said in problem


def test_an_event_that_leaves_nothing_is_clean() -> None:
    assert _problem("x = [1, 2, 3]") == "None"


def test_an_event_that_looks_things_up_is_clean() -> None:
    """Reading what the tripwires and the new checks watch changes nothing of it."""
    action = """
    import codecs, copyreg, pickle, resource
    codecs.lookup("utf-8"); "x".encode("latin-1")
    pickle.loads(pickle.dumps({1: [2]}))
    resource.getrlimit(resource.RLIMIT_NOFILE)
    signal.pthread_sigmask(signal.SIG_BLOCK, [])
    baseline.drop_new_modules()
    """
    assert _problem(action) == "None"


def test_tripwires_are_armed_once() -> None:
    """A second baseline (a worker's, after the image's) wraps nothing twice: a call is
    noted once, and the wrapped call still does what it did."""
    script = """
    import codecs, sys
    from hookman.serve import leftovers
    leftovers.Baseline(); leftovers.Baseline()
    found = codecs.register(lambda name: None)
    print(len(leftovers._TRIPPED), found, codecs.register.__wrapped__.__name__)
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True
    )
    assert done.stdout.split() == ["1", "None", "register"], done.stderr


def test_what_the_runner_keeps_per_process_is_put_back() -> None:
    action = """
    loader = hookman.runtime.loader
    loader._modules_by_path['/p/guard.py'] = object()
    loader._imports_started += 3
    sys.pycache_prefix = '/elsewhere'
    """
    assert _problem(action) == "None"


def test_modules_an_event_imported_are_dropped() -> None:
    script = """
    import sys
    from hookman.serve.leftovers import Baseline
    baseline = Baseline()
    import colorsys, hookman.bridge.agent_facts
    baseline.drop_new_modules()
    print("colorsys" in sys.modules, "hookman.bridge.agent_facts" in sys.modules)
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True
    )
    assert done.stdout.split() == ["False", "False"], done.stderr
