"""Issue 23, class 2: the settings command's EXIT trap. A shell that dies on a failed fork
before the command's `case` runs (bash, as `sh` for Claude Code and as Codex's `/bin/bash`,
retries 1+2+4+8 s, then ends with status 254) must still deny with a reason: exit 2 with a
non-empty stderr, before install's 30 s timeout. Through the exact command install writes,
as an unprivileged user whose process limit (`ulimit -u 1`) lets the client's shell start no
process at all (a limit binds no root)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookman.bridge.protocol import CODEX_AGENT
from hookman.project.launcher import LAUNCHER_NAME, MISSING_LAUNCHER_TEXT
from hookman.project.settings_entries import build_command

RETRY_S = 15  # bash's retries of a failed fork (1+2+4+8 s)
INSTALL_TIMEOUT = 30  # the entry's timeout install writes: the deny must come before it


def _uid() -> int:
    """An unprivileged uid of this test process alone (the limit counts its processes)."""
    return 57000 + os.getpid() % 4000


@pytest.fixture
def launcher() -> Iterator[Path]:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI runs as root with setpriv (util-linux)")
        pytest.skip("needs root to run as a user with a process limit")
    bash = shutil.which("bash")
    if bash is None:
        pytest.fail("bash is missing")
    base = Path(tempfile.mkdtemp(prefix="hookman-exit-trap-"))
    base.chmod(0o755)
    path = base / LAUNCHER_NAME
    path.write_text("exit 73\n", encoding="utf-8")  # never forked: the limit stops it first
    path.chmod(0o644)
    try:
        yield path
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))


@pytest.mark.waits  # the entry's whole deadline, or bash's 15 s of fork retries
@pytest.mark.parametrize("client", ["claude-bash-as-sh", "codex"])
def test_a_shell_that_dies_on_the_launcher_s_fork_still_denies_with_its_reason(
    launcher: Path, client: str
) -> None:
    bash = shutil.which("bash") or "/bin/bash"
    agent = CODEX_AGENT if client == "codex" else None
    command = build_command("PreToolUse", launcher, guarded=True, agent=agent)
    argv0 = "sh" if client.startswith("claude") else "bash"
    started = time.monotonic()
    done = subprocess.run(
        [argv0, "-c", command],
        executable=bash,
        input=b"{}",
        capture_output=True,
        user=_uid(),
        group=_uid(),
        extra_groups=[],
        preexec_fn=_limit,
        env={"PATH": "/usr/bin:/bin", "LANG": "C"},
        cwd="/",
        timeout=INSTALL_TIMEOUT + 20,
        check=False,
    )
    elapsed = time.monotonic() - started
    # Before the trap: bash ended with its own status 254 (neither client reads a deny).
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert MISSING_LAUNCHER_TEXT.encode() in done.stderr, done.stderr
    assert done.stdout == b""
    assert RETRY_S - 5 < elapsed < INSTALL_TIMEOUT, elapsed  # it did meet the failed fork
