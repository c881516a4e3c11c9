"""A Bash guard installed by `hookman install` blocks in the real client, and fails closed."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from hookman.project.launcher import MISSING_LAUNCHER_TEXT
from hookman.project.settings_entries import hookman_command_runner

from .harness import ClaudeRun, E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e
REPO = Path(__file__).resolve().parents[2]

GUARD = """
def guard(event, ctx):
    if "rm -rf" in event["input"].get("command", ""):
        return {"block": True, "reason": "GUARD-E2E: rm -rf is not allowed here"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

RAISING_GUARD = """
def guard(event, ctx):
    raise RuntimeError("GUARD-E2E-BUG")


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

BROKEN_IMPORT_GUARD = """
import hookman_e2e_module_that_does_not_exist


def hook(pi):
    pi.on("tool_call", lambda event, ctx: None, tools=["Bash"])
"""


def hookman_internals_seen(run: ClaudeRun) -> list[str]:
    """Pieces of hookman's command line that reached the model (there must be none)."""
    text = run.all_message_text()
    pieces = ("-m hookman", "manifest.json", "hookman run", "hookman-run.sh", "printf")
    return [piece for piece in pieces if piece in text]


def test_rm_rf_is_denied_with_the_reason_and_a_harmless_command_runs(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude(
        "tidy up", turns=[bash(f"rm -rf {victim}"), bash("echo harmless-$((40+2))"), say("ok")]
    )

    assert run.returncode == 0, run.describe()
    denied, harmless = run.tool_results()
    assert denied["is_error"] is True
    assert "GUARD-E2E: rm -rf is not allowed here" in denied["content"], run.describe()
    assert victim.is_dir()
    assert harmless["content"] == "harmless-42"
    assert hookman_internals_seen(run) == []


def test_a_guard_that_raises_denies_and_names_the_hook(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("buggy", RAISING_GUARD))
    witness = e2e.root / "witness.txt"

    run = e2e.run_claude("go", turns=[bash(f"echo ran > {witness}"), say("ok")])

    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert "buggy" in denied["content"] and "GUARD-E2E-BUG" in denied["content"]
    assert not witness.exists()
    assert hookman_internals_seen(run) == []


def test_a_guard_that_no_longer_imports_denies(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("fragile", GUARD))
    e2e.write_hook("fragile", BROKEN_IMPORT_GUARD)  # broken after install, as in real life
    witness = e2e.root / "witness.txt"

    run = e2e.run_claude("go", turns=[bash(f"echo ran > {witness}"), say("ok")])

    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert "fragile" in denied["content"] and "failed to load" in denied["content"]
    assert not witness.exists()


def _throwaway_venv(e2e: E2EProject) -> Path:
    """A venv of its own whose interpreter imports this hookman and its dependencies from
    where the tests run: a .pth names the checkout and adds the running interpreter's site
    directories (in a venv, the venv's: `--system-site-packages` would give the base
    interpreter's, which lacks hookman's dependencies)."""
    venv = e2e.scratch / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    [site_packages] = venv.glob("lib/python*/site-packages")
    site_dirs = [*site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        site_dirs.append(site.getusersitepackages())
    lines = [str(REPO)] + [
        f"import site; site.addsitedir({directory!r})"
        for directory in site_dirs
        if os.path.isdir(directory)
    ]
    (site_packages / "hookman_checkout.pth").write_text("\n".join(lines) + "\n")
    return venv / "bin" / "python"


@pytest.mark.parametrize("breakage", ["venv deleted", "interpreter renamed", "launcher deleted"])
def test_a_guard_whose_install_broke_denies_and_says_how_to_repair(
    e2e: E2EProject, breakage: str
) -> None:
    python = _throwaway_venv(e2e)
    e2e.write_hook("guard", GUARD)
    subprocess.run(
        [str(python), "-m", "hookman", "install", "hooks/guard.py"],
        cwd=e2e.root,
        env=e2e.env(),
        check=True,
        capture_output=True,
        timeout=120,
    )
    [handler] = e2e.settings()["hooks"]["PreToolUse"][0]["hooks"]
    runner = hookman_command_runner(handler["command"])
    assert runner is not None and runner.interpreter == str(python) and runner.launcher
    if breakage == "venv deleted":
        shutil.rmtree(python.parent.parent)
    elif breakage == "interpreter renamed":
        for interpreter in python.parent.glob("python*"):
            interpreter.rename(interpreter.with_name(f"old-{interpreter.name}"))
    else:
        Path(runner.launcher).unlink()
    witness = e2e.root / "witness.txt"

    run = e2e.run_claude("go", turns=[bash(f"echo ran > {witness}"), say("ok")])

    if breakage == "launcher deleted" and run.stopped_by_hook():
        # the prompt gate's `sh LAUNCHER` fails first: dash exits 2 on a missing file, which
        # stops the prompt (bash-as-sh exits 127 and the guard's entry denies below)
        assert "hookman-run.sh" in run.stopped_by_hook(), run.describe()
        assert run.main_requests == [] and not witness.exists()
        return
    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    if breakage == "launcher deleted":
        # the settings command's own deny: exit 2, one short line (the client shows the
        # model the command beside it)
        assert MISSING_LAUNCHER_TEXT in denied["content"], run.describe()
    else:
        assert "hookman blocked this tool call" in denied["content"], run.describe()
        assert "Run `hookman install` in the project" in denied["content"]
        assert "runner gave no answer (exit status 127)" in denied["content"]
    assert not witness.exists()


EXITING_GUARD = """
import os


def guard(event, ctx):
    os._exit(0)


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""


def test_a_guard_that_ends_the_runner_denies(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("quitter", EXITING_GUARD))
    witness = e2e.root / "witness.txt"

    run = e2e.run_claude("go", turns=[bash(f"echo ran > {witness}"), say("ok")])

    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert "runner gave no answer (exit status 0)" in denied["content"], run.describe()
    assert "hookman log" in denied["content"]
    assert not witness.exists()
    assert hookman_internals_seen(run) == []
