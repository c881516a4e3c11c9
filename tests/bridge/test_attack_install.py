"""Hostile: what can happen to the launcher, the manifest, hookman, the interpreter's
environment and the process limits between install and the tool call."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .attack_support import ALLOW, DENY, RM_GUARD, guard_that, run_like_claude_code, short_timeout
from .conftest import RunnerProject

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def guarded(runner_project: RunnerProject) -> RunnerProject:
    runner_project.add_hook("guard", RM_GUARD, ["tool_call"], ["PreToolUse"])
    return runner_project


def _rm_rf(project: RunnerProject) -> dict:
    return project.payload("PreToolUse", tool_input={"command": "rm -rf /"})


def _launcher_prefix(project: RunnerProject, marker: str) -> str:
    text = project.launcher_path.read_text(encoding="utf-8")
    return text[: text.index(marker)]


EMPTIED_LAUNCHER = {
    "emptied": lambda project: "",
    "cut before its answers": lambda project: _launcher_prefix(project, "case $1 in"),
    "only its comments left": lambda project: _launcher_prefix(project, "python="),
    "replaced by a directory": None,  # dash reads it as an empty script
}


@pytest.mark.parametrize("cut", list(EMPTIED_LAUNCHER.values()), ids=list(EMPTIED_LAUNCHER))
def test_an_emptied_or_cut_launcher_denies(guarded: RunnerProject, cut) -> None:
    if cut is None:
        guarded.launcher_path.unlink()
        guarded.launcher_path.mkdir()
    else:
        guarded.launcher_path.write_text(cut(guarded), encoding="utf-8")

    verdict = run_like_claude_code(guarded, "PreToolUse", _rm_rf(guarded))

    assert verdict.decision == DENY, verdict


BROKEN_LAUNCHER = {
    "cut mid-line": lambda text: text[: len(text) // 2],
    "not executable": None,
    "binary junk": lambda text: "\x00\xff" * 100,
}


@pytest.mark.parametrize("breakage", list(BROKEN_LAUNCHER), ids=list(BROKEN_LAUNCHER))
def test_a_launcher_broken_other_ways_denies(guarded: RunnerProject, breakage: str) -> None:
    launcher = guarded.launcher_path
    change = BROKEN_LAUNCHER[breakage]
    if change is None:
        launcher.chmod(0o644)  # sh reads it: execute permission never mattered
    else:
        launcher.write_text(change(launcher.read_text(encoding="utf-8")), encoding="utf-8")

    verdict = run_like_claude_code(guarded, "PreToolUse", _rm_rf(guarded))

    assert verdict.decision == DENY, verdict


def test_a_lingering_child_cannot_hold_the_pipe_where_no_answer_file_can_be_made(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    # as test_launcher.py's pipe test: no answer file, so the runner's stdout is a pipe
    pids = tmp_path / "pids"
    keeps_every_fd = (
        "fds = [int(n) for n in os.listdir('/proc/self/fd')]\n"
        "keep = [fd for fd in fds if fd > 2 and os.path.exists(f'/proc/self/fd/{fd}')]\n"
        "child = subprocess.Popen(['sleep', '60'], pass_fds=keep, start_new_session=True)\n"
        f"open({str(pids)!r}, 'a').write(f'{{child.pid}}\\n')"
    )
    runner_project.add_hook("guard", guard_that(keeps_every_fd), ["tool_call"], ["PreToolUse"])
    short_timeout(runner_project)
    text = runner_project.launcher_path.read_text(encoding="utf-8")
    answers = f"answers={shlex.quote(str(runner_project.state_dir))}\n"
    runner_project.launcher_path.write_text(text.replace(answers, "answers=/nonexistent/dir\n"))
    try:
        verdict = run_like_claude_code(runner_project, "PreToolUse", _rm_rf(runner_project))
    finally:
        for pid in pids.read_text().split() if pids.exists() else []:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), 9)

    assert verdict.decision == DENY, verdict
    assert verdict.why == "checked"


LIMITS = ["ulimit -f 0", "ulimit -n 8", "ulimit -n 4", "ulimit -v 60000", "ulimit -s 64"]


@pytest.mark.parametrize("limit", LIMITS)
def test_process_limits_on_the_command_end_in_a_deny(guarded: RunnerProject, limit: str) -> None:
    verdict = run_like_claude_code(
        guarded, "PreToolUse", _rm_rf(guarded), shell_prefix=f"{limit}; "
    )

    assert verdict.decision == DENY, verdict


@pytest.mark.parametrize("missing", ["bridge/dispatch.py", "bridge/answer.py", "runtime"])
def test_a_half_deleted_hookman_denies(
    guarded: RunnerProject, tmp_path: Path, missing: str
) -> None:
    shadow = tmp_path / "shadow"
    shutil.copytree(REPO / "hookman", shadow / "hookman")
    gone = shadow / "hookman" / missing
    shutil.rmtree(gone) if gone.is_dir() else gone.unlink()
    harmless = guarded.payload("PreToolUse", tool_input={"command": "ls"})
    guarded.launcher_root = str(shadow)  # the directory the launcher imports hookman from
    guarded.write_launcher()

    verdict = run_like_claude_code(guarded, "PreToolUse", harmless)

    assert verdict.decision == DENY, verdict


ODD_ENVIRONMENT = {
    "PYTHONINSPECT": "1",
    "PYTHONWARNINGS": "error",
    "PYTHONDEVMODE": "1",
    "PYTHONIOENCODING": "ascii",
    "PYTHONUTF8": "0",
    "LC_ALL": "C",
    "PYTHONPYCACHEPREFIX": "/proc/nowhere",
    "PYTHONHASHSEED": "not a number",  # the interpreter refuses to start
    "PYTHONHOME": "/nonexistent",  # likewise
    "PATH": "/nonexistent",  # no sh: the shell itself answers
}


@pytest.mark.parametrize(
    ("name", "value"), list(ODD_ENVIRONMENT.items()), ids=list(ODD_ENVIRONMENT)
)
def test_an_odd_environment_never_lets_rm_through(
    guarded: RunnerProject, name: str, value: str
) -> None:
    verdict = run_like_claude_code(guarded, "PreToolUse", _rm_rf(guarded), env={name: value})

    assert verdict.decision == DENY, verdict
    assert verdict.stderr == b"" or name == "PATH"


def test_a_truncated_manifest_denies(guarded: RunnerProject) -> None:
    text = guarded.manifest_path.read_text(encoding="utf-8")
    guarded.manifest_path.write_text(text[: len(text) // 2], encoding="utf-8")

    verdict = run_like_claude_code(guarded, "PreToolUse", guarded.payload("PreToolUse"))

    assert verdict.decision == DENY, verdict
    assert "cannot be read" in verdict.why


def test_fifty_concurrent_runs_each_get_their_own_answer(guarded: RunnerProject) -> None:
    def one(index: int) -> tuple[bool, str]:
        command = "rm -rf /" if index % 2 else "ls"
        payload = guarded.payload("PreToolUse", tool_input={"command": command})
        return bool(index % 2), run_like_claude_code(guarded, "PreToolUse", payload).decision

    with ThreadPoolExecutor(50) as pool:
        results = set(pool.map(one, range(50)))

    assert results == {(True, DENY), (False, ALLOW)}
    assert list(guarded.state_dir.glob(".answer-*")) == []


@pytest.mark.parametrize(
    ("inner", "decision"),
    [
        ('"command": "rm -rf /", "command": "ls"', ALLOW),
        ('"command": "ls", "command": "rm -rf /"', DENY),
    ],
    ids=["rm first", "rm last"],
)
def test_duplicate_keys_are_read_as_claude_code_reads_them_last_wins(
    guarded: RunnerProject, inner: str, decision: str
) -> None:
    payload = json.dumps(guarded.payload("PreToolUse", tool_input={"command": "X"}))
    raw = payload.replace('"command": "X"', inner).encode()

    assert run_like_claude_code(guarded, "PreToolUse", raw).decision == decision


def test_the_launcher_answers_the_same_under_bash_as_sh(
    guarded: RunnerProject, tmp_path: Path
) -> None:
    env = _sh_is("bash", tmp_path)
    harmless = guarded.payload("PreToolUse", tool_input={"command": "ls"})

    assert run_like_claude_code(guarded, "PreToolUse", _rm_rf(guarded), env=env).why == "no rm"
    assert run_like_claude_code(guarded, "PreToolUse", harmless, env=env).decision == ALLOW


def _sh_is(shell: str, tmp_path: Path) -> dict[str, str]:
    """An environment whose `sh` is `shell` (dash on Debian, bash on macOS and elsewhere)."""
    bin_dir = tmp_path / f"{shell}-bin"
    bin_dir.mkdir()
    (bin_dir / "sh").symlink_to(shutil.which(shell) or f"/bin/{shell}")
    return {"PATH": f"{bin_dir}:{os.environ['PATH']}"}


WHILE_IT_RUNS = {
    "the state dir is deleted": "import shutil\nshutil.rmtree(os.environ['STATE'])",
    "the manifest is deleted": "os.unlink(os.environ['MANIFEST'])",
    "the launcher is replaced by an empty one (rename)": (
        "open(os.environ['LAUNCHER'] + '.new', 'w').close()\n"
        "os.replace(os.environ['LAUNCHER'] + '.new', os.environ['LAUNCHER'])"
    ),
    "the launcher is truncated in place": "open(os.environ['LAUNCHER'], 'w').close()",
}


@pytest.mark.parametrize(
    ("change", "shell"),
    [
        pytest.param(
            body,
            shell,
            id=f"{name}, {shell}",
        )
        for name, body in WHILE_IT_RUNS.items()
        for shell in ("dash", "bash")
    ],
)
def test_the_install_changing_while_a_guard_runs_still_ends_in_a_deny(
    runner_project: RunnerProject, tmp_path: Path, change: str, shell: str
) -> None:
    runner_project.add_hook("guard", guard_that(change), ["tool_call"], ["PreToolUse"])
    env = {
        "STATE": str(runner_project.state_dir),
        "MANIFEST": str(runner_project.manifest_path),
        "LAUNCHER": str(runner_project.launcher_path),
        **_sh_is(shell, tmp_path),
    }

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse"), env=env
    )

    assert verdict.decision == DENY, verdict


NO_LONGER_GUARDS = {
    "a typo in the event name": (
        'def hook(pi):\n    pi.on("tool_cal", lambda e, c: {"block": True})\n'
    ),
    "registration behind a condition": (
        "import os\n"
        "def hook(pi):\n"
        "    if os.environ.get('HOOKMAN_ATTACK_UNSET'):\n"
        "        pi.on('tool_call', lambda e, c: {'block': True})\n"
    ),
    "an emptied factory": "def hook(pi):\n    pass\n",
}


@pytest.mark.parametrize("source", list(NO_LONGER_GUARDS.values()), ids=list(NO_LONGER_GUARDS))
def test_a_guard_that_no_longer_registers_its_handler_denies(
    runner_project: RunnerProject, source: str
) -> None:
    runner_project.add_hook("guard", source, ["tool_call"], ["PreToolUse"])

    verdict = run_like_claude_code(runner_project, "PreToolUse", _rm_rf(runner_project))

    assert verdict.decision == DENY, verdict


def test_a_log_that_blocks_cannot_keep_the_deny_from_the_client(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook("guard", RM_GUARD, ["tool_call"], ["PreToolUse"])
    short_timeout(runner_project)
    runner_project.log_path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(runner_project.log_path)  # e.g. to follow the log live, with no reader now

    verdict = run_like_claude_code(runner_project, "PreToolUse", _rm_rf(runner_project))

    assert verdict.decision == DENY, verdict
