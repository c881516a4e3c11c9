"""The rest of the real-binary proof for GitHub Copilot CLI, Qwen Code and Factory droid (the
default run's share is test_agents.py): a broken install denies, the same hookman.toml drives
all five agents, and the facts hookman's answers rest on, each measured with a raw hook.

Run in CI's second pass only (`HOOKMAN_E2E_AGENTS_FULL=1`, .ci/run), to keep the default
test run short."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from .agents_harness import AGENTS, AgentProject
from .codex_harness import CodexProject
from .conftest import _client, _codex, _installed_or_skip, agent_client_or_skip
from .harness import DEFAULT_CLIENT_VERSIONS, NetworkIsolation
from .mock_anthropic import MockAnthropic, ToolUse, bash, say
from .mock_openai import MockOpenAI, shell
from .test_agent_merge import GUARD as MERGE_GUARD
from .test_agent_merge import KILLER, _add_allow, allow_does_not_undo, rm_rf_is_denied
from .test_agent_merge import REASON as MERGE_REASON

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        os.environ.get("HOOKMAN_E2E_AGENTS_FULL") != "1",
        reason="CI's second pass (HOOKMAN_E2E_AGENTS_FULL=1); the default run drives "
        "test_agents.py",
    ),
]

GUARD = """
def guard(event, ctx):
    command = event["input"].get("command", "")
    if "rm -rf" in command or "BLOCK-ME" in command:
        return {"block": True, "reason": "GUARD-E2E: not this one"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""


@pytest.mark.parametrize("breakage", ["launcher deleted", "runner python gone"])
@pytest.mark.parametrize("agent_client", AGENTS, indirect=True)
def test_a_broken_install_still_denies(agent_e2e: AgentProject, breakage: str) -> None:
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", GUARD))
    launcher = e2e.launcher()
    if breakage == "launcher deleted":
        launcher.unlink()
    else:
        text = launcher.read_text()
        line = next(line for line in text.splitlines() if line.startswith("python="))
        launcher.write_text(text.replace(line, f"python={e2e.scratch / 'python-gone'}"))

    run = e2e.run_agent("note", turns=[e2e.shell("echo BLOCK-ME > made.txt"), say("done")])

    assert not (e2e.root / "made.txt").exists(), run.describe()
    [result] = run.tool_results()
    assert result.startswith(e2e.denied("")), run.describe()
    if e2e.agent != "copilot":  # Copilot shows its model only "hook exited with code 2"
        expected = "hookman" if breakage == "launcher deleted" else "runner gave no answer"
        assert expected in result, run.describe()


def test_the_same_hookman_toml_drives_all_five_agents(
    mock_api: MockAnthropic,
    mock_openai: MockOpenAI,
    network_isolation: NetworkIsolation,
    tmp_path: Path,
) -> None:
    """One committed hookman.toml naming the five agents; `hookman install` on a machine
    with all five wires each, and the one guard denies in each real binary."""
    claude = _installed_or_skip(
        _client(DEFAULT_CLIENT_VERSIONS[-1]), DEFAULT_CLIENT_VERSIONS[-1], {}
    )
    codex = _installed_or_skip(_codex("0.171.0"), "0.171.0", {})
    clients = {agent: agent_client_or_skip(agent) for agent in AGENTS}
    both = CodexProject(codex, mock_openai, network_isolation, tmp_path, claude, mock_api)
    projects = {
        agent: AgentProject(
            client,
            mock_api,
            mock_openai,
            network_isolation,
            tmp_path,
            others=[claude.bin_dir, codex.bin_dir]
            + [other.bin_dir for other in clients.values() if other is not client],
        )
        for agent, client in clients.items()
    }
    installer = projects["qwen"]
    installer.extra_env["CODEX_HOME"] = str(both.codex_home)
    installer.write(
        ".claude/hookman.toml", 'agents = ["claude", "codex", "copilot", "qwen", "droid"]\n'
    )
    installer.hookman("install", installer.write_hook("guard", GUARD))
    (tmp_path / "project" / "victim").mkdir()

    claude_run = both.run_claude("go", turns=[bash("rm -rf victim"), say("done")])
    assert any("GUARD-E2E: not this one" in text for text in claude_run.tool_result_texts()), (
        claude_run.describe()
    )
    codex_run = both.run_codex("go", turns=[shell("echo BLOCK-ME > made.txt"), say("done")])
    assert "GUARD-E2E: not this one" in codex_run.tool_outputs()[0], codex_run.describe()
    for agent, e2e in projects.items():
        run = e2e.run_agent("go", turns=[e2e.shell("rm -rf victim"), say("done")])
        assert run.tool_results()[0] == e2e.denied("GUARD-E2E: not this one"), (
            agent,
            run.describe(),
        )
    assert (tmp_path / "project" / "victim").is_dir()
    assert not (tmp_path / "project" / "made.txt").exists()


# The facts, each with a raw hook (no hookman) in the agent's own file.

_HSO_DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "FACT-DENY",
    }
}
ANSWERS = {
    "hookSpecificOutput-deny": f"printf '%s\\n' '{json.dumps(_HSO_DENY)}'",
    "top-level-deny": "printf '%s\\n' '"
    + json.dumps({"permissionDecision": "deny", "permissionDecisionReason": "FACT-DENY"})
    + "'",
    "decision-block": "printf '%s\\n' '"
    + json.dumps({"decision": "block", "reason": "FACT-DENY"})
    + "'",
    "exit-2-stderr": "echo FACT-DENY >&2; exit 2",
    "exit-1": "echo FACT-DENY >&2; exit 1",
    "junk": "echo junk",
    "sleep-past-timeout": f"sleep 6; printf '%s\\n' '{json.dumps(_HSO_DENY)}'",
}
# Whether the command still runs, per agent (measured on Copilot CLI 1.0.102, Qwen Code
# 0.24.4, droid 0.225.2; docs/agents.md): hookman's runner answers each with a shape it
# honours, never one it runs the tool on.
RUNS = {
    "hookSpecificOutput-deny": {"copilot": False, "qwen": False, "droid": False},
    "top-level-deny": {"copilot": False, "qwen": True, "droid": True},
    "decision-block": {"copilot": True, "qwen": False, "droid": True},
    "exit-2-stderr": {"copilot": False, "qwen": False, "droid": False},
    "exit-1": {"copilot": False, "qwen": True, "droid": True},
    "junk": {"copilot": True, "qwen": True, "droid": True},
    "sleep-past-timeout": {"copilot": True, "qwen": True, "droid": True},
}


@pytest.mark.parametrize("answer", list(ANSWERS))
@pytest.mark.parametrize("agent_client", AGENTS, indirect=True)
def test_fact_which_answers_each_agent_honours(agent_e2e: AgentProject, answer: str) -> None:
    e2e = agent_e2e
    command = f"cat >/dev/null; {ANSWERS[answer]}"
    handler = {"type": "command", "command": command, "timeout": 2}
    matcher = "Bash" if e2e.agent == "copilot" else e2e.agent_client.facts.shell_tool
    e2e.write_raw_hooks({"PreToolUse": [{"matcher": matcher, "hooks": [handler]}]})

    run = e2e.run_agent("note", turns=[e2e.shell("echo ran > ran.txt"), say("done")])

    assert (e2e.root / "ran.txt").exists() is RUNS[answer][e2e.agent], run.describe()


@pytest.mark.parametrize("agent_client", AGENTS, indirect=True)
def test_fact_what_each_agent_sends_a_hook(agent_e2e: AgentProject) -> None:
    """The payload and environment each agent gives a PreToolUse hook, and which events a
    non-interactive run fires (droid exec fires no UserPromptSubmit)."""
    e2e = agent_e2e
    dumps = e2e.scratch / "dumps"
    dumps.mkdir()
    events = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")

    def dumping(event: str) -> dict[str, Any]:
        command = f"cat > {dumps}/{event}.json; env > {dumps}/{event}.env"
        return {"hooks": [{"type": "command", "command": command, "timeout": 10}]}

    e2e.write_raw_hooks({event: [dumping(event)] for event in events})

    run = e2e.run_agent("note", turns=[e2e.shell("echo ran > ran.txt"), say("done")])

    fired = sorted(path.stem for path in dumps.glob("*.json"))
    expected = set(events) - ({"UserPromptSubmit"} if e2e.agent == "droid" else set())
    assert set(fired) == expected, (fired, run.describe())
    payload = json.loads((dumps / "PreToolUse.json").read_text())
    assert payload["hook_event_name"] == "PreToolUse"
    assert payload["tool_input"]["command"] == "echo ran > ran.txt"
    native = {"copilot": "Bash", "qwen": "run_shell_command", "droid": "Execute"}
    assert payload["tool_name"] == native[e2e.agent], payload
    environment = (dumps / "PreToolUse.env").read_text()
    marker = {"copilot": "COPILOT_CLI=1", "qwen": "QWEN_CODE_CLI=", "droid": "DROID_PROJECT_DIR="}
    assert marker[e2e.agent] in environment
    assert f"CLAUDE_PROJECT_DIR={e2e.root}" in environment.splitlines()


def _dump_every_pre_tool_use(e2e: AgentProject) -> Path:
    """A raw PreToolUse hook on every tool, appending each payload to the returned file."""
    dumps = e2e.scratch / "pre_tool_use.jsonl"
    command = f"cat >> {dumps}; echo >> {dumps}"
    handler = {"type": "command", "command": command, "timeout": 10}
    e2e.write_raw_hooks({"PreToolUse": [{"hooks": [handler]}]})
    return dumps


def _sent(dumps: Path) -> list[tuple[str, dict[str, Any]]]:
    payloads = [json.loads(line) for line in dumps.read_text().splitlines() if line.strip()]
    return [(payload["tool_name"], payload["tool_input"]) for payload in payloads]


@pytest.mark.parametrize("agent_client", ["copilot"], indirect=True)
def test_fact_copilot_names_its_file_tools_as_claude_code_with_its_own_input_keys(
    agent_e2e: AgentProject,
) -> None:
    """What a .claude/settings entry gets for Copilot's view, edit and create: Claude Code's
    tool names, Copilot's own input keys (catalog copilot_events.json "inputs"); its grep
    and glob as Claude Code's, with Claude Code's keys."""
    e2e = agent_e2e
    dumps = _dump_every_pre_tool_use(e2e)
    file = e2e.root / "f.txt"
    file.write_text("A=1\n")
    made = e2e.root / "g.txt"
    calls = [
        ("view", {"path": str(file), "view_range": [1, 1]}),
        ("edit", {"path": str(file), "old_str": "A=1", "new_str": "A=2"}),
        ("create", {"path": str(made), "file_text": "X=1\n"}),
        ("grep", {"pattern": "A", "path": str(e2e.root)}),
        ("glob", {"pattern": "*.txt", "path": str(e2e.root)}),
    ]

    run = e2e.run_agent("note", turns=[*([ToolUse(*call)] for call in calls), say("done")])

    names = ["Read", "Edit", "Write", "Grep", "Glob"]
    assert _sent(dumps) == [(name, call[1]) for name, call in zip(names, calls, strict=True)], (
        run.describe()
    )


@pytest.mark.parametrize("agent_client", ["copilot"], indirect=True)
def test_fact_copilot_s_write_bash_and_apply_patch_reach_hooks_in_no_claude_shape(
    agent_e2e: AgentProject,
) -> None:
    """Copilot runs PreToolUse before it checks the tool is offered (`copilot -p` offers
    neither here): write_bash reaches a hook as `write_bash` {shellId, input}, apply_patch
    as `Edit` with the patch in `input` and no path (catalog copilot_events.json
    "unguarded_tools": install, list and doctor name them)."""
    e2e = agent_e2e
    dumps = _dump_every_pre_tool_use(e2e)
    patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n-A=1\n+A=2\n*** End Patch"
    calls = [
        ("write_bash", {"shellId": "s1", "input": "rm -rf victim\n"}),
        ("apply_patch", {"input": patch}),
    ]

    run = e2e.run_agent("note", turns=[*([ToolUse(*call)] for call in calls), say("done")])

    assert _sent(dumps) == [("write_bash", calls[0][1]), ("Edit", calls[1][1])], run.describe()
    assert all("does not exist" in result for result in run.tool_results()), run.describe()


@pytest.mark.parametrize("agent_client", ["qwen"], indirect=True)
def test_fact_qwen_s_monitor_sends_its_shell_command(agent_e2e: AgentProject) -> None:
    """Qwen Code's monitor runs `command` in a shell; its PreToolUse payload names the tool
    `monitor`, its input `{command, description, max_events}` (catalog qwen_events.json)."""
    e2e = agent_e2e
    dumps = _dump_every_pre_tool_use(e2e)
    sent = {"command": "echo ran > ran.txt", "description": "d", "max_events": 5}

    run = e2e.run_agent("note", turns=[[ToolUse("monitor", sent)], say("done")])

    assert _sent(dumps) == [("monitor", sent)], run.describe()


CONTEXT = """
def hook(pi):
    @pi.on("session_start")
    def greet(event, ctx):
        pi.send_message("SESSION-E2E context")

    @pi.on("tool_result", tools=["Bash"])
    def note(event, ctx):
        pi.send_message("POST-E2E saw " + event["input"]["command"])
"""


@pytest.mark.parametrize("agent_client", ["copilot"], indirect=True)
def test_copilot_is_answered_in_its_protocol_where_agents_does_not_name_it(
    agent_e2e: AgentProject,
) -> None:
    """A project whose hookman.toml names Claude Code only: Copilot runs hookman's entries in
    .claude/settings.local.json anyway (trusted folder), and the runner, seeing COPILOT_CLI,
    answers it so that its model hears the deny's reason and the context."""
    e2e = agent_e2e
    e2e.hookman("install", e2e.write_hook("guard", GUARD), e2e.write_hook("context", CONTEXT))
    (e2e.root / "victim").mkdir()

    run = e2e.run_agent("go", turns=[e2e.shell("rm -rf victim"), e2e.shell("ls"), say("done")])

    assert (e2e.root / "victim").is_dir(), run.describe()
    assert run.tool_results()[0] == e2e.denied("GUARD-E2E: not this one"), run.describe()
    assert "SESSION-E2E context" in run.model_text(0), run.describe()
    assert "POST-E2E saw ls" in run.model_text(-1), run.describe()


@pytest.mark.parametrize("agent_client", ["copilot"], indirect=True)
def test_fact_a_foreign_prompt_entry_turns_every_hook_of_the_file_off_in_copilot(
    agent_e2e: AgentProject,
) -> None:
    """One `type: "prompt"` entry (valid for Claude Code, not for Copilot) in the settings
    file: Copilot rejects the file's whole `hooks`, hookman's guard included, and the command
    runs. doctor names it."""
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", GUARD))

    def add_prompt_entry(document: dict[str, Any]) -> None:
        prompt = {"type": "prompt", "prompt": "Is this command safe? $ARGUMENTS"}
        document["hooks"]["PreToolUse"].append({"matcher": "Bash", "hooks": [prompt]})

    e2e.edit_hooks_file(add_prompt_entry)
    (e2e.root / "victim").mkdir()

    run = e2e.run_agent("go", turns=[e2e.shell("rm -rf victim"), say("done")])

    assert not (e2e.root / "victim").exists(), run.describe()
    doctor = e2e.hookman("doctor", check=False)
    said = doctor.stdout + doctor.stderr
    assert doctor.returncode != 0, said
    assert "Copilot" in said and "prompt" in said, said


def test_install_says_copilot_is_not_installed_where_it_is_not(
    mock_api: MockAnthropic,
    mock_openai: MockOpenAI,
    network_isolation: NetworkIsolation,
    tmp_path: Path,
) -> None:
    e2e = AgentProject(
        agent_client_or_skip("qwen"), mock_api, mock_openai, network_isolation, tmp_path
    )
    e2e.write(".claude/hookman.toml", 'agents = ["claude", "copilot", "qwen"]\n')
    done = e2e.hookman("install", e2e.write_hook("guard", GUARD))
    assert "GitHub Copilot CLI: not installed here" in done.stdout, done.stdout
    assert "trust this folder" not in done.stdout, done.stdout


# The hostile pass of 2026-12-05 (after the launcher's own deny also stopped for Qwen Code):
# every way hookman's PreToolUse deny reaches an agent by exit 2, against another hook's
# allow after hookman's entry, in the user's settings, and before it (test_agent_merge.py
# runs one of each in the default run). Each failed on Qwen Code 0.24.4 before its fix.
@pytest.mark.parametrize("where", ["after", "user", "before"])
@pytest.mark.parametrize("variable", ["BASH_ENV", "BASH_XTRACEFD"])
@pytest.mark.parametrize("agent_client", ["qwen"], indirect=True)
def test_a_start_up_variable_does_not_let_another_hook_s_allow_undo_the_deny(
    agent_e2e: AgentProject, variable: str, where: str
) -> None:
    allow_does_not_undo(agent_e2e, MERGE_GUARD, MERGE_REASON, where, start_up=variable)


@pytest.mark.parametrize("where", ["after", "user", "before"])
@pytest.mark.parametrize("agent_client", ["qwen"], indirect=True)
def test_the_launcher_s_own_deny_under_bash_env_is_not_undone_by_another_hook_s_allow(
    agent_e2e: AgentProject, where: str
) -> None:
    allow_does_not_undo(agent_e2e, KILLER, "hookman blocked this", where, start_up="BASH_ENV")


@pytest.mark.parametrize("broken", ["deleted", "emptied"])
@pytest.mark.parametrize("agent_client", ["qwen"], indirect=True)
def test_a_missing_launcher_s_deny_is_not_undone_by_another_hook_s_allow(
    agent_e2e: AgentProject, broken: str
) -> None:
    """The settings command's own deny (its launcher deleted or emptied) is Qwen's JSON on
    stderr after exit 2 (command-guarded-stop.sh): before, its plain line lost to the
    allow and `rm -rf` ran."""
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", MERGE_GUARD))
    _add_allow(e2e, "after")
    launcher = e2e.launcher()
    if broken == "deleted":
        launcher.unlink()
    else:
        launcher.write_text("")
    rm_rf_is_denied(e2e, "its launcher did not run to its end", goes_on=False)


@pytest.mark.xfail(
    strict=True,
    reason="known limit (docs/agents.md): a BASH_ENV file that prints on stdout and points "
    "fd 2 at /dev/null leaves no channel Copilot CLI hears: the launcher's JSON follows the "
    "start-up line, which Copilot reads as no answer",
)
@pytest.mark.parametrize("agent_client", ["copilot"], indirect=True)
def test_fact_a_start_up_file_that_prints_and_hides_stderr_leaves_copilot_no_channel(
    agent_e2e: AgentProject,
) -> None:
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", MERGE_GUARD))
    startup = e2e.scratch / "startup.sh"
    startup.write_text("echo STARTUP-LINE; exec 2>/dev/null\n")
    e2e.extra_env["BASH_ENV"] = str(startup)
    victim = e2e.root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep\n")
    run = e2e.run_agent("tidy", turns=[e2e.shell("rm -rf victim"), say("ok")])
    assert (victim / "keep.txt").exists(), run.describe()
