from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hookman.cli import completion_scripts

COMPLETIONS = completion_scripts.COMPLETIONS_DIR


@pytest.mark.parametrize("shell", completion_scripts.SHELLS)
def test_shipped_completions_match_the_cli(shell: str) -> None:
    shipped = completion_scripts.completion_file(COMPLETIONS, shell).read_text(encoding="utf-8")
    assert shipped == completion_scripts.render(shell), (
        f"completions/ is stale for {shell}: run `python -m hookman.cli.completion_scripts`"
    )


@pytest.fixture
def hookman_on_path(tmp_path: Path) -> dict[str, str]:
    """An environment whose `hookman` is this checkout's (the scripts call it on TAB)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "hookman"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m hookman "$@"\n')
    launcher.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


@pytest.fixture
def project_with_hooks(project: Path) -> Path:
    (project / ".claude" / "hookman.toml").write_text(
        '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\n\n'
        '[[hooks]]\nname = "notes"\npath = "hooks/notes.py"\n'
    )
    return project


def _bash_complete(*words: str, cwd: Path | None = None, env: dict[str, str] | None = None):
    line = " ".join(["hookman", *words])
    script = (
        f"source {COMPLETIONS / 'hookman.bash'}\n"
        f"COMP_WORDS=(hookman {' '.join(repr(w) for w in words)})\n"
        f"COMP_CWORD={len(words)}\n"
        f"COMP_LINE={line!r}\n"
        "_hookman_complete\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, check=True, cwd=cwd, env=env
    )
    return done.stdout.split()


def test_bash_completes_commands_options_subcommands_and_events() -> None:
    assert "install" in _bash_complete("ins")
    assert _bash_complete("install", "--dry") == ["--dry-run"]
    assert set(_bash_complete("registry", "")) >= {"add", "remove", "list"}
    assert _bash_complete("fire", "PreTo") == ["PreToolUse"]
    assert _bash_complete("registry", "list", "--j") == ["--json"]
    assert _bash_complete("log", "--event", "Stop") == ["Stop", "StopFailure"]
    assert _bash_complete("completions", "") == ["bash", "zsh", "fish"]


def test_bash_completes_the_projects_hook_names(
    project_with_hooks: Path, hookman_on_path: dict[str, str]
) -> None:
    assert _bash_complete("remove", "", cwd=project_with_hooks, env=hookman_on_path) == [
        "guard",
        "notes",
    ]
    assert _bash_complete("remove", "n", cwd=project_with_hooks, env=hookman_on_path) == ["notes"]
    assert "guard" in _bash_complete("install", "g", cwd=project_with_hooks, env=hookman_on_path)


def test_bash_completes_registry_names(
    tmp_path: Path, hookman_home: Path, hookman_on_path: dict[str, str]
) -> None:
    registry = hookman_home / "config" / "registry.toml"
    registry.parent.mkdir(parents=True)
    registry.write_text(f'[hooks.shared-guard]\npath = "{tmp_path / "g.py"}"\n')
    assert _bash_complete("registry", "remove", "sh", cwd=tmp_path, env=hookman_on_path) == [
        "shared-guard"
    ]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_script_parses_and_registers_through_fpath(tmp_path: Path) -> None:
    subprocess.run(["zsh", "-n", str(COMPLETIONS / "_hookman")], check=True)
    script = (
        f"fpath=({COMPLETIONS} $fpath); autoload -Uz compinit && "
        f"compinit -u -d {tmp_path / 'zcompdump'}; print -r -- ${{_comps[hookman]}}"
    )
    done = subprocess.run(
        ["zsh", "-f", "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    assert done.stdout.strip() == "_hookman"


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_script_parses() -> None:
    subprocess.run(["fish", "--no-execute", str(COMPLETIONS / "hookman.fish")], check=True)


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_hook_names_and_events(
    project_with_hooks: Path, hookman_on_path: dict[str, str]
) -> None:
    def complete(line: str) -> list[str]:
        script = f"source {COMPLETIONS / 'hookman.fish'}; complete -C '{line}'"
        done = subprocess.run(
            ["fish", "--no-config", "-c", script],
            capture_output=True,
            text=True,
            check=True,
            cwd=project_with_hooks,
            env=hookman_on_path,
        )
        return [row.split("\t")[0] for row in done.stdout.splitlines()]

    assert complete("hookman remove ") == ["guard", "notes"]
    assert complete("hookman fire PreTo") == ["PreToolUse"]
