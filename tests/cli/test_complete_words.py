from __future__ import annotations

from pathlib import Path

import pytest

from hookman.cli import complete_words
from hookman.scaffold.template_files import bundled_templates


def words(kind: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = complete_words.main([kind])
    return code, capsys.readouterr().out.split()


def test_hook_names_come_from_the_projects_hookman_toml(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".claude" / "hookman.toml").write_text(
        'hooks = [{name = "guard", path = "g.py"}, {name = "notes", registry = "notes"}]\n'
    )
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")
    assert words("hooks", capsys) == (0, ["guard", "notes"])


def test_installable_names_add_the_registry_and_the_templates(
    project: Path,
    hookman_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (project / ".claude" / "hookman.toml").write_text('[[hooks]]\nname = "a"\npath = "a.py"\n')
    registry = hookman_home / "config" / "registry.toml"
    registry.parent.mkdir(parents=True)
    registry.write_text('[hooks.shared]\npath = "/x/shared.py"\n')
    monkeypatch.chdir(project)
    assert words("installable", capsys) == (0, ["a", "shared", *bundled_templates()])
    assert words("registry", capsys) == (0, ["shared"])
    assert words("templates", capsys) == (0, list(bundled_templates()))


def test_a_broken_file_completes_nothing_and_never_fails(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".claude" / "hookman.toml").write_text("hooks = [\n")
    monkeypatch.chdir(project)
    assert words("hooks", capsys) == (0, [])


def test_events_and_an_unknown_kind(capsys: pytest.CaptureFixture[str]) -> None:
    code, events = words("events", capsys)
    assert code == 0 and "PreToolUse" in events and events == sorted(events)
    assert words("nonsense", capsys) == (2, [])
