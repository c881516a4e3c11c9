"""The writer of Qwen Code's .qwen/settings.json (`hooks` key) and Factory droid's
.factory/hooks.json (events at the top level): settings_file's guarantees (layout kept,
every other key and foreign entry kept byte for byte, a file hookman cannot parse or walk
untouched), idempotent, kept out of git, refused when git tracks it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookman.agents import agent_files
from hookman.catalog.agent_catalog import DROID_AGENT, QWEN_AGENT
from hookman.errors import HookmanError
from hookman.project.git_exclude import Excluded, GitExclusion
from hookman.project.settings_entries import HookmanEntry, build_command, find_hookman_entries

LAUNCHER = Path("/state/projects/p-0123/hookman-run.sh")
AGENTS = (QWEN_AGENT, DROID_AGENT)
FOREIGN = {"matcher": "Execute", "hooks": [{"type": "command", "command": "./audit.sh"}]}


def entry(agent: str, event: str = "PreToolUse", matcher: str | None = "X") -> HookmanEntry:
    command = build_command(event, LAUNCHER, guarded=event == "PreToolUse", agent=agent)
    return HookmanEntry(event, matcher, command, 30)


def write(project: Path, agent: str, text: str) -> Path:
    path = agent_files.hooks_path(project, agent)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def events_of(agent: str, data: dict[str, Any]) -> dict[str, Any]:
    return data if agent == DROID_AGENT else data["hooks"]


def test_the_files_are_where_each_agent_reads_them() -> None:
    assert agent_files.relative_path(QWEN_AGENT) == ".qwen/settings.json"
    assert agent_files.relative_path(DROID_AGENT) == ".factory/hooks.json"


def test_droid_gets_its_events_at_the_top_level_without_a_hooks_wrapper(tmp_path: Path) -> None:
    agent_files.update_agent_hooks(tmp_path, DROID_AGENT, [entry(DROID_AGENT)], dry_run=False)
    data = json.loads(agent_files.hooks_path(tmp_path, DROID_AGENT).read_text())
    assert list(data) == ["PreToolUse"]  # droid silently ignores a {"hooks": ...} wrapper
    handler = data["PreToolUse"][0]["hooks"][0]
    assert " PreToolUse --agent droid " in handler["command"]
    assert handler["timeout"] == 30 and "async" not in handler


@pytest.mark.parametrize("switch", ["true", "false"])
def test_droid_s_off_switch_among_its_events_is_kept_where_it_stands(
    tmp_path: Path, switch: str
) -> None:
    """`hooksDisabled` stands beside droid's events at the top level of its hooks.json
    (measured: `true` runs no hook of the file): install writes hookman's entries and keeps
    it, in its place (install and list then warn that droid runs none of them), and a
    removal leaves it alone; any other non-array there is still refused."""
    text = f'{{"hooksDisabled": {switch}, "SessionStart": []}}'
    path = write(tmp_path, DROID_AGENT, text)
    agent_files.update_agent_hooks(tmp_path, DROID_AGENT, [entry(DROID_AGENT)], dry_run=False)
    data = json.loads(path.read_text())
    assert list(data)[:2] == ["hooksDisabled", "SessionStart"]
    assert data["hooksDisabled"] is (switch == "true")
    assert agent_files.written_events(tmp_path, DROID_AGENT) == ["PreToolUse"]
    agent_files.update_agent_hooks(tmp_path, DROID_AGENT, [], dry_run=False)
    assert json.loads(path.read_text()) == json.loads(text)
    write(tmp_path, DROID_AGENT, '{"hooksDisabled": "yes"}')
    with pytest.raises(HookmanError, match="hooksDisabled"):
        agent_files.update_agent_hooks(tmp_path, DROID_AGENT, [entry(DROID_AGENT)], dry_run=False)


def test_qwen_gets_its_events_under_hooks_beside_its_other_settings(tmp_path: Path) -> None:
    path = write(tmp_path, QWEN_AGENT, '{"model": {"name": "qwen3"}, "tools": {"sandbox": true}}')
    agent_files.update_agent_hooks(tmp_path, QWEN_AGENT, [entry(QWEN_AGENT)], dry_run=False)
    data = json.loads(path.read_text())
    assert list(data) == ["model", "tools", "hooks"]
    assert data["model"] == {"name": "qwen3"} and data["tools"] == {"sandbox": True}
    assert " PreToolUse --agent qwen " in data["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert agent_files.written_events(tmp_path, QWEN_AGENT) == ["PreToolUse"]


@pytest.mark.parametrize("agent", AGENTS)
def test_removing_leaves_foreign_entries_and_layout(tmp_path: Path, agent: str) -> None:
    events = {"PreToolUse": [FOREIGN]}
    document = events if agent == DROID_AGENT else {"model": {"name": "q"}, "hooks": events}
    text = json.dumps(document, indent="\t")
    path = write(tmp_path, agent, text)
    agent_files.update_agent_hooks(tmp_path, agent, [entry(agent)], dry_run=False)
    groups = events_of(agent, json.loads(path.read_text()))["PreToolUse"]
    # droid reads the first permissionDecision: hookman's group goes first there
    assert groups[1 if agent == DROID_AGENT else 0] == FOREIGN and len(groups) == 2
    agent_files.update_agent_hooks(tmp_path, agent, [], dry_run=False)
    assert path.read_text() == text


def test_droid_s_pre_tool_use_groups_of_hookman_go_before_the_others(tmp_path: Path) -> None:
    """droid 0.225.2 takes the first answer holding a permissionDecision, so another
    hook's allow listed before hookman's deny let the call run (measured,
    tests/e2e/test_agent_merge.py): install writes hookman's PreToolUse group first, and
    moves it there when a group was put before it by hand; Qwen's order is kept."""
    path = write(tmp_path, DROID_AGENT, json.dumps({"PreToolUse": [FOREIGN]}))
    agent_files.update_agent_hooks(tmp_path, DROID_AGENT, [entry(DROID_AGENT)], dry_run=False)
    groups = json.loads(path.read_text())["PreToolUse"]
    assert groups[1] == FOREIGN and groups[0]["matcher"] != FOREIGN["matcher"]
    path.write_text(json.dumps({"PreToolUse": [FOREIGN, groups[0]]}))
    change = agent_files.update_agent_hooks(
        tmp_path, DROID_AGENT, [entry(DROID_AGENT)], dry_run=False
    )
    assert change.changed
    assert json.loads(path.read_text())["PreToolUse"] == groups
    qwen = write(tmp_path, QWEN_AGENT, json.dumps({"hooks": {"PreToolUse": [FOREIGN]}}))
    agent_files.update_agent_hooks(tmp_path, QWEN_AGENT, [entry(QWEN_AGENT)], dry_run=False)
    assert json.loads(qwen.read_text())["hooks"]["PreToolUse"][0] == FOREIGN


@pytest.mark.parametrize("agent", AGENTS)
def test_a_repeated_write_touches_nothing(tmp_path: Path, agent: str) -> None:
    agent_files.update_agent_hooks(tmp_path, agent, [entry(agent)], dry_run=False)
    path = agent_files.hooks_path(tmp_path, agent)
    before = path.stat().st_mtime_ns, path.stat().st_ino, path.read_bytes()
    change = agent_files.update_agent_hooks(tmp_path, agent, [entry(agent)], dry_run=False)
    assert not change.changed
    assert (path.stat().st_mtime_ns, path.stat().st_ino, path.read_bytes()) == before


@pytest.mark.parametrize("agent", AGENTS)
def test_a_dry_run_writes_nothing(tmp_path: Path, agent: str) -> None:
    change = agent_files.update_agent_hooks(tmp_path, agent, [entry(agent)], dry_run=True)
    assert change.changed and not agent_files.hooks_path(tmp_path, agent).exists()


JSON_LEAF = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
KEYS = st.text(min_size=1, max_size=8).filter(lambda key: key != "hooks")
FOREIGN_GROUP = st.builds(
    lambda matcher, command: {
        "matcher": matcher,
        "hooks": [{"type": "command", "command": command}],
    },
    st.sampled_from(["Execute", "run_shell_command", "*", "Edit|Create"]),
    st.text(max_size=12).filter(lambda command: "hookman" not in command),
)
EVENT_NAMES = st.sampled_from(["PreToolUse", "PostToolUse", "Stop", "SessionStart"])


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    agent=st.sampled_from(AGENTS),
    other_keys=st.dictionaries(KEYS, JSON_VALUE, max_size=4),
    foreign=st.dictionaries(EVENT_NAMES, st.lists(FOREIGN_GROUP, min_size=1, max_size=2)),
    indent=st.sampled_from([None, 2, 4, "\t"]),
    ours=st.lists(EVENT_NAMES, unique=True, max_size=3),
)
def test_foreign_keys_and_entries_survive_install_and_removal_byte_for_byte(
    tmp_path_factory: pytest.TempPathFactory,
    agent: str,
    other_keys: dict[str, Any],
    foreign: dict[str, list[Any]],
    indent: int | str | None,
    ours: list[str],
) -> None:
    """Whatever else the file holds: install adds hookman's entries and nothing else
    changes; a second install changes no byte; removing them gives the file back as it was."""
    project = tmp_path_factory.mktemp("p")
    if agent == DROID_AGENT:
        document: dict[str, Any] = dict(foreign)
    else:
        document = {**other_keys, **({"hooks": foreign} if foreign else {})}
    text = json.dumps(document, indent=indent, ensure_ascii=False)
    path = write(project, agent, text)
    entries = [entry(agent, event) for event in ours]

    agent_files.update_agent_hooks(project, agent, entries, dry_run=False)
    after = json.loads(path.read_text())
    if agent == QWEN_AGENT:
        assert {k: v for k, v in after.items() if k != "hooks"} == other_keys
    events = events_of(agent, after) if ours or foreign else {}
    for event, groups in foreign.items():
        assert [g for g in events[event] if not _ours(g)] == groups
    hookmans = [event for event, _ in find_hookman_entries({"hooks": events})]
    assert sorted(hookmans) == sorted(ours)
    installed = path.read_bytes()
    again = agent_files.update_agent_hooks(project, agent, entries, dry_run=False)
    assert not again.changed and path.read_bytes() == installed

    agent_files.update_agent_hooks(project, agent, [], dry_run=False)
    assert path.read_text() == text


def _ours(group: dict[str, Any]) -> bool:
    return any("hookman-run.sh" in handler.get("command", "") for handler in group["hooks"])


@pytest.mark.parametrize(
    ("agent", "text", "where"),
    [
        (DROID_AGENT, '{"PreToolUse": {"matcher": "Execute"}}', "PreToolUse"),
        (DROID_AGENT, '{"Stop": [[]]}', "Stop[0]"),
        (QWEN_AGENT, '{"hooks": ["PreToolUse"]}', "hooks"),
        (QWEN_AGENT, '{"hooks": {"Stop": [{"hooks": {}}]}}', "hooks.Stop[0].hooks"),
    ],
)
def test_a_shape_hookman_cannot_walk_is_refused_naming_the_agents_file(
    tmp_path: Path, agent: str, text: str, where: str
) -> None:
    path = write(tmp_path, agent, text)
    with pytest.raises(HookmanError) as refused:
        agent_files.update_agent_hooks(tmp_path, agent, [entry(agent)], dry_run=False)
    assert f"at {where} where" in refused.value.message
    assert str(path) in refused.value.message
    assert "settings.local.json" not in refused.value.message
    assert agent_files.relative_path(agent) in (refused.value.hint or "")
    assert path.read_text() == text


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(agent=st.sampled_from(AGENTS), junk=st.text(max_size=40))
def test_a_file_that_cannot_be_parsed_is_left_byte_for_byte(
    tmp_path_factory: pytest.TempPathFactory, agent: str, junk: str
) -> None:
    text = "{" + junk
    try:
        json.loads(text)
        return  # JSON after all
    except ValueError:
        pass
    project = tmp_path_factory.mktemp("p")
    path = write(project, agent, text)
    before = path.read_bytes()
    with pytest.raises(HookmanError) as refused:
        agent_files.update_agent_hooks(project, agent, [entry(agent)], dry_run=False)
    assert refused.value.hint
    assert path.read_bytes() == before


def git(project: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=project, check=True, capture_output=True)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_file_git_tracks_is_refused_and_kept(tmp_path: Path, agent: str) -> None:
    git(tmp_path, "init", "-q")
    path = write(tmp_path, agent, "{}")
    relative = agent_files.relative_path(agent)
    git(tmp_path, "add", relative)
    with pytest.raises(HookmanError) as refused:
        agent_files.update_agent_hooks(tmp_path, agent, [entry(agent)], dry_run=False)
    assert "committed to git" in refused.value.message
    assert f"git rm --cached {relative}" in (refused.value.hint or "")
    assert f"leave {agent} out of `agents`" in (refused.value.hint or "")
    assert path.read_text() == "{}"


@pytest.mark.parametrize("agent", AGENTS)
def test_a_tracked_file_with_nothing_to_change_is_not_refused(tmp_path: Path, agent: str) -> None:
    """A team's committed .qwen/settings.json where hookman writes nothing (its agents leave
    Qwen out): nothing to refuse."""
    git(tmp_path, "init", "-q")
    write(tmp_path, agent, '{"model": {}}' if agent == QWEN_AGENT else "{}")
    git(tmp_path, "add", agent_files.relative_path(agent))
    change = agent_files.update_agent_hooks(tmp_path, agent, [], dry_run=False)
    assert not change.changed


@pytest.mark.parametrize("agent", AGENTS)
def test_the_file_is_kept_out_of_git_through_info_exclude(tmp_path: Path, agent: str) -> None:
    git(tmp_path, "init", "-q")
    agent_files.update_agent_hooks(tmp_path, agent, [entry(agent)], dry_run=False)
    relative = agent_files.relative_path(agent)
    assert agent_files.keep_out_of_git(tmp_path, agent) == GitExclusion(
        Excluded.ADDED, relative, ".git/info/exclude"
    )
    exclude = (tmp_path / ".git" / "info" / "exclude").read_text()
    assert f"/{relative}" in exclude and "machine-local" in exclude
    again = agent_files.keep_out_of_git(tmp_path, agent)
    assert again == GitExclusion(Excluded.ALREADY_IGNORED, relative)
    assert not (tmp_path / ".gitignore").exists()


@pytest.mark.parametrize("agent", AGENTS)
def test_a_symlink_to_another_kind_of_file_is_refused(tmp_path: Path, agent: str) -> None:
    elsewhere = tmp_path / "config.json"
    elsewhere.write_text("{}")
    path = agent_files.hooks_path(tmp_path, agent)
    path.parent.mkdir()
    path.symlink_to(elsewhere)
    with pytest.raises(HookmanError, match="symlink"):
        agent_files.update_agent_hooks(tmp_path, agent, [entry(agent)], dry_run=False)
    assert elsewhere.read_text() == "{}"
