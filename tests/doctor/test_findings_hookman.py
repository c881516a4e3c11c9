from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookman import paths
from hookman.doctor import findings_hookman
from hookman.project.launcher import launcher_path, launcher_text, read_launcher_timer

from .conftest import GUARD, codes, diagnose, install, loud, the, write_hook

NEVER_SENT = """\
def hook(pi):
    pi.on("turn_start", lambda event, ctx: None)
"""


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    findings_hookman.interpreter_problem.cache_clear()


def local_path(project: Path) -> Path:
    return project / ".claude" / "settings.local.json"


def rewrite_command(project: Path, old: str, new: str) -> None:
    path = local_path(project)
    path.write_text(path.read_text().replace(old, new))


def test_a_fresh_install_is_quiet(project: Path) -> None:
    install(project)
    ctx = diagnose(project)
    assert loud(ctx) == []
    assert codes(ctx) == ["hookman-never-fired"]


def test_a_guard_that_fired_is_not_reported_as_never_fired(project: Path) -> None:
    install(project)
    log = paths.firing_log_path()
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(json.dumps({"project": str(project), "hooks": ["guard"]}) + "\n")
    assert diagnose(project).findings == []


def _rewrite_launcher_interpreter(project: Path, new: str) -> None:
    launcher = launcher_path(project)
    text = launcher.read_text()
    assert shlex.quote(sys.executable) in text
    launcher.write_text(text.replace(shlex.quote(sys.executable), shlex.quote(new)))


def _per_entry(ctx: Any, code: str) -> Any:
    """The finding on the guard's entry: one per hookman entry, the guard's and the prompt
    gate's (UserPromptSubmit), each naming its own event; none on the sentinel (the
    PreToolUse entry for every other tool), which runs the same launcher, and only once the
    project changed."""
    found = [f for f in ctx.findings if f.code == code]
    assert sorted(f.event for f in found) == ["PreToolUse", "UserPromptSubmit"], found
    guard = next(f for f in found if f.event == "PreToolUse")
    assert guard.path == "hooks.PreToolUse[0].hooks[0].command"  # the Bash entry's
    return guard


def test_an_entry_whose_interpreter_is_gone_stops_guarding(project: Path) -> None:
    install(project)
    _rewrite_launcher_interpreter(project, "/gone/venv/bin/python")
    found = _per_entry(diagnose(project), "hookman-interpreter-gone")
    assert "does not exist" in found.message and found.event == "PreToolUse"


def test_an_interpreter_without_hookman_stops_guarding(project: Path, tmp_path: Path) -> None:
    install(project)
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    _rewrite_launcher_interpreter(project, str(fake))
    found = _per_entry(diagnose(project), "hookman-interpreter-gone")
    assert "cannot import hookman" in found.message


def test_a_deleted_launcher_is_an_error_and_a_present_one_is_quiet(project: Path) -> None:
    install(project)
    assert "hookman-launcher-missing" not in codes(diagnose(project), "error")
    launcher_path(project).unlink()
    found = _per_entry(diagnose(project), "hookman-launcher-missing")
    assert found.event == "PreToolUse" and "hookman install" in found.fix


def test_an_older_hookman_s_launcher_is_stale_until_install(project: Path) -> None:
    """A launcher body an older hookman wrote (here: before its own deny also stopped for
    Qwen Code) runs the same settings commands; only its bytes tell. Told apart from what
    this hookman writes for the interpreter and directory the launcher itself names, so a
    launcher of another interpreter is hookman-interpreter-gone's, never this."""
    install(project)
    launcher = launcher_path(project)
    fresh = launcher.read_text()
    older = fresh.replace('*" --agent qwen "*) codex= stops=1 ;;\n', "")
    assert older != fresh
    launcher.write_text(older)
    found = the(diagnose(project), "hookman-stale")
    assert found.severity == "error" and "hookman install" in found.fix
    assert "its launcher is not the one this hookman writes (an older hookman's" in found.message
    install(project)
    assert launcher.read_text() == fresh
    assert "hookman-stale" not in codes(diagnose(project))


def test_a_launcher_with_another_timeout_program_is_not_stale(project: Path) -> None:
    """PATH may find timeout(1) elsewhere when doctor runs than when install did: the
    launcher names its own, which is not an older hookman's."""
    install(project)
    launcher = launcher_path(project)
    timer = read_launcher_timer(launcher.read_text())
    assert timer
    launcher.write_text(launcher.read_text().replace(timer, "/opt/coreutils/timeout"))
    assert "hookman-stale" not in codes(diagnose(project))


@pytest.mark.parametrize("timer", ["", "/usr/bin/timeout", "/opt/a-b/c_d.e/timeout"])
def test_the_launcher_s_timeout_program_reads_back(timer: str, tmp_path: Path) -> None:
    text = launcher_text("/p y/python3", tmp_path / "manifest.json", ["PreToolUse"], timer=timer)
    assert read_launcher_timer(text) == timer


def test_a_missing_manifest_is_an_error(project: Path) -> None:
    install(project)
    paths.manifest_path(project).unlink()
    ctx = diagnose(project)
    assert "hookman-manifest-missing" in codes(ctx, "error")
    assert "manifest for this project is missing" in the(ctx, "hookman-stale").message


def test_a_hand_edited_matcher_is_stale(project: Path) -> None:
    install(project)
    path = local_path(project)
    path.write_text(path.read_text().replace('"matcher": "Bash"', '"matcher": "Bash|Edit"'))
    found = the(diagnose(project), "hookman-stale")
    assert "matcher 'Bash|Edit'" in found.message and "hookman install" in found.fix


EVERY_TOOL_GUARD = GUARD.replace(', tools=["Bash"]', "")


def test_a_matcher_on_an_entry_for_every_tool_is_said_in_words(project: Path) -> None:
    install(project, EVERY_TOOL_GUARD)
    path = local_path(project)
    settings = json.loads(path.read_text())
    [group] = [g for g in settings["hooks"]["PreToolUse"] if "matcher" not in g]
    group["matcher"] = "Bash|Read"
    path.write_text(json.dumps(settings, indent=2) + "\n")

    message = the(diagnose(project), "hookman-stale").message

    assert "has matcher 'Bash|Read', hookman.toml asks for no matcher (every tool)" in message
    assert "None" not in message


def test_a_different_target_version_than_the_one_written_is_a_warning(project: Path) -> None:
    install(project)
    # 2.1.330 knows the same events as 2.1.328: only the target differs, nothing is missing.
    found = the(diagnose(project, "2.1.330"), "hookman-stale")
    assert found.severity == "warning" and "written for Claude Code 2.1.328" in found.message


def test_a_newer_target_that_needs_an_entry_the_settings_lack_is_an_error(project: Path) -> None:
    install(project)
    found = the(diagnose(project, "2.1.332"), "hookman-stale")
    assert found.severity == "error" and "PreSkillShellCommand" in found.message


def test_an_entry_removed_by_hand_is_stale(project: Path) -> None:
    install(project)
    local_path(project).write_text("{}\n")
    assert "PreToolUse is missing" in the(diagnose(project), "hookman-stale").message


def _sentinel_group(project: Path) -> dict[str, Any]:
    hooks = json.loads(local_path(project).read_text())["hooks"]
    [group] = [g for g in hooks["PreToolUse"] if g.get("matcher") == "^(?!(?:Bash)$).*"]
    return group


def _edit_sentinel(project: Path, edit: Any) -> None:
    path = local_path(project)
    settings = json.loads(path.read_text())
    groups = settings["hooks"]["PreToolUse"]
    index = groups.index(_sentinel_group(project))
    edited = edit(groups[index])
    groups[index : index + 1] = [] if edited is None else [edited]
    path.write_text(json.dumps(settings, indent=2) + "\n")


def test_a_sentinel_removed_by_hand_is_stale(project: Path) -> None:
    install(project)
    _edit_sentinel(project, lambda group: None)
    found = the(diagnose(project), "hookman-stale")
    assert found.severity == "error"
    assert "PreToolUse (sentinel) is missing from settings.local.json" in found.message


def test_a_sentinel_with_a_hand_edited_matcher_is_stale(project: Path) -> None:
    install(project)
    _edit_sentinel(project, lambda group: {**group, "matcher": "Edit"})
    found = the(diagnose(project), "hookman-stale")
    assert found.severity == "error"
    assert "PreToolUse (sentinel) has matcher 'Edit'" in found.message


def test_a_sentinel_that_no_longer_watches_a_file_is_stale(project: Path) -> None:
    install(project)
    module = shlex.quote(str(project / "hooks" / "guard.py"))

    def unwatch(group: dict[str, Any]) -> dict[str, Any]:
        [handler] = group["hooks"]
        command = handler["command"]
        test = next(part for part in command.split(" && ") if part.endswith(f"{module} ]"))
        assert test.startswith("[ ") and test in command
        return {**group, "hooks": [{**handler, "command": command.replace(test + " && ", "")}]}

    _edit_sentinel(project, unwatch)
    found = the(diagnose(project), "hookman-stale")
    assert found.severity == "error"
    assert "PreToolUse (sentinel) watches other files" in found.message


def test_a_sentinel_made_a_plain_entry_is_stale(project: Path) -> None:
    """A sentinel whose stamp tests are gone runs the launcher on every other tool: hookman
    reads it as a second blocking entry, with the sentinel's matcher, and says so."""
    install(project)

    def plain(group: dict[str, Any]) -> dict[str, Any]:
        [handler] = group["hooks"]
        guarded = handler["command"].split(" && exit 0; ", 1)[1]
        return {**group, "hooks": [{**handler, "command": guarded}]}

    _edit_sentinel(project, plain)
    message = the(diagnose(project), "hookman-stale").message
    assert "PreToolUse (sentinel) is missing" in message


def test_a_pulled_path_hook_makes_the_sentinel_stale_without_blaming_an_older_hookman(
    project: Path,
) -> None:
    install(project)
    write_hook(project, "second", GUARD)
    config = project / ".claude" / "hookman.toml"
    config.write_text(
        config.read_text() + '\n[[hooks]]\nname = "second"\npath = "hooks/second.py"\n'
        'events = ["tool_call"]\ntools = { tool_call = ["Bash"] }\n'
    )
    message = the(diagnose(project), "hookman-stale").message
    assert "PreToolUse (sentinel) watches other files" in message
    assert "older hookman" not in message


def test_a_module_that_no_longer_compiles_does_not_load(project: Path) -> None:
    install(project)
    (project / "hooks" / "guard.py").write_text("def hook(pi:\n")
    found = the(diagnose(project), "hookman-hook-does-not-load")
    assert "syntax error" in found.message and "denies every tool call" in found.message


def test_a_deleted_module_does_not_load(project: Path) -> None:
    install(project)
    (project / "hooks" / "guard.py").unlink()
    assert "does not exist" in the(diagnose(project), "hookman-hook-does-not-load").message


def test_a_registry_hook_this_machine_lacks(project: Path) -> None:
    toml = project / ".claude" / "hookman.toml"
    toml.write_text('[[hooks]]\nname = "team"\nregistry = "team-guard"\nevents = ["tool_call"]\n')
    found = the(diagnose(project), "hookman-registry-entry-missing")
    assert "hookman registry add" in found.fix


def test_a_registry_entry_whose_file_is_gone(project: Path, tmp_path: Path) -> None:
    hook = write_hook(tmp_path, "shared", GUARD)
    from hookman.hooks.registry import add_registry_entry

    add_registry_entry("shared", hook)
    assert diagnose(project).findings == []
    hook.unlink()
    assert the(diagnose(project), "registry-entry-file-gone").severity == "warning"


def test_a_hook_listening_only_to_events_claude_code_never_sends(project: Path) -> None:
    toml = project / ".claude" / "hookman.toml"
    write_hook(project, "turns", NEVER_SENT)
    toml.write_text('[[hooks]]\nname = "turns"\npath = "hooks/turns.py"\nevents = ["turn_start"]\n')
    assert the(diagnose(project), "hookman-never-sent").severity == "warning"


def test_an_unparseable_hookman_toml_is_an_error(project: Path) -> None:
    (project / ".claude" / "hookman.toml").write_text("[[hooks]\n")
    assert the(diagnose(project), "hookman-config-invalid").severity == "error"


def test_settings_local_json_that_git_does_not_ignore(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    local_path(project).write_text("{}\n")
    assert the(diagnose(project), "local-settings-not-ignored").severity == "warning"
    install(project)  # adds it to .git/info/exclude
    assert "local-settings-not-ignored" not in codes(diagnose(project))


def test_an_event_name_no_version_knows_in_hookman_toml(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    toml = project / ".claude" / "hookman.toml"
    toml.write_text('[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\nevents = ["tool_cal"]\n')
    assert "tool_cal" in the(diagnose(project), "hookman-unknown-event").message
    toml.write_text('[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\nevents = ["tool_call"]\n')
    assert "hookman-unknown-event" not in codes(diagnose(project))


def test_a_template_this_hookman_does_not_ship(project: Path) -> None:
    toml = project / ".claude" / "hookman.toml"
    toml.write_text(
        '[[hooks]]\nname = "x"\ntemplate = "no-such-template"\nevents = ["tool_call"]\n'
    )
    assert the(diagnose(project), "hookman-template-missing").severity == "error"


def test_a_user_registry_that_does_not_parse(project: Path) -> None:
    paths.registry_path().parent.mkdir(parents=True, exist_ok=True)
    paths.registry_path().write_text("[hooks\n")
    assert the(diagnose(project), "registry-invalid").severity == "warning"


def test_doctor_never_starts_a_non_python_program_named_as_interpreter(
    project: Path, tmp_path: Path
) -> None:
    install(project)
    marker = tmp_path / "ran"
    fake = tmp_path / "evil"
    fake.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    fake.chmod(0o755)
    settings = json.loads(local_path(project).read_text())
    interpreter = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"].split()[0].strip("'")
    rewrite_command(project, interpreter, str(fake))
    assert "hookman-interpreter-gone" not in codes(diagnose(project))
    assert not marker.exists()


def test_the_interpreter_running_doctor_is_not_started_again(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    def no_child(*args: object, **kwargs: object) -> None:
        raise AssertionError("doctor started a child for its own interpreter")

    monkeypatch.setattr(findings_hookman.subprocess, "run", no_child)
    monkeypatch.chdir(project)
    assert findings_hookman.interpreter_problem(sys.executable) is None
