"""CODEX_HOME is read in one place (paths.codex_home): doctor's reading of Codex's files,
install's trust check and the Codex app server hookman starts all mean the same directory,
whether it is written with a ~ or relative to the current directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookman.agents import codex_app_server, codex_sync
from hookman.doctor.codex_sources import read_codex_files
from hookman.paths import codex_home


@pytest.mark.parametrize("spelled", ["~/codex-home", "codex-home", "./codex-home"])
def test_codex_home_spelled_with_a_tilde_or_relative_is_one_directory_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spelled: str
) -> None:
    home = tmp_path / "home"
    work = home if spelled.startswith("~") else tmp_path / "cwd"
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (work / "codex-home").mkdir(parents=True)
    (work / "codex-home" / "config.toml").write_text(
        f'[projects."{project}"]\ntrust_level = "trusted"\n', encoding="utf-8"
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", spelled)
    monkeypatch.chdir(tmp_path / "cwd" if (tmp_path / "cwd").is_dir() else tmp_path)

    expected = work / "codex-home"
    assert codex_home() == expected and codex_home().is_absolute()
    user_toml = next(f for f in read_codex_files(project) if f.layer == "user" and f.form == "toml")
    assert user_toml.path == expected / "config.toml" and user_toml.data is not None
    assert codex_sync._trusted_in_config(project)
    assert codex_app_server._environment()["CODEX_HOME"] == str(expected)


def test_without_codex_home_it_is_the_users_dot_codex(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert codex_home() == tmp_path / ".codex"
    assert "CODEX_HOME" not in codex_app_server._environment()
