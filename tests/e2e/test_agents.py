"""The same Python hooks guard GitHub Copilot CLI, Qwen Code and Factory droid, proven in each
real binary (pinned: tools/install_agent_clients.py), offline against the mock APIs in the
private network namespace (tests/e2e/agents_harness.py), installed by
`hookman install --agent <agent>`.

The default run drives two sessions per agent: one that proves the guard (an `rm -rf`
denied, the model reads why, `ls` runs), the context, and the order of two hooks; one that
proves a hook past its deadline denies before the agent's own timeout. The rest, a broken
install, the five agents from one hookman.toml, a teammate's machine and the facts the
design rests on, runs in CI's second pass (test_agents_full.py,
HOOKMAN_E2E_AGENTS_FULL=1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from . import notes
from .agents_harness import AGENTS, AgentProject, AgentRun
from .conftest import _client, _installed_or_skip, agent_client_or_skip
from .harness import DEFAULT_CLIENT_VERSIONS, NetworkIsolation
from .mock_anthropic import MockAnthropic, ToolUse, say
from .mock_openai import MockOpenAI

pytestmark = pytest.mark.e2e


# tool_call handlers share one event object (docs/dispatch.md, "Order"): the guard, second in
# hookman.toml, sees what the first hook wrote, and says so in its reason.
FIRST = """
def mark(event, ctx):
    event.setdefault("trail", []).append("first")


def hook(pi):
    pi.on("tool_call", mark, tools=["Bash"])
"""

GUARD = """
def guard(event, ctx):
    if "rm -rf" in event["input"].get("command", ""):
        trail = ">".join([*event.get("trail", []), "guard"])
        return {"block": True, "reason": "GUARD-E2E: rm -rf is not allowed here (" + trail + ")"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""
GUARD_REASON = "GUARD-E2E: rm -rf is not allowed here (first>guard)"

CONTEXT = """
def hook(pi):
    @pi.on("session_start")
    def greet(event, ctx):
        pi.send_message("SESSION-E2E context")

    @pi.on("before_agent_start")
    def remind(event, ctx):
        return {"message": {"customType": "e2e", "content": "PROMPT-E2E was " + event["prompt"],
                            "display": False}}

    @pi.on("tool_result", tools=["Bash"])
    def note(event, ctx):
        pi.send_message("POST-E2E saw " + event["input"]["command"])
"""

# Pieces of hookman's command line that must never reach a model.
INTERNALS = ("-m hookman", "manifest.json", "hookman run", "hookman-run.sh")

# `droid exec` runs no UserPromptSubmit hook at all (measured on 0.225.2 with a raw hook:
# SessionStart, PreToolUse, PostToolUse and Stop ran, UserPromptSubmit never), so a
# before_agent_start message has no way to its model there.
PROMPT_CONTEXT_REACHES = {"copilot": True, "qwen": True, "droid": False}


def internals_seen(run: AgentRun) -> list[str]:
    text = "\n".join(run.model_text(index) for index in range(len(run.requests)))
    return [piece for piece in INTERNALS if piece in text]


@pytest.mark.parametrize("agent_client", AGENTS, indirect=True)
def test_a_guard_denies_rm_rf_ls_runs_context_arrives_and_order_holds(
    agent_e2e: AgentProject,
) -> None:
    e2e = agent_e2e
    hooks = [
        e2e.write_hook(name, source)
        for name, source in (("first", FIRST), ("guard", GUARD), ("context", CONTEXT))
    ]
    e2e.install(*hooks)
    victim = e2e.root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep\n")

    run = e2e.run_agent(
        "tidy-e2e", turns=[e2e.shell("rm -rf victim"), e2e.shell("ls"), say("done")]
    )

    results = run.tool_results()
    assert (victim / "keep.txt").exists(), run.describe()
    assert len(results) == 2, run.describe()
    # The guard denied, the model read why, and the first hook ran before the guard.
    assert results[0] == e2e.denied(GUARD_REASON), run.describe()
    # `ls` ran and the model read its output.
    assert "victim" in results[1] and "hooks" in results[1], run.describe()
    # Context: SessionStart's from the first request on, tool_result's after the tool.
    assert "SESSION-E2E context" in run.model_text(0), run.describe()
    assert "POST-E2E saw ls" in run.model_text(-1), run.describe()
    assert "POST-E2E saw ls" not in run.model_text(0), run.describe()
    prompt_context = "PROMPT-E2E was tidy-e2e" in run.model_text(0)
    assert prompt_context is PROMPT_CONTEXT_REACHES[e2e.agent], run.describe()
    assert internals_seen(run) == [], run.describe()
    assert run.returncode == 0, run.describe()


SLOW_GUARD = """
import time


def guard(event, ctx):
    if "BLOCK-ME" in event["input"].get("command", ""):
        time.sleep(30)
        return {"block": True, "reason": "GUARD-E2E: slow no"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""


@pytest.mark.parametrize("agent_client", AGENTS, indirect=True)
def test_a_guard_past_its_deadline_denies_before_the_agent_s_timeout(
    agent_e2e: AgentProject,
) -> None:
    """Each of the three runs the tool when a hook passes its timeout (fails open), so the
    runner reads its entry's timeout in the agent's own file (here lowered by hand to 5 s)
    and denies before it."""
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", SLOW_GUARD))

    def lower(document: dict[str, Any]) -> None:
        events = document if e2e.agent == "droid" else document["hooks"]
        for group in events["PreToolUse"]:
            for handler in group["hooks"]:
                if "hookman-run.sh" in handler.get("command", ""):
                    handler["timeout"] = 5

    e2e.edit_hooks_file(lower)
    run = e2e.run_agent(
        "note",
        turns=[
            e2e.shell("echo BLOCK-ME > made.txt"),
            e2e.shell("echo after > after.txt"),
            say("done"),
        ],
    )

    results = run.tool_results()
    assert not (e2e.root / "made.txt").exists(), run.describe()
    assert results[0].startswith(e2e.denied("")), run.describe()
    assert "deadline of 4 s" in results[0], run.describe()
    assert (e2e.root / "after.txt").read_text() == "after\n", run.describe()


SHELL_GUARD = """
def guard(event, ctx):
    command = event["input"].get("command", "")
    if "rm -rf" in command:
        return {"block": True, "reason": f"GUARD-E2E: no rm -rf ({event['tool_name']}: {command})"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""


@pytest.mark.parametrize("agent_client", ["qwen"], indirect=True)
def test_a_guard_on_bash_denies_qwen_s_monitor(agent_e2e: AgentProject) -> None:
    """Qwen Code's monitor tool runs its command in a shell: with an entry for
    run_shell_command only, `monitor {command: "rm -rf victim"}` ran (0.24.4). install names
    monitor in the matcher and the hook sees it as Bash with its command: denied, and the
    model reads why."""
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", SHELL_GUARD))
    victim = e2e.root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep\n")
    command = "rm -rf victim; echo gone"

    run = e2e.run_agent(
        "tidy-e2e",
        turns=[[ToolUse("monitor", {"command": command, "description": "watch"})], say("done")],
    )

    assert (victim / "keep.txt").exists(), run.describe()
    assert run.tool_results() == [e2e.denied(f"GUARD-E2E: no rm -rf (Bash: {command})")], (
        run.describe()
    )


@pytest.mark.parametrize("agent_client", ["droid"], indirect=True)
@pytest.mark.parametrize("disabled", [False, True])
def test_droid_s_off_switch_beside_its_events_is_kept_and_told(
    agent_e2e: AgentProject, disabled: bool
) -> None:
    """`hooksDisabled` stands among the events of .factory/hooks.json: install writes
    hookman's entries beside it (it refused the file before). Off (`false`), droid runs
    hookman's guard: denied, the model reads why. On (`true`), droid runs no hook of the file
    (measured), and install says so rather than claiming the guard works."""
    e2e = agent_e2e
    e2e.hooks_path.parent.mkdir(parents=True, exist_ok=True)
    e2e.hooks_path.write_text(json.dumps({"hooksDisabled": disabled}), encoding="utf-8")
    installed = e2e.install(e2e.write_hook("guard", SHELL_GUARD))
    assert json.loads(e2e.hooks_path.read_text(encoding="utf-8"))["hooksDisabled"] is disabled
    victim = e2e.root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep\n")

    run = e2e.run_agent("tidy-e2e", turns=[e2e.shell("rm -rf victim"), say("done")])

    said = " ".join(installed.stdout.split())
    if disabled:
        assert not victim.exists(), run.describe()
        assert "Factory droid runs none of its hooks, hookman's included" in said, said
    else:
        assert (victim / "keep.txt").exists(), run.describe()
        assert run.tool_results() == [e2e.denied("GUARD-E2E: no rm -rf (Bash: rm -rf victim)")], (
            run.describe()
        )
        assert "runs none of its hooks" not in said, said


FILE_GUARD = """
def guard(event, ctx):
    path = event["input"].get("file_path", "")
    if path.endswith(".env"):
        return {"block": True, "reason": f"GUARD-E2E: {event['tool_name']} of {path} is off limits"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Read", "Edit", "Write"])
"""


@pytest.mark.parametrize("agent_client", ["copilot"], indirect=True)
def test_a_claude_shaped_file_guard_denies_copilot_s_file_tools(agent_e2e: AgentProject) -> None:
    """Copilot CLI names its file tools as Claude Code does in the payload but keeps its own
    input keys (`path`, `old_str`, `file_text`: measured on 1.0.102), so a guard reading
    Claude Code's `file_path` let .env be read and edited. The runner renames the keys: each
    call is denied and the model reads why."""
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", FILE_GUARD))
    env = e2e.root / ".env"
    env.write_text("TOKEN=old\n")
    created = e2e.root / "new.env"

    run = e2e.run_agent(
        "edit-e2e",
        turns=[
            [ToolUse("view", {"path": str(env)})],
            [ToolUse("edit", {"path": str(env), "old_str": "TOKEN=old", "new_str": "TOKEN=x"})],
            [ToolUse("create", {"path": str(created), "file_text": "X=1\n"})],
            say("done"),
        ],
    )

    assert env.read_text() == "TOKEN=old\n", run.describe()
    assert not created.exists(), run.describe()
    assert run.tool_results() == [
        e2e.denied(f"GUARD-E2E: {tool} of {path} is off limits")
        for tool, path in (("Read", env), ("Edit", env), ("Write", created))
    ], run.describe()


@pytest.mark.parametrize("agent_client", ["copilot"], indirect=True)
def test_a_decoy_file_path_beside_copilot_s_path_is_not_what_the_guard_sees(
    agent_e2e: AgentProject,
) -> None:
    """The model may pass Claude Code's `file_path` beside Copilot's own `path` (a prompt
    injection can ask it to): Copilot acts on `path` (measured on 1.0.102: .env was edited
    and read while a guard was shown notes.txt), so the hooks see `path` as `file_path`."""
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", FILE_GUARD))
    env = e2e.root / ".env"
    env.write_text("TOKEN=old\n")
    decoy = str(e2e.root / "notes.txt")

    run = e2e.run_agent(
        "edit-e2e",
        turns=[
            [ToolUse("edit", {"path": str(env), "file_path": decoy, "old_str": "TOKEN=old",
                              "new_str": "TOKEN=pwned"})],
            [ToolUse("view", {"path": str(env), "file_path": decoy})],
            say("done"),
        ],
    )  # fmt: skip

    assert env.read_text() == "TOKEN=old\n", run.describe()
    assert run.tool_results() == [
        e2e.denied(f"GUARD-E2E: {tool} of {env} is off limits") for tool in ("Edit", "Read")
    ], run.describe()


TEAM_AGENTS = 'agents = ["claude", "codex", "copilot", "qwen", "droid"]\n'


def test_a_teammate_with_only_some_agents_gets_no_error_for_the_others(
    mock_api: MockAnthropic,
    mock_openai: MockOpenAI,
    network_isolation: NetworkIsolation,
    tmp_path: Path,
) -> None:
    """The committed hookman.toml names all five agents; this machine has Claude Code and
    Qwen Code only. install, list and doctor exit 0, wire the two, write nothing of Codex's
    or droid's, and warn about none of the three that are absent."""
    claude = _installed_or_skip(
        _client(DEFAULT_CLIENT_VERSIONS[-1]), DEFAULT_CLIENT_VERSIONS[-1], notes.MISSING_CLAUDE
    )
    qwen = agent_client_or_skip("qwen")
    e2e = AgentProject(
        qwen, mock_api, mock_openai, network_isolation, tmp_path, others=[claude.bin_dir]
    )
    e2e.write(".claude/hookman.toml", TEAM_AGENTS)
    e2e.write_hook("guard", GUARD)

    outputs = [e2e.hookman("install", "hooks/guard.py", check=False)]
    outputs += [e2e.hookman(command, check=False) for command in ("list", "doctor")]

    for done in outputs:
        said = done.stdout + done.stderr
        assert done.returncode == 0, said
        assert "Traceback" not in said and "error:" not in said.lower(), said
        warnings = [line for line in said.splitlines() if "warning" in line.lower()]
        absent = ("Codex", "codex", "Copilot", "copilot", "droid", "Factory")
        assert [line for line in warnings if any(name in line for name in absent)] == [], said
    installed = outputs[0].stdout
    for title in ("Codex CLI", "Factory droid"):
        assert f"{title}: not installed here" in installed, installed
    assert e2e.hookman_entries("PreToolUse"), e2e.hooks_path.read_text()
    assert (e2e.root / ".claude" / "settings.local.json").is_file()
    assert not (e2e.root / ".codex" / "hooks.json").exists()
    assert not (e2e.root / ".factory" / "hooks.json").exists()
    assert not (e2e.root / ".github" / "hooks").exists()
