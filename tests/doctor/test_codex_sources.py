"""Reading Codex CLI's hook files: never raises, never writes, says what is wrong."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.doctor.codex_sources import (
    project_trust,
    read_codex_files,
    wants_codex,
)
from hookman.paths import codex_home


def _project(root: Path) -> Path:
    project = root / "project"
    (project / ".codex").mkdir(parents=True, exist_ok=True)
    return project


@given(st.binary(max_size=200), st.sampled_from(["hooks.json", "config.toml"]))
def test_any_bytes_are_read_without_raising_and_left_as_they_are(data: bytes, name: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        project = _project(Path(scratch))
        path = project / ".codex" / name
        path.write_bytes(data)
        files = read_codex_files(project)
        read = next(f for f in files if f.path == path)
        assert read.exists
        assert read.error is not None or read.data is not None
        assert read.hooks is None or isinstance(read.hooks, dict)
        assert path.read_bytes() == data


def test_codex_home_is_codex_home_else_the_users(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "ch"))
    assert codex_home() == tmp_path / "ch"
    monkeypatch.delenv("CODEX_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert codex_home() == tmp_path / ".codex"


def test_config_toml_state_is_trust_records_not_hooks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "ch"))
    (tmp_path / "ch").mkdir()
    (tmp_path / "ch" / "config.toml").write_text(
        '[hooks.state."k"]\ntrusted_hash = "sha256:1"\n\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n'
        '[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "echo inline"\n'
    )
    user = next(f for f in read_codex_files(_project(tmp_path)) if f.form == "toml")
    assert user.hooks is not None and list(user.hooks) == ["PreToolUse"]


def test_codex_home_inside_the_project_is_one_layer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path)
    monkeypatch.setenv("CODEX_HOME", str(project / ".codex"))
    assert {f.layer for f in read_codex_files(project)} == {"user"}


def test_opt_in_by_agents_or_by_hooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "ch"))
    project = _project(tmp_path)
    (project / ".claude").mkdir()
    assert not wants_codex(project)
    (project / ".codex" / "hooks.json").write_text('{"hooks": {}}')
    assert not wants_codex(project)
    (project / ".codex" / "hooks.json").write_text('{"hooks": {"Stop": []}}')
    assert wants_codex(project)
    (project / ".codex" / "hooks.json").unlink()
    (project / ".claude" / "hookman.toml").write_text('agents = ["claude", "codex"]\n')
    assert wants_codex(project)


def test_the_nearest_trust_entry_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "ch"))
    (tmp_path / "ch").mkdir()
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    project = root / "app"
    (project / ".codex").mkdir(parents=True)
    (tmp_path / "ch" / "config.toml").write_text(
        f'[projects."{root}"]\ntrust_level = "trusted"\n'
        f'[projects."{project}"]\ntrust_level = "untrusted"\n'
    )
    assert project_trust(read_codex_files(project), project) == "untrusted"
    assert project_trust(read_codex_files(root), root) == "trusted"
    outside = tmp_path / "other"
    (outside / ".codex").mkdir(parents=True)
    assert project_trust(read_codex_files(outside), outside) is None
