"""The suite is hermetic (tests/conftest.py): a user's Claude Code plugins and hooks, Codex
config and trust, git configuration and environment change no test's result.

The proof plants all of them in a hostile home (tests/hostile_home.py), checks they are live
there (hookman doctor and git, run with that home, see them), then runs a slice of the suite
with HOME, the client variables and the XDG directories pointing into it, and wants every
test to pass. Before tests/conftest.py gave each test a HOME of its own, 9 tests of
test_new.py failed so. CI runs the whole suite without the real clients in such a home,
under each Python but the main one (.ci/other_pythons).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.hostile_home import hostile_home

REPO = Path(__file__).resolve().parent.parent
# One test file per kind of user state a test could read by mistake: a user-scope plugin
# (test_new.py: 9 of its tests failed so), the Codex layer and trust, git's configuration.
# CI runs the whole suite without the real clients in such a home (.ci/other_pythons).
SLICE = (
    "tests/commands/test_new.py",
    "tests/commands/test_install_codex.py",
    "tests/hooks/test_store.py",
)


def test_the_hostile_home_is_live_without_the_fixtures(tmp_path: Path) -> None:
    """What the slice below runs against is hostile: hookman and git, started with that
    home's environment, see the plugin, the user hooks, the Codex layer and the git config."""
    env = hostile_home(tmp_path / "hostile")
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    env["HOOKMAN_HOME"] = str(tmp_path / "hookman-home")
    command = ["doctor", "--json", "--project", str(project), "--claude-version", "2.1.328"]
    doctor = subprocess.run(
        [sys.executable, "-m", "hookman", *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report = json.loads(doctor.stdout)
    seen = json.dumps(report)
    assert "evil@hostile" in seen, seen  # the user-scope plugin
    assert "stop-ignores-stop-hook-active" in seen, seen
    assert str(tmp_path / "hostile" / "codex-home") in seen, seen  # Codex's user layer
    git = subprocess.run(
        ["git", "config", "--get", "protocol.file.allow"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert git.stdout.strip() == "never"


def test_a_hostile_home_changes_no_result(tmp_path: Path) -> None:
    env = hostile_home(tmp_path / "hostile")
    command = [sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider"]
    command += ["--basetemp", str(tmp_path / "basetemp"), *SLICE]
    done = subprocess.run(
        command, cwd=REPO, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    tail = done.stdout[-6000:] + done.stderr[-2000:]
    assert done.returncode == 0, tail
    assert " passed" in done.stdout and "failed" not in done.stdout, tail
