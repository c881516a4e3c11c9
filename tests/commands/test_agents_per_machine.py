"""Agents per machine (docs/agents.md): a committed `agents = ["claude", "codex"]` wires Codex
CLI where it is installed and is quiet where it is not: install writes nothing of Codex's and
says so in one line of information, an earlier .codex/hooks.json is left as it was, doctor
exits 0 with an info finding; `install --agent codex` there is refused with nothing written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_codex import install_fake_codex, trust_project

from .helpers import GUARD, hookman, hookman_json, write_hook


@pytest.fixture
def no_codex(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A teammate's machine: a git project, no `codex` anywhere on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("git", "sh"):  # what install runs besides Python
        found = subprocess.run(["which", tool], capture_output=True, text=True, check=True)
        (bin_dir / tool).symlink_to(found.stdout.strip())
    monkeypatch.setenv("PATH", os.pathsep.join([str(bin_dir), os.path.dirname(sys.executable)]))
    monkeypatch.chdir(project)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    return bin_dir


def committed_codex_opt_in(project: Path) -> None:
    """The guard installed, then the team's `agents` line pulled into hookman.toml."""
    write_hook(project, "guard", GUARD)
    assert hookman("install", "hooks/guard.py", "--claude-version", "2.1.332").exit_code == 0
    toml = project / ".claude" / "hookman.toml"
    toml.write_text('agents = ["claude", "codex"]\n' + toml.read_text(), encoding="utf-8")


def test_a_committed_codex_opt_in_is_quiet_on_a_machine_without_codex(
    project: Path, no_codex: Path
) -> None:
    committed_codex_opt_in(project)

    result = hookman("install", "--claude-version", "2.1.332")

    assert result.exit_code == 0, result.output
    assert not (project / ".codex").exists()
    assert "warning" not in result.output.lower(), result.output
    said = [line for line in result.output.splitlines() if "Codex" in line]
    assert said == [
        "Codex CLI: not installed here (no `codex` on PATH), so its entries were not written; "
        "once Codex is installed, run `hookman install` to wire it."
    ], result.output
    listed = hookman_json("list")
    assert listed["agents"] == ["claude", "codex"] and listed["codex"] is None
    assert listed["warnings"] == []
    doctor = hookman_json("doctor", "--claude-version", "2.1.332")
    codex = [f for f in doctor["findings"] if f["code"].startswith("codex-")]
    assert [(f["code"], f["severity"]) for f in codex] == [("codex-not-installed", "info")]
    assert hookman("doctor", "--claude-version", "2.1.332").exit_code == 0


def test_an_earlier_codex_file_is_left_as_it_was_and_named(
    project: Path, no_codex: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    committed_codex_opt_in(project)
    hookman("install", "--claude-version", "2.1.332", "--codex-version", "0.171.0")
    hooks_json = project / ".codex" / "hooks.json"
    before = hooks_json.read_bytes()
    assert "--agent codex" in before.decode()

    result = hookman("install", "--claude-version", "2.1.332")

    assert result.exit_code == 0, result.output
    assert hooks_json.read_bytes() == before
    assert "keeps the hookman entries an earlier install wrote, untouched" in result.output
    assert hookman("doctor", "--claude-version", "2.1.332").exit_code == 0


def test_the_same_opt_in_wires_codex_where_it_is_installed(
    project: Path, no_codex: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    committed_codex_opt_in(project)
    home = tmp_path / "codex-home"
    install_fake_codex(no_codex, home)
    monkeypatch.setenv("CODEX_HOME", str(home))
    trust_project(home, project)

    result = hookman("install", "--claude-version", "2.1.332")

    assert result.exit_code == 0, result.output
    written = json.loads((project / ".codex" / "hooks.json").read_text())
    assert "PreToolUse" in written["hooks"] and "not installed" not in result.output


def test_install_agent_codex_without_codex_is_refused_and_writes_nothing(
    project: Path, no_codex: Path
) -> None:
    write_hook(project, "guard", GUARD)

    result = hookman("install", "hooks/guard.py", "--agent", "codex")

    assert result.exit_code == 1
    assert "not installed here" in result.output and "nothing was written" in result.output
    assert "--codex-version V" in result.output
    assert not (project / ".claude" / "hookman.toml").exists()
    assert not (project / ".codex").exists()


def test_install_agent_codex_with_a_version_writes_for_a_codex_installed_later(
    project: Path, no_codex: Path
) -> None:
    write_hook(project, "guard", GUARD)
    result = hookman("install", "hooks/guard.py", "--agent", "codex", "--codex-version", "0.171.0")
    assert result.exit_code == 0, result.output
    assert (project / ".codex" / "hooks.json").is_file()
