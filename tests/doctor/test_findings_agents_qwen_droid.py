"""doctor's Qwen Code and Factory droid findings: a fixture and a near miss per code. The
agents' programs are faked at the function boundary (findings_agents.installed); what the
real binaries do with each file is in docs/agents.md (measured, or read in the package)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookman.doctor import findings_agents, findings_droid, findings_qwen
from hookman.doctor.report import exit_code, report_json

from .conftest import codes, command, diagnose, group, the, write_json

GUARD_SCRIPT = 'echo "blocked: rm -rf is not allowed" >&2\nexit 1\n'


def hookman_command(project: Path, event: str = "PreToolUse", agent: str | None = None) -> str:
    flag = f" --agent {agent}" if agent else ""
    return f"sh {project}/.claude/hookman/hookman-run.sh {event}{flag}"


@pytest.fixture(autouse=True)
def agents_installed(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Every agent's program on PATH unless a test takes one away."""
    present = {"qwen", "droid", "copilot"}
    monkeypatch.setattr(findings_agents, "installed", lambda agent: agent in present)
    return present


def qwen_settings(project: Path, hooks: Any, **extra: Any) -> Path:
    return write_json(project / ".qwen" / "settings.json", {"hooks": hooks, **extra})


def droid_hooks(project: Path, hooks: Any) -> Path:
    return write_json(project / ".factory" / "hooks.json", hooks)


def agent_codes(ctx: Any, agent: str) -> list[str]:
    return [code for code in codes(ctx) if code.startswith(f"{agent}-")]


def name_agents(project: Path, monkeypatch: pytest.MonkeyPatch, *agents: str) -> None:
    listed = ", ".join(f'"{a}"' for a in ("claude", *agents))
    (project / ".claude" / "hookman.toml").write_text(f"agents = [{listed}]\n", encoding="utf-8")


# --- when doctor looks at them at all ------------------------------------------------------------


def test_a_project_without_qwen_or_droid_reads_nothing_of_theirs(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(findings_qwen, "check_qwen", lambda ctx: pytest.fail("qwen ran"))
    monkeypatch.setattr(findings_droid, "check_droid", lambda ctx: pytest.fail("droid ran"))
    ctx = diagnose(project)
    assert not [s for s in ctx.sources.sources if s.kind in ("qwen", "droid")]


def test_qwen_files_are_sources_and_their_handlers_are_in_the_merged_view(
    project: Path, isolated_user: Path
) -> None:
    qwen_settings(project, {"PreToolUse": [group(command("echo hi"), matcher="Bash")]})
    data = report_json(diagnose(project))
    kinds = [(s["kind"], s["label"]) for s in data["sources"] if s["kind"] == "qwen"]
    assert kinds == [("qwen", "user settings.json"), ("qwen", "project settings.json")]
    handler = next(h for h in data["handlers"] if h["source"] == "qwen")
    assert handler["path"] == "hooks.PreToolUse[0].hooks[0]" and handler["loaded"] is True
    assert not [f for f in data["findings"] if f["code"].startswith("qwen-")]


def test_qwen_home_moves_the_user_layer(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "qwen-home"
    monkeypatch.setenv("QWEN_HOME", str(home))
    write_json(home / "settings.json", {"hooks": {"Stop": [group(command("true"))]}})
    ctx = diagnose(project)
    assert str(home / "settings.json") in [s.path for s in ctx.sources.sources]


# --- not installed ------------------------------------------------------------------------------


@pytest.mark.parametrize("agent", ["qwen", "droid"])
def test_an_agent_named_but_not_installed_is_one_info_finding(
    project: Path, monkeypatch: pytest.MonkeyPatch, agents_installed: set[str], agent: str
) -> None:
    name_agents(project, monkeypatch, agent)
    agents_installed.discard(agent)
    broken = project / (".qwen/settings.json" if agent == "qwen" else ".factory/hooks.json")
    broken.parent.mkdir(parents=True)
    broken.write_text("{not json", encoding="utf-8")
    if agent == "droid":  # a wrapper, in the user's file: not reported either
        user = Path.home() / ".factory" / "hooks.json"
        write_json(user, {"hooks": {"Stop": [group(command("true"))]}})
    ctx = diagnose(project)
    found = the(ctx, f"{agent}-not-installed")
    assert found.severity == "info" and "not installed here" in found.message
    assert "hookman install" in found.fix
    assert agent_codes(ctx, agent) == [f"{agent}-not-installed"] and exit_code(ctx) == 0
    assert broken.read_text(encoding="utf-8") == "{not json"


def test_an_installed_named_agent_with_no_files_is_quiet(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name_agents(project, monkeypatch, "qwen", "droid")
    ctx = diagnose(project)
    assert not agent_codes(ctx, "qwen") and not agent_codes(ctx, "droid")


# --- files that do not parse ------------------------------------------------------------------


def test_a_broken_qwen_project_settings_file_is_reported_and_left_untouched(
    project: Path,
) -> None:
    path = project / ".qwen" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"hooks": {', encoding="utf-8")
    ctx = diagnose(project)
    found = the(ctx, "qwen-source-invalid")
    assert found.severity == "error" and "settings.json.corrupted" in found.message
    assert "line 1" in found.message and exit_code(ctx) == 1
    assert path.read_text(encoding="utf-8") == '{"hooks": {'


def test_comments_are_json_to_qwen_and_droid(project: Path) -> None:
    path = project / ".qwen" / "settings.json"
    path.parent.mkdir()
    path.write_text(
        '// mine\n{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}',
        encoding="utf-8",
    )
    ctx = diagnose(project)
    assert not agent_codes(ctx, "qwen")
    assert [h.event for h in ctx.handlers if h.source.kind == "qwen"] == ["Stop"]


def test_a_trailing_comma_makes_droid_skip_the_file(project: Path) -> None:
    """Measured with droid 0.225.2: comments are fine, a trailing comma ran no hook."""
    path = project / ".factory" / "hooks.json"
    path.parent.mkdir()
    path.write_text('{"Stop": [{"hooks": [{"type": "command", "command": "true"},]}]}', "utf-8")
    assert the(diagnose(project), "droid-source-invalid").severity == "error"


def test_a_broken_droid_file_is_ignored_without_a_word(project: Path) -> None:
    path = project / ".factory" / "hooks.json"
    path.parent.mkdir()
    path.write_text("[", encoding="utf-8")
    found = the(diagnose(project), "droid-source-invalid")
    assert "without a word" in found.message


# --- unknown events ----------------------------------------------------------------------------


def test_an_event_qwen_does_not_know_is_reported_with_its_likely_name(project: Path) -> None:
    qwen_settings(project, {"PreToolUze": [group(command("true"))]})
    found = the(diagnose(project), "qwen-unknown-event")
    assert "'PreToolUse'" in found.message and found.edit["value"] == "PreToolUse"
    assert found.path == "hooks.PreToolUze"


def test_qwen_s_own_events_are_known(project: Path) -> None:
    qwen_settings(project, {"TodoCreated": [group(command("true"))]})
    assert "qwen-unknown-event" not in codes(diagnose(project))


def test_a_claude_event_droid_does_not_have_is_reported(project: Path) -> None:
    droid_hooks(project, {"PostToolUseFailure": [group(command("true"))]})
    ctx = diagnose(project)
    found = the(ctx, "droid-unknown-event")
    assert found.path == "PostToolUseFailure" and "drops the key" in found.message
    handler = next(h for h in ctx.handlers if h.source.kind == "droid")
    assert handler.not_loaded_because == "droid-unknown-event"


# --- the off switches ----------------------------------------------------------------------------


def test_disable_all_hooks_in_qwen_is_an_error_when_hookman_s_hooks_are_there(
    project: Path,
) -> None:
    entry = command(hookman_command(project, agent="qwen"))
    qwen_settings(project, {"PreToolUse": [group(entry, matcher="Bash")]}, disableAllHooks=True)
    found = the(diagnose(project), "qwen-hooks-disabled")
    assert found.severity == "error" and "hookman's included" in found.message


def test_the_project_s_false_wins_over_the_user_s_true(project: Path, isolated_user: Path) -> None:
    write_json(isolated_user / ".qwen" / "settings.json", {"disableAllHooks": True})
    qwen_settings(project, {"Stop": [group(command("true"))]}, disableAllHooks=False)
    assert "qwen-hooks-disabled" not in codes(diagnose(project))


def test_hooks_disabled_in_droid_s_hooks_json(project: Path) -> None:
    droid_hooks(project, {"Stop": [group(command("true"))], "hooksDisabled": True})
    assert the(diagnose(project), "droid-hooks-disabled").severity == "warning"


# --- hookman's entries without --agent ---------------------------------------------------------


@pytest.mark.parametrize("agent", ["qwen", "droid"])
def test_hookman_s_claude_entry_copied_into_an_agent_file_is_an_error(
    project: Path, agent: str
) -> None:
    """Measured: hookman's entry copied verbatim into .qwen/settings.json ran, logged ok, and
    let `rm -rf` run (the tool is run_shell_command, the guard waits for Bash)."""
    entry = group(command(hookman_command(project)), matcher="Bash|Execute")
    if agent == "qwen":
        qwen_settings(project, {"PreToolUse": [entry]})
    else:
        droid_hooks(project, {"PreToolUse": [entry]})
    ctx = diagnose(project)
    found = the(ctx, f"{agent}-hookman-wrong-agent")
    assert found.severity == "error" and f"--agent {agent}" in found.message
    assert f"hookman install --agent {agent}" in found.fix


def test_hookman_s_own_qwen_entry_is_its_agent_s(project: Path) -> None:
    entry = group(command(hookman_command(project, agent="qwen")), matcher="Bash")
    qwen_settings(project, {"PreToolUse": [entry]})
    assert "qwen-hookman-wrong-agent" not in codes(diagnose(project))


def test_another_agent_s_entry_is_named(project: Path) -> None:
    entry = group(command(hookman_command(project, agent="codex")), matcher="Execute")
    droid_hooks(project, {"PreToolUse": [entry]})
    assert "codex's" in the(diagnose(project), "droid-hookman-wrong-agent").message


# --- answers they fail open on ----------------------------------------------------------------


def write_script(project: Path, text: str) -> str:
    script = project / "guard.sh"
    script.write_text(text, encoding="utf-8")
    return f"sh {script}"


@pytest.mark.parametrize("agent", ["qwen", "droid"])
def test_an_exit_1_guard_fails_open(project: Path, agent: str) -> None:
    entry = group(command(write_script(project, GUARD_SCRIPT)), matcher="Execute")
    if agent == "qwen":
        qwen_settings(project, {"PreToolUse": [entry]})
    else:
        droid_hooks(project, {"PreToolUse": [entry]})
    found = the(diagnose(project), f"{agent}-exit-1-not-2")
    assert "in guard.sh" in found.message and "fails open" in found.message


def test_exit_2_is_not_reported(project: Path) -> None:
    text = GUARD_SCRIPT.replace("exit 1", "exit 2")
    qwen_settings(project, {"PreToolUse": [group(command(write_script(project, text)))]})
    assert "qwen-exit-1-not-2" not in codes(diagnose(project))


@pytest.mark.parametrize(
    ("answer", "agent", "reported"),
    [
        ('{"permissionDecision": "deny"}', "qwen", True),
        ('{"permissionDecision": "deny"}', "droid", True),
        ('{"decision": "block"}', "droid", True),
        ('{"decision": "block"}', "qwen", False),  # Qwen honours the legacy block
        ('{"hookSpecificOutput": {"permissionDecision": "deny"}}', "droid", False),
    ],
)
def test_a_top_level_decision(project: Path, answer: str, agent: str, reported: bool) -> None:
    script = write_script(project, f"echo '{answer}'\n")
    entry = group(command(script), matcher="Execute")
    if agent == "qwen":
        qwen_settings(project, {"PreToolUse": [entry]})
    else:
        droid_hooks(project, {"PreToolUse": [entry]})
    found = f"{agent}-top-level-decision" in codes(diagnose(project))
    assert found is reported


# --- droid: the wrapper, the schema, the shadowing, the matchers ----------------------------------


def test_a_hooks_wrapper_in_droid_s_hooks_json_is_skipped(project: Path) -> None:
    entry = group(command(hookman_command(project, agent="droid")), matcher="Execute")
    droid_hooks(project, {"hooks": {"PreToolUse": [entry]}})
    ctx = diagnose(project)
    found = the(ctx, "droid-hooks-wrapper")
    assert found.severity == "error" and "hookman's included" in found.message
    assert "hookman install --agent droid" in found.fix
    wrapped = [h for h in ctx.handlers if h.source.kind == "droid"]
    assert [h.path for h in wrapped] == ["hooks.PreToolUse[0].hooks[0]"]
    assert wrapped[0].not_loaded_because == "droid-hooks-wrapper"


def test_the_hooks_key_of_settings_json_is_not_a_wrapper(project: Path) -> None:
    write_json(
        project / ".factory" / "settings.json", {"hooks": {"Stop": [group(command("true"))]}}
    )
    ctx = diagnose(project)
    assert not agent_codes(ctx, "droid")


@pytest.mark.parametrize(
    ("entry", "what"),
    [
        ({"type": "prompt", "prompt": "is it safe?"}, "type 'prompt'"),
        ({"type": "command"}, "without a `command` string"),
        ({"type": "command", "command": "true", "timeout": "30"}, "not a number"),
    ],
)
def test_one_entry_droid_refuses_skips_the_whole_file(
    project: Path, entry: dict[str, Any], what: str
) -> None:
    guard = command(hookman_command(project, agent="droid"))
    droid_hooks(project, {"PreToolUse": [group(guard, matcher="Execute")], "Stop": [group(entry)]})
    ctx = diagnose(project)
    found = the(ctx, "droid-file-ignored")
    assert what in found.message and "hookman's included" in found.message
    assert found.path == "Stop[0].hooks[0]"
    guard_handler = next(h for h in ctx.handlers if h.event == "PreToolUse")
    assert guard_handler.not_loaded_because == "droid-file-ignored"


def test_a_valid_droid_file_is_not_refused(project: Path) -> None:
    droid_hooks(project, {"Stop": [group(command("true", timeout=5))]})
    assert "droid-file-ignored" not in codes(diagnose(project))


def test_settings_json_hooks_lose_to_hooks_json_in_the_same_folder(project: Path) -> None:
    droid_hooks(project, {"Stop": [group(command("true"))]})
    write_json(project / ".factory" / "settings.json", {"hooks": {"Stop": [group(command("a"))]}})
    ctx = diagnose(project)
    found = the(ctx, "droid-settings-hooks-shadowed")
    assert found.event == "Stop" and found.severity == "warning"


def test_settings_json_hooks_on_other_events_run(project: Path) -> None:
    droid_hooks(project, {"Stop": [group(command("true"))]})
    write_json(
        project / ".factory" / "settings.json",
        {"hooks": {"SessionStart": [group(command("a"))]}},
    )
    assert "droid-settings-hooks-shadowed" not in codes(diagnose(project))


def test_a_matcher_naming_bash_never_matches_droid_s_execute(project: Path) -> None:
    droid_hooks(project, {"PreToolUse": [group(command("./check.sh"), matcher="Bash|Read")]})
    ctx = diagnose(project)
    found = the(ctx, "droid-matcher-claude-tool")
    assert "`Bash` (droid's `Execute`)" in found.message
    assert found.edit == {
        "op": "set",
        "file": str(project / ".factory" / "hooks.json"),
        "path": "PreToolUse[0].matcher",
        "value": "Execute|Read",
    }


def test_droid_s_own_tool_names_are_fine(project: Path) -> None:
    droid_hooks(project, {"PreToolUse": [group(command("./check.sh"), matcher="Execute|Create")]})
    assert "droid-matcher-claude-tool" not in codes(diagnose(project))


def test_qwen_matches_claude_names_itself(project: Path) -> None:
    qwen_settings(project, {"PreToolUse": [group(command("./check.sh"), matcher="Bash")]})
    assert not agent_codes(diagnose(project), "qwen")


# --- output --------------------------------------------------------------------------------------


def test_json_is_additive_and_human_output_names_the_fix(project: Path) -> None:
    from .conftest import hookman_cli

    droid_hooks(project, {"hooks": {"PreToolUse": [group(command("x"), matcher="Execute")]}})
    done = hookman_cli("doctor", "--project", str(project), "--json", "--claude-version", "2.1.328")
    data = json.loads(done.output)
    assert set(data) >= {"project", "claude_version", "sources", "handlers", "findings"}
    finding = next(f for f in data["findings"] if f["code"] == "droid-hooks-wrapper")
    assert set(finding) == {
        "code", "severity", "file", "event", "path", "line", "message", "fix", "edit", "silences"
    }  # fmt: skip
    assert done.exit_code == 1
    human = hookman_cli("doctor", "--project", str(project), "--claude-version", "2.1.328")
    assert "droid-hooks-wrapper" in human.output and "move the events" in human.output
    assert "Traceback" not in human.output


# --- hookman's entries against what install writes now ------------------------------------------


def install_for(project: Path, agent: str) -> None:
    from .conftest import GUARD, hookman_cli, write_hook

    path = write_hook(project, "guard", GUARD)
    done = hookman_cli(
        "install",
        str(path),
        "--claude-version",
        "2.1.328",
        "--agent",
        agent,
        f"--{agent}-version",
        "0.24.4" if agent == "qwen" else "0.225.2",
        "--project",
        str(project),
    )
    assert done.exit_code == 0, done.output


@pytest.mark.parametrize("agent", ["qwen", "droid"])
def test_a_fresh_install_is_clean_for_the_agent(project: Path, agent: str) -> None:
    install_for(project, agent)
    ctx = diagnose(project)
    assert not agent_codes(ctx, agent), [f.json() for f in ctx.findings]
    own = [h for h in ctx.handlers if h.source.kind == agent and h.hookman]
    assert own and all(h.loaded for h in own)


@pytest.mark.parametrize("agent", ["qwen", "droid"])
def test_an_entry_edited_by_hand_is_stale(project: Path, agent: str) -> None:
    install_for(project, agent)
    path = project / (".qwen/settings.json" if agent == "qwen" else ".factory/hooks.json")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"timeout": 30', '"timeout": 31'), encoding="utf-8")
    assert text != path.read_text(encoding="utf-8")
    found = the(diagnose(project), f"{agent}-hookman-stale")
    assert found.severity == "error" and "differ" in found.message
    assert found.fix == "run `hookman install`."


def test_another_droid_hook_before_hookman_s_guard_is_an_error_install_fixes(
    project: Path,
) -> None:
    """droid takes the first hook's permissionDecision: an allow listed before hookman's
    deny let rm -rf run (tests/e2e/test_agent_merge.py). install puts hookman's group
    first again; Qwen Code, which keeps hookman's continue: false, is not told."""
    install_for(project, "droid")
    path = project / ".factory" / "hooks.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["PreToolUse"].insert(0, group(command("./allow.sh"), matcher="Execute"))
    path.write_text(json.dumps(document), encoding="utf-8")
    found = the(diagnose(project), "droid-hookman-stale")
    assert found.severity == "error"
    assert found.message == (
        "hookman's Factory droid entries differ from what `hookman install` writes now "
        "(edited by hand, a pull, or another Factory droid version): another hook's "
        "PreToolUse group stands before hookman's, and Factory droid takes the first hook's "
        "permissionDecision, so an allow there undoes hookman's deny. Factory droid runs "
        "the old ones, or none."
    )
    assert found.fix == "run `hookman install`."
    from .conftest import hookman_cli

    done = hookman_cli("install", "--project", str(project), "--droid-version", "0.225.2")
    assert done.exit_code == 0, done.output
    assert "droid-hookman-stale" not in codes(diagnose(project))
    install_for(project, "qwen")
    qwen = project / ".qwen" / "settings.json"
    document = json.loads(qwen.read_text(encoding="utf-8"))
    document["hooks"]["PreToolUse"].insert(0, group(command("./allow.sh"), matcher="Bash"))
    qwen.write_text(json.dumps(document), encoding="utf-8")
    assert "qwen-hookman-stale" not in codes(diagnose(project))


def test_entries_left_after_agents_dropped_the_agent(project: Path) -> None:
    install_for(project, "qwen")
    config = project / ".claude" / "hookman.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(', "qwen"', ""), encoding="utf-8")
    assert '"qwen"' not in config.read_text(encoding="utf-8")
    found = the(diagnose(project), "qwen-hookman-stale")
    assert found.severity == "warning" and "removes them" in found.message


# --- Qwen Code's folder trust (off by default) ----------------------------------------------------


def folder_trust(home: Path, rules: dict[str, str] | None) -> None:
    write_json(home / ".qwen" / "settings.json", {"security": {"folderTrust": {"enabled": True}}})
    if rules is not None:
        write_json(home / ".qwen" / "trustedFolders.json", rules)


def test_folder_trust_off_reads_the_project(project: Path) -> None:
    qwen_settings(project, {"Stop": [group(command("true"))]})
    assert "qwen-folder-untrusted" not in codes(diagnose(project))


def test_folder_trust_on_and_no_rule_ignores_the_project(
    project: Path, isolated_user: Path
) -> None:
    folder_trust(isolated_user, None)
    entry = group(command(hookman_command(project, agent="qwen")), matcher="Bash")
    qwen_settings(project, {"PreToolUse": [entry]})
    ctx = diagnose(project)
    found = the(ctx, "qwen-folder-untrusted")
    assert found.severity == "error" and "TRUST_FOLDER" in found.fix
    own = next(h for h in ctx.handlers if h.source.kind == "qwen")
    assert own.not_loaded_because == "qwen-folder-untrusted"


@pytest.mark.parametrize(
    ("rules", "trusted"),
    [
        ({"{p}": "TRUST_FOLDER"}, True),
        ({"{p}/..": "TRUST_FOLDER"}, True),
        ({"{p}/sub": "TRUST_PARENT"}, True),
        ({"{p}/..": "TRUST_FOLDER", "{p}": "DO_NOT_TRUST"}, False),
        ({"{p}/..": "DO_NOT_TRUST", "{p}": "TRUST_FOLDER"}, True),
        ({"{p}x": "TRUST_FOLDER"}, False),
    ],
)
def test_the_deepest_rule_wins(
    project: Path, isolated_user: Path, rules: dict[str, str], trusted: bool
) -> None:
    folder_trust(isolated_user, {k.format(p=project): v for k, v in rules.items()})
    qwen_settings(project, {"Stop": [group(command("true"))]})
    assert ("qwen-folder-untrusted" not in codes(diagnose(project))) is trusted


def test_an_anchored_matcher_naming_bash_is_read_too(project: Path) -> None:
    droid_hooks(project, {"PreToolUse": [group(command("./check.sh"), matcher="^(?:Bash|Read)$")]})
    found = the(diagnose(project), "droid-matcher-claude-tool")
    assert found.edit is not None and found.edit["value"] == "^(?:Execute|Read)$"


def test_another_regex_is_not_guessed(project: Path) -> None:
    droid_hooks(project, {"PreToolUse": [group(command("./check.sh"), matcher="Ba.*")]})
    assert "droid-matcher-claude-tool" not in codes(diagnose(project))


# --- qwen-hooks-off-env --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("QWEN_CODE_SIMPLE", "1", "bare mode (what `qwen --bare` sets)"),
        ("QWEN_CODE_SAFE_MODE", " True", "safe mode (as with `qwen --safe-mode`)"),
        ("QWEN_CODE_SIMPLE", "0", None),
        ("QWEN_CODE_SAFE_MODE", "", None),
    ],
)
def test_a_qwen_off_switch_in_this_environment_is_said(
    project: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str, said: str | None
) -> None:
    for name in ("QWEN_CODE_SIMPLE", "QWEN_CODE_SAFE_MODE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, value)
    entry = command(hookman_command(project, agent="qwen"))
    qwen_settings(project, {"PreToolUse": [group(entry, matcher="^(?:run_shell_command)$")]})
    ctx = diagnose(project)
    if said is None:
        assert "qwen-hooks-off-env" not in codes(ctx)
        return
    found = the(ctx, "qwen-hooks-off-env")
    assert found.severity == "info"
    assert found.message == (
        f"{variable} is set in this environment: a Qwen Code started from it is in {said}"
        + (
            " and loads no settings file, so it runs none of their hooks"
            if variable == "QWEN_CODE_SIMPLE"
            else ", which turns off its hooks, extensions, skills, MCP servers and context files"
        )
        + ", hookman's guards included."
    )
    assert found.fix == (
        f"unset {variable}, and start Qwen Code without "
        f"{'--bare' if variable == 'QWEN_CODE_SIMPLE' else '--safe-mode'}, where hooks should run."
    )


# --- qwen-ask-after-hookman --------------------------------------------------------------------

ASK = (
    'printf \'%s\' \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
    '"permissionDecision": "ask"}}\''
)
ALLOW = ASK.replace('"ask"', '"allow"')


def _with_foreign(project: Path, foreign: str, matcher: str, *, first: bool = False) -> None:
    ours = group(command(hookman_command(project, agent="qwen")), matcher="^(?:run_shell_command)$")
    theirs = group(command(foreign), matcher=matcher)
    qwen_settings(project, {"PreToolUse": [theirs, ours] if first else [ours, theirs]})


def test_a_later_qwen_hook_that_asks_is_a_warning(project: Path) -> None:
    """Qwen Code reads the last permissionDecision before hookman's continue: false: an ask
    after hookman's deny turns it into a question (catalog/agent_hook_merge.json)."""
    _with_foreign(project, ASK, "Bash")
    found = the(diagnose(project), "qwen-ask-after-hookman")
    assert found.severity == "warning" and found.path == "hooks.PreToolUse[1].hooks[0]"
    assert found.message == (
        "this PreToolUse hook runs after it for run_shell_command and answers "
        'permissionDecision "ask" (in the command): Qwen Code reads the last hook\'s '
        "permissionDecision first, so where it asks, an interactive session asks the user "
        "instead of hookman's guards denying (with -p the call is blocked with this hook's "
        "reason)."
    )
    assert found.fix.startswith("move its group before hookman's entry in .qwen/settings.json")


def test_a_user_qwen_hook_that_asks_runs_after_the_project_s(
    project: Path, isolated_user: Path
) -> None:
    qwen_settings(
        project,
        {"PreToolUse": [group(command(hookman_command(project, agent="qwen")), matcher="Bash")]},
    )
    write_json(
        isolated_user / ".qwen" / "settings.json",
        {"hooks": {"PreToolUse": [group(command(ASK), matcher="run_shell_command")]}},
    )
    found = the(diagnose(project), "qwen-ask-after-hookman")
    assert "in the user's settings, which run after the project's" in found.message
    assert found.fix.startswith("move the hook into the project's .qwen/settings.json")


@pytest.mark.parametrize(
    ("foreign", "matcher", "first"),
    [
        (ASK, "Bash", True),  # before hookman's: the deny is read last and wins
        (ASK, "write_file", False),  # another tool: never runs beside hookman's
        (ALLOW, "Bash", False),  # an allow no longer undoes the deny (continue: false)
    ],
)
def test_near_misses_of_ask_after_hookman(
    project: Path, foreign: str, matcher: str, first: bool
) -> None:
    _with_foreign(project, foreign, matcher, first=first)
    assert "qwen-ask-after-hookman" not in codes(diagnose(project))
