"""doctor's view of the project through GitHub Copilot CLI: a fixture and a near miss per
code. Copilot's program is faked at the function boundary (findings_agents.installed); its
answers and its trust file were measured with Copilot 1.0.102 (docs/agents.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookman.doctor import findings_agents, findings_copilot
from hookman.doctor.copilot_sources import is_trusted

from .conftest import codes, command, diagnose, group, settings, the, write_json

TRUST_HEADER = "// User settings belong in settings.json.\n// This file is managed automatically.\n"


@pytest.fixture(autouse=True)
def copilot_installed(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    present = {"copilot"}
    monkeypatch.setattr(findings_agents, "installed", lambda agent: agent in present)
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    monkeypatch.delenv("COPILOT_ALLOW_ALL", raising=False)
    monkeypatch.delenv("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", raising=False)
    return present


@pytest.fixture
def with_copilot(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The project names copilot in `agents`."""
    (project / ".claude" / "hookman.toml").write_text(
        'agents = ["claude", "copilot"]\n', encoding="utf-8"
    )
    return project


def trust(home: Path, *folders: Path) -> Path:
    path = home / ".copilot" / "config.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    body = json.dumps({"trustedFolders": [str(f) for f in folders]}, indent=2)
    path.write_text(TRUST_HEADER + body + "\n", encoding="utf-8")
    return path


def hookman_entry(project: Path, event: str = "PreToolUse") -> dict[str, Any]:
    return command(f"sh {project}/.claude/hookman/hookman-run.sh {event}", timeout=30)


def guard_file(project: Path, *extra_groups: dict[str, Any], matcher: str = "Bash") -> Path:
    return settings(
        project,
        {"PreToolUse": [group(hookman_entry(project), matcher=matcher), *extra_groups]},
        name="settings.local.json",
    )


def copilot_codes(ctx: Any) -> list[str]:
    return [code for code in codes(ctx) if code.startswith("copilot-")]


# --- when doctor looks at Copilot at all -------------------------------------------------------


def test_a_project_not_naming_copilot_is_not_read_through_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guard_file(project, matcher="Read, Bash")
    monkeypatch.setattr(findings_copilot, "check_copilot", lambda ctx: pytest.fail("ran"))
    assert not copilot_codes(diagnose(project))


def test_copilot_named_but_not_installed_is_one_info_finding(
    with_copilot: Path, copilot_installed: set[str]
) -> None:
    copilot_installed.clear()
    settings(with_copilot, {"PreToolUse": [group(command("./check.sh"), matcher="Read, Bash")]})
    ctx = diagnose(with_copilot)
    assert copilot_codes(ctx) == ["copilot-not-installed"]
    assert the(ctx, "copilot-not-installed").severity == "info"


# --- trust ------------------------------------------------------------------------------------


def test_an_untrusted_folder_runs_no_hook_in_copilot_p(with_copilot: Path) -> None:
    guard_file(with_copilot)
    found = the(diagnose(with_copilot), "copilot-folder-untrusted")
    assert found.severity == "warning" and "copilot -p" in found.message
    assert "hookman's included" in found.message and "--trust-folder" in found.fix


@pytest.mark.parametrize("where", ["project", "parent"])
def test_a_saved_trust_is_read(with_copilot: Path, isolated_user: Path, where: str) -> None:
    guard_file(with_copilot)
    trust(isolated_user, with_copilot if where == "project" else with_copilot.parent)
    assert "copilot-folder-untrusted" not in codes(diagnose(with_copilot))


def test_a_sibling_folder_s_trust_does_not_count(with_copilot: Path, isolated_user: Path) -> None:
    guard_file(with_copilot)
    trust(isolated_user, with_copilot.parent / "projec")
    assert "copilot-folder-untrusted" in codes(diagnose(with_copilot))


def test_copilot_home_moves_the_trust_file(
    with_copilot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guard_file(with_copilot)
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "ch"))
    trust(tmp_path / "ch" / "..", with_copilot)  # ~/.copilot-style under another root
    (tmp_path / "ch").mkdir(exist_ok=True)
    (tmp_path / "ch" / "config.json").write_text(
        json.dumps({"trustedFolders": [str(with_copilot)]}), encoding="utf-8"
    )
    assert "copilot-folder-untrusted" not in codes(diagnose(with_copilot))


def test_a_config_json_that_does_not_parse_trusts_nothing(
    with_copilot: Path, isolated_user: Path
) -> None:
    guard_file(with_copilot)
    path = trust(isolated_user, with_copilot)
    path.write_text("{", encoding="utf-8")
    assert "does not parse" in the(diagnose(with_copilot), "copilot-folder-untrusted").message
    assert path.read_text(encoding="utf-8") == "{"


def test_copilot_allow_all_loads_repository_hooks(
    with_copilot: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guard_file(with_copilot)
    monkeypatch.setenv("COPILOT_ALLOW_ALL", "true")
    assert "copilot-folder-untrusted" not in codes(diagnose(with_copilot))


def test_trust_resolves_symbolic_links(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    assert is_trusted(real, [str(tmp_path / "link") + "/"])
    assert is_trusted(tmp_path / "link" / "sub", [str(real)])
    assert not is_trusted(tmp_path, [str(real)])


# --- an entry that disables the whole file --------------------------------------------------------


def test_a_prompt_entry_beside_hookman_s_guard_disables_the_file_in_copilot(
    with_copilot: Path, isolated_user: Path
) -> None:
    """Measured: a `type: "prompt"` entry in the guard's PreToolUse group, and the guard did
    not fire in Copilot."""
    trust(isolated_user, with_copilot)
    prompt = group({"type": "prompt", "prompt": "Is this safe?"}, matcher="Bash")
    guard_file(with_copilot, prompt)
    ctx = diagnose(with_copilot)
    found = the(ctx, "copilot-file-disabled")
    assert found.severity == "error" and "type 'prompt'" in found.message
    assert found.path == "hooks.PreToolUse[1].hooks[0]" and "hookman's included" in found.message
    claude = [h for h in ctx.handlers if h.source.kind == "local"]
    assert claude and all(h.loaded for h in claude)  # Claude Code still runs them


def test_a_foreign_file_only_gets_a_warning(with_copilot: Path, isolated_user: Path) -> None:
    trust(isolated_user, with_copilot)
    settings(with_copilot, {"Stop": [group({"type": "prompt", "prompt": "done?"})]})
    assert the(diagnose(with_copilot), "copilot-file-disabled").severity == "warning"


def test_an_empty_matcher_is_refused_too(with_copilot: Path, isolated_user: Path) -> None:
    """Measured: a group with `"matcher": ""` beside the guard's, and the guard did not fire."""
    trust(isolated_user, with_copilot)
    guard_file(with_copilot, group(command("./lint.sh"), matcher=""))
    assert "an empty matcher" in the(diagnose(with_copilot), "copilot-file-disabled").message


def test_command_entries_only_are_fine(with_copilot: Path, isolated_user: Path) -> None:
    trust(isolated_user, with_copilot)
    guard_file(with_copilot, group(command("./lint.sh"), matcher="Write"))
    assert not copilot_codes(diagnose(with_copilot))


# --- matchers ---------------------------------------------------------------------------------


def test_a_comma_list_matches_nothing_in_copilot(with_copilot: Path, isolated_user: Path) -> None:
    trust(isolated_user, with_copilot)
    settings(with_copilot, {"PreToolUse": [group(command("./check.sh"), matcher="Read, Bash")]})
    found = the(diagnose(with_copilot), "copilot-matcher-unreadable")
    assert "`Read`, `Bash`" in found.message
    assert found.edit is not None and found.edit["value"] == "Read|Bash"


def test_hookman_s_comma_matcher_is_fixed_by_install(
    with_copilot: Path, isolated_user: Path
) -> None:
    trust(isolated_user, with_copilot)
    guard_file(with_copilot, matcher="Write,Edit")
    found = the(diagnose(with_copilot), "copilot-matcher-unreadable")
    assert "hookman install" in found.fix and found.edit is None


def test_a_bar_list_is_read_by_both(with_copilot: Path, isolated_user: Path) -> None:
    trust(isolated_user, with_copilot)
    guard_file(with_copilot, matcher="Bash|Write")
    assert "copilot-matcher-unreadable" not in codes(diagnose(with_copilot))


# --- answers --------------------------------------------------------------------------------------


def script(project: Path, text: str) -> str:
    path = project / "hook.sh"
    path.write_text(text, encoding="utf-8")
    return f"sh {path}"


@pytest.mark.parametrize(
    ("answer", "reported"),
    [
        ('{"decision": "block", "reason": "no"}', True),
        ('{"hookSpecificOutput": {"permissionDecision": "deny"}}', False),
    ],
)
def test_decision_block_on_pre_tool_use_runs_the_tool_in_copilot(
    with_copilot: Path, isolated_user: Path, answer: str, reported: bool
) -> None:
    trust(isolated_user, with_copilot)
    entry = group(command(script(with_copilot, f"echo '{answer}'\n")), matcher="Bash")
    settings(with_copilot, {"PreToolUse": [entry]})
    assert ("copilot-block-fails-open" in codes(diagnose(with_copilot))) is reported


@pytest.mark.parametrize(
    ("answer", "reported"),
    [
        ('{"hookSpecificOutput": {"additionalContext": "x"}}', True),
        ('{"additionalContext": "x"}', False),
    ],
)
def test_context_inside_hook_specific_output_never_reaches_copilot_s_model(
    with_copilot: Path, isolated_user: Path, answer: str, reported: bool
) -> None:
    trust(isolated_user, with_copilot)
    entry = group(command(script(with_copilot, f"echo '{answer}'\n")))
    settings(with_copilot, {"SessionStart": [entry]})
    assert ("copilot-context-dropped" in codes(diagnose(with_copilot))) is reported


# --- Copilot's own files ---------------------------------------------------------------------


def test_hookman_s_entry_in_github_hooks_runs_twice(
    with_copilot: Path, isolated_user: Path
) -> None:
    trust(isolated_user, with_copilot)
    guard_file(with_copilot)
    write_json(
        with_copilot / ".github" / "hooks" / "guard.json",
        {"version": 1, "hooks": {"PreToolUse": [group(hookman_entry(with_copilot))]}},
    )
    ctx = diagnose(with_copilot)
    assert the(ctx, "copilot-hookman-twice").severity == "warning"
    kinds = [(s.kind, s.label) for s in ctx.sources.sources if s.kind == "copilot"]
    assert ("copilot", "project guard.json") in kinds


def test_a_broken_github_hooks_file(project: Path) -> None:
    path = project / ".github" / "hooks" / "x.json"
    path.parent.mkdir(parents=True)
    path.write_text("{", encoding="utf-8")
    assert the(diagnose(project), "copilot-source-invalid").severity == "error"


def test_a_clean_copilot_view_has_no_finding(with_copilot: Path, isolated_user: Path) -> None:
    trust(isolated_user, with_copilot)
    guard_file(with_copilot)
    ctx = diagnose(with_copilot)
    assert not copilot_codes(ctx)


def test_hookman_s_install_is_clean_in_copilot_once_trusted(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .conftest import GUARD, hookman_cli, write_hook

    monkeypatch.setattr("hookman.agents.agent_facts.agent_installed", lambda agent: True)
    path = write_hook(project, "guard", GUARD)
    done = hookman_cli(
        "install", str(path), "--claude-version", "2.1.328", "--agent", "copilot",
        "--project", str(project),
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "copilot-folder-untrusted" in codes(diagnose(project))
    trust(isolated_user, project)
    ctx = diagnose(project)
    # what no file can fix: the guard on Bash does not see Copilot's write_bash
    # (test_install_agents.py, test_install_list_and_doctor_name_the_agent_s_tools...)
    assert copilot_codes(ctx) == ["copilot-tool-unguarded"], [f.json() for f in ctx.findings]


def test_human_output_names_the_finding_and_its_fix(
    with_copilot: Path, isolated_user: Path
) -> None:
    from .conftest import hookman_cli

    trust(isolated_user, with_copilot)
    settings(with_copilot, {"PreToolUse": [group(command("./check.sh"), matcher="Read, Bash")]})
    done = hookman_cli("doctor", "--project", str(with_copilot), "--claude-version", "2.1.328")
    assert "copilot-matcher-unreadable" in done.output
    assert "write it as 'Read|Bash'" in done.output and "Traceback" not in done.output
    data = json.loads(
        hookman_cli(
            "doctor", "--project", str(with_copilot), "--claude-version", "2.1.328", "--json"
        ).output
    )
    found = next(f for f in data["findings"] if f["code"] == "copilot-matcher-unreadable")
    assert found["line"] is not None and found["path"] == "hooks.PreToolUse[0].matcher"


def test_disable_all_hooks_in_copilot_s_settings_is_not_reported(
    with_copilot: Path, isolated_user: Path
) -> None:
    """Measured with 1.0.102 in -p: it did not stop a hook of .claude/settings.local.json."""
    trust(isolated_user, with_copilot)
    guard_file(with_copilot)
    write_json(isolated_user / ".copilot" / "settings.json", {"disableAllHooks": True})
    assert not copilot_codes(diagnose(with_copilot))


def test_a_hooks_directory_file_without_version_is_read(project: Path) -> None:
    """Measured with 1.0.102: a .github/hooks file without "version": 1 still ran."""
    entry = {"type": "command", "bash": "./check.sh"}
    write_json(project / ".github" / "hooks" / "a.json", {"hooks": {"preToolUse": [entry]}})
    assert "copilot-source-invalid" not in codes(diagnose(project))
