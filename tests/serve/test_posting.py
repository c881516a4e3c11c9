"""serve/posting.py: a project posts to a port only while both its installed manifest records
the port and its settings.local.json holds an http entry for it; anything else (another port,
no serve section, settings gone, unreadable or without the entry, a manifest that is not
JSON) is not posting, and nothing is read past what it needs."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookman.serve.posting import posting_projects
from hookman.serve.wire import hook_url

PORT = 47999


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOOKMAN_HOME", str(tmp_path / "home"))
    return tmp_path


def _project(home: Path, name: str, *, port: int | None, entry_port: int | None) -> Path:
    project = home / name
    (project / ".claude").mkdir(parents=True)
    manifest: dict[str, object] = {"format": 1, "project_dir": str(project)}
    if port is not None:
        manifest["serve"] = {"port": port}
    state = home / "home" / "state" / "projects" / f"{name}-0"
    state.mkdir(parents=True)
    (state / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    if entry_port is not None:
        entry = {"type": "http", "url": hook_url(entry_port, "PreToolUse")}
        settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [entry]}]}}
        (project / ".claude" / "settings.local.json").write_text(json.dumps(settings))
    return project


def test_a_project_posts_while_its_manifest_and_its_entries_name_the_port(home: Path) -> None:
    posting = _project(home, "a", port=PORT, entry_port=PORT)
    _project(home, "b", port=PORT, entry_port=None)  # installed since: command entries
    _project(home, "c", port=None, entry_port=PORT)  # hand-copied entries, not installed so
    _project(home, "d", port=PORT + 1, entry_port=PORT + 1)
    _project(home, "e", port=PORT, entry_port=PORT + 1)
    assert posting_projects(PORT) == [str(posting)]


def test_unreadable_files_post_nothing(home: Path) -> None:
    project = _project(home, "a", port=PORT, entry_port=PORT)
    settings = project / ".claude" / "settings.local.json"
    settings.unlink()
    os.symlink(settings, settings)  # a loop
    assert posting_projects(PORT) == []
    manifest = next((home / "home" / "state" / "projects").glob("*/manifest.json"))
    manifest.write_text('{"serve": ', encoding="utf-8")
    assert posting_projects(PORT) == []


def test_no_state_directory_posts_nothing(home: Path) -> None:
    assert posting_projects(PORT) == []
