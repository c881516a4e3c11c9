"""A hostile home for the test suite: a user's Claude Code plugin and hooks, Codex config,
hooks and trust, git configuration and start-up files, all planted to break a test that reads
the real home (tests/conftest.py gives every test a home of its own).

tests/test_hermetic.py checks the planted files are live and runs a slice of the suite in such
a home; CI runs the whole suite without the real clients in one under every other Python
(.ci/other_pythons):

    eval "$(python tests/hostile_home.py DIR)"   # plants it under DIR, prints the exports
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

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


def main(argv: list[str]) -> int:
    root = Path(argv[1]).resolve()
    root.mkdir(parents=True, exist_ok=True)
    env = hostile_home(root)
    for key, value in sorted(env.items()):
        if os.environ.get(key) != value:
            print(f"export {key}={shlex.quote(value)}")
    for key in ("HOOKMAN_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"):
        print(f"unset {key}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
