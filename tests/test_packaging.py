"""What the wheel ships: the package, the bundled templates and the completion scripts, each
from its one source in the repository."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    pytest.importorskip("hatchling")
    out = tmp_path_factory.mktemp("wheel")
    build = "import sys, hatchling.build as b; print(b.build_wheel(sys.argv[1]))"
    done = subprocess.run(
        [sys.executable, "-c", build, str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    with zipfile.ZipFile(out / done.stdout.strip().splitlines()[-1]) as wheel:
        return {name: wheel.read(name) for name in wheel.namelist()}


def test_the_wheel_ships_the_completions_byte_for_byte(wheel_files: dict[str, bytes]) -> None:
    scripts = sorted((REPO / "completions").iterdir())
    assert [script.name for script in scripts] == ["_hookman", "hookman.bash", "hookman.fish"]
    for script in scripts:
        assert wheel_files[f"hookman/completions/{script.name}"] == script.read_bytes()


def test_the_wheel_ships_the_templates_and_the_catalog(wheel_files: dict[str, bytes]) -> None:
    assert (
        wheel_files["hookman/templates/bash_guard.py"]
        == (REPO / "templates" / "bash_guard.py").read_bytes()
    )
    assert "hookman/catalog/claude_code_events.json" in wheel_files
    index = REPO / "hookman" / "cli" / "command_index.json"  # the CLI reads its commands there
    assert wheel_files["hookman/cli/command_index.json"] == index.read_bytes()
    assert "hookman/runtime/__init__.py" in wheel_files


def test_the_wheel_ships_the_shell_templates_byte_for_byte(wheel_files: dict[str, bytes]) -> None:
    """The launcher and the settings commands are rendered from .sh files in the package."""
    templates = sorted((REPO / "hookman").rglob("*.sh"))
    names = {path.relative_to(REPO).as_posix() for path in templates}
    assert {"hookman/project/launcher.sh", "hookman/plugin/launcher-header.sh"} <= names
    for path in templates:
        assert wheel_files[path.relative_to(REPO).as_posix()] == path.read_bytes()
