from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hookman.cli import completion_scripts

REPO = Path(__file__).resolve().parents[2]
COMPLETIONS = REPO / "completions"


@pytest.mark.parametrize("shell", completion_scripts.SHELLS)
def test_committed_completions_match_the_cli(shell: str) -> None:
    committed = completion_scripts.completion_file(COMPLETIONS, shell).read_text(encoding="utf-8")
    assert committed == completion_scripts.render(shell), (
        f"completions/ is stale for {shell}: run `python -m hookman.cli.completion_scripts`"
    )


def _bash_complete(*words: str) -> list[str]:
    line = " ".join(["hookman", *words])
    script = (
        f"source {COMPLETIONS / 'hookman.bash'}\n"
        f"COMP_WORDS=(hookman {' '.join(repr(w) for w in words)})\n"
        f"COMP_CWORD={len(words)}\n"
        f"COMP_LINE={line!r}\n"
        "_hookman_complete\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_bash_completes_commands_options_subcommands_and_events() -> None:
    assert "install" in _bash_complete("ins")
    assert _bash_complete("install", "--dry") == ["--dry-run"]
    assert set(_bash_complete("registry", "")) >= {"add", "remove", "list"}
    assert _bash_complete("fire", "PreTo") == ["PreToolUse"]
    assert _bash_complete("registry", "list", "--j") == ["--json"]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_script_parses() -> None:
    subprocess.run(["zsh", "-n", str(COMPLETIONS / "_hookman")], check=True)


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_script_parses() -> None:
    subprocess.run(["fish", "--no-execute", str(COMPLETIONS / "hookman.fish")], check=True)
