"""`hookman list` and `hookman doctor` without typer (cli/lean_commands.py): the same
output, errors and exit codes as through typer, for every command line the lean path takes;
typer for every other one."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookman.cli import lean_commands

EXAMPLE = Path(__file__).parents[2] / "examples" / "quickstart"
THROUGH_TYPER = "import sys; from hookman.cli.app import main; sys.exit(main(sys.argv[1:]))"


def run(
    argv: list[str], cwd: Path, *, importtime: bool = False
) -> subprocess.CompletedProcess[str]:
    flags = ["-X", "importtime"] if importtime else []
    return subprocess.run(
        [sys.executable, *flags, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PATH": os.defpath, "NO_COLOR": "1"},
        check=False,
    )


@pytest.fixture(scope="module")
def quickstart(tmp_path_factory: Any) -> Path:
    project = tmp_path_factory.mktemp("lean") / "quickstart"
    shutil.copytree(EXAMPLE, project)
    installed = run(["-m", "hookman", "install", "--claude-version", "2.1.332"], project)
    assert installed.returncode == 0, installed.stderr
    return project


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["list", "--json"],
        ["list", "--claude-version", "2.1.197"],
        ["list", "--claude-version=2.1.328", "--json"],
        ["list", "--project", "."],
        ["list", "--project", "/no/such/project"],
        ["doctor", "--claude-version", "2.1.332"],
        ["doctor", "--json", "--claude-version", "2.1.332"],
        ["doctor", "--managed-settings", "/no/such/file"],
    ],
)
def test_the_lean_path_prints_what_typer_prints(args: list[str], quickstart: Path) -> None:
    assert lean_commands.parse(lean_commands._entry(args[0]) or {}, args[1:]) is not None
    lean = run(["-m", "hookman", *args], quickstart)
    typer = run(["-c", THROUGH_TYPER, *args], quickstart)
    assert (lean.returncode, lean.stdout, lean.stderr) == (
        typer.returncode,
        typer.stdout,
        typer.stderr,
    )
    assert "Traceback" not in lean.stderr


@pytest.mark.parametrize(
    "words",
    [
        ["--help"],
        ["-h"],
        ["--bogus"],
        ["--json=1"],
        ["--project"],
        ["--project", "--json"],
        ["--project="],
        ["--json", "--json"],
        ["--project", "a", "--project", "b"],
        ["extra"],
        ["--", "--json"],
    ],
)
@pytest.mark.parametrize("name", lean_commands.LEAN_COMMANDS)
def test_anything_but_plain_long_options_goes_to_typer(words: list[str], name: str) -> None:
    entry = lean_commands._entry(name)
    assert entry is not None
    assert lean_commands.parse(entry, words) is None
    assert lean_commands.main(name, words) is None


def test_values_are_converted_as_typer_converts_them() -> None:
    entry = lean_commands._entry("doctor")
    assert entry is not None
    assert lean_commands.parse(entry, ["--managed-settings=m.json", "--probe", "--json"]) == {
        "managed_settings": Path("m.json"),
        "probe": True,
        "json_output": True,
    }
    assert lean_commands.parse(entry, []) == {}


def test_every_lean_command_is_routed_by_the_entry_point() -> None:
    source = (Path(lean_commands.__file__).parents[1] / "__main__.py").read_text()
    routed = re.search(r"first in \(([^)]*)\)", source)
    assert routed is not None
    assert ast.literal_eval(f"({routed.group(1)})") == lean_commands.LEAN_COMMANDS


@pytest.mark.parametrize("args", [["list"], ["list", "--json"], ["doctor"]])
def test_list_and_doctor_load_no_cli_framework(args: list[str], quickstart: Path) -> None:
    """Importing typer costs more than list's own work (BENCHMARKS.md): a plain list or
    doctor runs without it, and without the writer's modules."""
    done = run(["-m", "hookman", *args], quickstart, importtime=True)
    imported = set(re.findall(r"^import time:.*\|\s*([\w.]+)\s*$", done.stderr, re.MULTILINE))
    assert done.returncode in (0, 1), done.stderr
    assert "hookman.commands.list_hooks" in imported or "hookman.commands.doctor" in imported
    heavy = {"typer", "click", "rich", "pydantic", "tomlkit", "filelock", "platformdirs"}
    assert not {name.split(".")[0] for name in imported} & heavy
    assert not {"hookman.cli.app", "hookman.cli.command_index"} & imported
