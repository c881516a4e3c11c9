"""`qwen-foreign-pre-tool-use`, `droid-foreign-pre-tool-use`: a PreToolUse hook that is not
hookman's runs for a tool hookman's guard covers, and Qwen Code 0.24.4 or droid 0.225.2
let a malformed answer of it undo hookman's deny (measured: catalog agent_hook_merge.json
"foreign_fail_open"), wherever it stands. The agents' programs are faked at the function
boundary (findings_agents.installed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookman.doctor import findings_agents
from hookman.doctor.report import exit_code

from .conftest import codes, command, diagnose, group, the, write_json

FOREIGN = "sh ./check-shell.sh"
QWEN_CODE = "qwen-foreign-pre-tool-use"
DROID_CODE = "droid-foreign-pre-tool-use"


@pytest.fixture(autouse=True)
def agents_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(findings_agents, "installed", lambda agent: agent in ("qwen", "droid"))


def ours(project: Path, agent: str, matcher: str) -> dict[str, Any]:
    run = f"sh {project}/.claude/hookman/hookman-run.sh PreToolUse --agent {agent}"
    return group(command(run), matcher=matcher)


def theirs(matcher: str | None, text: str = FOREIGN) -> dict[str, Any]:
    return group(command(text, timeout=10), matcher=matcher)


def qwen_file(project: Path, groups: list[dict[str, Any]]) -> Path:
    return write_json(project / ".qwen" / "settings.json", {"hooks": {"PreToolUse": groups}})


QWEN_SENTENCE = (
    "the PreToolUse hook `sh ./check-shell.sh` in {file} is not hookman's and runs for "
    "run_shell_command too: Qwen Code lets a malformed answer from it (a `reason` or "
    "`systemMessage` that is not a string) undo hookman's deny and run the call (measured "
    "with Qwen Code 0.24.4), so hookman cannot vouch for its guards on that tool while the "
    "hook is there."
)
FIX = (
    "move that hook's check into a hookman hook (`hookman new`) and remove it from {file}, "
    "or just remove it: no order of the hooks helps."
)


@pytest.mark.parametrize("first", [False, True])
def test_a_qwen_hook_beside_hookman_s_in_either_order_is_a_warning(
    project: Path, first: bool
) -> None:
    """Measured both ways: the merge throws and Qwen Code drops every answer, the deny too."""
    guard = ours(project, "qwen", "^(?:run_shell_command|monitor)$")
    foreign = theirs("run_shell_command")
    path = qwen_file(project, [foreign, guard] if first else [guard, foreign])
    ctx = diagnose(project)
    found = the(ctx, QWEN_CODE)
    assert found.severity == "warning" and found.file == str(path)
    assert found.path == f"hooks.PreToolUse[{0 if first else 1}].hooks[0]"
    assert found.message == QWEN_SENTENCE.format(file=path)
    assert found.fix == FIX.format(file=path)
    assert exit_code(ctx) == 0  # a warning: the hook may well be the user's own and sound


def test_a_user_qwen_hook_matching_by_claude_code_s_name_is_one_too(
    project: Path, isolated_user: Path
) -> None:
    qwen_file(project, [ours(project, "qwen", "^(?:run_shell_command)$")])
    user = write_json(
        isolated_user / ".qwen" / "settings.json", {"hooks": {"PreToolUse": [theirs("Bash")]}}
    )
    assert the(diagnose(project), QWEN_CODE).message == QWEN_SENTENCE.format(file=user)


def test_a_qwen_hook_for_every_tool_names_the_tools_both_cover(project: Path) -> None:
    qwen_file(project, [ours(project, "qwen", "^(?:run_shell_command|write_file)$"), theirs(None)])
    message = the(diagnose(project), QWEN_CODE).message
    assert "runs for run_shell_command, write_file too" in message
    assert message.endswith("on those tools while the hook is there.")


@pytest.mark.parametrize(
    "groups",
    [
        lambda project: [ours(project, "qwen", "^(?:run_shell_command)$"), theirs("write_file")],
        lambda project: [theirs("run_shell_command")],  # no hookman entry: nothing to undo
        lambda project: [ours(project, "qwen", "^(?:write_file)$"), theirs("run_shell_command")],
    ],
    ids=["another-tool", "no-hookman-entry", "hookman-guards-another-tool"],
)
def test_near_misses_of_qwen_foreign_pre_tool_use(project: Path, groups: Any) -> None:
    qwen_file(project, groups(project))
    assert QWEN_CODE not in codes(diagnose(project))


def test_a_foreign_qwen_post_tool_use_hook_is_not_one(project: Path) -> None:
    write_json(
        project / ".qwen" / "settings.json",
        {
            "hooks": {
                "PreToolUse": [ours(project, "qwen", "^(?:run_shell_command)$")],
                "PostToolUse": [theirs("run_shell_command")],
            }
        },
    )
    assert QWEN_CODE not in codes(diagnose(project))


def test_qwen_hooks_switched_off_say_that_instead(project: Path) -> None:
    guard = ours(project, "qwen", "^(?:run_shell_command)$")
    write_json(
        project / ".qwen" / "settings.json",
        {"disableAllHooks": True, "hooks": {"PreToolUse": [guard, theirs("run_shell_command")]}},
    )
    found = codes(diagnose(project))
    assert "qwen-hooks-disabled" in found and QWEN_CODE not in found


# --- droid --------------------------------------------------------------------------------------

DROID_SENTENCE = (
    "the PreToolUse hook `sh ./check-shell.sh` in {file} is not hookman's and runs for "
    "Execute too: Factory droid lets a malformed answer from it (`continue: false` with a "
    "`stopReason` that is not a string) undo hookman's deny and run the call (measured with "
    "Factory droid 0.225.2), so hookman cannot vouch for its guards on that tool while the "
    "hook is there."
)


@pytest.mark.parametrize(
    "where", ["project_after", "project_before", "user_hooks", "user_settings"]
)
def test_a_droid_hook_beside_hookman_s_anywhere_droid_runs_it_is_a_warning(
    project: Path, isolated_user: Path, where: str
) -> None:
    """Measured in each of these places (catalog agent_hook_merge.json, droid)."""
    guard, foreign = ours(project, "droid", "^(?:Execute)$"), theirs("Execute")
    hooks = project / ".factory" / "hooks.json"
    if where.startswith("project"):
        write_json(
            hooks, {"PreToolUse": [guard, foreign] if where.endswith("after") else [foreign, guard]}
        )
        path = hooks
    else:
        write_json(hooks, {"PreToolUse": [guard]})
        user = isolated_user / ".factory"
        if where == "user_hooks":
            path = write_json(user / "hooks.json", {"PreToolUse": [foreign]})
        else:
            path = write_json(user / "settings.json", {"hooks": {"PreToolUse": [foreign]}})
    found = the(diagnose(project), DROID_CODE)
    assert found.severity == "warning" and found.file == str(path)
    assert found.message == DROID_SENTENCE.format(file=path)
    assert found.fix == FIX.format(file=path)


def test_a_droid_settings_hook_hooks_json_shadows_never_runs_so_is_not_one(project: Path) -> None:
    """Measured: droid takes hooks.json's PreToolUse over settings.json's, so this never ran."""
    write_json(
        project / ".factory" / "hooks.json", {"PreToolUse": [ours(project, "droid", "Execute")]}
    )
    write_json(
        project / ".factory" / "settings.json", {"hooks": {"PreToolUse": [theirs("Execute")]}}
    )
    found = codes(diagnose(project))
    assert "droid-settings-hooks-shadowed" in found and DROID_CODE not in found


def test_a_droid_matcher_naming_claude_code_s_tool_never_runs_so_is_not_one(project: Path) -> None:
    """droid matches its own names only: a `Bash` group never runs for Execute (measured)."""
    guard = ours(project, "droid", "^(?:Execute)$")
    write_json(project / ".factory" / "hooks.json", {"PreToolUse": [guard, theirs("Bash")]})
    found = codes(diagnose(project))
    assert "droid-matcher-claude-tool" in found and DROID_CODE not in found
