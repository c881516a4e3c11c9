from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import codes, command, diagnose, group, loud, settings, the

CTX = command("true")


def with_group(project: Path, event: str, extra: dict[str, Any], version: str = "2.1.332"):  # type: ignore[no-untyped-def]
    settings(project, {event: [{**extra, "hooks": [CTX]}]})
    return diagnose(project, version)


def test_a_tools_list_where_matcher_belongs_runs_after_every_tool_call(project: Path) -> None:
    found = the(with_group(project, "PostToolUse", {"tools": ["Edit", "Write"]}), "unknown-key")
    assert found.severity == "warning" and found.path == "hooks.PostToolUse[0].tools"
    assert "its hooks run after every tool call" in found.message
    assert found.edit == {
        "op": "set",
        "file": found.file,
        "path": "hooks.PostToolUse[0]",
        "value": {"matcher": "Edit|Write", "hooks": [CTX]},
    }


def test_before_a_tool_the_group_runs_before_every_tool_call(project: Path) -> None:
    found = the(with_group(project, "PreToolUse", {"tool": "Bash"}), "unknown-key")
    assert "before every tool call" in found.message and found.edit["value"]["matcher"] == "Bash"


@pytest.mark.parametrize(
    ("extra", "event"),
    [
        ({"matcher": "Edit", "tools": ["Edit"]}, "PostToolUse"),  # matcher does the filtering
        ({"tools": ["Edit"]}, "Stop"),  # Stop ignores matchers anyway
        ({"description": "format on save"}, "PostToolUse"),
    ],
)
def test_ignored_keys_that_change_nothing_are_information(
    project: Path, extra: dict[str, Any], event: str
) -> None:
    ctx = with_group(project, event, extra)
    assert the(ctx, "unknown-key").severity == "info" and loud(ctx) == []


def test_keys_the_client_reads_stay_quiet(project: Path) -> None:
    entry = command(
        "true", timeout=5, statusMessage="x", once=True, shell="bash", args=[], onFailure="block"
    )
    entry["if"] = "Bash(git *)"
    settings(project, {"PreToolUse": [group(entry, matcher="Bash")]})
    assert diagnose(project, "2.1.332").findings == []
    http = {"type": "http", "url": "https://example.com/h", "headers": {}, "allowedEnvVars": []}
    settings(project, {"PostToolUse": [group(http)]})
    assert diagnose(project, "2.1.332").findings == []


@pytest.mark.parametrize(
    ("key", "meant", "renamed"),
    [("statusmessage", "statusMessage", True), ("timeout_ms", "timeout", False)],
)
def test_a_misspelled_entry_key_gets_the_key_meant(
    project: Path, key: str, meant: str, renamed: bool
) -> None:
    settings(project, {"PostToolUse": [group(command("true", **{key: 5}), matcher="Bash")]})
    found = the(diagnose(project), "unknown-key")
    assert found.severity == "warning" and f"did you mean `{meant}`" in found.message
    assert (found.edit is not None) is renamed  # a ms value must not land in `timeout` as is


def test_a_matcher_inside_a_hook_entry_belongs_on_its_group(project: Path) -> None:
    settings(project, {"PostToolUse": [group(command("true", matcher="Bash"))]})
    found = the(diagnose(project), "unknown-key")
    assert "belongs on the matcher group" in found.message
    assert "after every tool call" in found.message


def test_a_key_a_newer_client_reads_is_ignored_by_an_older_one(project: Path) -> None:
    settings(project, {"PreToolUse": [group(command("true", onFailure="block"), matcher="Bash")]})
    found = the(diagnose(project, "2.1.197"), "unknown-key")
    assert "does not read `onFailure`" in found.message
    assert "unknown-key" not in codes(diagnose(project, "2.1.328"))


def test_unrelated_keys_get_no_did_you_mean(project: Path) -> None:
    found = the(
        with_group(project, "PostToolUse", {"matcher": "Bash", "priority": 1}), "unknown-key"
    )
    assert "did you mean" not in found.message and found.severity == "warning"


def test_keys_under_an_unknown_event_are_left_to_its_finding(project: Path) -> None:
    settings(project, {"PostToolUze": [{"tools": ["Edit"], "hooks": [CTX]}]})
    assert codes(diagnose(project)) == ["unknown-event"]


def test_below_the_binaries_read_the_catalog_says_when_each_field_came(project: Path) -> None:
    settings(project, {"PostToolUse": [group(command("true", args=[]), matcher="Bash")]})
    found = the(diagnose(project, "2.1.100"), "unknown-key")
    assert "does not read `args`" in found.message
    assert "unknown-key" not in codes(diagnose(project, "2.1.139"))


def test_keys_in_skill_frontmatter_are_checked_too(project: Path) -> None:
    skill = project / ".claude" / "skills" / "fmt" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: fmt\nhooks:\n  PostToolUse:\n    - tools: Edit\n      1: x\n      hooks:\n"
        "        - type: command\n          command: echo hi\n---\nbody\n"
    )
    found = [f for f in diagnose(project).findings if f.code == "unknown-key"]
    assert {f.path for f in found} >= {"hooks.PostToolUse[0].tools"}


@pytest.mark.parametrize("key", ["cmd", "comand", "script"])
def test_a_command_written_under_another_key_is_named_in_the_invalid_entry(
    project: Path, key: str
) -> None:
    settings(project, {"PostToolUse": [group({"type": "command", key: "true"}, matcher="Bash")]})
    found = the(diagnose(project), "invalid-entry")
    assert f"`{key}` looks meant as `command`" in found.message
    assert "unknown-key" not in codes(diagnose(project))  # said once, by the invalid entry
