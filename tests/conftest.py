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
