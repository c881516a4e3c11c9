from __future__ import annotations

from pathlib import Path

import pytest

from hookman.scaffold import template_files

FACTORY = "def hook(pi):\n    pi.on('Stop', lambda e, c: None)\n"


def _file(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(FACTORY)
    return path


def test_bundled_templates_are_files_or_directories_with_a_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "templates"
    _file(directory / "bash_guard.py")
    _file(directory / "notes" / "hook.py")
    _file(directory / "test_bash_guard.py")
    _file(directory / "_private.py")
    monkeypatch.setattr(template_files, "templates_dir", lambda: str(directory))
    assert template_files.bundled_templates() == {
        "bash_guard": directory / "bash_guard.py",
        "notes": directory / "notes" / "hook.py",
    }


def test_the_shipped_templates_are_found_from_a_source_checkout() -> None:
    shipped = template_files.bundled_templates()
    assert "bash_guard" in shipped
    assert all(path.is_file() for path in shipped.values())
