"""install, list, fire and doctor agree in every state of the project's files: the target
version install remembered, a settings.local.json hookman cannot parse, a hook with a
syntax error, an unparsable hookman.toml, and an empty tools list (in the hook or in
hookman.toml)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from hookman.cli.app import app
from hookman.doctor import sources
from hookman.scaffold.template_files import bundled_templates

VERSION = "2.1.332"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # no `claude --version` to ask
    monkeypatch.setattr(sources, "managed_dir", lambda: tmp_path / "managed")


def run(project: Path, *args: str) -> Result:
    return CliRunner().invoke(app, [*args, "--project", str(project)])


def doctor_json(project: Path, *args: str) -> dict:
    result = run(project, "doctor", "--json", *args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return json.loads(result.stdout)


def codes(report: dict) -> list[str]:
    return [finding["code"] for finding in report["findings"]]


def new(project: Path, name: str, template: str) -> None:
    result = run(project, "new", name, "-t", template)
    assert result.exit_code == 0, result.output


def test_doctor_uses_the_target_install_remembered_as_list_does(project: Path) -> None:
    made = run(
        project, "new", "guard", "-t", "bash_guard", "--install", "--claude-version", VERSION
    )
    assert made.exit_code == 0, made.output
    listed = json.loads(run(project, "list", "--json").stdout)
    report = doctor_json(project)
    assert listed["claude_version"] == report["claude_version"] == VERSION
    assert "hookman-stale" not in codes(report)
    assert "target-version-unknown" not in codes(report)
    again = run(project, "install")
    assert again.exit_code == 0
    assert ".claude/settings.local.json unchanged" in again.stdout


def test_a_project_made_from_every_template_is_not_stale(project: Path) -> None:
    for template in bundled_templates():
        new(project, template, template)
    assert run(project, "install", "--claude-version", VERSION).exit_code == 0
    report = doctor_json(project)
    assert report["claude_version"] == VERSION
    stale = [f for f in report["findings"] if f["code"] == "hookman-stale"]
    assert stale == []


def test_a_broken_local_settings_file_gets_no_fix_that_install_refuses(project: Path) -> None:
    new(project, "guard", "bash_guard")
    assert run(project, "install", "--claude-version", VERSION).exit_code == 0
    local = project / ".claude" / "settings.local.json"
    local.write_text("{broken", encoding="utf-8")
    install = run(project, "install")
    assert install.exit_code != 0
    assert local.read_text(encoding="utf-8") == "{broken"
    report = doctor_json(project)
    assert "settings-invalid-json" in codes(report)
    fixes = [finding["fix"] for finding in report["findings"]]
    assert not any("hookman install" in fix for fix in fixes), fixes


def test_a_hook_with_a_syntax_error_is_named_by_install_list_doctor_and_denied_by_fire(
    project: Path,
) -> None:
    new(project, "guard", "bash_guard")
    assert run(project, "install", "--claude-version", VERSION).exit_code == 0
    module = project / ".claude" / "hooks" / "guard.py"
    module.write_text(module.read_text(encoding="utf-8") + "\ndef broken(:\n", encoding="utf-8")

    settings = project / ".claude" / "settings.local.json"
    written = settings.read_bytes()
    install = run(project, "install")
    assert install.exit_code == 1
    assert "the hook 'guard' has a syntax error in guard.py" in install.stderr
    assert "nothing was written" in install.stderr
    assert "hookman disable guard" in install.stderr
    assert settings.read_bytes() == written

    listed = run(project, "list")
    assert listed.exit_code == 1
    assert "does not load: the hook 'guard' has a syntax error" in listed.stdout
    rows = json.loads(run(project, "list", "--json").stdout)["hooks"]
    assert "syntax error" in rows[0]["problem"]

    for probe in ((), ("--probe",)):
        report = doctor_json(project, *probe)
        assert codes(report).count("hookman-hook-does-not-load") == 1, report["findings"]

    fired = json.loads(run(project, "fire", "PreToolUse", "--json").stdout)
    assert fired["answer"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    text = run(project, "fire", "PreToolUse").stdout
    assert "failed to load: invalid syntax" in text
    assert "Failed to load hook:" not in text.split("failed to load:")[1].splitlines()[0]


def test_an_unparsable_hookman_toml_stops_install_list_and_fire_alike(project: Path) -> None:
    new(project, "guard", "bash_guard")
    assert run(project, "install", "--claude-version", VERSION).exit_code == 0
    toml = project / ".claude" / "hookman.toml"
    toml.write_text("[[hooks]\nname = ", encoding="utf-8")
    results = {
        command: run(project, command, *rest)
        for command, *rest in (("install",), ("list",), ("fire", "PreToolUse"))
    }
    for command, result in results.items():
        assert result.exit_code != 0, (command, result.output)
        assert "hookman.toml" in result.output, (command, result.output)
        assert "Traceback" not in result.output
    assert "hookman-config-invalid" in codes(doctor_json(project))
    assert toml.read_text(encoding="utf-8") == "[[hooks]\nname = "


def test_an_empty_tools_list_is_refused_in_the_hook_and_in_hookman_toml(project: Path) -> None:
    hook = project / "empty.py"
    hook.write_text(
        "def hook(pi):\n    pi.on('tool_call', lambda e, c: None, tools=[])\n", encoding="utf-8"
    )
    installed = run(project, "install", str(hook))
    assert installed.exit_code != 0
    assert "tools=[] names no tool" in installed.output
    toml = project / ".claude" / "hookman.toml"
    toml.write_text(
        '[[hooks]]\nname = "empty"\npath = "empty.py"\nevents = ["tool_call"]\n'
        "tools = { tool_call = [] }\n",
        encoding="utf-8",
    )
    for command in ("install", "list"):
        result = run(project, command)
        assert result.exit_code != 0
        assert "empty list, which names no tool" in result.output


def test_dry_run_says_what_it_would_do(project: Path) -> None:
    new(project, "guard", "bash_guard")
    assert run(project, "install", "--claude-version", VERSION).exit_code == 0
    removed = run(project, "remove", "guard", "--dry-run")
    assert "would remove guard" in removed.stdout
    assert "would be" not in removed.stdout


def test_install_with_nothing_to_install_says_how_to_start(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run(empty, "install")
    assert result.exit_code == 1
    assert "there is nothing to install in" in result.output
    assert "hookman new NAME --template bash_guard --install" in result.output
    assert "unchanged" not in result.output
    assert list(empty.iterdir()) == []


def test_a_fork_session_start_matcher_is_a_source_doctor_knows(project: Path) -> None:
    """SessionStart's source enum in 2.1.328 and 2.1.332 ends with "fork" (--fork-session)."""
    settings = {
        "hooks": {
            "SessionStart": [
                {"matcher": "fork", "hooks": [{"type": "command", "command": "echo hi"}]}
            ]
        }
    }
    (project / ".claude" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    report = doctor_json(project, "--claude-version", VERSION)
    matcher_findings = [f for f in report["findings"] if "matcher" in f["code"]]
    assert matcher_findings == [], matcher_findings
