"""doctor's Codex CLI findings: a fixture and a near miss per code. Codex's app server is
faked at the function boundary (findings_codex.find_codex / list_hooks); the real binary's
answers are proven in tests/e2e/test_codex_doctor.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookman.agents.codex_app_server import CodexAppServerError, CodexHook
from hookman.catalog.client_version import parse_version
from hookman.doctor import findings_codex
from hookman.doctor.report import exit_code, report_json

from .conftest import (
    GUARD,
    codes,
    command,
    diagnose,
    group,
    hookman_cli,
    the,
    write_hook,
    write_json,
)


@pytest.fixture(autouse=True)
def no_codex(monkeypatch: pytest.MonkeyPatch) -> None:
    """Codex installed, but no `codex` app server to ask and no version, unless a test says
    otherwise."""
    monkeypatch.setattr(findings_codex.codex_catalog, "codex_installed", lambda: True)
    monkeypatch.setattr(findings_codex, "find_codex", lambda: None)
    monkeypatch.setattr(findings_codex.codex_catalog, "detect_codex_version", lambda: None)


def codex_version(monkeypatch: pytest.MonkeyPatch, version: str) -> None:
    parsed = parse_version(version)
    monkeypatch.setattr(findings_codex.codex_catalog, "detect_codex_version", lambda: parsed)


def fake_codex(monkeypatch: pytest.MonkeyPatch, answer: Callable[[str], list[CodexHook]]) -> None:
    monkeypatch.setattr(findings_codex, "find_codex", lambda: "/fake/codex")
    monkeypatch.setattr(findings_codex, "list_hooks", lambda cwd, program=None: answer(cwd))


def hooks_file(directory: Path, hooks: Any) -> Path:
    return write_json(directory / ".codex" / "hooks.json", {"hooks": hooks})


def user_codex(home: Path) -> Path:
    return home / ".codex"


def trust_project(home: Path, project: Path, level: str = "trusted") -> Path:
    config = user_codex(home) / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'[projects."{project}"]\ntrust_level = "{level}"\n', encoding="utf-8")
    return config


def listed(
    path: Path, status: str, command_text: str = "x", event: str = "pre_tool_use"
) -> CodexHook:
    return CodexHook(
        f"{path}:{event}:0:0", command_text, str(path), "sha256:1", status, "preToolUse"
    )


def install_codex(project: Path, *extra: str) -> None:
    path = write_hook(project, "guard", GUARD)
    done = hookman_cli(
        "install",
        str(path),
        "--claude-version",
        "2.1.328",
        "--agent",
        "codex",
        "--codex-version",
        "0.171.0",
        "--no-codex-trust",
        "--project",
        str(project),
        *extra,
    )
    assert done.exit_code == 0, done.output


def codex_codes(ctx: Any) -> list[str]:
    return [code for code in codes(ctx) if code.startswith("codex-")]


# --- when doctor looks at Codex at all ------------------------------------------------------


def test_a_project_without_codex_runs_nothing_of_codex(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("Codex was asked about a project that does not use it")

    monkeypatch.setattr(findings_codex, "check_codex", never)
    ctx = diagnose(project)
    assert not [s for s in ctx.sources.sources if s.kind == "codex"]


def test_an_empty_codex_hooks_file_is_not_an_opt_in(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_json(user_codex(isolated_user) / "hooks.json", {"hooks": {}})
    monkeypatch.setattr(findings_codex, "check_codex", lambda ctx: pytest.fail("ran"))
    ctx = diagnose(project)
    assert not [s for s in ctx.sources.sources if s.kind == "codex"]
    assert not [f for f in ctx.findings if f.code.startswith("codex")]


def test_codex_files_are_sources_and_their_handlers_are_in_the_merged_view(
    project: Path, isolated_user: Path
) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"PreToolUse": [group(command("echo hi"), matcher="Bash")]})
    data = report_json(diagnose(project))
    kinds = [(s["kind"], s["label"]) for s in data["sources"] if s["kind"] == "codex"]
    assert ("codex", "project hooks.json") in kinds and ("codex", "user config.toml") in kinds
    handler = next(h for h in data["handlers"] if h["source"] == "codex")
    assert handler["path"] == "hooks.PreToolUse[0].hooks[0]" and handler["command"] == "echo hi"
    assert set(data["findings"][0]) == {
        "code", "severity", "file", "event", "path", "line", "message", "fix", "edit", "silences"
    }  # fmt: skip


# --- codex-source-invalid --------------------------------------------------------------------


def test_a_broken_codex_hooks_file_is_reported_and_left_untouched(project: Path) -> None:
    path = project / ".codex" / "hooks.json"
    path.parent.mkdir()
    path.write_bytes(b'{"hooks": {\n')
    found = the(diagnose(project), "codex-source-invalid")
    assert found.severity == "error" and found.file == str(path)
    assert "not valid JSON" in found.message and "line 2" in found.message
    assert path.read_bytes() == b'{"hooks": {\n'


def test_a_broken_codex_config_toml_is_reported(project: Path, isolated_user: Path) -> None:
    hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    config = trust_project(isolated_user, project)
    config.write_text("[[[broken\n", encoding="utf-8")
    found = the(diagnose(project), "codex-source-invalid")
    assert found.file == str(config) and "no hooks at all" in found.message


def test_valid_codex_files_are_not_invalid(project: Path, isolated_user: Path) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    assert "codex-source-invalid" not in codes(diagnose(project))


# --- codex-unknown-event / codex-event-too-new ---------------------------------------------


def test_a_misspelled_codex_event_is_renamed_by_its_edit(
    project: Path, isolated_user: Path
) -> None:
    trust_project(isolated_user, project)
    path = hooks_file(project, {"PreToolUs": [group(command("echo hi"))]})
    found = the(diagnose(project), "codex-unknown-event")
    assert found.severity == "error" and "PreToolUse" in found.message
    assert found.edit == {
        "op": "rename",
        "file": str(path),
        "path": "hooks.PreToolUs",
        "value": "PreToolUse",
    }
    assert found.line == 3


def test_a_claude_code_event_codex_lacks_is_named_as_such(
    project: Path, isolated_user: Path
) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"Notification": [group(command("echo hi"))]})
    found = the(diagnose(project), "codex-unknown-event")
    assert "Claude Code event Codex does not have" in found.message and found.edit is None


def test_a_known_codex_event_is_not_unknown(project: Path, isolated_user: Path) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    assert "codex-unknown-event" not in codes(diagnose(project))


def test_an_event_newer_than_the_installed_codex_is_held_back(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"PreModelRequest": [group(command("echo hi"))]})
    codex_version(monkeypatch, "0.150.0")
    found = the(diagnose(project), "codex-event-too-new")
    assert "held back" in found.message and "Codex >= 0.171.0" in found.message


def test_the_same_event_on_a_codex_that_has_it_is_quiet(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"PreModelRequest": [group(command("echo hi"))]})
    codex_version(monkeypatch, "0.171.0")
    assert "codex-event-too-new" not in codes(diagnose(project))


# --- codex-exit-1-not-2 / codex-ask-fails-open ----------------------------------------------


def test_a_guard_that_exits_1_fails_open_on_codex(project: Path, isolated_user: Path) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"PreToolUse": [group(command("echo 'denied: rm' >&2; exit 1"))]})
    found = the(diagnose(project), "codex-exit-1-not-2")
    assert found.severity == "error" and "exit 2" in found.fix
    assert found.path == "hooks.PreToolUse[0].hooks[0]"


def test_a_guard_in_a_script_that_exits_1_is_read(project: Path, isolated_user: Path) -> None:
    trust_project(isolated_user, project)
    script = project / "guard.sh"
    script.write_text("#!/bin/sh\necho 'not allowed' >&2\nexit 1\n", encoding="utf-8")
    hooks_file(project, {"PreToolUse": [group(command(f"sh {script}"))]})
    assert "guard.sh" in the(diagnose(project), "codex-exit-1-not-2").message


@pytest.mark.parametrize(
    ("event", "text"),
    [
        ("PreToolUse", "echo 'denied: rm' >&2; exit 2"),  # exit 2 blocks
        ("PreToolUse", "make lint || exit 1"),  # no guard words: a failing tool, not a block
        ("PostToolUse", "echo 'denied' >&2; exit 1"),  # nothing to fail open on
    ],
)
def test_exit_1_that_is_not_a_failing_guard_is_quiet(
    project: Path, isolated_user: Path, event: str, text: str
) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {event: [group(command(text))]})
    assert "codex-exit-1-not-2" not in codes(diagnose(project))


ASK = (
    """echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "%s"}}'"""
)


def test_ask_fails_open_on_codex(project: Path, isolated_user: Path) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"PreToolUse": [group(command(ASK % "ask"))]})
    found = the(diagnose(project), "codex-ask-fails-open")
    assert found.severity == "error" and "deny" in found.fix


def test_deny_is_not_ask(project: Path, isolated_user: Path) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"PreToolUse": [group(command(ASK % "deny"))]})
    assert "codex-ask-fails-open" not in codes(diagnose(project))


# --- codex-project-untrusted ------------------------------------------------------------------


def test_an_untrusted_project_silences_hookmans_codex_entries(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_codex(project)
    codex_version(monkeypatch, "0.171.0")
    ctx = diagnose(project)
    found = the(ctx, "codex-project-untrusted")
    assert found.severity == "error" and "PreToolUse" in found.message
    assert "codex exec --trust" in found.fix and "hookman install --agent codex" in found.fix
    assert f'[projects."{project}"] trust_level = "trusted"' in found.fix
    assert "dangerously" not in found.fix
    codex = [h for h in ctx.handlers if h.source.kind == "codex"]
    assert codex and all(h.not_loaded_because == "codex-project-untrusted" for h in codex)


def test_foreign_hooks_only_warn_and_older_codex_has_no_trust_flag(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    codex_version(monkeypatch, "0.150.0")
    found = the(diagnose(project), "codex-project-untrusted")
    assert found.severity == "warning" and "--trust" not in found.fix
    assert "hookman install" not in found.fix


def test_an_explicitly_untrusted_project_says_so(project: Path, isolated_user: Path) -> None:
    hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    config = trust_project(isolated_user, project, "untrusted")
    found = the(diagnose(project), "codex-project-untrusted")
    assert 'trust_level = "untrusted"' in found.message and str(config) in found.fix


def test_a_trusted_git_root_trusts_a_project_below_it(tmp_path: Path, isolated_user: Path) -> None:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    project = root / "app"
    (project / ".claude").mkdir(parents=True)
    hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    trust_project(isolated_user, root)
    assert "codex-project-untrusted" not in codes(diagnose(project))


def test_a_trusted_project_is_not_reported(project: Path, isolated_user: Path) -> None:
    hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    trust_project(isolated_user, project)
    assert "codex-project-untrusted" not in codes(diagnose(project))


def test_codex_listing_the_projects_hooks_outweighs_the_config(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    fake_codex(monkeypatch, lambda cwd: [listed(path, "trusted")])
    assert "codex-project-untrusted" not in codes(diagnose(project))


# --- codex-hook-untrusted / codex-hook-modified / codex-foreign-hook-untrusted ----------------


@pytest.mark.parametrize(
    ("status", "code"), [("untrusted", "codex-hook-untrusted"), ("modified", "codex-hook-modified")]
)
def test_hookmans_untrusted_or_modified_entry_is_an_error(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch, status: str, code: str
) -> None:
    install_codex(project)
    trust_project(isolated_user, project)
    codex_version(monkeypatch, "0.171.0")
    path = project / ".codex" / "hooks.json"
    command_text = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    fake_codex(monkeypatch, lambda cwd: [listed(path, status, command_text)])
    ctx = diagnose(project)
    found = the(ctx, code)
    assert found.severity == "error" and found.fix.startswith("run `hookman install --agent codex`")
    assert found.line is not None and codex_codes(ctx) == [code]


def test_hookmans_trusted_entry_is_quiet(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_codex(project)
    trust_project(isolated_user, project)
    codex_version(monkeypatch, "0.171.0")
    path = project / ".codex" / "hooks.json"
    fake_codex(monkeypatch, lambda cwd: [listed(path, "trusted")])
    assert codex_codes(diagnose(project)) == []


def test_a_foreign_untrusted_hook_is_a_warning_doctor_never_trusts(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trust_project(isolated_user, project)
    path = hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    fake_codex(monkeypatch, lambda cwd: [listed(path, "untrusted", "echo hi")])
    found = the(diagnose(project), "codex-foreign-hook-untrusted")
    assert found.severity == "warning" and "hookman install" not in found.fix


def test_a_foreign_hook_of_another_event_index_is_not_confused(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trust_project(isolated_user, project)
    path = hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    fake_codex(monkeypatch, lambda cwd: [listed(path, "untrusted", event="post_tool_use")])
    assert "codex-foreign-hook-untrusted" not in codes(diagnose(project))


# --- codex-trust-not-checked ------------------------------------------------------------------


def test_without_an_app_server_trust_is_not_checked(project: Path, isolated_user: Path) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})
    found = the(diagnose(project), "codex-trust-not-checked")
    assert found.severity == "info" and "no `codex` program is on PATH" in found.message


def test_an_app_server_that_fails_is_said(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trust_project(isolated_user, project)
    hooks_file(project, {"PreToolUse": [group(command("echo hi"))]})

    def fails(cwd: str) -> list[CodexHook]:
        raise CodexAppServerError("Codex refused `hooks/list`: boom.")

    fake_codex(monkeypatch, fails)
    assert "boom" in the(diagnose(project), "codex-trust-not-checked").message


def test_no_codex_hooks_means_nothing_to_check(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / ".claude" / "hookman.toml").write_text('agents = ["claude", "codex"]\n')
    fake_codex(monkeypatch, lambda cwd: pytest.fail("asked Codex with no hooks to ask about"))
    assert codex_codes(diagnose(project)) == []


# --- codex-not-installed -------------------------------------------------------------------


def test_a_machine_without_codex_is_told_once_as_information(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A teammate without Codex, after `agents = ["claude", "codex"]` was committed and an
    earlier install wrote .codex/hooks.json: one info finding, no error, exit 0."""
    install_codex(project)  # the project's own .codex/hooks.json, Codex not trusting it
    monkeypatch.setattr(findings_codex.codex_catalog, "codex_installed", lambda: False)
    monkeypatch.setattr(findings_codex, "list_hooks", lambda *a, **k: pytest.fail("asked"))

    ctx = diagnose(project)

    found = the(ctx, "codex-not-installed")
    assert found.severity == "info" and "not installed here" in found.message
    assert "hookman install" in found.fix
    assert codex_codes(ctx) == ["codex-not-installed"] and exit_code(ctx) == 0
    codex = [h for h in ctx.handlers if h.source.kind == "codex"]
    assert codex and {h.not_loaded_because for h in codex} == {"codex-not-installed"}


# --- codex-hookman-stale ----------------------------------------------------------------------


def test_a_fresh_codex_install_is_not_stale(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_codex(project)
    trust_project(isolated_user, project)
    codex_version(monkeypatch, "0.171.0")
    assert "codex-hookman-stale" not in codes(diagnose(project))


def test_a_hand_edited_codex_entry_is_stale(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_codex(project)
    trust_project(isolated_user, project)
    codex_version(monkeypatch, "0.171.0")
    path = project / ".codex" / "hooks.json"
    data = json.loads(path.read_text())
    data["hooks"]["PreToolUse"][0]["matcher"] = "Edit"
    path.write_text(json.dumps(data))
    found = the(diagnose(project), "codex-hookman-stale")
    assert found.severity == "error" and found.fix.startswith("run `hookman install`")


def test_a_removed_codex_entry_is_stale(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_codex(project)
    trust_project(isolated_user, project)
    codex_version(monkeypatch, "0.171.0")
    path = project / ".codex" / "hooks.json"
    path.write_text(json.dumps({"hooks": {"Stop": [group(command("echo hi"))]}}))
    assert "missing: PreToolUse" in the(diagnose(project), "codex-hookman-stale").message


def test_codex_entries_left_out_of_agents_are_stale(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_codex(project)
    trust_project(isolated_user, project)
    toml = project / ".claude" / "hookman.toml"
    toml.write_text(
        toml.read_text()
        .replace('"codex"', '"claude"')
        .replace('["claude", "claude"]', '["claude"]')
    )
    assert '"codex"' not in toml.read_text()
    found = the(diagnose(project), "codex-hookman-stale")
    assert found.severity == "warning" and "hookman install --agent codex" in found.fix
