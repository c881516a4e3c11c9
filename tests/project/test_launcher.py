"""The launcher and the settings command around it, run exactly as Claude Code runs them:
`bash -c <command>` with the payload on stdin. Whatever happened to the interpreter, hookman
or the launcher since install, a guarded event ends in a JSON deny on exit 0."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bridge.conftest import RunnerProject
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hookman.bridge.protocol import ANSWER_END, ANSWER_START
from hookman.catalog.event_catalog import guarded_events
from hookman.project.launcher import (
    DENIED_STATUS,
    DONE_STATUS,
    LAUNCHER_NAME,
    MISSING_LAUNCHER_TEXT,
    RUNNER_ENTRY,
    hookman_root,
    launcher_text,
    read_launcher_words,
)
from hookman.project.settings_entries import (
    RunnerRef,
    build_command,
    hookman_command_event,
    hookman_command_is_async,
    hookman_command_runner,
    is_hookman_command,
)
from tests.client_shell import as_client

GUARD = """
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "rm -rf is not allowed here"}
"""
NOTES = 'def hook(pi):\n    pi.on("agent_end", lambda event, ctx: None)\n'


@pytest.fixture
def guarded_project(project: Path, hookman_home: Path) -> RunnerProject:
    runner_project = RunnerProject(project, hookman_home)
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])
    runner_project.add_hook("notes", NOTES, ["agent_end"], ["Stop"])
    return runner_project


def _harmless(runner_project: RunnerProject) -> dict:
    return runner_project.payload("PreToolUse", tool_input={"command": "ls"})


def _deny_reason(answer: dict, event: str = "PreToolUse") -> str:
    assert answer["hookSpecificOutput"]["hookEventName"] == event
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    return answer["hookSpecificOutput"]["permissionDecisionReason"]


def _fake_python(directory: Path, body: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    fake = directory / "python3"
    fake.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    fake.chmod(0o755)
    return fake


# --- the common path ---------------------------------------------------------------------------


def test_the_installed_command_passes_the_runners_answer_on(
    guarded_project: RunnerProject,
) -> None:
    rm_rf = guarded_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    assert guarded_project.answer_installed("PreToolUse", _harmless(guarded_project)) == {}
    denied = guarded_project.answer_installed("PreToolUse", rm_rf)
    assert _deny_reason(denied) == "rm -rf is not allowed here"
    assert guarded_project.answer_installed("Stop", guarded_project.payload("Stop")) == {}
    # the answer file's name is gone as soon as the runner starts
    assert not list(guarded_project.state_dir.glob(".answer-*"))


def test_a_long_answer_passes_through_whole(project: Path, hookman_home: Path) -> None:
    runner_project = RunnerProject(project, hookman_home)
    text = "ä\\u2028x " * 30_000
    source = f"""
def hook(pi):
    answer = {{"hookSpecificOutput": {{"additionalContext": "{text}"}}}}
    pi.on("PreToolUse", lambda event, ctx: answer)
"""
    runner_project.add_hook("context", source, ["PreToolUse"], ["PreToolUse"])

    answer = runner_project.answer_installed("PreToolUse", _harmless(runner_project))

    assert answer["hookSpecificOutput"]["additionalContext"] == json.loads(f'"{text}"')


def _without_answer_dir(runner_project: RunnerProject) -> None:
    launcher = runner_project.launcher_path
    text = launcher.read_text(encoding="utf-8")
    answers_line = f"answers={shlex.quote(str(runner_project.state_dir))}\n"
    assert answers_line in text
    launcher.write_text(text.replace(answers_line, "answers=/nonexistent/dir\n"))


def test_a_file_in_tmpdir_serves_where_the_state_dir_takes_none(
    guarded_project: RunnerProject, tmp_path: Path
) -> None:
    _without_answer_dir(guarded_project)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    rm_rf = guarded_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})
    env = {"TMPDIR": str(temporary)}

    assert guarded_project.answer_installed("PreToolUse", _harmless(guarded_project), env=env) == {}
    denied = guarded_project.answer_installed("PreToolUse", rm_rf, env=env)
    assert _deny_reason(denied) == "rm -rf is not allowed here"
    assert list(temporary.iterdir()) == []  # the runner unlinked it


def test_an_existing_file_in_tmpdir_is_never_written_through(
    guarded_project: RunnerProject, tmp_path: Path
) -> None:
    _without_answer_dir(guarded_project)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep me", encoding="utf-8")
    rm_rf = guarded_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})
    # another user's link at the launcher's answer name (exec keeps the pid, so `$$` is it)
    plant = f'ln -s {shlex.quote(str(victim))} "$TMPDIR/.hookman-answer-$$" && exec sh'

    done = subprocess.run(
        as_client(
            "bash", "-c", f"{plant} {shlex.quote(str(guarded_project.launcher_path))} PreToolUse"
        ),
        input=json.dumps(rm_rf).encode(),
        capture_output=True,
        env={**os.environ, "TMPDIR": str(temporary)},
        timeout=60,
        check=False,
    )

    assert done.returncode == DONE_STATUS
    assert _deny_reason(json.loads(done.stdout)) == "rm -rf is not allowed here"  # a pipe
    assert victim.read_text(encoding="utf-8") == "keep me"


def test_the_pipe_serves_where_no_answer_file_can_be_made(
    guarded_project: RunnerProject,
) -> None:
    _without_answer_dir(guarded_project)
    rm_rf = guarded_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})
    env = {"TMPDIR": "/nonexistent/tmp"}

    assert guarded_project.answer_installed("PreToolUse", _harmless(guarded_project), env=env) == {}
    denied = guarded_project.answer_installed("PreToolUse", rm_rf, env=env)
    assert _deny_reason(denied) == "rm -rf is not allowed here"


# --- an install that broke after the fact ------------------------------------------------------


def test_a_deleted_interpreter_denies_and_says_how_to_repair(
    guarded_project: RunnerProject, tmp_path: Path
) -> None:
    guarded_project.launcher_python = str(tmp_path / "venv" / "bin" / "python3")
    guarded_project.write_launcher()

    done = guarded_project.run_installed("PreToolUse", _harmless(guarded_project))

    assert done.returncode == 0
    reason = _deny_reason(json.loads(done.stdout))
    assert "runner gave no answer (exit status 127)" in reason
    assert str(tmp_path / "venv" / "bin" / "python3") in reason
    assert "Run `hookman install` in the project" in reason


def test_an_interpreter_without_hookman_denies(
    guarded_project: RunnerProject, tmp_path: Path
) -> None:
    # a recreated venv: the interpreter runs, but hookman is not importable in it
    fake = _fake_python(tmp_path / "venv" / "bin", f'exec {sys.executable} -I -S "$@"')
    guarded_project.launcher_python = str(fake)
    guarded_project.launcher_root = str(tmp_path / "venv" / "lib" / "site-packages")
    guarded_project.write_launcher()

    answer = guarded_project.answer_installed("PreToolUse", _harmless(guarded_project))

    assert "runner gave no answer (exit status 1)" in _deny_reason(answer)


@pytest.mark.parametrize(
    "body",
    [
        "exit 0",  # nothing at all
        "printf '{}\\n'; exit 0",  # an answer without the end line
        "printf '{}\\nhookman:answer-complete\\n'; exit 0",  # format 2's frame: no start line
        "printf 'hookman:answer-start\\n{}\\nhookman:answer-complete\\n'; exit 3",  # failed
        # start-up code wrote `{` with no newline before the frame
        "printf '{hookman:answer-start\\n{}\\nhookman:answer-complete\\n'; exit 0",
        "printf '{\"a\": 1\\nhookman:answer-complete\\n'; exit 0",  # not a whole object
        "printf 'allow\\nhookman:answer-complete\\n'; exit 0",  # not an object
        "kill -9 $$",
    ],
    ids=[
        "silent",
        "no end line",
        "no start line",
        "exit 3",
        "brace first",
        "truncated",
        "plain text",
        "killed",
    ],
)
def test_anything_but_a_complete_answer_is_a_deny(
    guarded_project: RunnerProject, tmp_path: Path, body: str
) -> None:
    guarded_project.launcher_python = str(_fake_python(tmp_path / "bin", body))
    guarded_project.write_launcher()

    answer = guarded_project.answer_installed("PreToolUse", _harmless(guarded_project))

    assert "runner gave no answer" in _deny_reason(answer)


@pytest.mark.parametrize("shell", ["sh", "dash", "bash", "mksh", "busybox"])
@pytest.mark.parametrize("agent", [None, "qwen", "droid", "copilot"])
def test_the_launcher_s_own_deny_also_stops_where_the_agent_keeps_only_that(
    guarded_project: RunnerProject, tmp_path: Path, agent: str | None, shell: str
) -> None:
    """Qwen Code lets a later hook's permissionDecision replace a deny, and keeps any hook's
    `continue: false` (catalog deny.stop): the launcher's own deny says it there, as the
    runner's does, and nowhere else (Claude Code would end the session on it). Codex's deny
    goes by exit 2 (its bash reads BASH_ENV: stdout is never the channel)."""
    words = ["busybox", "sh"] if shell == "busybox" else [shell]
    if shutil.which(words[0]) is None:  # .ci/run installs each
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{shell} is not installed (CI must have it: .ci/run)")
        pytest.skip(f"{shell} is not installed")
    guarded_project.launcher_python = str(_fake_python(tmp_path / "bin", "kill -9 $$"))
    guarded_project.write_launcher()
    command = guarded_project.command("PreToolUse", agent=agent)
    payload = json.dumps(_harmless(guarded_project)).encode()
    done = subprocess.run([*words, "-c", command], input=payload, capture_output=True, timeout=60)

    assert done.returncode == 0, done
    answer = json.loads(done.stdout)
    reason = _deny_reason(answer)
    assert "runner gave no answer (exit status 137)" in reason
    if agent == "qwen":
        assert (answer["continue"], answer["stopReason"]) == (False, reason)
    else:
        assert "continue" not in answer and "stopReason" not in answer


@pytest.mark.parametrize("agent", [None, "qwen", "droid", "copilot"])
@pytest.mark.parametrize("runner", ["answers", "killed"])
def test_a_deny_by_exit_2_is_the_agent_s_json_where_it_reads_that_on_stderr(
    guarded_project: RunnerProject, tmp_path: Path, agent: str | None, runner: str
) -> None:
    """With BASH_ENV set (a start-up file may print on stdout) a deny goes out by exit 2.
    Qwen Code reads a stderr holding one JSON object as that exit's answer, and lets any
    other hook's allow replace a deny whose stderr is a plain reason: there the runner's
    deny and the launcher's own are the agent's JSON, `continue: false` in it."""
    if runner == "killed":
        guarded_project.launcher_python = str(_fake_python(tmp_path / "bin", "kill -9 $$"))
        guarded_project.write_launcher()
    startup = tmp_path / "startup.sh"
    startup.write_text(": prints nothing\n")
    rm_rf = guarded_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})
    done = guarded_project.run_installed(
        "PreToolUse", rm_rf, env={"BASH_ENV": str(startup)}, agent=agent
    )

    assert (done.returncode, done.stdout) == (2, b""), done
    stderr = done.stderr.decode().strip()
    expected = "rm -rf is not allowed here" if runner == "answers" else "runner gave no answer"
    if agent == "qwen":
        answer = json.loads(stderr)
        reason = _deny_reason(answer)
        assert expected in reason
        assert (answer["continue"], answer["stopReason"]) == (False, reason)
    else:
        assert expected in stderr and not stderr.startswith("{")


@pytest.mark.parametrize("shell", ["sh", "dash", "bash", "mksh", "busybox"])
@pytest.mark.parametrize("agent", [None, "qwen", "droid", "copilot"])
@pytest.mark.parametrize("broken", ["deleted", "emptied"])
def test_a_missing_launcher_s_deny_is_the_agent_s_json_where_it_reads_that_on_stderr(
    guarded_project: RunnerProject, agent: str | None, shell: str, broken: str
) -> None:
    """The settings command's own deny (its launcher gone or emptied): exit 2, and on
    stderr, for Qwen Code, its JSON deny with `continue: false` (another hook's allow
    replaces a deny whose stderr is a plain line there); the shell's own line elsewhere."""
    words = ["busybox", "sh"] if shell == "busybox" else [shell]
    if shutil.which(words[0]) is None:  # .ci/run installs each
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{shell} is not installed (CI must have it: .ci/run)")
        pytest.skip(f"{shell} is not installed")
    if broken == "deleted":
        guarded_project.launcher_path.unlink()
    else:
        guarded_project.launcher_path.write_text("")
    command = guarded_project.command("PreToolUse", agent=agent)
    payload = json.dumps(_harmless(guarded_project)).encode()
    done = subprocess.run([*words, "-c", command], input=payload, capture_output=True, timeout=60)

    assert (done.returncode, done.stdout) == (2, b""), done
    stderr = done.stderr.decode()
    if agent == "qwen":
        answer = json.loads(stderr)
        assert _deny_reason(answer) == MISSING_LAUNCHER_TEXT
        assert (answer["continue"], answer["stopReason"]) == (False, MISSING_LAUNCHER_TEXT)
    else:
        assert stderr.rstrip("\n").endswith(MISSING_LAUNCHER_TEXT.removeprefix("hookman: "))
        assert "{" not in stderr


def test_a_complete_answer_from_the_runner_is_passed_on_as_it_is(
    guarded_project: RunnerProject, tmp_path: Path
) -> None:
    end = ANSWER_END.strip()
    start = ANSWER_START.strip()
    fake = _fake_python(
        tmp_path / "bin", f'printf \'{start}\\n{{"x": "a b\\\\\\\\n"}}\\n{end}\\n\''
    )
    guarded_project.launcher_python = str(fake)
    guarded_project.write_launcher()

    assert guarded_project.answer_installed("PreToolUse", _harmless(guarded_project)) == {
        "x": "a b\\n"
    }


def test_elsewhere_a_broken_runner_is_a_notice_for_the_user(
    guarded_project: RunnerProject, tmp_path: Path
) -> None:
    guarded_project.launcher_python = str(tmp_path / "gone" / "python3")
    guarded_project.write_launcher()

    answer = guarded_project.answer_installed("Stop", guarded_project.payload("Stop"))

    assert set(answer) == {"systemMessage"}
    assert "the hookman runner gave no answer (exit status 127)" in answer["systemMessage"]
    assert "hookman install" in answer["systemMessage"]


def test_an_async_entry_stays_quiet_when_the_runner_is_broken(
    guarded_project: RunnerProject, tmp_path: Path
) -> None:
    guarded_project.launcher_python = str(tmp_path / "gone" / "python3")
    guarded_project.write_launcher()

    done = guarded_project.run_installed("Stop", guarded_project.payload("Stop"), run_async=True)

    assert (done.returncode, done.stdout) == (0, b"")


@pytest.mark.parametrize("what", ["launcher", "state dir"])
def test_a_deleted_launcher_still_denies(guarded_project: RunnerProject, what: str) -> None:
    if what == "launcher":
        guarded_project.launcher_path.unlink()
    else:
        guarded_project.launcher_path.unlink()
        guarded_project.manifest_path.unlink()
        guarded_project.state_dir.rmdir()

    done = guarded_project.run_installed("PreToolUse", _harmless(guarded_project))

    # exit 2 blocks the call whatever stdout holds; the client shows stderr with the command
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode().endswith(MISSING_LAUNCHER_TEXT + "\n")  # after the shell's name


def test_only_guarded_events_get_the_deny_fallback(tmp_path: Path) -> None:
    launcher = tmp_path / LAUNCHER_NAME
    for event in guarded_events():
        command = build_command(event, launcher, guarded=True)
        assert command == (
            f"trap 'echo \"{MISSING_LAUNCHER_TEXT}\" >&2; exit 2' EXIT; "
            f"[ -f {launcher} ] && sh {launcher} {event} && false || case $? in "
            f"{DONE_STATUS}) trap - EXIT ;; {DENIED_STATUS}) trap - EXIT; exit 2 ;; *) "
            f"trap - EXIT; (unset hookman; : "
            f'"${{hookman?{MISSING_LAUNCHER_TEXT.removeprefix("hookman: ")}}}") || exit 2; '
            f"exit 2 ;; esac"
        )
    # elsewhere the launcher alone: Claude Code shows the model the whole command on a block
    assert build_command("Stop", launcher) == f"sh {launcher} Stop"
    assert build_command("PreToolUse", launcher, guarded=True, run_async=True) == (
        f"sh {launcher} PreToolUse --async || :"
    )


@pytest.mark.parametrize("run_async", [False, True])
def test_a_launcher_that_ran_to_its_end_makes_the_command_exit_0_and_print_once(
    guarded_project: RunnerProject, run_async: bool
) -> None:
    command = guarded_project.command("Stop", run_async=run_async)
    done = subprocess.run(
        ["bash", "-c", command],
        input=json.dumps(guarded_project.payload("Stop")).encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 0
    assert done.stdout == b"{}\n"
    assert done.stderr == b""


@pytest.mark.parametrize("guarded", [False, True])
def test_a_launcher_that_did_not_run_to_its_end_gets_the_commands_answer(
    tmp_path: Path, guarded: bool
) -> None:
    launcher = tmp_path / LAUNCHER_NAME
    launcher.write_text("# cut here\n", encoding="utf-8")
    event = "PreToolUse" if guarded else "Stop"

    done = subprocess.run(
        ["bash", "-c", build_command(event, launcher, guarded=guarded)],
        input=b"{}",
        capture_output=True,
        timeout=60,
        check=False,
    )

    if guarded:
        assert (done.returncode, done.stdout) == (2, b"")
        assert done.stderr.decode().endswith(MISSING_LAUNCHER_TEXT + "\n")  # after the shell's name
    else:  # nothing to fail closed for, and no fallback text in the command
        assert (done.returncode, done.stdout) == (0, b"")


# --- odd paths -----------------------------------------------------------------------------------

_path_part = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
    min_size=1,
    max_size=12,
).filter(lambda part: part not in (".", ".."))


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(state=_path_part, venv=_path_part)
@example(state="my dir", venv="it's")
@example(state='a "quoted" $HOME `id`', venv="$(touch pwned)")
@example(state="new\nline", venv="\\back\\slash;|&")
@example(state="-P", venv="--manifest")
@example(state="~tilde *glob?", venv="é ñ 日本 🐍")
def test_odd_paths_reach_the_runner_word_for_word(
    tmp_path_factory: pytest.TempPathFactory, state: str, venv: str
) -> None:
    root = tmp_path_factory.mktemp("odd")
    fake = _fake_python(
        root / venv,
        f'{shlex.quote(sys.executable)} -c \'import json, sys; print("{ANSWER_START.strip()}"); '
        f'print(json.dumps({{"argv": sys.argv[1:]}})); print("{ANSWER_END.strip()}")\' "$@"',
    )
    launcher = root / state / LAUNCHER_NAME
    launcher.parent.mkdir(exist_ok=True)
    manifest = launcher.parent / "manifest.json"
    launcher.write_text(launcher_text(str(fake), manifest, guarded_events()))
    command = build_command("PreToolUse", launcher, guarded=True)

    done = subprocess.run(
        ["bash", "-c", command], cwd=root, input=b"{}", capture_output=True, check=True
    )

    argv = json.loads(done.stdout)["argv"]
    assert argv[:4] == ["-I", "-S", "-c", RUNNER_ENTRY]
    assert argv[5:7] == ["run", "PreToolUse"]
    assert argv[argv.index("--manifest") + 1] == str(manifest)
    assert "--guarded" in argv and "--launched" in argv
    assert not (root / "pwned").exists()
    assert hookman_command_event(command) == "PreToolUse"
    assert hookman_command_runner(command) == RunnerRef(str(fake), str(manifest), str(launcher))
    launcher.unlink()
    gone = subprocess.run(["bash", "-c", command], cwd=root, input=b"{}", capture_output=True)
    assert gone.returncode == 2
    assert gone.stderr.decode().endswith(MISSING_LAUNCHER_TEXT + "\n")


# --- recognising the launcher form --------------------------------------------------------------


def test_the_launcher_form_is_recognised_with_its_event_and_async_flag(tmp_path: Path) -> None:
    launcher = tmp_path / "state dir" / LAUNCHER_NAME
    blocking = build_command("PreToolUse", launcher, guarded=True)
    observing = build_command("PostToolUse", launcher, run_async=True)

    assert is_hookman_command(blocking) and is_hookman_command(observing)
    assert hookman_command_event(blocking) == "PreToolUse"
    assert hookman_command_event(observing) == "PostToolUse"
    assert not hookman_command_is_async(blocking)  # the fallback's words do not count
    assert hookman_command_is_async(observing)
    # any launcher format: only the file name counts
    assert hookman_command_event("sh /old/hookman-run.sh Stop") == "Stop"
    assert hookman_command_event("/bin/sh '/o l d/hookman-run.sh' Stop --async") == "Stop"
    # the format 1 commands (`|| printf` after the launcher, no status test)
    old_guarded = "sh /old/hookman-run.sh PreToolUse || printf '%s\\n' '{\"a\": 1}'"
    assert hookman_command_event(old_guarded) == "PreToolUse"
    assert not hookman_command_is_async(old_guarded)
    assert hookman_command_event("sh /old/hookman-run.sh Stop; [ $? = 3 ] || :") == "Stop"
    # format 2, as the regrouped hookman wrote it (tests/project/fixtures/installed_before_layout)
    format_2 = "sh /o/hookman-run.sh PreToolUse; [ $? = 3 ] || printf '%s\\n' '{\"a\": 1}'"
    assert hookman_command_event(format_2) == "PreToolUse"
    assert hookman_command_runner(format_2) == RunnerRef(
        None, "/o/manifest.json", "/o/hookman-run.sh"
    )
    # format 3: the `[ -f L ]` test before the launcher is not the launcher's run
    format_3 = "[ -f /o/hookman-run.sh ] && sh /o/hookman-run.sh PreToolUse && false || case"
    assert hookman_command_event(format_3) == "PreToolUse"
    assert hookman_command_runner(format_3) == RunnerRef(
        None, "/o/manifest.json", "/o/hookman-run.sh"
    )
    assert hookman_command_is_async("sh /old/hookman-run.sh Stop --async || :")
    assert hookman_command_event("sh /old/hookman-run.sh ; true") is None
    assert not is_hookman_command("sh /x/run.sh Stop")
    assert not is_hookman_command("hookman-run.sh")


def test_the_runner_of_the_launcher_form_is_read_from_the_launcher(tmp_path: Path) -> None:
    launcher = tmp_path / "it's here" / LAUNCHER_NAME
    launcher.parent.mkdir()
    manifest = launcher.parent / "manifest.json"
    python = "/opt/py env/bin/python3\n"
    launcher.write_text(launcher_text(python, manifest, guarded_events()))
    command = build_command("PreToolUse", launcher, guarded=True)

    assert read_launcher_words(launcher) == {
        "python": python,
        "manifest": str(manifest),
        "root": hookman_root(),
    }
    assert hookman_command_runner(command) == RunnerRef(python, str(manifest), str(launcher))
    launcher.unlink()
    assert hookman_command_runner(command) == RunnerRef(None, str(manifest), str(launcher))


def test_launcher_text_refuses_an_event_name_it_cannot_write_safely(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not an event name"):
        launcher_text("/py", tmp_path / "m.json", ["PreToolUse) rm -rf / ;;"])


@pytest.mark.parametrize("event", guarded_events())
def test_a_missing_manifest_denies_on_every_guarded_event(
    guarded_project: RunnerProject, event: str
) -> None:
    guarded_project.manifest_path.unlink()
    payload = {**_harmless(guarded_project), "hook_event_name": event}

    answer = guarded_project.answer_installed(event, payload)

    reason = _deny_reason(answer, event)
    assert "does not exist" in reason and "Run `hookman install` in the project" in reason


def test_a_manifest_older_than_guarded_events_still_guards_pre_tool_use(
    guarded_project: RunnerProject,
) -> None:
    guarded_project.with_client_facts = False
    guarded_project.write_manifest()
    guarded_project.add_hook(
        "buggy", "def hook(pi):\n    pi.on('tool_call', 1 / 0)\n", ["tool_call"], ["PreToolUse"]
    )

    answer = guarded_project.answer_installed("PreToolUse", _harmless(guarded_project))

    assert "'buggy' failed to load" in _deny_reason(answer)


@pytest.mark.parametrize("shell", ["bash", "sh"])
def test_the_command_works_under_either_shell_the_client_may_use(
    guarded_project: RunnerProject, shell: str
) -> None:
    command = guarded_project.command("PreToolUse")
    rm_rf = json.dumps(guarded_project.payload("PreToolUse", tool_input={"command": "rm -rf /"}))

    def run() -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([shell, "-c", command], input=rm_rf.encode(), capture_output=True)

    assert _deny_reason(json.loads(run().stdout)) == "rm -rf is not allowed here"
    guarded_project.launcher_path.unlink()
    gone = run()
    assert gone.returncode == 2
    assert gone.stderr.decode().endswith(MISSING_LAUNCHER_TEXT + "\n")
