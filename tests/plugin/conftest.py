"""A project with a guard and a context hook installed, ready to build a plugin from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.commands.helpers import GUARD, NOTES, hookman, write_hook

VERSION = ("--claude-version", "2.1.332")


@pytest.fixture
def built_project(project: Path) -> Path:
    write_hook(project, "guard", GUARD)
    write_hook(project, "notes", NOTES)
    done = hookman(
        "install",
        str(project / "hooks" / "guard.py"),
        str(project / "hooks" / "notes.py"),
        "--project",
        str(project),
        *VERSION,
    )
    assert done.exit_code == 0, done.output
    return project
