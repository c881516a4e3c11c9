"""The runner on a project that moved on since `hookman install` (issue 24, item 2), through
the exact commands install writes, judged as each client reads them (attack_support.py): a
guarded event denies naming `hookman install`, an observe-only event runs the hooks as
installed and says so once, an unchanged project answers as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookman import paths
from hookman.project.launcher import launcher_path
from hookman.project.settings_entries import build_command

from .attack_support import (
    ALLOW,
    DENY,
    STOPPED,
    hookman_install,
    installed_handlers,
    run_settings_command,
)
from .test_attack_codex import codex_verdict

BASH_GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no rm -rf"}
"""
CURL_GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "curl" in event["input"].get("command", ""):
            return {"block": True, "reason": "no curl"}
"""
PROMPT_HOOK = """
def hook(pi):
    pi.on("before_agent_start", lambda event, ctx: None)
"""
SESSION_HOOK = """
def hook(pi):
    pi.on("session_start", lambda event, ctx: None)
"""


def _payload(project: Path, event: str = "PreToolUse", command: str = "rm -rf victim") -> dict:
    return {
        "session_id": "moved-session",
        "transcript_path": str(project / "transcript.jsonl"),
        "cwd": str(project),
        "hook_event_name": event,
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_moved",
        "prompt": "hello",
    }


def _install(project: Path, name: str, source: str, *args: str) -> dict[str, Any]:
    (project / "hooks").mkdir(exist_ok=True)
    (project / "hooks" / f"{name}.py").write_text(source, encoding="utf-8")
    return hookman_install(project, f"hooks/{name}.py", "--claude-version", "2.1.332", *args)


def _claude(project: Path, settings: dict[str, Any], event: str, payload: dict) -> Any:
    (handler,) = installed_handlers(settings, event)
    return run_settings_command(
        handler["command"], event, payload, timeout=handler.get("timeout", 600), cwd=project
    )


def _pins(project: Path, commit: str) -> None:
    record = {"repo": "https://example.invalid/hooks", "rev": "v2", "commit": commit, "ref": "tag"}
    (project / ".claude" / "hookman-pins.json").write_text(
        json.dumps({"format": 1, "pins": [record]}, indent=2) + "\n", encoding="utf-8"
    )


def test_unchanged_the_installed_guard_answers_as_before(project: Path) -> None:
    settings = _install(project, "guard", BASH_GUARD)

    assert _claude(project, settings, "PreToolUse", _payload(project)).decision == DENY
    allowed = _claude(project, settings, "PreToolUse", _payload(project, command="ls"))
    assert allowed.decision == ALLOW


def test_pins_changed_by_a_pull_deny_naming_hookman_install(project: Path) -> None:
    settings = _install(project, "guard", BASH_GUARD)
    _pins(project, "a" * 40)  # a teammate's autoupdate, pulled

    verdict = _claude(project, settings, "PreToolUse", _payload(project, command="ls"))

    assert verdict.decision == DENY
    assert ".claude/hookman-pins.json changed since `hookman install`" in verdict.why
    assert f"Run `hookman install` in {project}" in verdict.why
    last = json.loads(paths.firing_log_path().read_text(encoding="utf-8").splitlines()[-1])
    assert (last["outcome"], last["reason"]) == ("failed-closed", verdict.why)  # `hookman log`


def test_a_guard_a_teammate_added_to_hookman_toml_denies_until_install(project: Path) -> None:
    settings = _install(project, "guard", BASH_GUARD)
    (project / "hooks" / "curl_guard.py").write_text(CURL_GUARD, encoding="utf-8")
    config = project / ".claude" / "hookman.toml"
    added = (  # as a teammate's `hookman install hooks/curl_guard.py` wrote it
        '\n[[hooks]]\nname = "curl_guard"\npath = "hooks/curl_guard.py"\n'
        'events = ["tool_call"]\ntools = { tool_call = ["Bash"] }\n'
    )
    config.write_text(config.read_text(encoding="utf-8") + added, encoding="utf-8")
    curl = _payload(project, command="curl https://example.invalid")

    verdict = _claude(project, settings, "PreToolUse", curl)

    assert verdict.decision == DENY
    assert ".claude/hookman.toml changed since `hookman install`" in verdict.why
    settings = hookman_install(project)  # what the deny asks for: now the new guard runs
    after = _claude(project, settings, "PreToolUse", curl)
    assert (after.decision, after.why) == (DENY, "no curl")
    assert _claude(project, settings, "PreToolUse", _payload(project, command="ls")).decision == (
        ALLOW
    )


def test_a_gone_hookman_toml_denies_naming_install_and_uninstall(project: Path) -> None:
    settings = _install(project, "guard", BASH_GUARD)
    (project / ".claude" / "hookman.toml").unlink()  # a checkout of a branch without hookman

    verdict = _claude(project, settings, "PreToolUse", _payload(project, command="ls"))

    assert verdict.decision == DENY
    assert ".claude/hookman.toml is gone" in verdict.why
    assert "`hookman install`" in verdict.why and "`hookman uninstall`" in verdict.why


def test_an_observe_only_event_runs_and_says_it_once(project: Path) -> None:
    settings = _install(project, "starts", SESSION_HOOK)
    config = project / ".claude" / "hookman.toml"
    config.write_text(config.read_text(encoding="utf-8") + "# pulled\n", encoding="utf-8")
    payload = _payload(project, "SessionStart")

    first = _claude(project, settings, "SessionStart", payload)
    second = _claude(project, settings, "SessionStart", payload)

    assert first.decision == ALLOW and second.decision == ALLOW
    message = first.answer.get("systemMessage", "")
    assert ".claude/hookman.toml changed since `hookman install`" in message
    assert "`hookman install`" in message
    assert "systemMessage" not in second.answer  # said once per change
    log = paths.firing_log_path().read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in log][-2:]
    assert [record["outcome"] for record in records] == ["ok", "ok"]  # the hook ran, twice
    assert all("changed since `hookman install`" in " ".join(r["notices"]) for r in records)


@pytest.mark.parametrize("hook", [PROMPT_HOOK, SESSION_HOOK])
def test_the_prompt_gate_stops_every_prompt_of_a_changed_project(project: Path, hook: str) -> None:
    settings = _install(project, "observer", hook)
    payload = _payload(project, "UserPromptSubmit")
    assert _claude(project, settings, "UserPromptSubmit", payload).decision == ALLOW
    config = project / ".claude" / "hookman.toml"
    config.write_text(config.read_text(encoding="utf-8") + "# pulled\n", encoding="utf-8")

    first = _claude(project, settings, "UserPromptSubmit", payload)
    second = _claude(project, settings, "UserPromptSubmit", payload)

    assert first.decision == STOPPED and second.decision == STOPPED  # never said once only
    assert first.why == (
        f"hookman blocked this prompt because .claude/hookman.toml changed since `hookman "
        f"install` last ran in {project} (after a git pull, for example), so the guards "
        f"installed here may not be the ones the project asks for now. Run `hookman install` "
        f"in {project}, then try again."
    )
    log = paths.firing_log_path().read_text(encoding="utf-8").splitlines()
    assert json.loads(log[-1])["outcome"] == "failed-closed"


def test_a_codex_entry_denies_as_codex_reads_it(project: Path) -> None:
    _install(project, "guard", BASH_GUARD)
    _pins(project, "b" * 40)
    command = build_command("PreToolUse", launcher_path(project), guarded=True, agent="codex")

    done = subprocess.run(
        ["bash", "-c", command],
        input=json.dumps(_payload(project, command="ls")).encode(),
        capture_output=True,
        cwd=project,
        timeout=60,
        check=False,
    )
    verdict = codex_verdict(done.returncode, done.stdout, done.stderr)

    assert verdict.decision == DENY, verdict
    assert ".claude/hookman-pins.json changed since `hookman install`" in verdict.why
    assert "hookman install" in verdict.why


def test_disable_rewrites_what_the_manifest_recorded(project: Path) -> None:
    settings = _install(project, "guard", BASH_GUARD)
    _install(project, "prompt", PROMPT_HOOK)
    done = subprocess.run(
        [sys.executable, "-m", "hookman", "disable", "prompt"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done

    assert _claude(project, settings, "PreToolUse", _payload(project)).why == "no rm -rf"


def test_a_pulled_hookman_toml_that_is_not_toml_names_the_fix_install_needs_first(
    project: Path,
) -> None:
    """`hookman install` refuses a hookman.toml that is not TOML: the deny and the prompt
    gate name the file and the line to fix, then install (the walk found them naming
    install alone, which then refused)."""
    settings = _install(project, "guard", BASH_GUARD)
    config = project / ".claude" / "hookman.toml"
    broken = config.read_text(encoding="utf-8") + "\nenabled = = true\n"
    config.write_text(broken, encoding="utf-8")

    verdict = _claude(project, settings, "PreToolUse", _payload(project, command="ls"))
    gate = _claude(project, settings, "UserPromptSubmit", _payload(project, "UserPromptSubmit"))

    for said in (verdict.why, gate.why):
        assert ".claude/hookman.toml changed since `hookman install`" in said, said
        assert "`hookman install` in" in said, said
        if sys.version_info < (3, 11):  # the runner (-I -S) has no tomli: the plain notice
            continue
        assert "is not valid TOML now (" in said and "line " in said, said
        assert f"Fix .claude/hookman.toml, then run `hookman install` in {project}." in said
    assert (verdict.decision, gate.decision) == (DENY, STOPPED)
    # The commands the deny sends the user to name the same reason, in the same words
    if sys.version_info >= (3, 11):
        reason = verdict.why.split("is not valid TOML now (", 1)[1].split("), so the", 1)[0]
        assert "(at line " in reason, reason
        for words in (("list",), ("install",)):
            done = _hookman_words(project, *words)
            assert done.returncode != 0, done
            said = " ".join(done.stderr.split())
            assert f"hookman.toml is not valid TOML: {reason}." in said, (reason, said)
    assert config.read_text(encoding="utf-8") == broken  # nothing rewrote it


def _hookman_words(project: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookman", *words],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("tail", "reason"),
    [
        # nested past what the parser follows: the commands crashed (RecursionError) and the
        # prompt gate, crashing too, let the prompt through
        ("x = " + "[" * 5000 + "]" * 5000 + "\n", "values are nested more than 100 levels"),
        ("x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n", "values are nested more than 100"),
        # tomllib follows this far, tomlkit (the editor) does not: one answer everywhere
        ("x = " + "[" * 150 + "]" * 150 + "\n", "values are nested more than 100 levels"),
        ("n = " + "9" * 5000 + "\n", "an integer has more digits than Python reads"),
    ],
    ids=["deep-array", "deep-table", "150-levels", "long-integer"],
)
def test_a_pulled_hookman_toml_no_parser_can_follow_is_one_sentence_everywhere(
    project: Path, tail: str, reason: str
) -> None:
    settings = _install(project, "guard", BASH_GUARD)
    config = project / ".claude" / "hookman.toml"
    broken = config.read_text(encoding="utf-8") + tail
    config.write_text(broken, encoding="utf-8")

    verdict = _claude(project, settings, "PreToolUse", _payload(project, command="ls"))
    gate = _claude(project, settings, "UserPromptSubmit", _payload(project, "UserPromptSubmit"))

    assert (verdict.decision, gate.decision) == (DENY, STOPPED), (verdict, gate)
    if sys.version_info >= (3, 11):  # the runner (-I -S) on 3.10 has no tomli: plain notice
        for said in (verdict.why, gate.why):
            assert f"is not valid TOML now ({reason}" in said, said
    for words in (
        ("list",),
        ("install",),
        ("doctor",),
        ("fire", "PreToolUse"),
        ("disable", "guard"),
    ):
        done = _hookman_words(project, *words)
        said = " ".join((done.stdout + done.stderr).split())
        assert "Traceback" not in said and "internal error" not in said, (words, said)
        if words[0] in ("list", "install", "disable"):
            assert done.returncode == 1, (words, said)
            assert f"hookman.toml is not valid TOML: {reason}" in said, (words, said)
            assert "hint: fix .claude/hookman.toml by hand" in said, (words, said)
    assert config.read_text(encoding="utf-8") == broken


def test_what_tomllib_refuses_install_refuses_too(project: Path) -> None:
    """tomlkit takes a few TOML 1.1 forms (a \\x escape) that tomllib, and so the runner's
    deny and prompt gate, call not TOML: install wrote nothing and said nothing, while the
    gate said to fix the file. Every command now refuses it in the gate's words."""
    _install(project, "guard", BASH_GUARD)
    config = project / ".claude" / "hookman.toml"
    escaped = config.read_text(encoding="utf-8").replace('guard.py"', 'guard\\x2epy"')
    assert escaped != config.read_text(encoding="utf-8")
    config.write_text(escaped, encoding="utf-8")
    from hookman.toml_data import toml_problem

    refused = toml_problem(escaped) is not None  # tomli 2.5 (Python 3.10) reads TOML 1.1
    for words in (("install",), ("list",)):
        done = _hookman_words(project, *words)
        said = " ".join(done.stderr.split())
        assert done.returncode == (1 if refused else 0), (words, done.stdout, said)
        assert ("hookman.toml is not valid TOML: " in said) is refused, said
        assert ("(at line " in said) is refused, said
    assert config.read_text(encoding="utf-8") == escaped


INTERRUPTING_PROMPT_HOOK = """
def hook(pi):
    @pi.on("UserPromptSubmit")
    def interrupted(event, ctx):
        raise KeyboardInterrupt
"""


def test_a_hook_that_fails_at_the_gate_is_a_notice_not_a_stop(project: Path) -> None:
    """The gate's own checks passed before the hooks ran: a hook's failure (here one that
    reaches the runner's last line of defence) is told, and the prompt goes on."""
    settings = _install(project, "prompt", INTERRUPTING_PROMPT_HOOK)
    gate = _claude(project, settings, "UserPromptSubmit", _payload(project, "UserPromptSubmit"))
    assert gate.decision == ALLOW, gate
    assert "hookman's runner failed (KeyboardInterrupt" in json.dumps(gate.answer)


def _gate_in_a_child(project: Path, prepare: Any = None) -> dict[str, Any]:
    """The runner's answer to the gate, run in a forked child (its deadline timer and
    signal handlers never reach the test process), with `prepare()` run first there."""
    from hookman.bridge import run_command

    manifest = str(paths.manifest_path(project))
    payload = json.dumps(_payload(project, "UserPromptSubmit")).encode()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        try:
            os.chdir(project)
            os.dup2(write_end, 1)
            if prepare is not None:
                prepare()
            run = run_command._Run("UserPromptSubmit", manifest)
            run.raw_payload = payload
            run.execute()
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as out:
        said = out.read().decode()
    os.waitpid(pid, 0)
    return json.loads(said.strip().splitlines()[-1])


def test_a_failure_of_the_gates_own_checks_stops_the_prompt(project: Path) -> None:
    """A bug of hookman's while the gate checks the project (a hookman.toml nested past
    the parser's reach crashed it there, and the prompt went on): the prompt is stopped."""
    from hookman.bridge import run_command

    _install(project, "guard", BASH_GUARD)

    def broken(self: object) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    def prepare() -> None:
        run_command._Run._project_change = broken  # type: ignore[method-assign]

    answer = _gate_in_a_child(project, prepare)
    assert answer["continue"] is False, answer
    assert (
        "hookman stopped this prompt because its runner failed (RecursionError"
        in (answer["stopReason"])
    )
    assert "`hookman log` in" in answer["stopReason"]


@pytest.mark.parametrize("state", ["gone", "not-json"])
def test_a_gate_without_its_manifest_stops_the_prompt(project: Path, state: str) -> None:
    """hookman's state for the project gone or broken: guards deny, and the gate stops the
    prompt naming install (it let the prompt through with a notice)."""
    settings = _install(project, "guard", BASH_GUARD)
    manifest = paths.manifest_path(project)
    if state == "gone":
        manifest.unlink()
    else:
        manifest.write_text("{")
    gate = _claude(project, settings, "UserPromptSubmit", _payload(project, "UserPromptSubmit"))
    assert gate.decision == STOPPED, gate
    assert gate.why.startswith("hookman stopped this prompt because "), gate.why
    assert "Run `hookman install` in the project" in gate.why, gate.why
    verdict = _claude(project, settings, "PreToolUse", _payload(project, command="ls"))
    assert verdict.decision == DENY, verdict


def test_a_gate_whose_state_others_could_write_stops_the_prompt(project: Path) -> None:
    """The runner itself (as the warm server runs it: no launcher, whose own check of the
    answer file comes first on the command path) refuses a state dir others could write:
    guards deny, and the gate stops the prompt (it gave a notice)."""
    _install(project, "guard", BASH_GUARD)
    state = paths.manifest_path(project).parent
    state.chmod(0o777)
    try:
        answer = _gate_in_a_child(project)
    finally:
        state.chmod(0o700)
    assert answer["continue"] is False, answer
    assert "so another user could change what the hooks run; no hook ran" in answer["stopReason"]


def test_a_deeply_nested_subscriptions_cache_is_read_as_none(project: Path) -> None:
    """A subscriptions cache nested past the parser's reach (planted in the state dir):
    doctor crashed (RecursionError), and the gate and guards refused every call with no
    fix that worked; it is read as no cache, and install writes it anew."""
    settings = _install(project, "guard", BASH_GUARD)
    cache = paths.manifest_path(project).parent / "subscriptions.json"
    cache.write_text("[" * 100_000 + "]" * 100_000)
    doctor = _hookman_words(project, "doctor")
    said = doctor.stdout + doctor.stderr
    assert "internal error" not in said and "Traceback" not in said, said
    assert _hookman_words(project, "install").returncode == 0
    verdict = _claude(project, settings, "PreToolUse", _payload(project, command="rm -rf x"))
    assert (verdict.decision, verdict.why) == (DENY, "no rm -rf"), verdict
    assert (
        _claude(project, settings, "PreToolUse", _payload(project, command="ls")).decision == ALLOW
    )
