"""The payload Copilot, Qwen Code and droid send, as hooks see it: their tool names and input
keys renamed to Claude Code's (bridge/agent_payload.py, catalog <agent>_events.json)."""

from __future__ import annotations

import collections
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.agent_facts import OTHER_AGENTS, input_renames, tool_map
from hookman.bridge.agent_payload import claude_payload, rename_keys

PAYLOADS = Path(__file__).resolve().parents[2] / "hookman" / "catalog" / "agent_payloads"
CLAUDE_TOOLS = {
    "Bash",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Glob",
    "Grep",
    "WebFetch",
    "WebSearch",
    "Agent",
    "TodoWrite",
}


def _captured(agent: str) -> dict[str, Any]:
    (path,) = PAYLOADS.glob(f"{agent}-*-PreToolUse.json")
    payload = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(payload, dict)
    return payload


@pytest.mark.parametrize(
    ("agent", "native"),
    [("qwen", "run_shell_command"), ("droid", "Execute"), ("copilot", "Bash")],
)
def test_the_captured_shell_call_reaches_hooks_as_bash(agent: str, native: str) -> None:
    payload = _captured(agent)
    assert payload["tool_name"] == native  # what the real binary sent
    seen = claude_payload(agent, payload)
    assert seen["tool_name"] == "Bash"
    assert seen["tool_input"]["command"] == payload["tool_input"]["command"]
    assert payload["tool_name"] == native  # the agent's payload itself is left alone


def test_droid_s_summary_is_the_description_hooks_know() -> None:
    seen = claude_payload("droid", _captured("droid"))
    assert seen["tool_input"]["description"] == "hookman probe"
    assert "summary" not in seen["tool_input"]
    assert seen["tool_input"]["riskLevel"] == "hookman probe"  # droid's own keys stay


def test_droid_s_edit_input_gets_claude_code_s_keys() -> None:
    payload = {
        "tool_name": "Edit",
        "tool_input": {"file_path": "/p/a.py", "old_str": "a", "new_str": "b", "change_all": True},
    }
    assert claude_payload("droid", payload)["tool_input"] == {
        "file_path": "/p/a.py",
        "old_string": "a",
        "new_string": "b",
        "replace_all": True,
    }


def test_droid_s_multi_edit_renames_each_change() -> None:
    payload = {
        "tool_name": "MultiEdit",
        "tool_input": {"file_path": "/p/a.py", "changes": [{"old_str": "a", "new_str": "b"}, 3]},
    }
    assert claude_payload("droid", payload)["tool_input"] == {
        "file_path": "/p/a.py",
        "edits": [{"old_string": "a", "new_string": "b"}, 3],
    }


# What Copilot CLI 1.0.102 sent a .claude/settings entry for its view, edit and create
# (measured, tests/e2e/test_agents_full.py): Claude Code's tool names, its own input keys.
COPILOT_FILE_CALLS = [
    ("Read", {"path": "/p/.env", "view_range": [1, 1]},
     {"file_path": "/p/.env", "view_range": [1, 1]}),
    ("Edit", {"path": "/p/.env", "old_str": "A=1", "new_str": "A=2"},
     {"file_path": "/p/.env", "old_string": "A=1", "new_string": "A=2"}),
    ("Write", {"path": "/p/.env", "file_text": "X=1\n"},
     {"file_path": "/p/.env", "content": "X=1\n"}),
]  # fmt: skip


@pytest.mark.parametrize(("tool", "sent", "seen"), COPILOT_FILE_CALLS)
def test_copilot_s_file_inputs_get_claude_code_s_keys(
    tool: str, sent: dict[str, Any], seen: dict[str, Any]
) -> None:
    payload = {"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": sent}
    assert claude_payload("copilot", payload) == {**payload, "tool_input": seen}


def test_qwen_s_monitor_reaches_hooks_as_bash_with_its_command() -> None:
    """Qwen Code's monitor runs its command in a shell (measured on 0.24.4: its PreToolUse
    payload named `monitor`, and a guard on Bash never saw it)."""
    sent = {"command": "rm -rf victim", "description": "x", "max_events": 5}
    payload = {"tool_name": "monitor", "tool_input": sent}
    assert claude_payload("qwen", payload) == {"tool_name": "Bash", "tool_input": sent}


@pytest.mark.parametrize(
    ("agent", "native", "claude"),
    [
        ("qwen", "write_file", "Write"),
        ("qwen", "edit", "Edit"),
        ("qwen", "read_file", "Read"),
        ("qwen", "grep_search", "Grep"),
        ("qwen", "glob", "Glob"),
        ("qwen", "web_fetch", "WebFetch"),
        ("droid", "Create", "Write"),
        ("droid", "FetchUrl", "WebFetch"),
        ("droid", "Task", "Agent"),
    ],
)
def test_the_read_names_map_to_claude_code_s(agent: str, native: str, claude: str) -> None:
    assert claude_payload(agent, {"tool_name": native})["tool_name"] == claude


def test_post_tool_batch_calls_are_mapped_each() -> None:
    payload = {
        "hook_event_name": "PostToolBatch",
        "tool_calls": [{"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}, "x"],
    }
    seen = claude_payload("qwen", payload)
    assert seen["tool_calls"] == [{"tool_name": "Bash", "tool_input": {"command": "ls"}}, "x"]


@pytest.mark.parametrize("agent", [None, "codex", "gemini"])
def test_agents_without_facts_get_the_payload_as_it_is(agent: str | None) -> None:
    payload = {"tool_name": "run_shell_command", "tool_input": {"summary": "x"}}
    assert claude_payload(agent, payload) is payload


@pytest.mark.parametrize("agent", OTHER_AGENTS)
def test_every_mapped_name_is_a_claude_code_tool(agent: str) -> None:
    assert tool_map(agent)
    assert set(tool_map(agent).values()) <= CLAUDE_TOOLS
    shaped = {claude for claude in CLAUDE_TOOLS if input_renames(agent, claude)}
    assert shaped <= set(tool_map(agent).values())  # only inputs of tools it has


_keys = st.text(min_size=1, max_size=12)
_values = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8))
_inputs = st.dictionaries(
    st.one_of(
        _keys,
        st.sampled_from(
            [
                "summary",
                "old_str",
                "new_str",
                "is_background",
                "limit",
                "path",
                "file_path",
                "old_string",
                "description",
                "file_text",
                "content",
            ]
        ),
    ),
    _values,
    max_size=6,
)
_names = st.one_of(
    st.text(max_size=20),
    st.sampled_from(sorted({name for agent in OTHER_AGENTS for name in tool_map(agent)})),
)


@given(
    agent=st.sampled_from(OTHER_AGENTS),
    name=_names,
    tool_input=_inputs,
    extra=st.dictionaries(_keys, _values, max_size=4),
)
def test_the_mapping_keeps_every_value_and_never_touches_the_payload(
    agent: str, name: str, tool_input: dict[str, Any], extra: dict[str, Any]
) -> None:
    payload = {**extra, "tool_name": name, "tool_input": tool_input}
    before = copy.deepcopy(payload)
    seen = claude_payload(agent, payload)
    assert payload == before
    assert seen["tool_name"] == tool_map(agent).get(name, name)
    # no value changed or invented: only names change; a key is lost only where the agent's
    # own key took its Claude Code name (test_the_agent_s_own_key_wins_...)
    kept = collections.Counter(map(repr, seen["tool_input"].values()))
    assert not kept - collections.Counter(map(repr, tool_input.values()))
    for key in set(payload) - {"tool_name", "tool_input"}:
        assert seen[key] == payload[key]
    assert claude_payload(agent, seen) == seen  # Claude Code's names map to themselves


@given(
    values=st.dictionaries(_keys, _values, max_size=6),
    rename=st.dictionaries(_keys, _keys, max_size=4),
)
def test_the_agent_s_own_key_wins_over_the_claude_name_it_also_sent(
    values: dict[str, Any], rename: dict[str, str]
) -> None:
    """Each of the agent's keys reaches hooks under its Claude Code name with its value (one
    of them, where two rename to one name); a key the agent also sent under that name is
    dropped (its tool acts on its own key); every other key is kept as it is."""
    result = rename_keys(values, rename, {})
    renamed = {key: rename[key] for key in values if rename.get(key, key) != key}
    for new in set(renamed.values()):
        assert result[new] in [values[key] for key, to in renamed.items() if to == new]
    for key, value in values.items():
        if key not in renamed and key not in renamed.values():
            assert result[key] == value
    assert set(result) == (set(values) - set(renamed)) | set(renamed.values())


def test_copilot_s_path_wins_over_a_file_path_it_also_sent() -> None:
    """The measured bypass: Copilot edits `path`; a guard reading Claude Code's `file_path`
    must see that file, not the decoy the model put beside it."""
    payload = {
        "tool_name": "Edit",
        "tool_input": {"path": ".env", "file_path": "notes.txt", "old_str": "a", "new_str": "b"},
    }
    seen = claude_payload("copilot", payload)["tool_input"]
    assert seen == {"file_path": ".env", "old_string": "a", "new_string": "b"}
