"""Shared fixtures. Every test runs with its own HOOKMAN_HOME so no test touches the real
user registry, state or logs."""

from __future__ import annotations

from pathlib import Path

import pytest


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
