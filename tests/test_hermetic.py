"""The suite is hermetic (tests/conftest.py): a user's Claude Code plugins and hooks, Codex
config and trust, git configuration and environment change no test's result.

The proof plants all of them in a hostile home, checks they are live there (hookman doctor
and git, run with that home, see them), then runs a slice of the suite with HOME, the
client variables and the XDG directories pointing into it, and wants every test to pass.
Before tests/conftest.py gave each test a HOME of its own, 9 tests of test_new.py failed so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The tests that read the user's layers (doctor, new --install's check, Codex trust) and
# those that run git (the hook store, repository hooks).
SLICE = (
    "tests/commands/test_new.py",
    "tests/commands/test_doctor.py",
    "tests/commands/test_install_codex.py",
    "tests/doctor",
    "tests/hooks/test_store.py",
    "tests/commands/test_repo_hooks.py",
    "tests/runtime/test_hook_paths.py",
)
BLOCK = "echo hostile >&2; exit 2"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _hooks(*events: str) -> dict[str, object]:
    handler = {"type": "command", "command": BLOCK}
    return {event: [{"matcher": "", "hooks": [handler]}] for event in events}


def _plant_claude(config_dir: Path) -> None:
    """User hooks that block, every hook disabled, and an enabled user-scope plugin whose
    hooks block every tool and a Stop hook that ignores stop_hook_active."""
    plugin = config_dir / "plugins" / "cache" / "hostile" / "evil" / "1.0.0"
    _write(plugin / ".claude-plugin" / "plugin.json", '{"name": "evil", "version": "1.0.0"}')
    plugin_hooks = _hooks("PreToolUse", "PostToolUse", "Stop", "SessionStart", "UserPromptSubmit")
    _write(plugin / "hooks" / "hooks.json", json.dumps({"hooks": plugin_hooks}))
    install = {"scope": "user", "installPath": str(plugin)}
    installed = {"version": 2, "plugins": {"evil@hostile": [install]}}
    _write(config_dir / "plugins" / "installed_plugins.json", json.dumps(installed))
    user = {
        "enabledPlugins": {"evil@hostile": True},
        "hooks": _hooks("PreToolUse", "PostToolUse", "Stop", "Notification"),
        "statusLine": {"type": "command", "command": "exit 3"},
    }
    _write(config_dir / "settings.json", json.dumps(user))
    _write(config_dir / "skills" / "evil" / "SKILL.md", "---\nname: evil\nhooks: 3\n---\nx\n")


def _plant_codex(codex_home: Path) -> None:
    """Every directory trusted, user hooks in config.toml and hooks.json, trust records."""
    _write(
        codex_home / "config.toml",
        '[projects."/"]\ntrust_level = "trusted"\n\n'
        '[projects."/tmp"]\ntrust_level = "trusted"\n\n'
        '[[hooks.PreToolUse]]\nmatcher = ""\n'
        f'[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "{BLOCK}"\n\n'
        '[hooks.state]\n"/tmp/x/.codex/hooks.json:pre_tool_use:0:0" = "sha256:00"\n',
    )
    _write(codex_home / "hooks.json", json.dumps({"hooks": _hooks("PreToolUse", "Stop")}))
    _write(codex_home / "trusted-projects", "/\n/tmp\n")  # tests/fake_codex.py's trust list


def _plant_git(home: Path, xdg_config: Path) -> None:
    """A configuration under which commits, local clones and branch names all go wrong."""
    hooks = home / "git-hooks"
    _write(hooks / "pre-commit", "#!/bin/sh\necho hostile pre-commit >&2\nexit 1\n").chmod(0o755)
    _write(hooks / "post-checkout", "#!/bin/sh\nexit 1\n").chmod(0o755)
    odd = (
        "[user]\n\tuseConfigOnly = true\n"
        "[commit]\n\tgpgsign = true\n[tag]\n\tgpgSign = true\n\tsort = -version:refname\n"
        "[gpg]\n\tprogram = false\n"
        f"[core]\n\thooksPath = {hooks}\n\tautocrlf = true\n"
        f"[init]\n\tdefaultBranch = hostile\n\ttemplateDir = {hooks}\n"
        '[protocol "file"]\n\tallow = never\n'
        '[url "file:///nonexistent/"]\n\tinsteadOf = /\n'
        "[advice]\n\tdetachedHead = true\n[fetch]\n\tfsckObjects = true\n"
    )
    _write(home / ".gitconfig", odd)
    _write(xdg_config / "git" / "config", odd)


def hostile_home(root: Path) -> dict[str, str]:
    """Plant the hostile home under `root`; return the environment of a developer whose
    home it is (their HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, XDG and shell variables)."""
    home = root / "home"
    xdg = root / "xdg"
    _plant_claude(home / ".claude")
    _plant_claude(root / "claude-config")  # CLAUDE_CONFIG_DIR
    _plant_codex(home / ".codex")
    _plant_codex(root / "codex-home")  # CODEX_HOME
    _plant_git(home, xdg / "config")
    _write(xdg / "config" / "hookman" / "registry.toml", "this is [not toml\n")
    _write(home / ".config" / "hookman" / "registry.toml", "this is [not toml\n")
    noisy = _write(root / "startup.sh", "echo hostile start-up file\n")
    runtime = root / "runtime"
    runtime.mkdir(mode=0o700)
    outside = {"HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "HOOKMAN_HOME"}
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in outside and not key.startswith(("PYTEST_", "XDG_"))
    }
    env.update(
        HOME=str(home),
        CLAUDE_CONFIG_DIR=str(root / "claude-config"),
        CODEX_HOME=str(root / "codex-home"),
        XDG_CONFIG_HOME=str(xdg / "config"),
        XDG_DATA_HOME=str(xdg / "data"),
        XDG_STATE_HOME=str(xdg / "state"),
        XDG_CACHE_HOME=str(xdg / "cache"),
        XDG_RUNTIME_DIR=str(runtime),
        CLAUDE_PROJECT_DIR=str(root),
        BASH_ENV=str(noisy),
        ENV=str(noisy),
        GIT_CONFIG_COUNT="1",
        GIT_CONFIG_KEY_0="commit.gpgSign",
        GIT_CONFIG_VALUE_0="true",
    )
    return env


def test_the_hostile_home_is_live_without_the_fixtures(tmp_path: Path) -> None:
    """What the slice below runs against is hostile: hookman and git, started with that
    home's environment, see the plugin, the user hooks, the Codex layer and the git config."""
    env = hostile_home(tmp_path / "hostile")
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    env["HOOKMAN_HOME"] = str(tmp_path / "hookman-home")
    command = ["doctor", "--json", "--project", str(project), "--claude-version", "2.1.328"]
    doctor = subprocess.run(
        [sys.executable, "-m", "hookman", *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report = json.loads(doctor.stdout)
    seen = json.dumps(report)
    assert "evil@hostile" in seen, seen  # the user-scope plugin
    assert "stop-ignores-stop-hook-active" in seen, seen
    assert str(tmp_path / "hostile" / "codex-home") in seen, seen  # Codex's user layer
    git = subprocess.run(
        ["git", "config", "--get", "protocol.file.allow"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert git.stdout.strip() == "never"


def test_a_hostile_home_changes_no_result(tmp_path: Path) -> None:
    env = hostile_home(tmp_path / "hostile")
    command = [sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider"]
    command += ["--basetemp", str(tmp_path / "basetemp"), *SLICE]
    done = subprocess.run(
        command, cwd=REPO, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    tail = done.stdout[-6000:] + done.stderr[-2000:]
    assert done.returncode == 0, tail
    assert " passed" in done.stdout and "failed" not in done.stdout, tail
