from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import codes, command, diagnose, group, loud, settings, the

CTX = command("true")


def one_matcher(project: Path, event: str, matcher: str | None, version: str = "2.1.328"):  # type: ignore[no-untyped-def]
    settings(project, {event: [group(CTX, matcher=matcher)]})
    return diagnose(project, version)


@pytest.mark.parametrize(
    ("event", "matcher", "code", "fixed"),
    [
        ("PostToolUse", "Bash(", "matcher-invalid-regex", "Bash"),
        ("PostToolUse", "(Edit|Write", "matcher-invalid-regex", "Edit|Write"),
        ("PostToolUse", "bash", "matcher-case", "Bash"),
        ("PreToolUse", "^bash$", "matcher-case", "Bash"),
        ("SessionStart", "Startup", "matcher-case", "startup"),
    ],
)
def test_matchers_that_never_match_are_errors_with_a_fix(
    project: Path, event: str, matcher: str, code: str, fixed: str
) -> None:
    ctx = one_matcher(project, event, matcher)
    found = the(ctx, code)
    assert found.severity == "error" and found.path == f"hooks.{event}[0].matcher"
    assert found.edit is not None and found.edit["value"] == fixed


@pytest.mark.parametrize(
    ("event", "matcher"),
    [
        ("PostToolUse", "Bash"),
        ("PostToolUse", "Edit|Write|MultiEdit"),
        ("PostToolUse", "Edit, Write"),
        ("PreToolUse", "^Bash$"),
        ("PreToolUse", "^(Edit|Write)$"),
        ("PreToolUse", "mcp__github__.*"),
        ("PreToolUse", "mcp__memory__create_entities"),
        ("PreToolUse", "Agent"),
        ("PreToolUse", "*"),
        ("Stop", None),
        ("SessionStart", "startup|resume"),
        ("SubagentStop", "code-reviewer"),
    ],
)
def test_matchers_that_work_stay_quiet(project: Path, event: str, matcher: str | None) -> None:
    assert loud(one_matcher(project, event, matcher)) == []


def test_a_matcher_on_an_event_that_ignores_matchers_is_a_warning(project: Path) -> None:
    found = the(one_matcher(project, "Stop", "Bash"), "matcher-ignored")
    assert found.severity == "warning"
    assert one_matcher(project, "Stop", "*").findings == []


@pytest.mark.parametrize(
    ("matcher", "extra"),
    [("Edit.*", "MultiEdit, NotebookEdit"), ("(Edit|Write)", "MultiEdit, NotebookEdit")],
)
def test_an_unanchored_regex_catching_extra_tools_is_a_warning(
    project: Path, matcher: str, extra: str
) -> None:
    found = the(one_matcher(project, "PostToolUse", matcher), "matcher-unanchored")
    assert found.severity == "warning" and extra in found.message


@pytest.mark.parametrize("matcher", ["^(?!(?:Bash)$).*", "^(?!Bash$|Read$)"])
def test_a_regex_that_leaves_out_the_tools_it_names_gets_no_exact_list(
    project: Path, matcher: str
) -> None:
    """A user's "every tool but Bash" (the form hookman's sentinel uses): the exact list of
    the names it holds would turn it inside out."""
    ctx = one_matcher(project, "PostToolUse", matcher)
    assert "matcher-unanchored" not in codes(ctx)
    assert ctx.handlers[0].matches and "Bash" not in ctx.handlers[0].matches


def test_an_unknown_tool_name_is_only_information(project: Path) -> None:
    ctx = one_matcher(project, "PreToolUse", "TodoWrite")
    assert codes(ctx) == ["matcher-unknown-name"] and ctx.findings[0].severity == "info"


def test_comma_lists_before_2_1_191_are_regexes_that_match_nothing(project: Path) -> None:
    found = the(
        one_matcher(project, "PostToolUse", "Edit, Write", "2.1.190"), "matcher-syntax-too-new"
    )
    assert found.severity == "error" and found.edit["value"] == "Edit|Write"
    assert loud(one_matcher(project, "PostToolUse", "Edit|Write", "2.1.190")) == []


def test_a_dashed_agent_name_before_2_1_195_also_matches_longer_names(project: Path) -> None:
    found = the(
        one_matcher(project, "SubagentStop", "code-reviewer", "2.1.194"), "matcher-syntax-too-new"
    )
    assert found.edit["value"] == "^(?:code\\-reviewer)$"


def test_the_merged_view_says_which_tools_each_handler_matches(project: Path) -> None:
    settings(
        project,
        {
            "PreToolUse": [group(CTX, matcher="Edit.*"), group(CTX), group(CTX, matcher="Bash(")],
            "Stop": [group(CTX)],
        },
    )
    views = [h.json()["matches"] for h in diagnose(project).handlers]
    assert views == [["Edit", "MultiEdit", "NotebookEdit"], "*", [], "*"]


def test_a_regex_matching_no_known_tool_is_only_information(project: Path) -> None:
    ctx = one_matcher(project, "PreToolUse", "^Deploy.*")
    assert codes(ctx) == ["matcher-matches-nothing-known"] and ctx.findings[0].severity == "info"


def test_a_list_where_other_names_still_match_is_a_warning(project: Path) -> None:
    found = the(one_matcher(project, "PreToolUse", "bash|Edit"), "matcher-case")
    assert found.severity == "warning" and found.edit["value"] == "Bash|Edit"
    assert "`bash`" in found.message and "never runs for it" in found.message


def test_task_is_an_alias_the_client_matches_to_agent(project: Path) -> None:
    ctx = one_matcher(project, "PreToolUse", "Task")
    assert ctx.findings == [] and ctx.handlers[0].matches == ["Agent"]


def test_a_permission_rule_fix_keeps_the_rule_in_the_if_field(project: Path) -> None:
    found = the(one_matcher(project, "PreToolUse", "Bash(rm *)"), "matcher-permission-rule")
    assert found.severity == "error" and found.path == "hooks.PreToolUse[0].matcher"
    assert found.edit["path"] == "hooks.PreToolUse[0]"
    assert found.edit["value"] == {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "true", "if": "Bash(rm *)"}],
    }
    assert '"if": "Bash(rm *)"' in found.fix


def test_before_the_if_field_the_permission_rule_fix_is_the_tool_alone(project: Path) -> None:
    found = the(
        one_matcher(project, "PreToolUse", "Bash(rm *)", "2.1.84"), "matcher-permission-rule"
    )
    assert found.edit["value"] == "Bash" and "inside the hook" in found.fix


@pytest.mark.parametrize("matcher", [r"\.py$", "src/.*", r".*\.(ts|tsx)$", "^(src|lib)/"])
def test_a_regex_written_for_file_paths_never_matches_a_tool(project: Path, matcher: str) -> None:
    found = the(one_matcher(project, "PostToolUse", matcher), "matcher-not-a-tool-name")
    assert found.severity == "warning" and "tool_name, not against a file path" in found.message
    assert '"if" field' in found.fix


@pytest.mark.parametrize("matcher", ["^Todo.*", r"Write|.*\.md", "Deploy[0-9]+", r"\w+Tool"])
def test_a_regex_a_tool_name_could_match_stays_information(project: Path, matcher: str) -> None:
    assert "matcher-not-a-tool-name" not in codes(one_matcher(project, "PostToolUse", matcher))


def test_one_group_with_many_handlers_is_one_matcher_finding(project: Path) -> None:
    settings(project, {"PostToolUse": [group(CTX, CTX, CTX, matcher="bash")]})
    assert codes(diagnose(project)) == ["matcher-case"]


def test_matchers_are_quoted_as_written_not_as_python_reprs(project: Path) -> None:
    found = the(one_matcher(project, "PostToolUse", "(Edit|Write\\.sh"), "matcher-invalid-regex")
    assert "`(Edit|Write\\.sh`" in found.message and "\\\\" not in found.message


def test_a_matcher_under_an_event_the_client_lacks_is_left_to_the_event(project: Path) -> None:
    ctx = one_matcher(project, "PreSkillShellCommand", "bash", "2.1.328")
    assert codes(ctx) == ["event-too-new"]


def test_a_fork_matcher_is_known_from_the_client_that_has_the_source(project: Path) -> None:
    """SessionStart's fork source is in the 2.1.328 and 2.1.332 schemas, not 2.1.197's."""
    settings(project, {"SessionStart": [group(command("echo hi"), matcher="fork")]})
    assert codes(diagnose(project, version="2.1.328")) == []
    assert codes(diagnose(project, version="2.1.197")) == ["matcher-unknown-name"]
