"""Hostile: what a guard returns. Whatever object, coroutine or value it hands back, a guard
that asked to block (or could not say) ends in a deny, through the installed command."""

from __future__ import annotations

import pytest

from .attack_support import ALLOW, DENY, SHELLS, guard_that, run_like_claude_code, short_timeout
from .conftest import RunnerProject

ODD_TYPES = """
import asyncio

class Unreadable(dict):
    def get(self, key, default=None):
        raise RuntimeError("no get")
    def __getitem__(self, key):
        raise RuntimeError("no item")

class NoTruth:
    def __bool__(self):
        raise RuntimeError("no bool")
"""

RETURNS = {
    "a dict whose reads raise": "return Unreadable(block=True)",
    "block set to an object whose truth raises": "return {'block': NoTruth()}",
    "a reason that is not text": "return {'block': True, 'reason': NoTruth()}",
    "block as the string 'false' (truthy, as in JS)": "return {'block': 'false'}",
}


@pytest.mark.parametrize("body", list(RETURNS.values()), ids=list(RETURNS))
def test_an_odd_block_result_is_a_deny(runner_project: RunnerProject, body: str) -> None:
    source = ODD_TYPES + guard_that(body, then="pass")
    runner_project.add_hook("guard", source, ["tool_call"], ["PreToolUse"])

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict


ASYNC_GUARDS = {
    "blocks": "return {'block': True, 'reason': 'async says no'}",
    "raises": "raise RuntimeError('async failure')",
    "never finishes": "await asyncio.sleep(60)",
    "cancels itself": "raise asyncio.CancelledError()",
}


@pytest.mark.parametrize("body", list(ASYNC_GUARDS.values()), ids=list(ASYNC_GUARDS))
def test_an_async_guard_that_blocks_fails_or_hangs_is_a_deny_in_time(
    runner_project: RunnerProject, body: str
) -> None:
    source = (
        "import asyncio\n"
        "def hook(pi):\n"
        "    @pi.on('tool_call')\n"
        "    async def guard(event, ctx):\n"
        "        await asyncio.sleep(0)\n"
        f"        {body}\n"
    )
    runner_project.add_hook("guard", source, ["tool_call"], ["PreToolUse"])
    short_timeout(runner_project)

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", runner_project.payload("PreToolUse")
    )

    assert verdict.decision == DENY, verdict
    assert "'guard'" in verdict.why or verdict.why == "async says no"


# Results the runner does not understand (issue: "guard results ... count as allow"): on a
# guarded event each is a deny naming the hook and what it returned, whatever the shell.
UNREADABLE_TOOL_CALL = {
    "Claude Code's decision shape": "return {'decision': 'block', 'reason': 'no rm'}",
    "Claude Code's hookSpecificOutput": (
        "return {'hookSpecificOutput': {'permissionDecision': 'deny'}}"
    ),
    "a top-level permissionDecision": "return {'permissionDecision': 'deny'}",
    "a key in the wrong case": "return {'Block': True}",
    "a generator (yield, not return)": "yield {'block': True, 'reason': 'no rm'}",
    "True": "return True",
    "False": "return False",
    "zero": "return 0",
    "an empty string": "return ''",
    "a string": "return 'block'",
    "JSON text": "return '{\"block\": true}'",
    "a list": "return [{'block': True}]",
    "a tuple": "return (True, 'no rm')",
    "an object with a false block": (
        "import types\nreturn types.SimpleNamespace(block=False, deny=True)"
    ),
    "a changed input": "return {'input': {'command': 'echo safe'}}",
    "an input whose comparison raises": (
        "class E:\n    def __eq__(self, other): raise RuntimeError('no')\nreturn {'input': E()}"
    ),
    "an input changed in place": (
        "event['input']['command'] = 'echo safe'\nreturn {'input': event['input']}"
    ),
    "a mapping that is not a dict, with a decision": (
        "import types\nreturn types.MappingProxyType({'decision': 'block'})"
    ),
    "a mapping whose items cannot be read": (
        "import collections.abc\n"
        "class M(collections.abc.Mapping):\n"
        "    def __getitem__(self, key): raise RuntimeError('no')\n"
        "    def __iter__(self): return iter(['block'])\n"
        "    def __len__(self): return 1\n"
        "return M()"
    ),
    "a dict that hides what it holds": (
        "class Sneaky(dict):\n"
        "    def keys(self): return []\n"
        "    def get(self, key, default=None): return default\n"
        "return Sneaky(decision='block')"
    ),
    "an object whose repr raises": (
        "class R:\n    def __repr__(self): raise RuntimeError('no repr')\nreturn R()"
    ),
}
BLOCKING_MAPPINGS = {
    "a mappingproxy": (
        "import types\nreturn types.MappingProxyType({'block': True, 'reason': 'no rm'})"
    ),
    "a collections.abc.Mapping": (
        "import collections.abc\n"
        "class M(collections.abc.Mapping):\n"
        "    def __getitem__(self, key): return {'block': True, 'reason': 'no rm'}[key]\n"
        "    def __iter__(self): return iter(['block', 'reason'])\n"
        "    def __len__(self): return 2\n"
        "return M()"
    ),
}
UNDERSTOOD_ALLOWS = {
    "None": "return None",
    "an empty dict": "return {}",
    "block false": "return {'block': False, 'reason': 'fine'}",
    "the same input": "return {'input': dict(event['input'])}",
    "an empty mappingproxy": "import types\nreturn types.MappingProxyType({})",
}


def _tool_call_guard(body: str, *, is_async: bool = False) -> str:
    lines = "\n".join(f"        {line}" for line in body.splitlines())
    define = "async def" if is_async else "def"
    return f"def hook(pi):\n    @pi.on('tool_call')\n    {define} guard(event, ctx):\n{lines}\n"


def _rm_rf(project: RunnerProject, event: str = "PreToolUse") -> dict:
    return project.payload(event, tool_input={"command": "rm -rf /"})


@pytest.mark.parametrize("shell", list(SHELLS.values()), ids=list(SHELLS))
@pytest.mark.parametrize(
    "body", list(UNREADABLE_TOOL_CALL.values()), ids=list(UNREADABLE_TOOL_CALL)
)
def test_a_tool_call_result_hookman_cannot_read_is_a_deny_naming_the_hook(
    runner_project: RunnerProject, body: str, shell: str
) -> None:
    runner_project.add_hook("sloppy", _tool_call_guard(body), ["tool_call"], ["PreToolUse"])

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", _rm_rf(runner_project), shell=shell
    )

    assert verdict.decision == DENY, verdict
    assert verdict.why.startswith(
        "hookman blocked this tool call because the hook 'sloppy' returned "
    )
    assert "hookman disable sloppy" in verdict.why


@pytest.mark.parametrize("shell", list(SHELLS.values()), ids=list(SHELLS))
@pytest.mark.parametrize("event", ["PreToolUse", "PreSkillShellCommand"])
def test_Claude_Codes_own_deny_shapes_from_a_tool_call_handler_deny_with_a_hint(
    runner_project: RunnerProject, event: str, shell: str
) -> None:
    runner_project.claude_version = "2.1.332"  # the first client with PreSkillShellCommand
    source = _tool_call_guard("return {'decision': 'block', 'reason': 'no rm'}")
    runner_project.add_hook("cc-shape", source, ["tool_call"], [event])

    verdict = run_like_claude_code(
        runner_project, event, _rm_rf(runner_project, event), shell=shell
    )

    assert verdict.decision == DENY, verdict
    assert "the hook 'cc-shape' returned {'decision': 'block', 'reason': 'no rm'}" in verdict.why
    assert "that is Claude Code's own shape" in verdict.why


@pytest.mark.parametrize("shell", list(SHELLS.values()), ids=list(SHELLS))
def test_an_async_generator_guard_is_a_deny(runner_project: RunnerProject, shell: str) -> None:
    source = _tool_call_guard("yield {'block': True}", is_async=True)
    runner_project.add_hook("agen", source, ["tool_call"], ["PreToolUse"])

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", _rm_rf(runner_project), shell=shell
    )

    assert verdict.decision == DENY, verdict
    assert "an async generator: the handler uses `yield`; use `return`" in verdict.why


@pytest.mark.parametrize("body", list(BLOCKING_MAPPINGS.values()), ids=list(BLOCKING_MAPPINGS))
def test_a_mapping_that_is_not_a_dict_blocks_as_the_same_dict(
    runner_project: RunnerProject, body: str
) -> None:
    runner_project.add_hook("mapping", _tool_call_guard(body), ["tool_call"], ["PreToolUse"])

    verdict = run_like_claude_code(runner_project, "PreToolUse", _rm_rf(runner_project))

    assert verdict.decision == DENY, verdict
    assert verdict.why == "no rm"


@pytest.mark.parametrize("body", list(UNDERSTOOD_ALLOWS.values()), ids=list(UNDERSTOOD_ALLOWS))
def test_an_understood_allow_still_allows(runner_project: RunnerProject, body: str) -> None:
    runner_project.add_hook("fine", _tool_call_guard(body), ["tool_call"], ["PreToolUse"])

    verdict = run_like_claude_code(runner_project, "PreToolUse", _rm_rf(runner_project))

    assert verdict.decision == ALLOW, verdict


def test_a_later_handler_cannot_undo_an_unreadable_result(runner_project: RunnerProject) -> None:
    """§A last-wins holds for understood results only: a later `{}` does not cover a
    generator an earlier guard returned."""
    runner_project.add_hook(
        "first", _tool_call_guard("yield {'block': True}"), ["tool_call"], ["PreToolUse"]
    )
    runner_project.add_hook("second", _tool_call_guard("return {}"), ["tool_call"], ["PreToolUse"])

    verdict = run_like_claude_code(runner_project, "PreToolUse", _rm_rf(runner_project))

    assert verdict.decision == DENY, verdict
    assert "the hook 'first' returned <generator object" in verdict.why


UNREADABLE_RAW = {
    "JSON text": (
        'return \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
        '"permissionDecision": "deny"}}\''
    ),
    "JSON bytes": 'return b\'{"decision": "block"}\'',
    "hookSpecificOutput a string": "return {'hookSpecificOutput': 'deny'}",
    "hookSpecificOutput a list": "return {'hookSpecificOutput': [{'permissionDecision': 'deny'}]}",
    "a top-level permissionDecision": "return {'permissionDecision': 'deny'}",
    "an unknown field beside an allow": (
        "return {'hookSpecificOutput': {'permissionDecision': 'allow', 'deny': True}}"
    ),
    "a generator": "yield {'decision': 'block'}",
    "False": "return False",
    "a list": "return [{'decision': 'block'}]",
    "a mapping whose items cannot be read": (
        "import collections.abc\n"
        "class M(collections.abc.Mapping):\n"
        "    def __getitem__(self, key): raise RuntimeError('no')\n"
        "    def __iter__(self): return iter(['decision'])\n"
        "    def __len__(self): return 1\n"
        "return M()"
    ),
    "a value JSON cannot hold": "return {'systemMessage': 'ok', 'suppressOutput': {1, 2}}",
}


def _raw_guard(body: str, event: str = "PreToolUse") -> str:
    lines = "\n".join(f"        {line}" for line in body.splitlines())
    return f"def hook(pi):\n    @pi.on({event!r})\n    def raw(event, ctx):\n{lines}\n"


@pytest.mark.parametrize("shell", list(SHELLS.values()), ids=list(SHELLS))
@pytest.mark.parametrize("body", list(UNREADABLE_RAW.values()), ids=list(UNREADABLE_RAW))
def test_a_raw_guard_result_hookman_cannot_read_is_a_deny_naming_the_hook(
    runner_project: RunnerProject, body: str, shell: str
) -> None:
    runner_project.add_hook("rawguard", _raw_guard(body), ["PreToolUse"], ["PreToolUse"])

    verdict = run_like_claude_code(
        runner_project, "PreToolUse", _rm_rf(runner_project), shell=shell
    )

    assert verdict.decision == DENY, verdict
    assert verdict.why.startswith(
        "hookman blocked this tool call because the hook 'rawguard' returned "
    )


def test_a_raw_mapping_that_is_not_a_dict_is_read_as_its_items(
    runner_project: RunnerProject,
) -> None:
    body = (
        "import types\n"
        "return types.MappingProxyType({'hookSpecificOutput': types.MappingProxyType({"
        "'permissionDecision': 'deny', 'permissionDecisionReason': 'no rm'})})"
    )
    runner_project.add_hook("rawmap", _raw_guard(body), ["PreToolUse"], ["PreToolUse"])

    verdict = run_like_claude_code(runner_project, "PreToolUse", _rm_rf(runner_project))

    assert verdict.decision == DENY, verdict


def test_on_an_event_that_is_not_guarded_an_odd_result_is_only_reported(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook("odd", _raw_guard("yield {}", "Stop"), ["Stop"], ["Stop"])

    answer = runner_project.answer_installed("Stop", runner_project.payload("Stop"))

    assert answer == {}
    record = runner_project.log_records()[-1]
    assert record["outcome"] == "ok"
    assert any("returned generator from its Stop handler" in notice for notice in record["notices"])
