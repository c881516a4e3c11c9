from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import codes, command, diagnose, group, loud, settings, the, write_json

CTX = command("true")


def test_invalid_json_is_an_error_naming_line_and_column(project: Path) -> None:
    (project / ".claude" / "settings.json").write_text('{"hooks": {,}}\n')
    found = the(diagnose(project), "settings-invalid-json")
    assert (
        found.severity == "error"
        and "line 1, column 12: Claude Code loads no hook" in found.message
    )


def test_valid_json_and_a_missing_file_are_quiet(project: Path) -> None:
    settings(project, {"PostToolUse": [group(CTX, matcher="Bash")]})
    assert loud(diagnose(project)) == []


def test_a_settings_path_that_is_a_directory_cannot_be_read(project: Path) -> None:
    (project / ".claude" / "settings.json").mkdir()
    found = the(diagnose(project), "source-unreadable")
    assert found.severity == "error"


def test_an_invalid_pre_tool_use_entry_silences_every_hook_of_its_file(project: Path) -> None:
    settings(
        project,
        {
            "PreToolUse": [group({"type": "shell", "command": "x"}, matcher="Bash")],
            "PostToolUse": [group(CTX, matcher="Bash")],
        },
    )
    ctx = diagnose(project)
    found = the(ctx, "invalid-entry-silences-file")
    assert found.path == "hooks.PreToolUse[0].hooks[0]" and found.event == "PreToolUse"
    assert found.silences == ["hooks.PostToolUse[0].hooks[0]"]
    assert found.edit["path"] == "hooks.PreToolUse"  # its only group's only handler
    assert [h.loaded for h in ctx.handlers] == [False]


def test_on_2_1_328_an_invalid_entry_elsewhere_drops_only_itself(project: Path) -> None:
    settings(
        project,
        {
            "Stop": [group({"type": "shell"}, CTX)],
            "PostToolUse": [group(CTX, matcher="Bash")],
        },
    )
    ctx = diagnose(project)
    found = the(ctx, "invalid-entry")
    assert found.path == "hooks.Stop[0].hooks[0]" and found.edit["path"] == found.path
    assert "invalid-entry-silences-file" not in codes(ctx)
    assert all(h.loaded for h in ctx.handlers)


def test_on_2_1_197_any_invalid_entry_silences_the_file(project: Path) -> None:
    settings(project, {"Stop": [group({"type": "shell"})], "PostToolUse": [group(CTX)]})
    ctx = diagnose(project, "2.1.197")
    assert "invalid-entry-silences-file" in codes(ctx)
    assert not any(h.loaded for h in ctx.handlers)


def test_2_1_332_adds_pre_skill_shell_command_to_the_silencing_events(project: Path) -> None:
    settings(
        project,
        {"PreSkillShellCommand": {"matcher": "Bash"}, "PostToolUse": [group(CTX)]},
    )
    found = the(diagnose(project, "2.1.332"), "invalid-entry-silences-file")
    assert "an object where an array" in found.message


@pytest.mark.parametrize(
    ("hooks", "path"),
    [
        ([], "hooks"),
        ({"PreToolUse": [["not", "a", "group"]]}, "hooks.PreToolUse[0]"),
        ({"PreToolUse": [{"matcher": 5, "hooks": []}]}, "hooks.PreToolUse[0].matcher"),
        ({"PreToolUse": [{"matcher": "Bash"}]}, "hooks.PreToolUse[0].hooks"),
        (
            {"PreToolUse": [group({"type": "command", "command": 7})]},
            "hooks.PreToolUse[0].hooks[0]",
        ),
    ],
)
def test_shapes_the_schema_rejects_are_invalid_entries(
    project: Path, hooks: object, path: str
) -> None:
    settings(project, hooks)
    assert the(diagnose(project), "invalid-entry-silences-file").path == path


def test_a_handler_type_newer_than_the_client_is_invalid_there(project: Path) -> None:
    settings(project, {"Stop": [group({"type": "mcp_tool", "server": "x", "tool": "y"})]})
    assert the(diagnose(project, "2.1.100"), "invalid-entry-silences-file").event == "Stop"
    assert loud(diagnose(project, "2.1.328")) == []


def test_a_misspelled_event_gets_a_did_you_mean_rename(project: Path) -> None:
    settings(project, {"PostToolUze": [group(CTX)], "PreToolUse": [group(CTX)]})
    ctx = diagnose(project)
    found = the(ctx, "unknown-event")
    assert found.edit == {
        "op": "rename",
        "file": str(project / ".claude" / "settings.json"),
        "path": "hooks.PostToolUze",
        "value": "PostToolUse",
    }
    assert [h.loaded for h in ctx.handlers] == [False, True]
    assert found.silences == []


def test_a_runtime_event_name_suggests_the_claude_code_event_serving_it(project: Path) -> None:
    settings(project, {"tool_call": [group(CTX)]})
    assert the(diagnose(project), "unknown-event").edit["value"] == "PreToolUse"


def test_below_2_1_101_an_unknown_event_silences_the_whole_file(project: Path) -> None:
    settings(project, {"PostToolUze": [group(CTX)], "PreToolUse": [group(CTX)]})
    old = diagnose(project, "2.1.100")
    assert the(old, "unknown-event").silences == [
        "hooks.PostToolUze[0].hooks[0]",
        "hooks.PreToolUse[0].hooks[0]",
    ]
    assert not any(h.loaded for h in old.handlers)
    assert the(diagnose(project, "2.1.101"), "unknown-event").silences == []


def test_an_event_newer_than_the_client_never_runs_there(project: Path) -> None:
    settings(project, {"DirectoryAdded": [group(CTX)]})
    found = the(diagnose(project, "2.1.197"), "event-too-new")
    assert "2.1.219" in found.message
    assert "event-too-new" not in codes(diagnose(project, "2.1.328"))


def test_disable_all_hooks_switches_off_non_managed_hooks(project: Path) -> None:
    settings(project, {"PreToolUse": [group(CTX)]}, disableAllHooks=True)
    ctx = diagnose(project)
    assert the(ctx, "hooks-disabled").severity == "error"
    assert not ctx.handlers[0].loaded


def test_a_local_false_overrides_a_project_disable_all_hooks(project: Path) -> None:
    settings(project, {"PreToolUse": [group(CTX)]}, disableAllHooks=True)
    write_json(project / ".claude" / "settings.local.json", {"disableAllHooks": False})
    assert "hooks-disabled" not in codes(diagnose(project))


def test_allow_managed_hooks_only_silences_everything_else(project: Path, tmp_path: Path) -> None:
    settings(project, {"PreToolUse": [group(CTX)]})
    managed = write_json(
        tmp_path / "policy" / "managed-settings.json", {"allowManagedHooksOnly": True}
    )
    ctx = diagnose(project, managed_settings=managed)
    assert the(ctx, "hooks-disabled").path == "allowManagedHooksOnly"
    assert the(ctx, "hooks-disabled").edit is None  # hookman never edits managed settings


def test_shell_style_hook_directories_are_never_read(project: Path) -> None:
    pre = project / ".claude" / "hooks" / "pre"
    pre.mkdir(parents=True)
    (pre / "check.sh").write_text("#!/bin/sh\n")
    assert the(diagnose(project), "hooks-in-unread-place").severity == "warning"


def test_a_script_in_such_a_directory_that_a_settings_hook_runs_is_fine(project: Path) -> None:
    pre = project / ".claude" / "hooks" / "pre"
    pre.mkdir(parents=True)
    (pre / "check.sh").write_text("#!/bin/sh\n")
    (pre / "check.sh").chmod(0o755)
    hook = command('"$CLAUDE_PROJECT_DIR"/.claude/hooks/pre/check.sh')
    settings(project, {"PreToolUse": [group(hook, matcher="Bash")]})
    assert loud(diagnose(project)) == []


def test_managed_disable_all_hooks_switches_off_every_hook(project: Path, tmp_path: Path) -> None:
    settings(project, {"PreToolUse": [group(CTX)]})
    managed = write_json(
        tmp_path / "policy" / "managed-settings.json",
        {"disableAllHooks": True, "hooks": {"Stop": [group(CTX)]}},
    )
    ctx = diagnose(project, managed_settings=managed)
    assert "every hook" in the(ctx, "hooks-disabled").message
    assert not any(h.loaded for h in ctx.handlers)


def test_an_unreadable_plugin_hooks_file_is_an_error(project: Path, isolated_user: Path) -> None:
    root = isolated_user / ".claude" / "skills" / "demo"
    write_json(root / ".claude-plugin" / "plugin.json", {"name": "demo"})
    (root / "hooks").mkdir()
    (root / "hooks" / "hooks.json").write_text("{nope")
    assert the(diagnose(project), "settings-invalid-json").file == str(
        root / "hooks" / "hooks.json"
    )


def test_a_rename_never_overwrites_the_event_already_there(project: Path) -> None:
    settings(project, {"PostToolUze": [group(CTX)], "PostToolUse": [group(CTX)]})
    found = the(diagnose(project), "unknown-event")
    assert found.edit is None and "move its matcher groups into the `PostToolUse`" in found.fix


def test_an_event_that_only_looks_like_another_gets_no_rename(project: Path) -> None:
    settings(project, {"PostCommand": [group(command("true"))]})
    found = the(diagnose(project), "unknown-event")
    assert found.edit is None
    assert "`PostCompact`, is not a misspelling of it but another event" in found.fix
