"""The plugin's guard under a hostile environment: a planted `hookman` package on
PYTHONPATH and in the session's cwd, PYTHON* start-up variables, BASH_ENV/ENV, odd paths."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from hookman.bridge.protocol import GUARDED_DENIED_STATUS, GUARDED_DONE_STATUS
from tests.client_shell import as_client
from tests.commands.helpers import hookman

from .conftest import VERSION

PAYLOAD = {
    "session_id": "s1",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf /tmp/x"},
    "cwd": "/tmp",
}
FORGED_RUNNER = """\
import sys
sys.stdout.write('{}\\nhookman:answer-complete\\n')
sys.exit(0)
"""


def test_planted_hookman_packages_and_startup_variables_do_not_reach_the_guard(
    built_project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "plug 'q' $x"
    done = hookman("plugin", "build", str(out), "--project", str(built_project), *VERSION)
    assert done.exit_code == 0, done.output
    planted = tmp_path / "planted"
    for root in (planted, built_project):  # PYTHONPATH, and the session's cwd
        package = root / "hookman" / "bridge"
        package.mkdir(parents=True)
        (root / "hookman" / "__init__.py").write_text("")
        (package / "__init__.py").write_text("")
        (package / "run_command.py").write_text(
            "def launched():\n    exec(" + repr(FORGED_RUNNER) + ")\n"
        )
    startup = tmp_path / "startup.sh"
    startup.write_text("echo '{}'; exit 3\n")
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(planted),
        "PYTHONHOME": str(planted),
        "PYTHONINSPECT": "1",
        "PYTHONWARNINGS": "error",
        "BASH_ENV": str(startup),
        "ENV": str(startup),
        "CLAUDE_PLUGIN_DATA": str(tmp_path / "data"),
        "CLAUDE_PROJECT_DIR": str(built_project),
    }

    ran = subprocess.run(
        as_client("sh", str(out / "hookman-runner" / "run.sh"), "PreToolUse"),
        input=json.dumps(PAYLOAD),
        capture_output=True,
        text=True,
        env=env,
        cwd=built_project,
        timeout=60,
        check=False,
    )

    # BASH_ENV is set, so a start-up file may have printed before the answer: the deny goes
    # out on stderr (the launcher exits GUARDED_DENIED_STATUS, which the command makes exit
    # 2), which the client honours whatever stdout holds.
    assert ran.returncode == GUARDED_DENIED_STATUS, ran.stderr
    assert ran.stderr.strip() == "no"  # the guard itself answered


def test_a_data_dir_that_cannot_be_written_still_denies(
    built_project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "plug"
    assert (
        hookman("plugin", "build", str(out), "--project", str(built_project), *VERSION).exit_code
        == 0
    )
    blocked = tmp_path / "blocked"
    blocked.write_text("a file, not a directory")

    ran = subprocess.run(
        as_client("sh", str(out / "hookman-runner" / "run.sh"), "PreToolUse"),
        input=json.dumps(PAYLOAD),
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "CLAUDE_PLUGIN_DATA": str(blocked), "TMPDIR": str(tmp_path)},
        timeout=60,
        check=False,
    )

    assert ran.returncode == GUARDED_DONE_STATUS
    assert json.loads(ran.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
