"""What install plans for Qwen Code and Factory droid (agents/agent_sync.py): the events each
version runs hooks for, commands carrying `--agent AGENT`, matchers in the agent's own tool
names; and the Claude Code matchers Copilot CLI must read (no comma-list)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.agents import agent_facts
from hookman.agents.agent_sync import VersionFacts, agent_matcher, detect_version, plan_agent
from hookman.catalog.agent_catalog import COPILOT_AGENT, DROID_AGENT, QWEN_AGENT
from hookman.catalog.client_version import ClientVersion, parse_version
from hookman.errors import HookmanError
from hookman.project.config import HookSource, HookSpec
from hookman.project.install_plan import exact_matcher, plan_install

LAUNCHER = Path("/state/projects/p-0123/hookman-run.sh")
CLAUDE = ClientVersion(2, 1, 332)


def hook(name: str, events: dict[str, list[str] | None], **extra: object) -> HookSpec:
    tools = {event: tuple(names) for event, names in events.items() if names is not None}
    return HookSpec(
        name, HookSource("path", f"hooks/{name}.py"), True, tuple(events), tools, **extra
    )  # type: ignore[arg-type]


GUARD = hook("guard", {"tool_call": ["Bash", "Write"]})
NOTES = hook("notes", {"SessionStart": None, "SubagentStart": None})


def test_droid_matchers_name_droids_tools_and_commands_carry_the_flag() -> None:
    hooks = [GUARD]
    planned = plan_agent(
        DROID_AGENT, hooks, plan_install(hooks, CLAUDE), LAUNCHER, parse_version("0.225.2")
    )
    pre = [entry for entry in planned.entries if entry.event == "PreToolUse"]
    assert [entry.matcher for entry in pre] == ["^(?:Execute|Create)$"]
    assert " PreToolUse --agent droid " in pre[0].command
    assert planned.facts is VersionFacts.CHECKED


def test_qwen_matchers_name_qwens_tools() -> None:
    # monitor runs a shell command too (hooks see it as Bash): a guard on Bash covers it
    assert agent_matcher(QWEN_AGENT, ("Bash",), "Bash") == "^(?:run_shell_command|monitor)$"
    assert (
        agent_matcher(QWEN_AGENT, ("Bash", "Edit"), "Bash|Edit")
        == "^(?:run_shell_command|monitor|edit)$"
    )
    assert agent_matcher(DROID_AGENT, ("WebFetch",), "WebFetch") == "^(?:FetchUrl)$"


def test_a_name_the_agent_shares_or_lacks_passes_through_escaped() -> None:
    assert agent_matcher(DROID_AGENT, ("Grep",), "Grep") == "^(?:Grep)$"
    assert agent_matcher(DROID_AGENT, ("mcp__fs__read.x", "Bash"), None) == (
        r"^(?:mcp__fs__read\.x|Execute)$"
    )


def test_no_tools_means_the_claude_matcher_as_it_is() -> None:
    assert agent_matcher(QWEN_AGENT, None, None) is None
    assert agent_matcher(QWEN_AGENT, None, "startup") == "startup"


TOOL_NAMES = st.sampled_from(
    ["Bash", "Write", "Edit", "Read", "Grep", "Glob", "WebFetch", "WebSearch", "mcp__a__b.c"]
)


@given(agent=st.sampled_from([QWEN_AGENT, DROID_AGENT]), tools=st.lists(TOOL_NAMES, min_size=1))
def test_the_matcher_matches_exactly_the_agents_names_for_the_tools(
    agent: str, tools: list[str]
) -> None:
    """Read as droid and Qwen read it (the exact name, else an unanchored regex), the
    matcher matches every name the agent has for the tools and none of its other tools."""
    matcher = agent_matcher(agent, tuple(tools), exact_matcher(tools))
    assert matcher is not None
    wanted = {own for name in tools for own in agent_facts.own_tool_names(agent, name)}
    others = set(agent_facts.claude_tool_names(agent)) | {
        "MultiEdit",
        "ApplyPatch",
        "notebook_edit",
    }
    for name in wanted | others:
        read = matcher == name or re.search(matcher, name) is not None
        assert read == (name in wanted), (matcher, name)


@given(
    st.lists(
        st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}(__[a-z]{1,4}\.[a-z]{1,3})?", fullmatch=True),
        min_size=1,
    )
)
def test_claude_matchers_are_a_form_copilot_reads(names: list[str]) -> None:
    """Copilot CLI reads settings.local.json's matchers as `A|B` or an anchored regex; a
    comma-list (`Read, Bash`, Claude Code's exact-list syntax) matches nothing there. What
    hookman writes, read as Copilot reads it (anchored `^(?:M)$`), matches exactly the tools."""
    matcher = exact_matcher(names)
    assert matcher is not None and "," not in matcher
    anchored = matcher if matcher.startswith("^") else f"^(?:{matcher})$"
    for name in [*names, "Other", "BashX"]:
        assert (re.fullmatch(anchored, name) is not None) == (name in names)


def test_events_are_those_the_agents_version_runs() -> None:
    hooks = [GUARD, NOTES]
    plan = plan_install(hooks, CLAUDE)
    droid = plan_agent(DROID_AGENT, hooks, plan, LAUNCHER, parse_version("0.225.2"))
    assert "SessionStart" in droid.events and "SubagentStart" not in droid.events
    assert "SubagentStart" in droid.not_in_agent
    assert droid.without_counterpart == {"notes": ["SubagentStart"]}
    qwen = plan_agent(QWEN_AGENT, hooks, plan, LAUNCHER, parse_version("0.24.4"))
    assert {"PreToolUse", "SessionStart", "SubagentStart"} <= set(qwen.events)
    assert qwen.without_counterpart == {}


def test_an_unknown_version_plans_the_oldest_checked_and_says_so() -> None:
    hooks = [GUARD]
    planned = plan_agent(QWEN_AGENT, hooks, plan_install(hooks, CLAUDE), LAUNCHER, None)
    assert planned.facts is VersionFacts.OLDEST and planned.events == ["PreToolUse"]
    newer = plan_agent(
        QWEN_AGENT, hooks, plan_install(hooks, CLAUDE), LAUNCHER, parse_version("9.0.0")
    )
    assert newer.facts is VersionFacts.NEWEST


def test_async_entries_keep_the_runners_flag_without_claudes_async_key() -> None:
    hooks = [hook("watch", {"tool_result": ["Bash"]}, is_async=True)]
    planned = plan_agent(
        DROID_AGENT, hooks, plan_install(hooks, CLAUDE), LAUNCHER, parse_version("0.225.2")
    )
    (entry,) = [entry for entry in planned.entries if entry.event == "PostToolUse"]
    assert entry.is_async and "--async --agent droid" in entry.command
    assert "async" not in entry.handler()


def test_a_version_flag_that_is_no_version_is_refused_with_exit_2() -> None:
    with pytest.raises(HookmanError) as refused:
        detect_version(DROID_AGENT, "latest")
    assert refused.value.exit_code == 2 and "--droid-version 'latest'" in refused.value.message
    assert detect_version(DROID_AGENT, "0.230.0") == parse_version("0.230.0")


def test_copilot_writes_no_file_of_its_own() -> None:
    assert agent_facts.hooks_file(COPILOT_AGENT) is None
    assert agent_facts.file_agents() == (QWEN_AGENT, DROID_AGENT)
