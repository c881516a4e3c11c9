"""A guard still denies in the real clients whatever shell runs hookman's command.

Claude Code runs a hook's command with `/bin/sh -c`, and `/bin/sh` is the machine's: dash on
Debian and Ubuntu, bash in POSIX mode on Fedora, Arch and macOS. Each Claude Code version runs
here in a mount namespace of its own whose `/bin/sh` is dash or bash (the machine's own file is
never touched); with bash, the client's environment also turns tracing on with its trace sent
to stdout (`SHELLOPTS=xtrace`, `BASH_XTRACEFD=1`), which bash-as-sh reads and which once put
trace lines before hookman's JSON deny. Codex runs `/bin/bash -c`, which reads `BASH_ENV`
first: a start-up file that takes stderr away (`exec 2>/dev/null`) or sends it to stdout
(`exec 2>&1`) must not turn hookman's deny into an allow."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .codex_harness import CodexProject
from .harness import E2EProject
from .mock_anthropic import bash, say
from .mock_openai import shell

pytestmark = pytest.mark.e2e

GUARD = """
def guard(event, ctx):
    command = event["input"].get("command", "")
    if "rm -rf" in command or "BLOCK-ME" in command:
        return {"block": True, "reason": "GUARD-E2E: not this one"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

# The shell as /bin/sh, a hostile environment it reads, and what `echo ${BASH_VERSION}` says
SYSTEM_SHELLS = {
    "dash": ({}, "not bash"),
    "bash": ({"SHELLOPTS": "xtrace", "BASH_XTRACEFD": "1"}, "5."),
}

START_UP_FILES = {
    "stderr-to-null": "exec 2>/dev/null\n",
    "stderr-to-stdout": "exec 2>&1\n",
}


def _fail_or_skip(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"E2E CANNOT RUN IN CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _use_as_bin_sh(e2e: E2EProject, name: str) -> Path:
    """Run the client in a mount namespace whose /bin/sh is `name`; the file returned says
    what that /bin/sh is (written inside the namespace before the client starts)."""
    found = shutil.which(name, path="/usr/bin:/bin")
    if found is None:
        _fail_or_skip(f"{name} is not installed")
    probe = [*(e2e.isolation.prefix or ()), "unshare", "-m", "true"]
    if subprocess.run(probe, capture_output=True, timeout=30, check=False).returncode != 0:
        _fail_or_skip("no mount namespace can be made here (`unshare -m`)")
    proof = e2e.scratch / "bin-sh.txt"
    mount = (
        'mount --bind "$0" /bin/sh && '
        '/bin/sh -c \'echo "${BASH_VERSION:-not bash}"\' > "$1" && shift && exec "$@"'
    )
    e2e.client_prefix = ["unshare", "-m", "sh", "-c", mount, str(found), str(proof)]
    return proof


@pytest.mark.parametrize("system_shell", SYSTEM_SHELLS)
def test_claude_code_s_guard_denies_with_bin_sh_as_dash_and_as_tracing_bash(
    e2e: E2EProject, system_shell: str
) -> None:
    hostile_env, says = SYSTEM_SHELLS[system_shell]
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    proof = _use_as_bin_sh(e2e, system_shell)
    e2e.extra_env.update(hostile_env)
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude(
        "tidy up", turns=[bash(f"rm -rf {victim}"), bash("echo harmless-$((40+2))"), say("ok")]
    )

    assert proof.read_text().splitlines()[-1].startswith(says), proof.read_text()
    denied, harmless = run.tool_results()
    assert victim.is_dir(), run.describe()
    assert denied["is_error"] is True, run.describe()
    assert "GUARD-E2E: not this one" in denied["content"], run.describe()
    assert "harmless-42" in harmless["content"], run.describe()


@pytest.mark.parametrize("start_up", START_UP_FILES)
def test_codex_s_guard_denies_past_a_start_up_file_that_takes_stderr(
    codex_e2e: CodexProject, start_up: str
) -> None:
    e2e = codex_e2e
    e2e.hookman("install", e2e.write_hook("guard", GUARD), "--agent", "codex")
    start_up_file = e2e.scratch / "bash_env.sh"
    start_up_file.write_text(START_UP_FILES[start_up], encoding="utf-8")
    e2e.extra_env["BASH_ENV"] = str(start_up_file)

    run = e2e.run_codex(
        "note",
        turns=[shell("echo BLOCK-ME > blocked.txt"), shell("echo harmless > ok.txt"), say("done")],
    )

    outputs = run.tool_outputs()
    assert not (e2e.root / "blocked.txt").exists(), run.describe()
    assert outputs[0].startswith("Command blocked by PreToolUse hook: "), run.describe()
    assert "GUARD-E2E: not this one" in outputs[0], run.describe()
    assert (e2e.root / "ok.txt").read_text() == "harmless\n", run.describe()
