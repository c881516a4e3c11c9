"""`hookman uninstall`: after install (Claude Code and Codex CLI), a fired hook and uninstall,
the project and the homes are as they were, but for what is documented to stay."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from hookman import paths
from hookman.json_shapes import UninstallJson
from hookman.project.settings_entries import is_hookman_command
from tests.fake_codex import install_fake_codex, trust_project, trust_state
from tests.shape_check import assert_shape

from .helpers import GUARD, hookman, hookman_json, write_hook

VERSION = ("--claude-version", "2.1.328")
FOREIGN_SETTINGS = (
    '{\n  "permissions": {"allow": ["Bash(ls:*)"]},\n'
    '  "hooks": {\n    "PreToolUse": [\n'
    '      {"matcher": "Edit", "hooks": [{"type": "command", "command": "my-check"}]}\n'
    "    ]\n  }\n}\n"
)
FOREIGN_CODEX = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "my-stop"}]}]}}\n'
USER_EXCLUDE = "# mine\n*.swp\n"
USER_CODEX_CONFIG = (
    '# my Codex settings\nmodel = "o3"\n\n[projects."/elsewhere"]\ntrust_level = "trusted"\n'
)


def tree(root: Path, *, skip: tuple[str, ...] = ()) -> dict[str, bytes | None]:
    """Every file under `root` (bytes; None for a directory), but the parts named in `skip`."""
    found: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if any(relative == part or relative.startswith(part + "/") for part in skip):
            continue
        found[relative] = None if path.is_dir() else path.read_bytes()
    return found


@pytest.fixture
def codex_home(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(project)
    home = tmp_path / "codex-home"
    install_fake_codex(tmp_path / "bin", home)
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    trust_project(home, project)
    return home


def record_trust_as_codex_does(codex_home: Path) -> None:
    """What the real Codex's `config/batchWrite` leaves in config.toml (the stand-in keeps it
    in hooks-state.json), as 0.150.0 and 0.171.0 write it: `[hooks.state]`, then a
    `[hooks.state."KEY"]` table per trusted hook, each after a blank line
    (tests/e2e/test_uninstall_codex.py runs the real binaries)."""
    config = codex_home / "config.toml"
    tables = "".join(
        f'\n[hooks.state."{key}"]\ntrusted_hash = "{value}"\n'
        for key, value in trust_state(codex_home).items()
    )
    config.write_text(config.read_text() + "\n[hooks.state]\n" + tables)


def fire_hookman_entry(settings_file: Path, project: Path) -> str | None:
    """Run hookman's PreToolUse command of `settings_file` as the client would; the decision."""
    groups = json.loads(settings_file.read_text())["hooks"]["PreToolUse"]
    command = next(
        handler["command"]
        for group in groups
        for handler in group["hooks"]
        if is_hookman_command(handler["command"])
    )
    payload = {
        "session_id": "0192f0c1-aaaa-7000-8000-000000000001",
        "hook_event_name": "PreToolUse",
        "cwd": str(project),
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
    }
    done = subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=project,
    )
    if done.returncode == 2:
        return "deny"
    answer = json.loads(done.stdout or "{}")
    return (answer.get("hookSpecificOutput") or {}).get("permissionDecision") or answer.get(
        "decision"
    )


def test_uninstall_leaves_the_project_and_homes_as_they_were(
    project: Path, codex_home: Path, hookman_home: Path, user_home: Path
) -> None:
    claude = project / ".claude"
    (claude / "settings.local.json").write_text(FOREIGN_SETTINGS)
    (project / ".codex").mkdir()
    (project / ".codex" / "hooks.json").write_text(FOREIGN_CODEX)
    (project / ".git" / "info" / "exclude").write_text(USER_EXCLUDE)
    (codex_home / "config.toml").write_text(USER_CODEX_CONFIG)
    write_hook(project, "guard", GUARD)
    project_before = tree(project, skip=(".git",))
    exclude_before = (project / ".git" / "info" / "exclude").read_bytes()
    codex_before = tree(codex_home)
    user_before = tree(user_home)
    hookman_before = tree(hookman_home)

    installed = hookman("install", "hooks/guard.py", "--agent", "codex", *VERSION)
    assert installed.exit_code == 0, installed.output
    assert "trusted in Codex" in installed.output
    record_trust_as_codex_does(codex_home)
    assert '[hooks.state."' in (codex_home / "config.toml").read_text()
    for settings_file in (claude / "settings.local.json", project / ".codex" / "hooks.json"):
        assert fire_hookman_entry(settings_file, project) == "deny"
    state_dir = paths.project_state_dir(project)
    assert (state_dir / "manifest.json").is_file()
    (project / ".claude" / "hookman.toml").write_text(
        (project / ".claude" / "hookman.toml").read_text() + "# my note\n"
    )
    committed = (project / ".claude" / "hookman.toml").read_bytes()

    dry = hookman("uninstall", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "dry run: nothing was written." in dry.output
    assert state_dir.is_dir() and "my-check" in (claude / "settings.local.json").read_text()

    result = hookman("uninstall")
    assert result.exit_code == 0, result.output
    assert f"removed what hookman wrote for {project}:" in result.output
    assert "Codex's trust in hookman's entries (1 record)" in result.output
    assert "kept, the project's own files: .claude/hookman.toml" in result.output
    assert "kept, shared by every project on this machine:" in result.output

    # The project: the user's files byte for byte; hookman.toml (committed) as edited.
    after = tree(project, skip=(".git",))
    assert after.pop(".claude/hookman.toml") == committed
    assert project_before.pop(".claude/hookman.toml", None) is None
    assert after == project_before
    assert (project / ".git" / "info" / "exclude").read_bytes() == exclude_before
    # Codex's home: the user's config byte for byte (the stand-in's own file aside).
    assert tree(codex_home, skip=("hooks-state.json",)) == codex_before
    assert tree(user_home) == user_before
    # hookman's home: no state for the project; the firing log (shared) stays.
    assert not state_dir.exists()
    assert paths.firing_log_path().is_file()
    # ... and nothing else of hookman's home is left but what every project shares.
    assert tree(hookman_home, skip=("log", "cache")) == hookman_before, tree(hookman_home)
    again = hookman("uninstall")
    assert again.exit_code == 0
    assert "hookman has nothing of its own to remove" in again.output
    # What it says puts hookman back does: the kept hookman.toml is enough.
    assert "(`hookman install` puts hookman back from them)" in result.output
    back = hookman("install", "--no-codex-trust", *VERSION)
    assert back.exit_code == 0, back.output
    assert fire_hookman_entry(claude / "settings.local.json", project) == "deny"


def test_a_settings_file_hookman_created_goes_and_json_says_what_went(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    write_hook(project, "guard", GUARD)
    assert hookman("install", "hooks/guard.py", *VERSION).exit_code == 0
    settings = project / ".claude" / "settings.local.json"
    assert settings.is_file()
    dry = hookman_json("uninstall", "--dry-run")
    assert_shape(dry, UninstallJson)
    assert dry["dry_run"] is True and settings.is_file()
    shown = hookman_json("uninstall")
    assert_shape(shown, UninstallJson)
    assert shown["settings"]["file_removed"] is True
    assert shown["settings"]["entries"] == 3  # the guard's, the prompt gate, the sentinel
    assert shown["git_exclude"]["patterns"] == ["/.claude/settings.local.json"]
    assert shown["state_dir"] == str(paths.project_state_dir(project))
    assert shown["shared"]["log"] == str(paths.firing_log_path())
    assert not settings.exists()
    assert "hookman" not in (project / ".git" / "info" / "exclude").read_text()


def test_a_settings_file_hookman_cannot_parse_is_left_untouched(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    write_hook(project, "guard", GUARD)
    assert hookman("install", "hooks/guard.py", *VERSION).exit_code == 0
    settings = project / ".claude" / "settings.local.json"
    broken = settings.read_text().replace("{", "{,", 1)
    settings.write_text(broken)
    state_dir = paths.project_state_dir(project)
    before = tree(state_dir)
    result = hookman("uninstall")
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.startswith("hookman:")]
    assert len(lines) == 1 and "settings.local.json" in lines[0], result.output
    assert settings.read_text() == broken
    assert tree(state_dir) == before


def test_a_status_line_hookman_wrote_goes_and_a_foreign_one_stays(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    settings = project / ".claude" / "settings.local.json"
    settings.write_text(json.dumps({"statusLine": {"type": "command", "command": "my-line"}}))
    assert hookman("uninstall").exit_code == 0
    assert json.loads(settings.read_text())["statusLine"]["command"] == "my-line"
    settings.write_text(
        json.dumps(
            {"statusLine": {"type": "command", "command": "/v/bin/python -m hookman statusline"}}
        )
    )
    shown = hookman_json("uninstall")
    assert shown["settings"]["status_line"] is True
    assert not settings.exists()


def test_the_commands_it_prints_for_what_stays_work(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    assert hookman("new", "guard", "--template", "bash_guard", "--install", *VERSION).exit_code == 0
    subprocess.run(["git", "add", ".claude/hookman.toml", ".claude/hooks"], cwd=project, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "hooks"], cwd=project, check=True)
    result = hookman("uninstall")
    assert result.exit_code == 0, result.output
    printed = [
        line.split(": ", 1)[1]
        for line in result.output.splitlines()
        if line.startswith("  to drop them from the repository too: ")
    ]
    assert printed == [f"git -C {project} rm -r .claude/hookman.toml .claude/hooks"]
    done = subprocess.run(["sh", "-c", printed[0]], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert not (project / ".claude" / "hookman.toml").exists()
    assert not (project / ".claude" / "hooks").exists()
