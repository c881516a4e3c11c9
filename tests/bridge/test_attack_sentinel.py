"""Hostile tests of the sentinel (issue 24: project/sentinel.py, command-sentinel.sh): a guard
a pull adds in the middle of a session, on a tool no blocking entry matches, must be denied
naming `hookman install`, never skipped. Each call runs as Claude Code runs it (every entry
whose matcher matches, under `/bin/sh -c`, judged by attack_support.run_settings_command).
The five fail-opens found first (a data file, a sibling module, two symlinks swapped for
older files, a stamp dated past a future file, a command too long to start) run as plain
tests now: the sentinel watches the directories too, dates no stamp past a future file and
drops its fast path before the command outgrows one argument.

Held (tried by hand or below): weird project paths (quote, `$`, backquote, newline, `-`)
under dash, bash, mksh, zsh, yash; disable/enable/install/remove/uninstall/try-repo rewrite
the sentinel's matcher and watched files and re-stamp (the fast path holds after each); a
user's own group with the sentinel's matcher is kept apart; errexit and `set -u`; a copied
project (the prompt gate stops it); regex metacharacters in MCP tool names."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from hookman.project.sentinel import stamp_path
from tests.commands.helpers import (
    client_verdicts,
    pulled_after_install,
    tool_payload,
    wait_past_stamp,
)

from .attack_support import DENY, hookman_install, run_settings_command, sentinel_handlers

VERSION = ("--claude-version", "2.1.332")

BASH_GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm -rf" in str(event["input"]):
            return {"block": True, "reason": "no rm -rf"}
"""
WRITE_GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Write"])
    def guard(event, ctx):
        return {"block": True, "reason": "no writes"}
"""
# A guard whose tools are data beside the module (the shape test_attack_issue24 shows install
# learns from): a pull that changes only the data adds a Write guard.
DATA_GUARD = """
import json, pathlib
TOOLS = json.loads((pathlib.Path(__file__).parent / "guarded.json").read_text())

def hook(pi):
    @pi.on("tool_call", tools=TOOLS)
    def guard(event, ctx):
        return {"block": True, "reason": "guarded: " + event["tool_name"]}
"""
# The same, with the tools in a sibling module imported by path (a shared `common.py`).
SIBLING_GUARD = """
import importlib.util, pathlib
_spec = importlib.util.spec_from_file_location(
    "guard_common", pathlib.Path(__file__).parent / "common.py")
common = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(common)

def hook(pi):
    @pi.on("tool_call", tools=common.TOOLS)
    def guard(event, ctx):
        return {"block": True, "reason": "guarded: " + event["tool_name"]}
"""
ADD_WRITE_GUARD = (
    '\n[[hooks]]\nname = "no_write"\npath = "hooks/no_write.py"\n'
    'events = ["tool_call"]\ntools = { tool_call = ["Write"] }\n'
)


def _write(project: Path, relative: str, text: str) -> Path:
    path = project / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _denied(project: Path, tool: str) -> bool:
    return any(verdict.decision == DENY for verdict in client_verdicts(project, tool))


def _runner_denies(project: Path, tool: str) -> str:
    """What the runner says when it is reached (the full command of the sentinel, its fast
    path cut off): the project's own verdict, to show it knows the change."""
    [sentinel] = sentinel_handlers(_settings(project), "PreToolUse")
    command = sentinel["command"].split("&& exit 0;", 1)[1]
    verdict = run_settings_command(
        command, "PreToolUse", tool_payload(project, tool), timeout=30, cwd=project
    )
    return verdict.decision


def _settings(project: Path) -> dict[str, Any]:
    return json.loads((project / ".claude" / "settings.local.json").read_text())


def _later_than_stamp(project: Path, *files: Path) -> None:
    pulled_after_install(project, *files)


# -- 1. the sentinel watches the module, not what the module reads --------------------------


def test_a_pulled_data_file_that_adds_a_write_guard_is_denied(project: Path) -> None:
    _write(project, "hooks/g.py", DATA_GUARD)
    _write(project, "hooks/guarded.json", '["Bash"]')
    settings = hookman_install(project, "hooks/g.py", *VERSION)
    assert sentinel_handlers(settings, "PreToolUse")
    assert not _denied(project, "Write")  # before the pull, Write runs at once
    data = _write(project, "hooks/guarded.json", '["Bash", "Write"]')  # the pull
    _later_than_stamp(project, data)
    assert _runner_denies(project, "Write") == DENY  # the runner knows 'g' now guards Write
    assert _denied(project, "Write")  # ...but the client never reaches it


def test_a_pulled_sibling_module_that_adds_a_write_guard_is_denied(project: Path) -> None:
    _write(project, "hooks/g.py", SIBLING_GUARD)
    _write(project, "hooks/common.py", 'TOOLS = ["Bash"]\n')
    hookman_install(project, "hooks/g.py", *VERSION)
    common = _write(project, "hooks/common.py", 'TOOLS = ["Bash", "Write"]\n')
    _later_than_stamp(project, common)
    assert _runner_denies(project, "Write") == DENY
    assert _denied(project, "Write")


# -- 2. `[ -nt ]` follows symlinks: a link swapped to an older file --------------------------


def test_hookman_toml_swapped_for_a_symlink_to_an_older_file_is_denied(project: Path) -> None:
    _write(project, "hooks/g.py", BASH_GUARD)
    _write(project, "hooks/no_write.py", WRITE_GUARD)
    hookman_install(project, "hooks/g.py", *VERSION)
    config = project / ".claude" / "hookman.toml"
    # a stricter config committed long ago (its mtime before install), e.g. config/strict.toml
    strict = _write(project, "config/strict.toml", config.read_text() + ADD_WRITE_GUARD)
    old = stamp_path(project).stat().st_mtime - 3600
    os.utime(strict, (old, old))
    wait_past_stamp(project)  # the pull comes later than install
    config.unlink()  # the pull: .claude/hookman.toml becomes a link to it
    config.symlink_to(Path("..") / "config" / "strict.toml")
    assert _runner_denies(project, "Write") == DENY
    assert _denied(project, "Write")


def test_a_path_hook_symlink_retargeted_to_an_older_guard_is_denied(project: Path) -> None:
    _write(project, "impl/v1.py", BASH_GUARD)
    v2 = _write(
        project,
        "impl/v2.py",
        BASH_GUARD.replace(
            "def hook(pi):",
            "def hook(pi):\n"
            '    @pi.on("tool_call", tools=["Write"])\n'
            "    def no_write(event, ctx):\n"
            '        return {"block": True, "reason": "no writes"}\n',
        ),
    )
    link = project / "hooks" / "g.py"
    link.parent.mkdir()
    link.symlink_to(Path("..") / "impl" / "v1.py")
    old = time.time() - 3600
    os.utime(v2, (old, old))
    hookman_install(project, "hooks/g.py", *VERSION)
    wait_past_stamp(project)  # the pull comes later than install
    link.unlink()  # the pull retargets the link at a file already in the tree
    link.symlink_to(Path("..") / "impl" / "v2.py")
    assert _runner_denies(project, "Write") == DENY
    assert _denied(project, "Write")


# -- 3. the stamp in the future --------------------------------------------------------------


def test_a_future_dated_hook_does_not_blind_the_sentinel(project: Path) -> None:
    module = _write(project, "hooks/g.py", BASH_GUARD)
    _write(project, "hooks/no_write.py", WRITE_GUARD)
    future = time.time() + 86400  # a file from a machine whose clock ran a day ahead
    os.utime(module, (future, future))
    hookman_install(project, "hooks/g.py", *VERSION)
    assert not stamp_path(project).exists()  # no stamp past it: the runner decides each call
    config = project / ".claude" / "hookman.toml"
    config.write_text(config.read_text() + ADD_WRITE_GUARD)  # a pull, a minute later
    later = time.time() + 60
    os.utime(config, (later, later))
    assert _runner_denies(project, "Write") == DENY
    assert _denied(project, "Write")


# -- 4. the command outgrows one argument --------------------------------------------------

OBSERVER = """
def hook(pi):
    pi.on("before_agent_start", lambda event, ctx: None)
"""
ARG_MAX_STRLEN = 131072  # Linux MAX_ARG_STRLEN: the longest single argument execve takes


def test_the_sentinel_command_of_many_path_hooks_still_runs(project: Path) -> None:
    deep = "hooks/" + "/".join(["d" * 200] * 3)
    names = []
    for index in range(200):
        relative = f"{deep}/observer_{index:0100d}.py"
        _write(project, relative, OBSERVER)
        names.append(relative)
    _write(project, "hooks/g.py", BASH_GUARD)
    _write(project, "hooks/no_write.py", WRITE_GUARD)
    settings = hookman_install(project, "hooks/g.py", *names, *VERSION)
    [sentinel] = sentinel_handlers(settings, "PreToolUse")
    config = project / ".claude" / "hookman.toml"
    config.write_text(config.read_text() + ADD_WRITE_GUARD)
    _later_than_stamp(project, config)
    try:
        denied = _denied(project, "Write")
    except OSError as error:  # E2BIG: Claude Code's spawn fails the same way; the tool runs
        assert error.errno == errno.E2BIG, error
        denied = False
    assert denied, f"sentinel command of {len(sentinel['command'].encode())} bytes"


# -- 5. what `hookman new` says the sentinel does -------------------------------------------


def test_hookman_new_does_not_say_calls_run_without_hookman_when_the_sentinel_denies(
    project: Path,
) -> None:
    _write(project, "hooks/g.py", BASH_GUARD)
    hookman_install(project, "hooks/g.py", *VERSION)
    said = _hookman(project, "new", "mine", "--template", "bash_guard")
    assert said.returncode == 0, said
    _later_than_stamp(project, project / ".claude" / "hookman.toml")  # edited a second later
    assert _denied(project, "Write")  # the sentinel reaches Write; the runner denies
    assert "without hookman" not in said.stdout, said.stdout


# -- held: the ordinary pull, and the paths that should hold --------------------------------


def test_held_a_pulled_write_guard_in_a_weird_project_path(tmp_path: Path) -> None:
    project = tmp_path / "we'ird $HOME `x` \n-dir"
    (project / ".claude").mkdir(parents=True)
    _write(project, "hooks/g.py", BASH_GUARD)
    _write(project, "hooks/no_write.py", WRITE_GUARD)
    hookman_install(project, "hooks/g.py", *VERSION)
    assert not _denied(project, "Write")
    config = project / ".claude" / "hookman.toml"
    config.write_text(config.read_text() + ADD_WRITE_GUARD)
    _later_than_stamp(project, config)
    for shell in ("/bin/sh", "/bin/bash"):
        verdicts = client_verdicts(project, "Write", shell=shell)
        assert any(v.decision == DENY and "hookman install" in v.why for v in verdicts), verdicts


def test_held_errexit_and_nounset_do_not_cut_the_sentinel(project: Path) -> None:
    _write(project, "hooks/g.py", BASH_GUARD)
    _write(project, "hooks/no_write.py", WRITE_GUARD)
    settings = hookman_install(project, "hooks/g.py", *VERSION)
    config = project / ".claude" / "hookman.toml"
    config.write_text(config.read_text() + ADD_WRITE_GUARD)
    _later_than_stamp(project, config)
    [sentinel] = sentinel_handlers(settings, "PreToolUse")
    verdict = run_settings_command(
        "set -eu; " + sentinel["command"],
        "PreToolUse",
        tool_payload(project, "Write"),
        timeout=30,
        cwd=project,
        env={"SHELLOPTS": "errexit:nounset"},
        shell="/bin/bash",
    )
    assert verdict.decision == DENY, verdict


def _hookman(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookman", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
