from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from hookman import output
from hookman.doctor import render as render_module
from hookman.doctor.probe import terminal_progress

from .conftest import command, diagnose, group, settings


def rendered(project: Path, monkeypatch: pytest.MonkeyPatch, *, terminal: bool) -> str:
    buffer = io.StringIO()
    fake = Console(file=buffer, force_terminal=terminal, width=120, color_system=None)
    monkeypatch.setattr(render_module, "console", lambda: fake)
    render_module.render(diagnose(project))
    return buffer.getvalue()


def test_a_terminal_gets_tables_grouped_by_source(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings(project, {"PostToolUse": [group(command("true"), matcher="bash")]})
    text = rendered(project, monkeypatch, terminal=True)
    assert "┃ path" in text and ".claude/settings.json (project)" in text
    assert "findings: .claude/settings.json" in text
    assert re.search(r"error matcher-case line \d+, hooks.PostToolUse\[0\].matcher", text)
    assert "fix: use the matcher `Bash`." in text


def test_piped_output_is_plain_lines(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings(project, {"PostToolUse": [group(command("true"), matcher="bash")]})
    text = rendered(project, monkeypatch, terminal=False)
    assert "┃" not in text and "\x1b[" not in text
    assert "  hooks.PostToolUse[0].hooks[0]: PostToolUse matcher=bash runs=true" in text


def test_a_silenced_file_says_why_in_the_sources_table(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings(project, {"PreToolUse": [group({"type": "nope"})], "Stop": [group(command("true"))]})
    text = rendered(project, monkeypatch, terminal=False)
    assert "project: .claude/settings.json (NOT LOADED (invalid-entry-silences-file))" in text
    assert "loaded=NO (invalid-entry-silences-file)" in text


def test_the_progress_bar_shows_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    output.error_console.cache_clear()
    monkeypatch.setattr("sys.stderr", io.StringIO())
    try:
        assert terminal_progress() is None
    finally:
        output.error_console.cache_clear()


def test_paths_are_shown_relative_to_the_project_or_home(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert (
        render_module.shown_path(str(project / ".claude" / "x.json"), project) == ".claude/x.json"
    )
    assert (
        render_module.shown_path(str(Path.home() / ".claude" / "s.json"), project)
        == "~/.claude/s.json"
    )
    assert render_module.shown_path("/etc/claude-code/m.json", project) == "/etc/claude-code/m.json"
    assert render_module.shown_path(None, project) == "-"
