"""Issue 23, class 6: another user on the machine against a built plugin's state.

With no CLAUDE_PLUGIN_DATA the plugin once kept its state (bytecode cache, firing log) in
`$TMPDIR/hookman-plugin-UID-NAME`, a name another user could make first: they planted
bytecode the runner loaded (the guard answered `{}`), a symlink the log appended to (a write
outside hookman's files) or a FIFO the log waited on (past the client's timeout: the tool
runs). Here that other user is uid 65534 (the tests run as root): their directories are
theirs and mode 0777, and they plant at the old name and at the new one. Each hooks.json
command runs as Claude Code runs it (`/bin/sh -c`, CLAUDE_PLUGIN_ROOT set, no
CLAUDE_PLUGIN_DATA) under every shell of the `/bin/sh` family, and is judged as the client
reads it.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hookman.bridge.private_dir import make_private_dir, shared_dir_problem
from tests.bridge.attack_support import DENY, Verdict, run_settings_command
from tests.commands.helpers import hookman
from tests.state_attack_support import OTHER, needs_root, plant_bytecode, theirs

from .conftest import VERSION

PLUGIN = "project-hooks"  # the name build gives the fixture's project
PAYLOAD = {
    "session_id": "s1",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf /tmp/x"},
    "cwd": "/tmp",
}
TIMEOUT = 20.0  # seconds the client waits here (a hang shows as "killed at the timeout")
# The `/bin/sh` family (Debian packages), each run as `sh`.
FAMILY = {
    "dash": ["dash"],
    "bash": ["bash"],
    "busybox": ["busybox"],
    "mksh": ["mksh"],
    "ksh": ["ksh93", "ksh"],
    "zsh": ["zsh"],
    "yash": ["yash"],
    "posh": ["posh"],
}

pytestmark = needs_root


def _as_sh(name: str, bin_dir: Path) -> str:
    """`bin_dir/sh`, a symlink to the shell `name` (so it runs as `sh`, and the hooks.json
    command's own `sh` is that shell too); skipped without it, failed in CI."""
    found = next((shutil.which(program) for program in FAMILY[name] if shutil.which(program)), None)
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{name} is not installed (CI must have it: .ci/run)")
        pytest.skip(f"{name} is not installed")
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "sh").symlink_to(found)
    (bin_dir / "python3").symlink_to(sys.executable)
    return str(bin_dir / "sh")


def _build(project: Path, out: Path) -> str:
    """Build the plugin; its PreToolUse hooks.json command."""
    done = hookman("plugin", "build", str(out), "--project", str(project), *VERSION)
    assert done.exit_code == 0, done.output
    assert json.loads((out / ".claude-plugin" / "plugin.json").read_text())["name"] == PLUGIN
    hooks = json.loads((out / "hooks" / "hooks.json").read_text())
    return hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"]


def _plant_state(state: Path, plugin_root: Path) -> None:
    """The other user's state directory, with bytecode that makes the guard allow."""
    theirs(state)
    plant_bytecode(state, plugin_root / "hookman-runner" / "hooks" / "guard.py")


def _run(command: str, shell: str, env: dict[str, str], cwd: Path) -> Verdict:
    return run_settings_command(
        command, "PreToolUse", PAYLOAD, timeout=TIMEOUT, cwd=cwd, env=env, shell=shell
    )


def _client_env(plugin_root: Path, bin_dir: Path, **extra: str) -> dict[str, str]:
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "CLAUDE_PLUGIN_ROOT": str(plugin_root),
        "CLAUDE_PROJECT_DIR": "/tmp",
    }
    env.update(extra)
    return env


@pytest.fixture
def shared_tmp(tmp_path: Path) -> Path:
    """A $TMPDIR every user can write (sticky, like /tmp)."""
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    return shared


@pytest.mark.parametrize("shell_name", sorted(FAMILY))
def test_state_planted_in_tmpdir_before_the_first_run_is_never_used(
    built_project: Path, tmp_path: Path, shared_tmp: Path, shell_name: str
) -> None:
    shell = _as_sh(shell_name, tmp_path / "bin")
    plugin_root = tmp_path / "plug"
    command = _build(built_project, plugin_root)
    planted = shared_tmp / f"hookman-plugin-{os.getuid()}-{PLUGIN}"
    _plant_state(planted, plugin_root)
    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's own file\n")
    (planted / "firing.jsonl").symlink_to(victim)

    verdict = _run(
        command, shell, _client_env(plugin_root, tmp_path / "bin", TMPDIR=str(shared_tmp)), tmp_path
    )

    assert verdict.decision == DENY, verdict
    assert verdict.answer is not None and verdict.why == "no", verdict  # the guard's own deny
    assert victim.read_text() == "the victim's own file\n"


@pytest.mark.parametrize("shell_name", ["dash", "bash", "busybox"])
def test_a_fifo_at_the_logs_name_does_not_hold_the_answer(
    built_project: Path, tmp_path: Path, shared_tmp: Path, shell_name: str
) -> None:
    """The other user's FIFO at the old log name, and one at the log name in the user's own
    state directory: the runner neither waits on either nor lets the tool run."""
    shell = _as_sh(shell_name, tmp_path / "bin")
    plugin_root = tmp_path / "plug"
    command = _build(built_project, plugin_root)
    planted = theirs(shared_tmp / f"hookman-plugin-{os.getuid()}-{PLUGIN}")
    os.mkfifo(planted / "firing.jsonl")
    own = Path(os.environ["HOOKMAN_HOME"]) / "state" / "plugins" / PLUGIN
    own.mkdir(parents=True, mode=0o700)
    os.mkfifo(own / "firing.jsonl")

    verdict = _run(
        command, shell, _client_env(plugin_root, tmp_path / "bin", TMPDIR=str(shared_tmp)), tmp_path
    )

    assert verdict.decision == DENY, verdict
    assert verdict.why == "no", verdict


@pytest.mark.parametrize("shell_name", sorted(FAMILY))
@pytest.mark.parametrize("where", ["HOOKMAN_HOME", "XDG_STATE_HOME", "HOME"])
def test_a_per_user_state_dir_another_user_made_first_denies_naming_it(
    built_project: Path,
    tmp_path: Path,
    shared_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    shell_name: str,
) -> None:
    """HOOKMAN_HOME, XDG_STATE_HOME or HOME pointing at a shared directory, where the other
    user made the plugin's state directory (and the old one in $TMPDIR) first: the guarded
    call is denied with a reason that names the directory and the fix, no planted byte is
    loaded and the log writes nothing through their symlink."""
    shell = _as_sh(shell_name, tmp_path / "bin")
    plugin_root = tmp_path / "plug"
    command = _build(built_project, plugin_root)
    shared = theirs(tmp_path / "shared")
    base = {
        "HOOKMAN_HOME": shared / "state",
        "XDG_STATE_HOME": shared / "hookman",
        "HOME": shared / ".local" / "state" / "hookman",
    }[where]
    if where != "HOOKMAN_HOME":
        monkeypatch.delenv("HOOKMAN_HOME")
    if where == "HOME":
        monkeypatch.delenv("XDG_STATE_HOME")
    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's own file\n")
    for directory in reversed((base / "plugins").relative_to(shared).parents):
        theirs(shared / directory)
    theirs(base / "plugins")
    for state in (base / "plugins" / PLUGIN, shared_tmp / f"hookman-plugin-0-{PLUGIN}"):
        _plant_state(state, plugin_root)
        (state / "firing.jsonl").symlink_to(victim)
    env = _client_env(plugin_root, tmp_path / "bin", TMPDIR=str(shared_tmp))
    env[where] = str(shared)

    verdict = _run(command, shell, env, tmp_path)

    assert verdict.decision == DENY, verdict
    assert str(shared) in verdict.why and "no guard ran" in verdict.why, verdict
    assert "chmod go-w" in verdict.why, verdict
    assert victim.read_text() == "the victim's own file\n"


def test_the_state_dir_is_made_private_and_holds_the_log(
    built_project: Path, tmp_path: Path, shared_tmp: Path
) -> None:
    shell = _as_sh("dash", tmp_path / "bin")
    plugin_root = tmp_path / "plug"
    command = _build(built_project, plugin_root)
    env = _client_env(plugin_root, tmp_path / "bin", TMPDIR=str(shared_tmp))

    first = _run(command, shell, env, tmp_path)
    second = _run(command, shell, env, tmp_path)

    assert (first.decision, first.why, second.decision, second.why) == (DENY, "no", DENY, "no")
    state = Path(os.environ["HOOKMAN_HOME"]) / "state" / "plugins" / PLUGIN
    for directory in (state.parent, state):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700, directory
    assert len((state / "firing.jsonl").read_text().splitlines()) == 2
    assert not list(shared_tmp.iterdir())  # nothing of the plugin's is left in $TMPDIR


@pytest.mark.parametrize("shell_name", sorted(FAMILY))
def test_a_tmpdir_others_can_write_never_carries_an_answer(
    built_project: Path, tmp_path: Path, shell_name: str
) -> None:
    """$TMPDIR world-writable and not sticky: another user could rename the answer file
    away and put theirs (`{}`) in its place. The launcher never makes its answer file there
    (it is neither sticky nor the user's): the first call (no private answer directory yet)
    gets the runner's answer through a pipe; from then on it goes to the private one."""
    shell = _as_sh(shell_name, tmp_path / "bin")
    plugin_root = tmp_path / "plug"
    command = _build(built_project, plugin_root)
    open_tmp = theirs(tmp_path / "open-tmp")
    env = _client_env(plugin_root, tmp_path / "bin", TMPDIR=str(open_tmp))

    verdicts = [_run(command, shell, env, tmp_path) for _ in range(2)]

    assert [verdict.decision for verdict in verdicts] == [DENY, DENY], verdicts
    assert [verdict.why for verdict in verdicts] == ["no", "no"], verdicts
    assert not list(open_tmp.iterdir())


@pytest.mark.parametrize("whose", ["directory", "file"])
def test_the_runner_writes_no_answer_into_a_file_others_can_swap(
    built_project: Path, tmp_path: Path, whose: str
) -> None:
    """The runner itself, given an answer file in a directory others can write, or a file
    of another user's: it writes nothing into it and ends with the status that makes the
    launcher deny."""
    plugin_root = tmp_path / "plug"
    _build(built_project, plugin_root)
    if whose == "directory":
        answer = theirs(tmp_path / "open-tmp") / ".hookman-answer-1-0"
    else:
        answer = tmp_path / ".hookman-answer-1-0"
        answer.touch()
        os.chown(answer, OTHER, OTHER)
    runner = plugin_root / "hookman-runner"
    with answer.open("wb") as out:
        done = subprocess.run(
            [
                sys.executable,
                "-I",
                "-S",
                str(runner / "start.py"),
                "run",
                "PreToolUse",
                "--manifest",
                str(runner / "manifest.json"),
                "--launched",
                "--guarded",
                "--framed",
                "--answer-file",
                str(answer),
            ],
            input=json.dumps(PAYLOAD).encode(),
            stdout=out,
            stderr=subprocess.PIPE,
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
            timeout=60,
            check=False,
        )

    assert done.returncode == 71, done.stderr
    assert answer.read_bytes() == b""


@pytest.mark.parametrize(
    ("mode", "owner", "found"),
    [
        (0o700, 0, None),
        (0o755, 0, None),
        (0o777, 0, "can be written by other users (mode 777)"),
        (0o1777, 0, "can be written by other users (mode 1777)"),
        (0o700, OTHER, "belongs to another user (uid 65534)"),
    ],
)
def test_make_private_dir_checks_the_directory_itself(
    tmp_path: Path, mode: int, owner: int, found: str | None
) -> None:
    directory = tmp_path / "state"
    directory.mkdir()
    directory.chmod(mode)
    os.chown(directory, owner, owner)

    _resolved, problem = make_private_dir(str(directory))

    assert problem is None if found is None else found in (problem or ""), problem


@pytest.mark.parametrize(
    ("mode", "owner", "group", "found"),
    [
        (0o1777, 0, 0, None),  # /tmp: others cannot touch what is not theirs
        (0o1777, OTHER, 0, "belongs to another user (uid 65534)"),
        (0o777, 0, 0, "can be written by other users (mode 777)"),
        (0o775, 0, 0, None),  # the group is the user's own private group (root's here)
        (0o775, 0, OTHER, "can be written by other users (mode 775)"),
        (0o755, OTHER, OTHER, "belongs to another user (uid 65534)"),
    ],
)
def test_make_private_dir_checks_every_directory_above(
    tmp_path: Path, mode: int, owner: int, group: int, found: str | None
) -> None:
    above = tmp_path / "above"
    above.mkdir()
    above.chmod(mode)
    os.chown(above, owner, group)

    _resolved, problem = make_private_dir(str(above / "hookman" / "plugins" / "x"))

    assert problem is None if found is None else found in (problem or ""), problem
    assert (above / "hookman").exists() == (found is None)  # nothing made below a bad one
    assert (shared_dir_problem(str(above)) is None) == (found is None)


def test_make_private_dir_refuses_another_users_symlink_on_the_way(tmp_path: Path) -> None:
    """A symlink of the other user's in a sticky directory, pointing into the user's own
    files: the state would go where they choose."""
    sticky = tmp_path / "sticky"
    sticky.mkdir()
    sticky.chmod(0o1777)
    target = tmp_path / "users-own"
    target.mkdir(mode=0o700)
    link = sticky / "state"
    link.symlink_to(target)
    os.chown(link, OTHER, OTHER, follow_symlinks=False)

    _resolved, problem = make_private_dir(str(link / "plugins"))

    assert problem is not None and "belongs to another user" in problem, problem
    assert not (target / "plugins").exists()


def test_a_group_writable_directory_above_passes_only_for_the_users_primary_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Root's group is named as root and has no other members, so a 0775 directory of group
    0 passes while 0 is the primary group, and fails once it is not."""
    above = tmp_path / "above"
    above.mkdir()
    above.chmod(0o775)
    os.chown(above, 0, 0)
    target = str(above / "state")

    assert make_private_dir(target)[1] is None
    monkeypatch.setattr(os, "getgid", lambda: OTHER)
    assert "can be written by other users (mode 775)" in (shared_dir_problem(str(above)) or "")
