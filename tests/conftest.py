"""Shared fixtures. Every test runs with its own HOOKMAN_HOME so no test touches the real
user registry, state or logs.

Under CI=true the property tests run derandomized (the same examples on every run, from
each test's own seed), so CI cannot fail on one run and pass on the next, whatever the
installed Hypothesis version does by itself; the deterministic cases of the classes they
once found live next to them as plain tests.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

CI_PROFILE = "hookman-ci"
settings.register_profile(CI_PROFILE, derandomize=True, database=None, print_blob=True)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile(CI_PROFILE)


@pytest.fixture(autouse=True)
def hookman_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("hookman_home")
    monkeypatch.setenv("HOOKMAN_HOME", str(home))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    return home


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
        }


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    handed_over = getattr(node, "workeroutput", {}).get(_NOTES_KEY)
    if handed_over:
        notes = _e2e_notes()
        notes.ISOLATION.extend(handed_over["isolation"])
        notes.MISSING_CLAUDE.update(handed_over["claude"])
        notes.MISSING_CODEX.update(handed_over["codex"])


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    notes = _e2e_notes()
    if notes.ISOLATION:
        terminalreporter.write_line(f"e2e: client network: {notes.ISOLATION[0]}")
    missing_by_client = (("CLAUDE CODE", notes.MISSING_CLAUDE), ("CODEX CLI", notes.MISSING_CODEX))
    for client, missing in missing_by_client:
        for version, reason in sorted(missing.items()):
            terminalreporter.write_line(
                f"E2E SKIPPED FOR {client} {version}: {reason}", red=True, bold=True
            )
