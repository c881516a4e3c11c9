"""Another PreToolUse hook that answers "allow" beside hookman's guard, in each agent's real
binary (catalog/agent_hook_merge.json): Qwen Code 0.24.4 lets a later hook's
permissionDecision replace an earlier one's deny (project hooks run before the user's), so
hookman's Qwen deny also says `continue: false`, which Qwen keeps whatever the others answer.
Here the allow hook stands after hookman's entry in the project's file, in the user's
settings, and before hookman's entry; the `rm -rf` must not run and the model must read the
guard's reason, and the session must go on (the next command runs).

droid 0.225.2 takes the first answer holding a permissionDecision: an allow listed before
hookman's entry won there (measured before this test's fix), so install puts hookman's
PreToolUse group first, and doctor says droid-hookman-stale while another hook's stands
before it; the droid "before" case proves both."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .agents_harness import AgentProject
from .mock_anthropic import say

pytestmark = pytest.mark.e2e

GUARD = """
def guard(event, ctx):
    if "rm -rf" in event["input"].get("command", ""):
        return {"block": True, "reason": "GUARD-MERGE: rm -rf is not allowed here"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""
REASON = "GUARD-MERGE: rm -rf is not allowed here"
ALLOW = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason": "auto-approved by another hook",
    }
}
# The user-level file each agent reads (droid's events are top-level keys).
USER_FILES = {"qwen": ".qwen/settings.json", "droid": ".factory/hooks.json"}
USER_FILES["copilot"] = ".copilot/settings.json"


def _allow_group(e2e: AgentProject) -> dict[str, Any]:
    command = "printf '%s' '" + json.dumps(ALLOW) + "'"
    matcher = "Bash" if e2e.agent == "copilot" else e2e.agent_client.facts.shell_tool
    return {"matcher": matcher, "hooks": [{"type": "command", "command": command, "timeout": 10}]}


def _add_allow(e2e: AgentProject, where: str) -> None:
    group = _allow_group(e2e)
    if where == "user":
        path = e2e.home / USER_FILES[e2e.agent]
        path.parent.mkdir(parents=True, exist_ok=True)
        events = {"PreToolUse": [group]}
        path.write_text(json.dumps(events if e2e.agent == "droid" else {"hooks": events}))
        return

    def add(document: dict[str, Any]) -> None:
        events = document if e2e.agent == "droid" else document["hooks"]
        groups = events["PreToolUse"]
        groups.insert(len(groups) if where == "after" else 0, group)

    e2e.edit_hooks_file(add)


def rm_rf_is_denied(e2e: AgentProject, reason: str, *, goes_on: bool = True) -> None:
    """The model asks for `rm -rf victim`: it must not run and the model must read `reason`
    in its result; `goes_on`: then the session's next command runs."""
    victim = e2e.root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep\n")
    turns = [e2e.shell("rm -rf victim")]
    turns += [e2e.shell("echo went-on > on.txt")] if goes_on else []
    run = e2e.run_agent("tidy", turns=[*turns, say("ok")])
    assert (victim / "keep.txt").exists(), run.describe()
    assert reason in run.tool_results()[0], run.describe()
    if goes_on:
        assert (e2e.root / "on.txt").exists(), run.describe()  # the session went on


@pytest.mark.parametrize("where", ["after", "user", "before"])
@pytest.mark.parametrize("agent_client", ["qwen", "droid", "copilot"], indirect=True)
def test_another_hook_s_allow_does_not_undo_the_guard_s_deny(
    agent_e2e: AgentProject, where: str
) -> None:
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", GUARD))
    _add_allow(e2e, where)
    if (e2e.agent, where) == ("droid", "before"):  # doctor says it; install's fix is proven
        doctor = e2e.hookman("doctor", check=False)
        assert "error droid-hookman-stale" in doctor.stdout, doctor.stdout
        assert "stands before hookman's" in " ".join(doctor.stdout.split()), doctor.stdout
        e2e.hookman("install")
        assert e2e.hookman_entries("PreToolUse") == e2e.hook_groups("PreToolUse")[0]["hooks"]
    rm_rf_is_denied(e2e, e2e.denied(REASON))


@pytest.mark.parametrize("agent_client", ["qwen"], indirect=True)
def test_a_later_qwen_hook_s_ask_is_read_first_and_doctor_warns(agent_e2e: AgentProject) -> None:
    """The limit left in Qwen Code 0.24.4: a later hook's permissionDecision "ask" is read
    before the continue: false hookman adds. With -p the call is still blocked (with that
    hook's reason); interactively the user would be asked. doctor says so."""
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", GUARD))
    ask = {"hookSpecificOutput": {**ALLOW["hookSpecificOutput"], "permissionDecision": "ask"}}
    ask["hookSpecificOutput"]["permissionDecisionReason"] = "ASK-MERGE: confirm this"
    command = "printf '%s' '" + json.dumps(ask) + "'"
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
    e2e.edit_hooks_file(lambda document: document["hooks"]["PreToolUse"].append(group))
    rm_rf_is_denied(e2e, "ASK-MERGE: confirm this", goes_on=False)
    doctor = e2e.hookman("doctor", check=False)
    assert "warning qwen-ask-after-hookman" in doctor.stdout, doctor.stdout
    flat = " ".join(doctor.stdout.split())
    assert 'answers permissionDecision "ask" (in the command)' in flat, doctor.stdout


# A foreign hook's malformed answer (catalog/agent_hook_merge.json "foreign_fail_open"): the
# agent drops every answer, hookman's deny among them, and runs the call. hookman cannot
# fix this in its answer; these prove the fact and that doctor and install say so.
MALFORMED = {
    "reason": {"reason": {"toString": 0}},
    "system_message": {"systemMessage": {"toString": 0}},
    "stop_reason": {"continue": False, "stopReason": {"toString": 0}},
}


@pytest.mark.parametrize(
    ("agent_client", "answer", "where"),
    [
        ("qwen", "reason", "after"),
        ("qwen", "reason", "before"),
        ("qwen", "system_message", "user"),
        ("droid", "stop_reason", "after"),
        ("droid", "stop_reason", "before"),
        ("droid", "stop_reason", "user"),
    ],
    indirect=["agent_client"],
)
def test_fact_a_foreign_hook_s_malformed_answer_undoes_the_deny_and_hookman_says_so(
    agent_e2e: AgentProject, answer: str, where: str
) -> None:
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", GUARD))
    command = "printf '%s' '" + json.dumps(MALFORMED[answer]) + "'"
    entry = {"type": "command", "command": command}
    group = {"matcher": e2e.agent_client.facts.shell_tool, "hooks": [entry]}
    if where == "user":
        path = e2e.home / USER_FILES[e2e.agent]
        path.parent.mkdir(parents=True, exist_ok=True)
        events = {"PreToolUse": [group]}
        path.write_text(json.dumps(events if e2e.agent == "droid" else {"hooks": events}))
    else:

        def add(document: dict[str, Any]) -> None:
            groups = (document if e2e.agent == "droid" else document["hooks"])["PreToolUse"]
            groups.insert(len(groups) if where == "after" else 0, group)

        e2e.edit_hooks_file(add)
    victim = e2e.root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep\n")
    run = e2e.run_agent("tidy", turns=[e2e.shell("rm -rf victim"), say("ok")])
    assert not victim.exists(), run.describe()  # the client's fail-open, as measured
    doctor = " ".join(e2e.hookman("doctor", check=False).stdout.split())
    assert f"warning {e2e.agent}-foreign-pre-tool-use" in doctor, doctor
    said = f"is not hookman's and runs for {e2e.agent_client.facts.shell_tool} too"
    assert said in doctor, doctor
    if where != "before":  # droid: install moves hookman's group first, which changes nothing
        installed = " ".join(e2e.hookman("install").stdout.split())
        assert said in installed and "no order of the hooks helps" in installed, installed


# A runner that gives no answer (a hook ends its process, a timeout kills it, its interpreter
# is gone): the launcher answers with its own deny. Qwen Code lets a later hook's allow
# replace a deny that does not also say `continue: false`, as it does the runner's.
KILLER = """
import os
import signal


def guard(event, ctx):
    if "rm -rf" in event["input"].get("command", ""):
        os.kill(os.getpid(), signal.SIGKILL)


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""


@pytest.mark.parametrize("where", ["after", "user"])
@pytest.mark.parametrize("agent_client", ["qwen"], indirect=True)
def test_the_launcher_s_own_deny_is_not_undone_by_another_hook_s_allow(
    agent_e2e: AgentProject, where: str
) -> None:
    allow_does_not_undo(agent_e2e, KILLER, "hookman blocked this", where)


# A start-up variable of bash (BASH_ENV, BASH_XTRACEFD: Qwen Code runs hook commands with
# `bash -c`, which reads BASH_ENV) makes hookman deny by exit 2, since stdout may carry a
# start-up file's lines. Qwen lets any hook's allow replace a deny by exit 2 whose stderr is
# a plain reason, and reads a stderr that is one JSON object as that exit's answer: there
# the deny is the agent's JSON, `continue: false` in it (catalog qwen_events.json
# exit_2_json). Found by the hostile pass of 2026-12-05; its whole matrix (each variable,
# each place of the allow, the launcher deleted) is in test_agents_full.py.
def start_up_file(e2e: AgentProject, variable: str = "BASH_ENV") -> None:
    startup = e2e.scratch / "startup.sh"
    startup.write_text(": a start-up file that prints nothing\n")
    e2e.extra_env[variable] = str(startup) if variable == "BASH_ENV" else "2"


@pytest.mark.parametrize(("guard", "reason"), [(GUARD, REASON), (KILLER, "hookman blocked this")])
@pytest.mark.parametrize("agent_client", ["qwen"], indirect=True)
def test_a_deny_by_exit_2_is_not_undone_by_another_hook_s_allow(
    agent_e2e: AgentProject, guard: str, reason: str
) -> None:
    """The guard's deny (the runner's) and the launcher's own (the runner killed)."""
    where = "after" if guard is GUARD else "user"
    allow_does_not_undo(agent_e2e, guard, reason, where, start_up="BASH_ENV")


def allow_does_not_undo(
    e2e: AgentProject, guard: str, reason: str, where: str, *, start_up: str | None = None
) -> None:
    """`guard` installed, another hook answering allow `where`, and (`start_up`) that
    variable of bash set: `rm -rf` is denied with `reason` and the session goes on."""
    e2e.install(e2e.write_hook("guard", guard))
    _add_allow(e2e, where)
    if start_up is not None:
        start_up_file(e2e, start_up)
    rm_rf_is_denied(e2e, reason)
