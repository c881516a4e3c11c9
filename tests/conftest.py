"""Shared fixtures. Every test runs in a world of its own, so nothing of the developer's
machine changes a result and no test touches the real user's files:

- HOOKMAN_HOME: an empty directory of its own (registry, state, logs, store);
- HOME: an empty directory of its own. CLAUDE_CONFIG_DIR and CODEX_HOME are unset, so Claude
  Code's user layer is `$HOME/.claude` and Codex's `$HOME/.codex`, both in that directory
  (a user's plugins, hooks and Codex trust are not seen); XDG_CONFIG_HOME, XDG_DATA_HOME,
  XDG_STATE_HOME, XDG_CACHE_HOME and XDG_RUNTIME_DIR point inside it too;
- git: GIT_CONFIG_GLOBAL is a minimal file in that HOME (a user name and e-mail, so commits
  work) and GIT_CONFIG_NOSYSTEM is set; the variables that point git at another repository or
  add configuration (GIT_DIR, GIT_CONFIG_COUNT, ...) are unset;
- the variables a client or a shell would hand a hook (CLAUDE_PROJECT_DIR, the plugin
  variables, BASH_ENV, ENV) are unset.

What must stay real is resolved once, here, before any test moves HOME: the pinned clients
of the E2E suite (HOOKMAN_E2E_CACHE, default `~/.cache/hookman-e2e` of the real home) and a
user site (PYTHONUSERBASE) that a `pip install --user` put hookman's dependencies in.
tests/test_hermetic.py proves it: it plants a hostile home and runs a slice of the suite in it.

Under CI=true the property tests run derandomized (the same examples on every run, from
each test's own seed), so CI cannot fail on one run and pass on the next, whatever the
installed Hypothesis version does by itself; the deterministic cases of the classes they
once found live next to them as plain tests.
"""

from __future__ import annotations

import contextlib
import os
import signal
import site
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# Tests marked `waits` wait out a real timeout of 15 s or more (a deadline the serve tests
# cannot shorten, a shell that retries a fork for 15 s): the default run skips them, to stay
# well under ten minutes on two cores; CI runs them in a pass of their own (.ci/run,
# HOOKMAN_WAITS=1).
WAITS_VARIABLE = "HOOKMAN_WAITS"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get(WAITS_VARIABLE) == "1":
        return
    skip = pytest.mark.skip(reason=f"waits out a long timeout: {WAITS_VARIABLE}=1 runs it")
    for item in items:
        if item.get_closest_marker("waits") is not None:
            item.add_marker(skip)


CI_PROFILE = "hookman-ci"
settings.register_profile(CI_PROFILE, derandomize=True, database=None, print_blob=True)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile(CI_PROFILE)

# Resolved once, at import, from the real home: every test then runs with a HOME of its own.
REAL_HOME = Path(os.path.expanduser("~"))
os.environ.setdefault("HOOKMAN_E2E_CACHE", str(REAL_HOME / ".cache" / "hookman-e2e"))
if site.ENABLE_USER_SITE and os.path.isdir(site.getusersitepackages()):
    os.environ.setdefault("PYTHONUSERBASE", site.getuserbase())

# A user's own configuration, or a client or shell around the test run: none of it may reach
# a test. CLAUDE_CONFIG_DIR and CODEX_HOME unset = `.claude` and `.codex` in the test's HOME.
UNSET = (
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_PLUGIN_ROOT",
    "CLAUDE_PLUGIN_DATA",
    "CLAUDE_ENV_FILE",
    # the client's off-switches doctor reads from the environment (doctor/findings_switches.py)
    "CLAUDE_CODE_SIMPLE",
    "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP",
    "BASH_ENV",
    "ENV",
    # git: another repository, work tree or index, or configuration given in the environment
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_SYSTEM",
    "GIT_TEMPLATE_DIR",
    "GIT_EXEC_PATH",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
)
XDG_DIRS = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_STATE_HOME": ".local/state",
    "XDG_CACHE_HOME": ".cache",
}
GITCONFIG = "[user]\n\tname = hookman tests\n\temail = tests@hookman.invalid\n"


@pytest.fixture(autouse=True)
def hookman_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("hookman_home")
    monkeypatch.setenv("HOOKMAN_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def user_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's HOME (empty but for a minimal .gitconfig), with the user-level directories
    of Claude Code, Codex, XDG and git inside it."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for variable in UNSET:
        monkeypatch.delenv(variable, raising=False)
    for variable in [name for name in os.environ if name.startswith("GIT_CONFIG_KEY_")]:
        monkeypatch.delenv(variable)
    for variable in [name for name in os.environ if name.startswith("GIT_CONFIG_VALUE_")]:
        monkeypatch.delenv(variable)
    for variable, relative in XDG_DIRS.items():
        monkeypatch.setenv(variable, str(home / relative))
    runtime = home / ".run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    gitconfig = home / ".gitconfig"
    gitconfig.write_text(GITCONFIG, encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    return home


@pytest.fixture(scope="session", autouse=True)
def no_server_outlives_the_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """At the end of the run (of each xdist worker), end every hook server and port keeper
    (hookman/serve/keeper.py: it holds the port while its user opts in) a test left running
    in one of this run's homes: a server the prompt gate started, a keeper after
    `hookman serve stop`."""
    yield
    base = str(tmp_path_factory.getbasetemp()).encode()
    for entry in os.listdir("/proc") if os.path.isdir("/proc/self") else ():
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
            environment = Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        home = next((v for v in environment if v.startswith(b"HOOKMAN_HOME=")), b"")
        if b"hookman.serve.daemon" in command and base in home:
            with contextlib.suppress(OSError):
                os.kill(int(entry), signal.SIGKILL)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project directory with a .claude/ folder."""
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    return root


# The real-client suite's end notes (tests/e2e/notes.py). Under pytest-xdist the workers fill
# them and only the controller prints, so each worker hands its notes over when it ends.
_NOTES_KEY = "hookman_e2e_notes"


def _e2e_notes() -> Any:
    from e2e import notes  # tests/ is on sys.path: this conftest's directory

    return notes


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        notes = _e2e_notes()
        workeroutput[_NOTES_KEY] = {
            "isolation": notes.ISOLATION,
            "claude": notes.MISSING_CLAUDE,
            "codex": notes.MISSING_CODEX,
            "agents": notes.MISSING_AGENTS,
        }


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    handed_over = getattr(node, "workeroutput", {}).get(_NOTES_KEY)
    if handed_over:
        notes = _e2e_notes()
        notes.ISOLATION.extend(handed_over["isolation"])
        notes.MISSING_CLAUDE.update(handed_over["claude"])
        notes.MISSING_CODEX.update(handed_over["codex"])
        notes.MISSING_AGENTS.update(handed_over.get("agents", {}))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    notes = _e2e_notes()
    if notes.ISOLATION:
        terminalreporter.write_line(f"e2e: client network: {notes.ISOLATION[0]}")
    missing_by_client = [("CLAUDE CODE", notes.MISSING_CLAUDE), ("CODEX CLI", notes.MISSING_CODEX)]
    missing_by_client += [("AGENT", notes.MISSING_AGENTS)]
    for client, missing in missing_by_client:
        for version, reason in sorted(missing.items()):
            terminalreporter.write_line(
                f"E2E SKIPPED FOR {client} {version}: {reason}", red=True, bold=True
            )
