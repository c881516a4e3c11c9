"""The writer of Codex CLI's .codex/hooks.json: settings_file's guarantees (layout kept,
foreign entries kept, a file hookman cannot parse untouched), kept out of git, and refused
when git tracks it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookman.agents.codex_files import (
    codex_hooks_path,
    has_hookman_entries,
    keep_out_of_git,
    update_codex_hooks,
    written_events,
)
from hookman.errors import HookmanError
from hookman.project.git_exclude import Excluded, GitExclusion
from hookman.project.settings_entries import HookmanEntry, build_command, find_hookman_entries

LAUNCHER = Path("/state/projects/p-0123/hookman-run.sh")


def entry(event: str = "PreToolUse", matcher: str | None = "Bash") -> HookmanEntry:
    command = build_command(event, LAUNCHER, guarded=event == "PreToolUse", agent="codex")
    return HookmanEntry(event, matcher, command, 30)


FOREIGN = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}


def write(project: Path, text: str) -> Path:
    path = codex_hooks_path(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_writes_one_group_per_event_with_codex_words(tmp_path: Path) -> None:
    change = update_codex_hooks(tmp_path, [entry(), entry("Stop", None)], dry_run=False)
    assert change.changed
    data = json.loads(codex_hooks_path(tmp_path).read_text())
    group = data["hooks"]["PreToolUse"][0]
    assert group["matcher"] == "Bash"
    assert " PreToolUse --agent codex " in group["hooks"][0]["command"]
    assert "async" not in group["hooks"][0]
    assert list(data["hooks"]) == ["PreToolUse", "Stop"]
    assert has_hookman_entries(tmp_path) and written_events(tmp_path) == ["PreToolUse", "Stop"]


def test_foreign_entries_and_layout_are_kept_and_removing_leaves_them(tmp_path: Path) -> None:
    text = '{\n\t"hooks": {\n\t\t"PreToolUse": [' + json.dumps(FOREIGN) + ']\n\t},\n\t"x": 1\n}'
    path = write(tmp_path, text)
    update_codex_hooks(tmp_path, [entry()], dry_run=False)
    after = path.read_text()
    assert after.startswith('{\n\t"hooks"') and not after.endswith("\n")
    groups = json.loads(after)["hooks"]["PreToolUse"]
    assert groups[0] == FOREIGN and len(groups) == 2
    update_codex_hooks(tmp_path, [], dry_run=False)
    assert json.loads(path.read_text()) == json.loads(text)
    assert path.read_text().startswith('{\n\t"hooks"')


def test_a_repeated_write_touches_nothing(tmp_path: Path) -> None:
    update_codex_hooks(tmp_path, [entry()], dry_run=False)
    path = codex_hooks_path(tmp_path)
    before = path.stat().st_mtime_ns, path.stat().st_ino
    change = update_codex_hooks(tmp_path, [entry()], dry_run=False)
    assert not change.changed and (path.stat().st_mtime_ns, path.stat().st_ino) == before


def test_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    change = update_codex_hooks(tmp_path, [entry()], dry_run=True)
    assert change.changed and not codex_hooks_path(tmp_path).exists()


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40).filter(lambda junk: not _parses("{" + junk)))
def test_a_file_that_cannot_be_parsed_is_left_byte_for_byte(tmp_path: Path, junk: str) -> None:
    text = "{" + junk  # not JSON ("{" + "}" would be, so the filter leaves such junk out)
    path = write(tmp_path, text)
    before = path.read_bytes()
    with pytest.raises(HookmanError) as refused:
        update_codex_hooks(tmp_path, [entry()], dry_run=False)
    assert refused.value.hint
    assert path.read_bytes() == before


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def git(project: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=project, check=True, capture_output=True)


def test_a_file_git_tracks_is_refused_and_kept(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    path = write(tmp_path, json.dumps({"hooks": {"PreToolUse": [FOREIGN]}}))
    git(tmp_path, "add", ".codex/hooks.json")
    before = path.read_bytes()
    with pytest.raises(HookmanError) as refused:
        update_codex_hooks(tmp_path, [entry()], dry_run=False)
    assert "committed to git" in refused.value.message
    assert "git rm --cached .codex/hooks.json" in (refused.value.hint or "")
    assert path.read_bytes() == before


def test_the_file_is_kept_out_of_git_through_info_exclude(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    update_codex_hooks(tmp_path, [entry()], dry_run=False)
    added = keep_out_of_git(tmp_path)
    assert added == GitExclusion(Excluded.ADDED, ".codex/hooks.json", ".git/info/exclude")
    exclude = (tmp_path / ".git" / "info" / "exclude").read_text()
    assert "/.codex/hooks.json" in exclude and "Codex CLI" in exclude
    assert keep_out_of_git(tmp_path) == GitExclusion(Excluded.ALREADY_IGNORED, ".codex/hooks.json")
    assert not (tmp_path / ".gitignore").exists()


def test_a_symlink_to_another_kind_of_file_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "config.json"
    elsewhere.write_text("{}")
    codex_hooks_path(tmp_path).parent.mkdir()
    codex_hooks_path(tmp_path).symlink_to(elsewhere)
    with pytest.raises(HookmanError, match="symlink"):
        update_codex_hooks(tmp_path, [entry()], dry_run=False)
    assert elsewhere.read_text() == "{}"


def test_hookman_entries_are_recognised_by_their_command(tmp_path: Path) -> None:
    update_codex_hooks(tmp_path, [entry()], dry_run=False)
    found = find_hookman_entries(json.loads(codex_hooks_path(tmp_path).read_text()))
    assert [event for event, _ in found] == ["PreToolUse"]
