"""`hookman new`: every template goes from `new --install` to working settings, a `fire` that
shows it doing what it says, and a generated test that passes under pytest."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.errors import HookmanError
from hookman.project.config import is_valid_hook_name, load_project_config
from hookman.project.settings_entries import ASYNC, BLOCKING, SENTINEL, hookman_handler_kind
from hookman.scaffold.template_catalog import templates

from .helpers import hookman, hookman_json, local_settings, snapshot

VERSION = ("--claude-version", "2.1.328")


def _payload(event: str, **fields: Any) -> dict[str, Any]:
    return {"session_id": "s-new", "cwd": "/tmp", "hook_event_name": event, **fields}


def _bash_call(command: str) -> dict[str, Any]:
    return _payload(
        "PreToolUse", tool_name="Bash", tool_input={"command": command}, tool_use_id="t1"
    )


@dataclass(frozen=True)
class Case:
    """What one template writes into settings and what `fire` must show it doing."""

    claude_events: dict[str, str | None]  # event -> matcher, in the blocking entries
    async_events: dict[str, str | None]
    event: str
    payload: Callable[[Path], dict[str, Any]]
    check: Callable[[dict[str, Any], Path], None]


def _check_guard(report: dict[str, Any], project: Path) -> None:
    decision = report["answer"]["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert decision["permissionDecisionReason"].startswith("Blocked by the bash guard: rm -rf")


def _check_redaction(report: dict[str, Any], project: Path) -> None:
    replaced = report["answer"]["hookSpecificOutput"]["updatedToolOutput"]
    assert "AKIAABCDEFGHIJKLMNOP" not in json.dumps(replaced)
    assert "[REDACTED]" in replaced["stdout"]


def _check_context(report: dict[str, Any], project: Path) -> None:
    assert any("run the tests" in text for text in report["model_sees"])


def _check_notify(report: dict[str, Any], project: Path) -> None:
    assert report["answer"] == {}  # nothing waits for an observe-only hook
    assert [hook["name"] for hook in report["async"]["hooks"]] == ["it"]
    # It ran without error, and wrote its log in the scratch copy, not the project.
    assert [call["error"] for call in report["async"]["hooks"][0]["calls"]] == [None]
    assert report["async"]["errors"] == []
    assert not (project / ".claude" / "notifications.log").exists()


def _lint_payload(project: Path) -> dict[str, Any]:
    broken = project / "broken.py"
    broken.write_text("def f(:\n", encoding="utf-8")
    calls = [{"tool_name": "Write", "tool_input": {"file_path": str(broken)}}]
    return _payload("PostToolBatch", tool_calls=calls)


def _check_lint(report: dict[str, Any], project: Path) -> None:
    context = report["answer"]["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("The linter found problems") and "broken.py" in context


def _stop_payload(project: Path) -> dict[str, Any]:
    (project / ".claude" / "done-checklist.md").write_text("- [ ] run the tests\n")
    return _payload("Stop", stop_hook_active=False)


def _check_stop(report: dict[str, Any], project: Path) -> None:
    assert report["answer"]["decision"] == "block"
    assert "- run the tests" in report["answer"]["reason"]


def _check_notes(report: dict[str, Any], project: Path) -> None:
    assert report["entries"] == [{"custom_type": "session-notes", "data": {"prompt": "hi there"}}]


def _check_status(report: dict[str, Any], project: Path) -> None:
    assert report["statuses"] == {"activity": "working"}


def _check_command(report: dict[str, Any], project: Path) -> None:
    assert report["hooks"] == []  # a command hook listens to no event


PROMPT = _payload("UserPromptSubmit", prompt="hi there")
CASES = {
    "bash_guard": Case(
        {"PreToolUse": "Bash"}, {}, "PreToolUse", lambda p: _bash_call("rm -rf /"), _check_guard
    ),
    "redact_output": Case(
        {"PostToolUse": "Bash", "PostToolUseFailure": "Bash"},
        {},
        "PostToolUse",
        lambda p: _payload(
            "PostToolUse",
            tool_name="Bash",
            tool_input={"command": "env"},
            tool_use_id="t1",
            tool_response={
                "stdout": "KEY AKIAABCDEFGHIJKLMNOP",
                "stderr": "",
                "interrupted": False,
            },
        ),
        _check_redaction,
    ),
    "inject_context": Case(
        {"UserPromptSubmit": None}, {}, "UserPromptSubmit", lambda p: PROMPT, _check_context
    ),
    "notify": Case(
        {"UserPromptSubmit": None},  # delivers what async hooks queue for the model
        {"Stop": None, "Notification": None},
        "Stop",
        lambda p: _payload("Stop", stop_hook_active=False),
        _check_notify,
    ),
    "batch_lint": Case({"PostToolBatch": None}, {}, "PostToolBatch", _lint_payload, _check_lint),
    "stop_gate": Case(
        {"Stop": None, "UserPromptSubmit": None}, {}, "Stop", _stop_payload, _check_stop
    ),
    "session_notes": Case(
        {
            "UserPromptSubmit": None,
            "PostToolUse": "Edit|MultiEdit|NotebookEdit|Write",
            "PostToolUseFailure": "Edit|MultiEdit|NotebookEdit|Write",
        },
        {},
        "UserPromptSubmit",
        lambda p: PROMPT,
        _check_notes,
    ),
    "status": Case(
        {"UserPromptSubmit": None, "PostToolUse": None, "PostToolUseFailure": None, "Stop": None},
        {},
        "UserPromptSubmit",
        lambda p: PROMPT,
        _check_status,
    ),
    "command": Case({}, {}, "PreToolUse", lambda p: _bash_call("ls"), _check_command),
}


def test_every_shipped_template_has_a_case_and_a_test() -> None:
    shipped = templates()
    assert sorted(shipped) == sorted(CASES)
    for template in shipped.values():
        assert template.test_path is not None, template.name
        assert template.description, template.name


def _matchers(groups: list[dict[str, Any]], kind: str) -> list[str | None]:
    """The matchers of hookman's `kind` of entry (BLOCKING, ASYNC or SENTINEL) in `groups`."""
    return [
        group.get("matcher")
        for group in groups
        if any(hookman_handler_kind(handler) == kind for handler in group["hooks"])
    ]


def _by_event(settings: dict[str, Any], kind: str) -> dict[str, list[str | None]]:
    return {e: _matchers(g, kind) for e, g in settings.items() if _matchers(g, kind)}


def _sentinels(case: Case) -> dict[str, list[str | None]]:
    """The PreToolUse sentinel of an installed project (project/sentinel.py): every tool its
    blocking PreToolUse entry does not match, all of them with none; none where that entry
    matches every tool (PreSkillShellCommand is held back on the target, 2.1.328)."""
    if not case.claude_events and not case.async_events:
        return {}  # no entry at all: no sentinel either
    if "PreToolUse" not in case.claude_events:
        return {"PreToolUse": [None]}
    matcher = case.claude_events["PreToolUse"]
    return {} if matcher is None else {"PreToolUse": [f"^(?!(?:{matcher})$).*"]}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_template_goes_from_new_to_fire_to_a_passing_test(
    name: str, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOTIFY_DESKTOP", "0")
    case = CASES[name]

    made = hookman(
        "new", "it", "--template", name, "--install", "--project", str(project), *VERSION
    )

    assert made.exit_code == 0, made.output
    assert (project / ".claude" / "hooks" / "it.py").read_text() == templates()[
        name
    ].path.read_text()
    [listed] = load_project_config(project).hooks
    assert listed.source.value == ".claude/hooks/it.py" and listed.is_async == bool(
        case.async_events
    )
    settings_file = project / ".claude" / "settings.local.json"
    settings = local_settings(project).get("hooks", {}) if settings_file.exists() else {}
    expected = {event: [matcher] for event, matcher in case.claude_events.items()}
    if expected:  # every installed project's prompt gate (ARCHITECTURE.md)
        expected.setdefault("UserPromptSubmit", [None])
    assert _by_event(settings, BLOCKING) == expected
    assert _by_event(settings, ASYNC) == {
        event: [matcher] for event, matcher in case.async_events.items()
    }
    assert _by_event(settings, SENTINEL) == _sentinels(case)

    payload_file = project / "payload.json"
    payload_file.write_text(json.dumps(case.payload(project)))
    report = hookman_json(
        "fire", case.event, "--payload", str(payload_file), "--project", str(project)
    )
    assert report["errors"] == [] and report["output"] == ""
    case.check(report, project)

    tested = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            ".claude/hooks/test_it.py",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        timeout=120,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert " passed" in tested.stdout and "failed" not in tested.stdout

    checked = hookman("doctor", "--probe", "--json", "--project", str(project), *VERSION)
    findings = json.loads(checked.stdout)["findings"]
    assert checked.exit_code == 0, checked.output
    assert [f["code"] for f in findings if f["severity"] != "info"] == []


def test_the_command_template_runs_as_hookman_command(project: Path) -> None:
    (project / "app.py").write_text("# TODO: write the app\n")
    assert (
        hookman("new", "todo", "-t", "command", "--install", "--project", str(project)).exit_code
        == 0
    )

    ran = hookman("command", "todos", "--project", str(project))

    assert ran.exit_code == 0, ran.output
    assert ran.stdout == "app.py:1: TODO write the app\n"


def test_without_install_it_records_the_hook_and_names_the_next_step(project: Path) -> None:
    made = hookman("new", "guard", "--template", "bash_guard", "--project", str(project))

    assert made.exit_code == 0, made.output
    assert made.stdout == (
        "created .claude/hooks/guard.py from the template bash_guard\n"
        "created .claude/hooks/test_guard.py\n"
        "recorded guard in .claude/hookman.toml (tool_call)\n"
        "wrote .claude/hooks/.gitignore (`__pycache__/`): Python's bytecode beside the hooks "
        "stays out of git; commit it with the hooks\n"
        "next:\n"
        "  hookman install guard\n"
        "  python -m pytest .claude/hooks/test_guard.py\n"
    )
    assert not (project / ".claude" / "settings.local.json").exists()
    installed = hookman("install", "guard", "--project", str(project), *VERSION)
    assert installed.exit_code == 0, installed.output
    assert "PreToolUse" in local_settings(project)["hooks"]


def test_without_pytest_the_next_steps_say_how_to_get_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *rest: None if name == "pytest" else real_find_spec(name, *rest),
    )
    made = hookman("new", "guard", "--template", "bash_guard", "--project", str(project))

    assert made.exit_code == 0, made.output
    assert made.stdout.endswith(
        "next:\n"
        "  hookman install guard\n"
        "  python -m pip install pytest   (the test needs it)\n"
        "  python -m pytest .claude/hooks/test_guard.py\n"
    )


def test_a_file_the_template_writes_is_kept_out_of_git(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    made = hookman("new", "ping", "-t", "notify", "--project", str(project))

    assert made.exit_code == 0, made.output
    assert ".claude/notifications.log (the hook writes it): added to .git/info/exclude\n" in (
        made.stdout
    )
    (project / ".claude" / "notifications.log").write_text("a line\n", encoding="utf-8")
    ignored = subprocess.run(
        ["git", "-C", str(project), "check-ignore", "-q", ".claude/notifications.log"], check=False
    )
    assert ignored.returncode == 0


def test_a_template_that_writes_nothing_says_nothing_about_git(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    made = hookman("new", "guard", "-t", "bash_guard", "--project", str(project))

    assert "the hook writes it" not in made.stdout
    assert not (project / ".git" / "info" / "exclude").read_text().count("notifications")


def test_an_async_template_is_recorded_async(project: Path) -> None:
    assert hookman("new", "ping", "-t", "notify", "--project", str(project)).exit_code == 0
    text = (project / ".claude" / "hookman.toml").read_text()
    assert 'name = "ping"' in text and "async = true" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["../evil", "-t", "bash_guard"], "'../evil' cannot name a new hook"),
        (["a/b", "-t", "bash_guard"], "'a/b' cannot name a new hook"),
        (["x.y", "-t", "bash_guard"], "'x.y' cannot name a new hook"),
        (["test_it", "-t", "bash_guard"], "'test_it' cannot name a new hook"),
        (["9lives", "-t", "bash_guard"], "'9lives' cannot name a new hook"),
        (["ok", "-t", "bash_gaurd"], "there is no template named 'bash_gaurd'."),
    ],
)
def test_bad_names_and_templates_are_refused_and_nothing_is_written(
    project: Path, args: list[str], message: str
) -> None:
    done = hookman("new", *args, "--project", str(project))

    assert done.exit_code == 1
    assert message in done.stderr and "hint:" in done.stderr
    assert "Traceback" not in done.output
    assert sorted(p.name for p in (project / ".claude").iterdir()) == []


def test_an_unknown_template_suggests_the_close_one(project: Path) -> None:
    done = hookman("new", "ok", "-t", "bash_gaurd", "--project", str(project))
    assert "did you mean 'bash_guard'?" in done.stderr


def test_a_taken_name_overwrites_nothing(project: Path) -> None:
    assert hookman("new", "guard", "-t", "bash_guard", "--project", str(project)).exit_code == 0
    hook_file = project / ".claude" / "hooks" / "guard.py"
    hook_file.write_text("# my edits\n" + hook_file.read_text())
    files = [
        hook_file,
        project / ".claude" / "hooks" / "test_guard.py",
        project / ".claude" / "hookman.toml",
    ]
    before = snapshot(*files)

    again = hookman("new", "guard", "-t", "redact_output", "--project", str(project))

    assert again.exit_code == 1
    assert "hookman.toml already has a hook named 'guard'; nothing was written." in again.stderr
    assert snapshot(*files) == before


def test_an_existing_file_is_never_overwritten(project: Path) -> None:
    existing = project / ".claude" / "hooks" / "test_mine.py"
    existing.parent.mkdir()
    existing.write_text("keep me\n")

    done = hookman("new", "mine", "-t", "bash_guard", "--project", str(project))

    assert done.exit_code == 1
    assert ".claude/hooks/test_mine.py already exists; hookman never overwrites it." in done.stderr
    assert existing.read_text() == "keep me\n"
    assert not (project / ".claude" / "hooks" / "mine.py").exists()
    assert not (project / ".claude" / "hookman.toml").exists()


def test_a_broken_hookman_toml_stops_it_before_any_file_is_written(project: Path) -> None:
    (project / ".claude" / "hookman.toml").write_text("[[hooks]\n")

    done = hookman("new", "g", "-t", "bash_guard", "--project", str(project))

    assert done.exit_code == 1 and "not valid TOML" in done.stderr
    assert not (project / ".claude" / "hooks").exists()


def test_missing_name_or_template_is_a_usage_error(project: Path) -> None:
    assert hookman("new", "--project", str(project)).exit_code == 2
    no_template = hookman("new", "g", "--project", str(project))
    assert no_template.exit_code == 2 and "choose a template with --template." in no_template.stderr


def test_list_json_gives_names_and_docstring_descriptions() -> None:
    listed = json.loads(hookman("new", "--list", "--json").stdout)

    assert [row["name"] for row in listed] == sorted(templates())
    assert all(set(row) == {"name", "description"} for row in listed)
    guard = next(row for row in listed if row["name"] == "bash_guard")
    assert guard["description"] == (
        "Bash guard: deny dangerous shell commands before they run (tool_call)."
    )


def test_list_prints_one_aligned_line_per_template() -> None:
    lines = hookman("new", "--list").stdout.splitlines()

    shipped = templates()
    width = max(map(len, shipped))
    assert lines[: len(shipped)] == [
        f"{name.ljust(width)}  {template.description}" for name, template in shipped.items()
    ]
    assert lines[len(shipped) :] == ["", "make one with: hookman new NAME --template TEMPLATE"]


def test_json_without_list_is_a_usage_error(project: Path) -> None:
    done = hookman("new", "g", "-t", "bash_guard", "--json", "--project", str(project))
    assert done.exit_code == 2 and "--json works with --list only." in done.stderr
    assert not (project / ".claude" / "hooks").exists()


def test_a_template_that_cannot_load_leaves_nothing_behind(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookman.commands import new as new_command

    def fail(*args: object, **kwargs: object) -> None:
        raise HookmanError("the hook 'g' failed to load: boom", "fix it")

    monkeypatch.setattr(new_command, "learn_subscriptions", fail)

    done = hookman("new", "g", "-t", "bash_guard", "--project", str(project))

    assert done.exit_code == 1
    assert "the template 'bash_guard' did not load in this project, so nothing was written" in (
        done.stderr
    )
    assert list((project / ".claude" / "hooks").iterdir()) == []
    assert not (project / ".claude" / "hookman.toml").exists()


@given(st.text(max_size=80))
def test_an_accepted_name_stays_inside_the_hooks_dir_and_is_a_hook_name(name: str) -> None:
    from hookman.commands.new import _check_name

    hooks_dir = Path("/project/.claude/hooks")
    try:
        _check_name(name)
    except HookmanError as error:
        assert error.exit_code == 1 and error.hint
        return
    assert is_valid_hook_name(name)
    assert (hooks_dir / f"{name}.py").parent == hooks_dir
    assert (hooks_dir / f"test_{name}.py").parent == hooks_dir
    assert "/" not in name and "\\" not in name and ".." not in name and "\x00" not in name
