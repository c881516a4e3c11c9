"""doctor's matcher findings and the fixes they offer: what tools/mutants.py found no test
noticing (doctor/findings_matchers.py). A fix must never widen a matcher to every tool (an
empty matcher, ""), nor drop a name or a hook's own `if`."""

from __future__ import annotations

from pathlib import Path

from .conftest import command, diagnose, group, settings, the


def _one(project: Path, matcher: str, version: str = "2.1.328", event: str = "PreToolUse"):  # type: ignore[no-untyped-def]
    settings(project, {event: [group(command("true"), matcher=matcher)]})
    return diagnose(project, version)


def _edits(ctx) -> list[object]:  # type: ignore[no-untyped-def]
    return [finding.edit["value"] for finding in ctx.findings if finding.edit is not None]


def test_an_invalid_regex_naming_no_tool_gets_no_edit(project: Path) -> None:
    found = the(_one(project, "((deploy"), "matcher-invalid-regex")
    assert found.edit is None and "write a valid regex" in found.fix


def test_a_regex_that_names_no_tool_whole_is_not_unanchored_and_not_widened(
    project: Path,
) -> None:
    """`Edi.*` matches Edit and names no tool whole: no exact list to offer (an empty one
    would be "", every tool)."""
    ctx = _one(project, "Edi.*")
    assert [f.code for f in ctx.findings] == []
    assert "Edit" in ctx.handlers[0].matches


def test_a_case_fix_keeps_the_names_doctor_does_not_know(project: Path) -> None:
    found = the(_one(project, "bash|Deploy"), "matcher-case")
    assert found.edit["value"] == "Bash|Deploy"
    assert "" not in _edits(_one(project, "bash|Deploy"))


def test_the_permission_rule_fix_keeps_a_hooks_own_if(project: Path) -> None:
    handlers = [command("true", **{"if": "Bash(git *)"}), command("false")]
    settings(project, {"PreToolUse": [group(*handlers, matcher="Bash(rm *)")]})
    found = the(diagnose(project), "matcher-permission-rule")
    assert found.edit["value"]["hooks"] == [
        {"type": "command", "command": "true", "if": "Bash(git *)"},
        {"type": "command", "command": "false", "if": "Bash(rm *)"},
    ]


def test_an_exact_list_is_read_alike_by_an_old_client(project: Path) -> None:
    ctx = _one(project, "Bash|Edit", "2.1.84")
    assert [f.code for f in ctx.findings] == []


def test_a_dashed_name_an_old_client_reads_as_a_wider_regex_is_a_warning(project: Path) -> None:
    """2.1.194 reads `code-reviewer` as a regex: it still runs for that agent (and longer
    names), so a warning; a comma list it reads as a regex matching nothing is an error."""
    wider = the(_one(project, "code-reviewer", "2.1.194", "SubagentStop"), "matcher-syntax-too-new")
    assert wider.severity == "warning"
    nothing = the(_one(project, "Edit, Write", "2.1.190", "PostToolUse"), "matcher-syntax-too-new")
    assert nothing.severity == "error"
