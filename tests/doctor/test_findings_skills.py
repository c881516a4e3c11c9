from __future__ import annotations

from pathlib import Path

from .conftest import (
    codes,
    command,
    diagnose,
    group,
    hookman_cli,
    install,
    settings,
    the,
    write_hook,
)

SKILL = """---
name: clean
description: tidy up
---
Clean the tree: !`rm -rf build`
"""


def write_skill(root: Path, text: str = SKILL) -> Path:
    path = root / "skills" / "clean" / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_bash_guard_never_sees_inline_shell_commands_before_2_1_332(project: Path) -> None:
    install(project)
    skill = write_skill(project / ".claude")
    found = the(diagnose(project), "inline-shell-unguarded")
    assert found.severity == "warning" and found.file == str(skill)
    assert "2.1.332" in found.fix


def test_on_2_1_332_hookman_guards_are_pointed_at_install(project: Path) -> None:
    install(project)
    write_skill(project / ".claude")
    found = the(diagnose(project, "2.1.332"), "inline-shell-unguarded")
    assert "`hookman install`" in found.fix


def test_a_foreign_pre_skill_shell_command_handler_covers_them(project: Path) -> None:
    write_skill(project / ".claude")
    settings(
        project,
        {
            "PreToolUse": [group(command("true"), matcher="Bash")],
            "PreSkillShellCommand": [group(command("true"), matcher="Bash|PowerShell")],
        },
    )
    assert the(diagnose(project, "2.1.332"), "inline-shell-covered").severity == "info"


def test_a_pre_skill_shell_command_handler_for_another_tool_does_not_cover(project: Path) -> None:
    write_skill(project / ".claude")
    settings(
        project,
        {
            "PreToolUse": [group(command("true"), matcher="Bash")],
            "PreSkillShellCommand": [group(command("true"), matcher="PowerShell")],
        },
    )
    assert "inline-shell-unguarded" in codes(diagnose(project, "2.1.332"), "warning")


def test_user_dir_commands_count_and_no_guard_is_only_information(
    project: Path, isolated_user: Path
) -> None:
    path = isolated_user / ".claude" / "commands" / "git" / "st.md"
    path.parent.mkdir(parents=True)
    path.write_text("Status: !`git status`\n")
    found = the(diagnose(project), "inline-shell-unguarded")
    assert found.severity == "info" and found.file == str(path)


def test_markdown_without_inline_shell_is_quiet(project: Path) -> None:
    install(project)
    write_skill(project / ".claude", "---\nname: x\n---\nRun `ls` yourself! Then `pwd`.\n")
    assert not [c for c in codes(diagnose(project)) if c.startswith("inline-shell")]


def test_hookman_s_sentinel_is_no_guard_of_inline_shell(project: Path) -> None:
    """A guard on Write only: install's sentinels (every other tool on PreToolUse, every tool
    on PreSkillShellCommand) reach Bash, but guard nothing (project/sentinel.py)."""
    write_guard = (
        'def hook(pi):\n    pi.on("tool_call", lambda event, ctx: None, tools=["Write"])\n'
    )
    path = write_hook(project, "no_write", write_guard)
    done = hookman_cli(
        "install", str(path), "--claude-version", "2.1.332", "--project", str(project)
    )
    assert done.exit_code == 0, done.output
    write_skill(project / ".claude")
    ctx = diagnose(project, "2.1.332")
    beside_the_guard = [h for h in ctx.handlers if h.hookman and h.matcher != "Write"]
    assert [(h.event, h.matcher) for h in beside_the_guard] == [
        ("PreToolUse", "^(?!(?:Write)$).*"),
        ("UserPromptSubmit", None),
        ("PreSkillShellCommand", None),
    ]
    assert "inline-shell-covered" not in codes(ctx)
    assert the(ctx, "inline-shell-unguarded").severity == "info"  # no hook sees them
