"""The sentinel (project/sentinel.py, command-sentinel.sh): the plan's second entry per guarded
event (install_plan._sentinels, complement_matcher), how settings_entries writes and
recognises it, and the stamp its command tests."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hookman.catalog.client_version import ClientVersion
from hookman.project.config import HookSource, HookSpec
from hookman.project.install_plan import complement_matcher, plan_install
from hookman.project.sentinel import stamp_is_current, stamp_path, stamp_time, touch_stamp
from hookman.project.settings_entries import (
    ASYNC,
    BLOCKING,
    SENTINEL,
    HookmanEntry,
    apply_hookman_entries,
    build_command,
    find_hookman_entries,
    hookman_command_event,
    hookman_command_is_sentinel,
    hookman_handler_is_sentinel,
    hookman_handler_kind,
    is_hookman_command,
    sentinel_command,
)

BEFORE_SKILL_SHELL = ClientVersion(2, 1, 328)  # knows PreToolUse, not PreSkillShellCommand
SKILL_SHELL = ClientVersion(2, 1, 332)
LAUNCHER = Path("/state/projects/p-0123/hookman-run.sh")
STAMP = Path("/state/projects/p-0123/hookman-sentinel.stamp")
WATCHED = [Path("/work/p/.claude/hookman.toml"), Path("/work/p/hooks/guard.py")]


def _spec(name: str, *events: str, tools: tuple[str, ...] = (), timeout: float | None = None):
    narrowed = {event: tools for event in events} if tools else {}
    return HookSpec(name, HookSource("path", f"{name}.py"), True, events, narrowed, timeout, False)


# --- complement_matcher ------------------------------------------------------------------------


def _as_javascript_reads_it(matcher: str) -> re.Pattern[str]:
    """The matcher in Python's re as JavaScript reads it: the escaped names are literal in
    both; only `$` differs (Python's also matches before a final newline, JavaScript's
    without the m flag does not), so the one unescaped `$` becomes `\\Z`."""
    assert matcher.endswith("$).*")
    return re.compile(matcher.removesuffix("$).*") + r"\Z).*")


_name = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=10)
_LINE_ENDS = "\n\r\u2028\u2029"  # where JavaScript's `.` stops, Python's only at \n


@settings(max_examples=300, deadline=None)
@given(tools=st.lists(_name, min_size=1, max_size=4), other=_name)
@example(tools=["Bash"], other="Edit")
@example(tools=["Bash", "Edit"], other="Bash|Edit")
@example(tools=["a.b", "(x)"], other="axb")
def test_a_name_matches_the_complement_iff_it_is_not_in_the_set(
    tools: list[str], other: str
) -> None:
    matcher = complement_matcher(tools)
    pattern = _as_javascript_reads_it(matcher)
    # beside any name: the set's own, and names one of them begins, ends or is a part of
    first = tools[0]
    near = [first + "x", "x" + first, first + "\n", first[:-1], first * 2, "".join(tools)]
    for name in [*tools, *near, other]:
        # Claude Code tests the matcher unanchored
        assert bool(pattern.search(name)) == (name not in tools), (matcher, name)
        # Copilot CLI anchors it (the trailing `.*` is for it); JavaScript's `.` stops at a
        # line end, so names holding one are left to the unanchored reading
        if not any(end in name for end in _LINE_ENDS):
            assert bool(pattern.fullmatch(name)) == (name not in tools), (matcher, name)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_complement_behaves_in_javascript() -> None:
    tools = ["Bash", "mcp__my-server__do", "a.b", "s/t", "(x)", "u\\v", "$^+?", "日本"]
    matcher = complement_matcher(tools)
    candidates = [*tools, "Bashful", "xBash", "Bash\n", "axb", "mcp__my-server__do_more", "Edit"]
    script = (
        "const [m, names] = JSON.parse(process.argv[1]);"
        "const unanchored = new RegExp(m), anchored = new RegExp('^(?:' + m + ')$');"
        "console.log(JSON.stringify(names.map((n) => [unanchored.test(n), anchored.test(n)])));"
    )
    done = subprocess.run(
        ["node", "-e", script, json.dumps([matcher, candidates])],
        capture_output=True,
        text=True,
        check=True,
    )
    unanchored = [name not in tools for name in candidates]
    anchored = [name not in tools and "\n" not in name for name in candidates]
    assert json.loads(done.stdout) == [
        list(pair) for pair in zip(unanchored, anchored, strict=True)
    ]


# --- install_plan._sentinels -------------------------------------------------------------------


def test_a_guarded_event_s_sentinel_reaches_the_tools_its_blocking_entry_does_not() -> None:
    guard = _spec("guard", "tool_call", tools=("Bash", "Edit"), timeout=60)
    plan = plan_install([guard], SKILL_SHELL, prompt_gate=True)
    assert {event: entry.matcher for event, entry in plan.sentinels.items()} == {
        "PreToolUse": complement_matcher(["Bash", "Edit"]),
        "PreSkillShellCommand": complement_matcher(["Bash"]),  # the shell tool it guards
    }
    for event, sentinel in plan.sentinels.items():
        blocking = plan.entries[event]
        assert sentinel.event == event and sentinel.tools is None
        # the runner takes the smallest timeout of an event's entries: the same one
        assert (sentinel.timeout, sentinel.deadline) == (blocking.timeout, blocking.deadline)
        assert sentinel.timeout == 60


def test_an_event_with_no_blocking_entry_gets_a_sentinel_for_every_tool() -> None:
    observer = _spec("obs", "before_agent_start")
    plan = plan_install([observer], SKILL_SHELL, prompt_gate=True)
    assert "PreToolUse" not in plan.entries
    assert {event: entry.matcher for event, entry in plan.sentinels.items()} == {
        "PreToolUse": None,
        "PreSkillShellCommand": None,
    }
    assert all(entry.timeout == 30 for entry in plan.sentinels.values())


def test_a_blocking_entry_for_every_tool_needs_no_sentinel() -> None:
    guard = _spec("guard", "tool_call")  # every tool
    plan = plan_install([guard], SKILL_SHELL, prompt_gate=True)
    assert plan.entries["PreToolUse"].matcher is None
    assert "PreToolUse" not in plan.sentinels


def test_only_the_guarded_events_the_client_knows_get_one() -> None:
    guard = _spec("guard", "tool_call", tools=("Bash",))
    plan = plan_install([guard], BEFORE_SKILL_SHELL, prompt_gate=True)
    assert list(plan.sentinels) == ["PreToolUse"]


def test_an_async_only_project_gets_sentinels_too() -> None:
    notes = HookSpec("notes", HookSource("path", "n.py"), True, ("agent_end",), {}, None, True)
    plan = plan_install([notes], SKILL_SHELL, prompt_gate=True)
    assert plan.async_entries and list(plan.sentinels) == ["PreToolUse", "PreSkillShellCommand"]


@pytest.mark.parametrize(
    ("hooks", "prompt_gate"),
    [
        ([_spec("guard", "tool_call", tools=("Bash",))], False),  # a plugin, Codex, ...
        ([], True),  # nothing installed
        ([replace(_spec("off", "tool_call", tools=("Bash",)), enabled=False)], True),
    ],
)
def test_no_sentinel_without_the_prompt_gate_or_without_any_entry(
    hooks: list[HookSpec], prompt_gate: bool
) -> None:
    assert plan_install(hooks, SKILL_SHELL, prompt_gate=prompt_gate).sentinels == {}


# --- settings_entries: the sentinel's command and entry ----------------------------------------


def _guarded(event: str = "PreToolUse") -> str:
    return build_command(event, LAUNCHER, guarded=True)


def _sentinel(event: str = "PreToolUse", matcher: str | None = "^(?!(?:Bash)$).*", **kw: Any):
    command = sentinel_command(STAMP, kw.pop("watched", WATCHED), _guarded(event))
    return HookmanEntry(event, matcher, command, kw.pop("timeout", 30), sentinel=True)


def _blocking(event: str = "PreToolUse", matcher: str | None = "Bash") -> HookmanEntry:
    return HookmanEntry(event, matcher, _guarded(event), 30)


def test_the_sentinel_command_tests_the_stamp_against_each_watched_file() -> None:
    stamp = shlex.quote(str(STAMP))
    tests = " && ".join(f"[ {stamp} -nt {shlex.quote(str(path))} ]" for path in WATCHED)
    assert sentinel_command(STAMP, WATCHED, _guarded()) == f"{tests} && exit 0; {_guarded()}"


def test_a_sentinel_is_hookman_s_for_its_event_and_of_kind_sentinel() -> None:
    entry = _sentinel()
    assert entry.kind == SENTINEL and entry.handler()["type"] == "command"
    assert is_hookman_command(entry.command) and hookman_command_is_sentinel(entry.command)
    assert hookman_command_event(entry.command) == "PreToolUse"
    [(event, handler)] = find_hookman_entries({"hooks": {"PreToolUse": [entry.group()]}})
    assert event == "PreToolUse" and handler["matcher"] == "^(?!(?:Bash)$).*"
    assert hookman_handler_is_sentinel(handler) and hookman_handler_kind(handler) == SENTINEL


def test_only_the_sentinel_is_of_kind_sentinel() -> None:
    blocking = _blocking().handler()
    run_async = build_command("Stop", LAUNCHER, run_async=True)
    assert hookman_handler_kind(blocking) == BLOCKING and not hookman_handler_is_sentinel(blocking)
    assert hookman_handler_kind({"type": "command", "command": run_async}) == ASYNC
    # the stamp named after the launcher's event word is an argument, not a sentinel's test
    late = _guarded() + f" {shlex.quote(str(STAMP))}"
    assert not hookman_command_is_sentinel(late)
    # a foreign command that tests a stamp of that name is nobody's sentinel
    assert not hookman_handler_is_sentinel({"command": f"[ {STAMP} -nt x ] && exit 0; ls"})
    assert not hookman_handler_is_sentinel("not a handler")


def _kinds(settings_data: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    return [
        (event, hookman_handler_kind(handler), handler.get("matcher"))
        for event, handler in find_hookman_entries(settings_data)
    ]


def _foreign(matcher: str = "Edit") -> dict[str, Any]:
    return {"matcher": matcher, "hooks": [{"type": "command", "command": "echo foreign"}]}


def test_apply_writes_replaces_and_removes_the_sentinel_and_keeps_foreign_groups() -> None:
    data: dict[str, Any] = {"hooks": {"PreToolUse": [_foreign()]}}
    apply_hookman_entries(data, [_blocking(), _sentinel()])
    assert _kinds(data) == [
        ("PreToolUse", BLOCKING, "Bash"),
        ("PreToolUse", SENTINEL, "^(?!(?:Bash)$).*"),
    ]
    assert data["hooks"]["PreToolUse"][0] == _foreign()
    data["hooks"]["PreToolUse"].append(_foreign("Write"))  # the user's, after hookman's
    where = data["hooks"]["PreToolUse"].index(_sentinel().group())

    wider = complement_matcher(["Bash", "Edit"])
    fewer = _sentinel(matcher=wider, watched=WATCHED[:1], timeout=45)
    apply_hookman_entries(data, [_blocking("PreToolUse", "Bash|Edit"), fewer])
    assert _kinds(data) == [("PreToolUse", BLOCKING, "Bash|Edit"), ("PreToolUse", SENTINEL, wider)]
    assert data["hooks"]["PreToolUse"][where] == fewer.group()  # replaced where it stood

    apply_hookman_entries(data, [_blocking()])
    assert _kinds(data) == [("PreToolUse", BLOCKING, "Bash")]
    apply_hookman_entries(data, [])
    assert data == {"hooks": {"PreToolUse": [_foreign(), _foreign("Write")]}}


def test_two_sentinels_for_one_event_are_a_programming_error() -> None:
    with pytest.raises(ValueError, match="two sentinel hookman entries for PreToolUse"):
        apply_hookman_entries({}, [_sentinel(), _sentinel(matcher=None)])


_GUARDED_EVENTS = ("PreToolUse", "PreSkillShellCommand")
_wanted = st.lists(
    st.tuples(st.sampled_from(_GUARDED_EVENTS), st.sampled_from([BLOCKING, SENTINEL])),
    unique=True,
)


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(_wanted, min_size=1, max_size=5), matchers=st.lists(st.booleans()))
def test_apply_keeps_at_most_one_of_each_kind_per_event_and_every_foreign_group(
    steps: list[list[tuple[str, str]]], matchers: list[bool]
) -> None:
    foreign = {event: [_foreign(), _foreign("Bash")] for event in _GUARDED_EVENTS}
    data: dict[str, Any] = {"hooks": json.loads(json.dumps(foreign))}
    flips = iter(matchers)
    for step in steps:
        entries = []
        for event, kind in step:
            matcher = "Bash" if next(flips, False) else "Bash|Edit"
            if kind == BLOCKING:
                entries.append(_blocking(event, matcher))
            else:
                entries.append(_sentinel(event, complement_matcher(matcher.split("|"))))
        apply_hookman_entries(data, entries)
        written = _kinds(data)
        assert sorted((event, kind) for event, kind, _ in written) == sorted(step)
        assert sorted(written) == sorted((e.event, e.kind, e.matcher) for e in entries)
        for event in _GUARDED_EVENTS:
            kept = [g for g in data["hooks"].get(event, []) if g in foreign[event]]
            assert kept == foreign[event]
    last = [g for g in data["hooks"]["PreToolUse"] if g in foreign["PreToolUse"]]
    assert last == foreign["PreToolUse"]  # whatever the steps (there may be none)


# --- project/sentinel.py: the stamp ------------------------------------------------------------


def _file(path: Path, mtime: float) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x", encoding="utf-8")
    os.utime(path, (mtime, mtime))
    return path


BASE = 1_700_000_000.0  # a whole second


def test_the_stamp_time_is_a_whole_second_past_the_newest_watched_file(tmp_path: Path) -> None:
    older = _file(tmp_path / "a", BASE - 5.5)
    newest = _file(tmp_path / "b", BASE + 0.25)
    assert stamp_time([older, newest], now=BASE) == BASE + 1.0
    exact = _file(tmp_path / "c", BASE + 3.0)  # a whole second already: the next one
    assert stamp_time([exact], now=BASE + 2.5) == BASE + 4.0


def test_no_stamp_time_past_a_file_dated_later_than_the_next_second(tmp_path: Path) -> None:
    ahead = _file(tmp_path / "a", BASE + 1.5)  # clock skew, an archive's dates
    assert stamp_time([ahead], now=BASE) is None
    assert stamp_time([ahead], now=BASE + 0.5) == BASE + 2.0  # within the next second: kept


def test_the_stamp_time_is_now_when_now_is_later(tmp_path: Path) -> None:
    watched = [_file(tmp_path / "a", BASE), tmp_path / "gone"]
    assert stamp_time(watched, now=BASE + 7.75) == BASE + 7.75
    assert stamp_time([tmp_path / "gone"], now=BASE) == BASE  # no file: now


def _watched(project: Path, mtime: float) -> list[Path]:
    return [_file(project / ".claude" / "hookman.toml", mtime), _file(project / "g.py", mtime)]


def test_a_touched_stamp_is_current_and_not_a_symlink(project: Path, hookman_home: Path) -> None:
    watched = _watched(project, BASE)
    assert not stamp_is_current(project, watched)  # no stamp yet
    stamp_path(project).parent.mkdir(parents=True)
    touch_stamp(project, watched)
    assert stamp_is_current(project, watched)
    assert stamp_path(project).stat().st_mtime >= BASE + 1.0
    assert stamp_path(project).is_file() and not stamp_path(project).is_symlink()


def test_a_stamp_symlink_is_not_followed(project: Path, hookman_home: Path) -> None:
    target = _file(project / "elsewhere", BASE)
    stamp_path(project).parent.mkdir(parents=True)
    stamp_path(project).symlink_to(target)
    with pytest.raises(OSError):
        touch_stamp(project, _watched(project, BASE))
    assert target.stat().st_mtime == BASE


@pytest.mark.parametrize(
    ("stamp", "file", "current"),
    [
        (BASE + 1.0, BASE + 0.999, True),
        (BASE + 1.0, BASE + 1.0, False),  # the same whole second: not newer to busybox's `[`
        (BASE + 1.7, BASE + 1.3, False),  # the stamp's own second: not newer either
        (BASE + 1.7, BASE + 0.9, True),
        (BASE + 1.0, BASE + 2.0, False),  # a pull after install
    ],
)
def test_the_stamp_is_current_only_a_whole_second_past_every_file(
    project: Path, hookman_home: Path, stamp: float, file: float, current: bool
) -> None:
    watched = [_file(project / "old.py", BASE - 10), _file(project / "pulled.py", file)]
    stamp_path(project).parent.mkdir(parents=True)
    _file(stamp_path(project), stamp)
    assert stamp_is_current(project, watched) is current


def test_a_gone_watched_file_leaves_the_stamp_current(project: Path, hookman_home: Path) -> None:
    """As bash's `[ STAMP -nt GONE ]` (true when only the stamp exists); a gone file adds no
    guard, and hookman.toml naming it changed with it."""
    watched = _watched(project, BASE)
    stamp_path(project).parent.mkdir(parents=True)
    touch_stamp(project, watched)
    watched[1].unlink()
    assert stamp_is_current(project, watched)
