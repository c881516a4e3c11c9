from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.catalog.client_version import ClientVersion
from hookman.project.config import HookSource, HookSpec
from hookman.project.install_plan import deadline_for, exact_matcher, plan_install, timeout_for

NEW = ClientVersion(2, 1, 328)
OLD = ClientVersion(2, 1, 197)


def spec(
    name: str,
    *events: str,
    tools: dict[str, tuple[str, ...]] | None = None,
    timeout: float | None = None,
    enabled: bool = True,
    is_async: bool = False,
) -> HookSpec:
    return HookSpec(
        name, HookSource("path", f"{name}.py"), enabled, events, tools or {}, timeout, is_async
    )


def test_one_entry_per_needed_claude_event_with_the_union_of_tools() -> None:
    plan = plan_install(
        [
            spec("a", "tool_call", tools={"tool_call": ("Edit", "Bash")}),
            spec("b", "PreToolUse", tools={"PreToolUse": ("Write",)}),
        ],
        NEW,
    )
    assert list(plan.entries) == ["PreToolUse"]
    assert plan.entries["PreToolUse"].matcher == "Bash|Edit|Write"
    assert plan.claude_events == {"a": ("PreToolUse", "PreSkillShellCommand"), "b": ("PreToolUse",)}
    assert plan.held_back == {"PreSkillShellCommand": "2.1.332"}


def test_a_hook_wanting_all_tools_drops_the_matcher() -> None:
    plan = plan_install(
        [spec("a", "tool_call", tools={"tool_call": ("Bash",)}), spec("b", "tool_call")], NEW
    )
    assert plan.entries["PreToolUse"].matcher is None


def test_runtime_names_map_to_every_serving_event() -> None:
    plan = plan_install([spec("a", "tool_result", tools={"tool_result": ("Bash",)})], NEW)
    assert plan.entries["PostToolUse"].matcher == "Bash"
    assert plan.entries["PostToolUseFailure"].matcher == "Bash"


def test_non_tool_events_never_get_a_matcher() -> None:
    plan = plan_install([spec("a", "SessionStart", tools={"SessionStart": ("Bash",)})], NEW)
    assert plan.entries["SessionStart"].matcher is None


def test_the_version_gate_holds_back_newer_events() -> None:
    held = plan_install([spec("a", "DirectoryAdded", "tool_call")], OLD)
    assert "DirectoryAdded" not in held.entries
    assert held.held_back == {"PreSkillShellCommand": "2.1.332", "DirectoryAdded": "2.1.219"}
    written = plan_install([spec("a", "DirectoryAdded", "tool_call")], NEW)
    assert "DirectoryAdded" in written.entries
    assert written.held_back == {"PreSkillShellCommand": "2.1.332"}


def test_an_unknown_version_holds_back_what_old_clients_lack() -> None:
    plan = plan_install([spec("a", "tool_result")], None)
    assert list(plan.entries) == ["PostToolUse"]
    assert plan.held_back == {"PostToolUseFailure": "2.0.56"}


def test_disabled_hooks_contribute_nothing() -> None:
    plan = plan_install([spec("a", "tool_call", enabled=False)], NEW)
    assert plan.entries == {}
    assert plan.claude_events == {}


def test_runtime_only_and_unknown_events_are_reported_not_written() -> None:
    plan = plan_install([spec("a", "turn_start"), spec("b", "FutureThing", "Stop")], NEW)
    assert plan.never_sent == ("a",)
    assert plan.inert_events == {"b": ("FutureThing",)}
    assert "Stop" in plan.entries


def test_a_context_channel_entry_is_added_when_no_written_event_has_one() -> None:
    plan = plan_install([spec("a", "session_shutdown")], NEW)
    assert list(plan.entries) == ["UserPromptSubmit", "SessionEnd"]
    assert plan.context_fallback
    assert plan.claude_events == {"a": ("SessionEnd",)}
    with_channel = plan_install([spec("a", "tool_call")], NEW)
    assert list(with_channel.entries) == ["PreToolUse"]
    assert not with_channel.context_fallback


def test_a_stop_only_project_gets_a_prompt_entry_to_deliver_its_queued_messages() -> None:
    # Stop has additionalContext, but it starts another turn: send_message texts wait.
    for stop_like in ("agent_end", "SubagentStop"):
        plan = plan_install([spec("a", stop_like)], NEW)
        assert "UserPromptSubmit" in plan.entries
        assert plan.context_fallback


def test_no_hooks_no_entries() -> None:
    assert plan_install([], NEW).entries == {}


def test_timeouts_default_to_30_and_rise_to_the_largest_hook_timeout() -> None:
    plan = plan_install(
        [spec("a", "tool_call", timeout=10), spec("b", "tool_call", timeout=45), spec("c", "Stop")],
        NEW,
    )
    assert plan.entries["PreToolUse"].timeout == 45
    assert plan.entries["PreToolUse"].deadline == 40.5
    assert plan.entries["Stop"].timeout == 30
    assert plan.entries["Stop"].deadline == 27.0


def test_session_end_always_gets_an_explicit_capped_timeout() -> None:
    assert timeout_for("SessionEnd", []) == 5
    assert timeout_for("SessionEnd", [12]) == 12
    assert timeout_for("SessionEnd", [600]) == 60
    plan = plan_install([spec("a", "SessionEnd")], NEW)
    assert plan.entries["SessionEnd"].timeout == 5
    assert plan.entries["SessionEnd"].deadline == 4.0


@given(st.floats(min_value=0.5, max_value=3600))
def test_the_deadline_is_always_below_the_timeout(timeout: float) -> None:
    deadline = deadline_for(timeout)
    assert 0 <= deadline < timeout
    assert timeout - deadline >= min(1.0, timeout) - 1e-9


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["tool_call", "tool_result", "PreToolUse", "Stop", "DirectoryAdded"]),
            st.none() | st.lists(st.sampled_from(["Bash", "Edit", "Read"]), min_size=1, max_size=3),
        ),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from([None, OLD, NEW]),
)
def test_every_needed_event_is_written_or_held_back_never_both(
    subscriptions: list[tuple[str, list[str] | None]], version: ClientVersion | None
) -> None:
    hooks = [
        spec(f"h{index}", event, tools={event: tuple(tools)} if tools else None)
        for index, (event, tools) in enumerate(subscriptions)
    ]
    plan = plan_install(hooks, version)
    needed = {event for served in plan.claude_events.values() for event in served}
    assert needed <= set(plan.entries) | set(plan.held_back)
    assert not set(plan.entries) & set(plan.held_back)
    for index, (_, tools) in enumerate(subscriptions):
        for event in plan.claude_events[f"h{index}"]:
            entry = plan.entries.get(event)
            if entry is not None and entry.matcher is not None:
                assert tools is not None
                assert set(tools) <= set(entry.matcher.split("|"))


def test_a_session_end_hook_asking_more_than_the_cap_is_reported() -> None:
    hooks = [
        spec("slow", "session_shutdown", timeout=120),
        spec("quick", "SessionEnd", timeout=3),
        spec("guard", "tool_call", timeout=120),
    ]
    plan = plan_install(hooks, NEW)
    assert plan.entries["SessionEnd"].timeout == 60
    assert plan.session_end_capped == {"slow": 120}


def test_async_hooks_get_their_own_entries_with_their_own_matchers_and_timeouts() -> None:
    plan = plan_install(
        [
            spec("guard", "tool_call", tools={"tool_call": ("Bash",)}),
            spec("notify", "tool_call", "tool_result", timeout=45, is_async=True),
        ],
        NEW,
    )
    # the async hook's guarded part stays blocking: Claude Code never reads an async answer
    assert list(plan.entries) == ["PreToolUse"]
    assert plan.entries["PreToolUse"].matcher is None
    assert plan.entries["PreToolUse"].timeout == 45
    assert list(plan.async_entries) == ["PostToolUse", "PostToolUseFailure"]
    assert plan.async_entries["PostToolUse"].timeout == 45
    assert plan.kept_blocking == {"notify": ("PreToolUse",)}
    assert plan.claude_events["notify"] == (
        "PreToolUse",
        "PreSkillShellCommand",
        "PostToolUse",
        "PostToolUseFailure",
    )


def test_an_event_only_async_hooks_need_gets_no_blocking_entry() -> None:
    plan = plan_install([spec("notify", "agent_end", is_async=True)], NEW)
    assert "Stop" in plan.async_entries and "Stop" not in plan.entries


def test_async_messages_still_get_a_delivery_channel() -> None:
    plan = plan_install([spec("notify", "agent_end", is_async=True)], NEW)
    assert plan.context_fallback
    assert "UserPromptSubmit" in plan.entries and "UserPromptSubmit" not in plan.async_entries


def test_async_events_the_client_does_not_know_are_held_back() -> None:
    plan = plan_install([spec("dirs", "DirectoryAdded", is_async=True)], OLD)
    assert plan.async_entries == {}
    assert plan.held_back == {"DirectoryAdded": "2.1.219"}


@given(st.lists(st.booleans(), min_size=1, max_size=6))
def test_every_enabled_hook_is_served_by_exactly_its_kind_of_entry(flags: list[bool]) -> None:
    hooks = [spec(f"h{i}", "tool_call", "agent_end", is_async=flag) for i, flag in enumerate(flags)]
    plan = plan_install(hooks, SKILL_SHELL)
    assert ("Stop" in plan.entries) == (False in flags)
    assert ("Stop" in plan.async_entries) == (True in flags)
    # a guard is never async: Claude Code would not wait for its deny
    assert {"PreToolUse", "PreSkillShellCommand"} <= set(plan.entries)
    assert not {"PreToolUse", "PreSkillShellCommand"} & set(plan.async_entries)
    assert plan.kept_blocking == {
        f"h{i}": ("PreToolUse", "PreSkillShellCommand") for i, flag in enumerate(flags) if flag
    }


SKILL_SHELL = ClientVersion(2, 1, 332)


@pytest.mark.parametrize(
    ("tools", "matcher"),
    [
        (("Bash",), "Bash"),
        (("Bash", "Edit"), "Bash"),
        (("PowerShell", "Bash", "Write"), "Bash|PowerShell"),
        (None, None),
        (("*",), None),
    ],
)
def test_a_tool_call_guard_also_guards_skill_shell_commands(
    tools: tuple[str, ...] | None, matcher: str | None
) -> None:
    narrowing = {} if tools is None else {"tool_call": tools}
    plan = plan_install([spec("guard", "tool_call", tools=narrowing)], SKILL_SHELL)

    assert list(plan.entries) == ["PreToolUse", "PreSkillShellCommand"]
    assert plan.entries["PreSkillShellCommand"].matcher == matcher
    assert plan.claude_events["guard"] == ("PreToolUse", "PreSkillShellCommand")
    assert plan.held_back == {}


def test_a_guard_on_tools_no_shell_command_uses_gets_no_skill_shell_entry() -> None:
    guard = spec("guard", "tool_call", tools={"tool_call": ("Edit", "Write")})

    for version in (SKILL_SHELL, NEW, None):
        plan = plan_install([guard], version)
        assert "PreSkillShellCommand" not in plan.entries
        assert "PreSkillShellCommand" not in plan.held_back
        assert plan.claude_events["guard"] == ("PreToolUse",)


def test_skill_shell_commands_are_held_back_for_clients_before_2_1_332() -> None:
    guard = spec("guard", "tool_call", tools={"tool_call": ("Bash",)})

    for version in (NEW, OLD, ClientVersion(2, 1, 331), None):
        plan = plan_install([guard], version)
        assert list(plan.entries) == ["PreToolUse"]
        assert plan.held_back == {"PreSkillShellCommand": "2.1.332"}


def test_a_raw_pre_skill_shell_command_handler_gets_its_entry() -> None:
    plan = plan_install([spec("raw", "PreSkillShellCommand")], SKILL_SHELL)
    assert list(plan.entries) == ["UserPromptSubmit", "PreSkillShellCommand"]
    assert plan.entries["PreSkillShellCommand"].matcher is None
    narrowed = spec("raw", "PreSkillShellCommand", tools={"PreSkillShellCommand": ("Edit",)})
    assert "PreSkillShellCommand" not in plan_install([narrowed], SKILL_SHELL).entries


def test_a_raw_skill_shell_handler_narrowed_to_other_tools_is_not_called_never_sent() -> None:
    narrowed = spec("raw", "PreSkillShellCommand", tools={"PreSkillShellCommand": ("Edit",)})
    plan = plan_install([narrowed], SKILL_SHELL)
    assert plan.never_sent == ()
    assert plan.claude_events["raw"] == ()


def test_a_raw_pre_tool_use_guard_is_told_it_misses_skill_shell_commands() -> None:
    raw = spec("raw", "PreToolUse", tools={"PreToolUse": ("Bash",)})
    assert plan_install([raw], SKILL_SHELL).partial_guards == {"raw": ("PreSkillShellCommand",)}
    assert plan_install([raw], NEW).partial_guards == {}  # held back there anyway
    on_edit = spec("raw", "PreToolUse", tools={"PreToolUse": ("Edit",)})
    both = spec("both", "PreToolUse", "PreSkillShellCommand")
    guard = spec("guard", "tool_call", "PreToolUse")
    assert plan_install([on_edit, both, guard], SKILL_SHELL).partial_guards == {}


# --- exact_matcher ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tools", "matcher"),
    [
        ([], None),
        (["*"], None),
        (["Bash", "*"], None),
        (["Bash"], "Bash"),
        (["Bash", "Edit", "Bash", "Write"], "Bash|Edit|Write"),
        (["mcp__github__create_issue"], "mcp__github__create_issue"),
        (["mcp__my-server__do", "Bash"], "^(?:mcp__my-server__do|Bash)$"),
        (["a.b", "c*d", "(x)", "[y]", "{z}", "p|q", "s/t", "u\\v", "$^+?"],
         r"^(?:a\.b|c\*d|\(x\)|\[y\]|\{z\}|p\|q|s\/t|u\\v|\$\^\+\?)$"),
    ],
)  # fmt: skip
def test_exact_matcher(tools: list[str], matcher: str | None) -> None:
    assert exact_matcher(tools) == matcher


def test_exact_matcher_rejects_empty_name() -> None:
    with pytest.raises(ValueError, match="empty"):
        exact_matcher(["Bash", ""])


_tool_names = st.lists(
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12
    ).filter(lambda name: name != "*"),
    min_size=1,
    max_size=4,
)


@settings(max_examples=200, deadline=None)
@given(tools=_tool_names, other=st.text(max_size=14))
def test_exact_matcher_matches_exactly_the_given_names(tools: list[str], other: str) -> None:
    matcher = exact_matcher(tools)
    assert matcher is not None
    if re.fullmatch(r"[A-Za-z0-9_|]+", matcher):
        assert matcher.split("|") == list(dict.fromkeys(tools))
        return
    assert matcher.startswith("^(?:") and matcher.endswith(")$")
    # Python's re agrees with JavaScript on this escaped subset, except that Python's `$` also
    # matches before a final newline, where JavaScript's (without the m flag) does not.
    javascript_like = re.compile(matcher[:-1] + r"\Z")
    for tool in tools:
        assert javascript_like.search(tool)
    assert bool(javascript_like.search(other)) == (other in tools)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_exact_matcher_regex_behaves_in_javascript() -> None:
    tools = ["mcp__my-server__do", "a.b", "s/t", "(x)", "u\\v", "日本"]
    matcher = exact_matcher(tools)
    candidates = [*tools, "axb", "mcp__my-server__do_more", "x", "senior-mcp__my-server__do"]
    script = (
        "const [m, names] = JSON.parse(process.argv[1]);"
        "const re = new RegExp(m);"
        "console.log(JSON.stringify(names.map((n) => re.test(n))));"
    )
    done = subprocess.run(
        ["node", "-e", script, json.dumps([matcher, candidates])],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == [name in tools for name in candidates]
