"""install writes http entries to the warm hook server where the user opted in and the client's
version allows (observe-only events; guards only with onFailure block), keeps the prompt gate,
async entries, Codex and Copilot projects on command entries, records the port in the
manifest, switches back when the user opts out, and says which path each event takes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookman import paths
from hookman.project.settings_entries import (
    BLOCKING,
    SENTINEL,
    find_hookman_entries,
    hookman_handler_kind,
    hookman_http_port,
)
from hookman.serve import wire
from tests.commands.helpers import GUARD, hookman, hookman_json, local_settings, write_hook
from tests.serve_fake import HOOKMAN, fake_server, free_port, opt_in, opt_out

NOTES = """\
def hook(pi):
    pi.on("tool_result", lambda event, ctx: None, tools=["Bash"])
    pi.on("agent_end", lambda event, ctx: None)
"""
NEWEST = ("--claude-version", "2.1.332")
BEFORE_ON_FAILURE = ("--claude-version", "2.1.197")


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    write_hook(project, "guard", GUARD)
    write_hook(project, "notes", NOTES)


def _install(*args: str) -> Any:
    result = hookman("install", *args)
    assert result.exit_code == 0, result.output
    return result


def _types(project: Path) -> dict[str, str]:
    """event -> the type of hookman's (blocking) entry for it."""
    return {
        event: handler["type"]
        for event, handler in find_hookman_entries(local_settings(project))
        if hookman_handler_kind(handler) == BLOCKING
    }


def _sentinels(project: Path) -> dict[str, tuple[str, str | None]]:
    """event -> the type and matcher of hookman's sentinel for it (project/sentinel.py)."""
    return {
        event: (handler["type"], handler.get("matcher"))
        for event, handler in find_hookman_entries(local_settings(project))
        if hookman_handler_kind(handler) == SENTINEL
    }


def _manifest(project: Path) -> dict[str, Any]:
    return json.loads(paths.manifest_path(project).read_text(encoding="utf-8"))


def test_not_opted_in_writes_command_entries_only_and_no_serve_key(project: Path) -> None:
    _install("hooks/guard.py", "hooks/notes.py", *NEWEST)
    assert set(_types(project).values()) == {"command"}
    assert "serve" not in _manifest(project)
    assert "warm hook server" not in _install(*NEWEST).output


def test_opted_in_newest_client_sends_all_but_the_prompt_gate(project: Path) -> None:
    port = free_port()
    opt_in(port)
    output = _install("hooks/guard.py", "hooks/notes.py", *NEWEST).output
    assert _types(project) == {
        "PreToolUse": "http",
        "PostToolUse": "http",
        "PostToolUseFailure": "http",
        "UserPromptSubmit": "command",
        "Stop": "http",
        "PreSkillShellCommand": "http",
    }
    # the sentinels stay command entries: while nothing changed, the shell alone answers
    assert _sentinels(project) == {
        "PreToolUse": ("command", "^(?!(?:Bash)$).*"),
        "PreSkillShellCommand": ("command", "^(?!(?:Bash)$).*"),
    }
    said = " ".join(output.split())
    for event in ("PreToolUse", "PreSkillShellCommand"):
        assert (
            f"{event} every other tool timeout 30s (sentinel: denies if the project changed)"
            in said
        )
    settings = local_settings(project)
    manifest_path = str(paths.manifest_path(project))
    secret = wire.read_secret()
    assert secret is not None
    for event, handler in find_hookman_entries(settings):
        if handler["type"] != "http":
            continue
        assert handler["url"] == wire.hook_url(port, event)
        assert handler["headers"] == wire.entry_headers(secret, manifest_path)
        assert "allowedEnvVars" not in handler  # the client would send its variables empty
        assert handler["timeout"] == 30
        guarded = event in ("PreToolUse", "PreSkillShellCommand")
        assert handler.get("onFailure") == ("block" if guarded else None)
    assert _manifest(project)["serve"] == {"port": port}
    # the command entries pass the same manifest the headers name
    launcher = paths.project_state_dir(project) / "hookman-run.sh"
    assert manifest_path in launcher.read_text(encoding="utf-8")
    assert (
        "warm hook server (127.0.0.1:"
        f"{port}): PreToolUse, PostToolUse, PostToolUseFailure, Stop, PreSkillShellCommand go "
        "to it; "
        "UserPromptSubmit stays a command entry (the prompt gate" in " ".join(output.split())
    )
    assert "hookman serve start" in output  # nothing listens on the port


def test_a_guard_never_gets_an_http_entry_without_on_failure_block(project: Path) -> None:
    opt_in(free_port())
    for version in ("2.1.197", "2.1.294", "2.1.295", "2.1.328", "2.1.332", None):
        flags = () if version is None else ("--claude-version", version)
        _install("hooks/guard.py", "hooks/notes.py", *flags)
        for event, handler in find_hookman_entries(local_settings(project)):
            if event in ("PreToolUse", "PreSkillShellCommand") and handler["type"] == "http":
                assert handler["onFailure"] == "block", version


def test_older_client_keeps_guards_as_commands_and_says_why(project: Path) -> None:
    opt_in(free_port())
    output = _install("hooks/guard.py", "hooks/notes.py", *BEFORE_ON_FAILURE).output
    types = _types(project)
    assert types["PreToolUse"] == "command"
    assert types["PostToolUse"] == types["Stop"] == "http"
    said = " ".join(output.split())
    assert "PreToolUse stays a command entry (Claude Code 2.1.197 has no onFailure" in said


def test_opt_in_then_out_switches_every_entry_back_byte_for_byte(project: Path) -> None:
    _install("hooks/guard.py", "hooks/notes.py", *NEWEST)
    settings_file = project / ".claude" / "settings.local.json"
    commands_only = settings_file.read_bytes()
    manifest_before = paths.manifest_path(project).read_bytes()
    opt_in(free_port())
    _install(*NEWEST)  # a bare install: the no-op path when nothing else changed
    assert "http" in _types(project).values()
    opt_out()
    _install(*NEWEST)
    assert settings_file.read_bytes() == commands_only
    assert paths.manifest_path(project).read_bytes() == manifest_before


def test_port_change_rewrites_the_urls(project: Path) -> None:
    opt_in(free_port())
    _install("hooks/notes.py", *NEWEST)
    moved = free_port()
    opt_in(moved)
    _install(*NEWEST)
    ports = {
        hookman_http_port(handler)
        for _, handler in find_hookman_entries(local_settings(project))
        if handler["type"] == "http"
    }
    assert ports == {moved}
    assert _manifest(project)["serve"] == {"port": moved}


def test_foreign_http_entries_stay_untouched(project: Path) -> None:
    foreign = {"type": "http", "url": "http://127.0.0.1:9/v1/hook/Stop", "timeout": 3}
    settings_file = project / ".claude" / "settings.local.json"
    settings_file.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [foreign]}]}}))
    opt_in(free_port())
    _install("hooks/notes.py", *NEWEST)
    assert foreign in [h for g in local_settings(project)["hooks"]["Stop"] for h in g["hooks"]]
    assert hookman("uninstall").exit_code == 0
    assert json.loads(settings_file.read_text()) == {"hooks": {"Stop": [{"hooks": [foreign]}]}}


def test_async_entries_reach_the_server_marked_async_and_never_block(project: Path) -> None:
    port = free_port()
    opt_in(port)
    output = _install("hooks/notes.py", "--async", *NEWEST).output
    found = find_hookman_entries(local_settings(project))
    served = {event: h for event, h in found if h["type"] == "http"}
    assert served["PostToolUse"]["url"] == wire.hook_url(port, "PostToolUse", run_async=True)
    assert served["Stop"]["url"].endswith("/v1/hook/Stop?async=1")
    assert all("onFailure" not in h and "async" not in h for h in served.values())
    assert "PostToolUse (async)" in " ".join(output.split())
    opt_out()
    _install(*NEWEST)
    found = find_hookman_entries(local_settings(project))
    assert {h["type"] for _, h in found} == {"command"}
    assert sorted(e for e, h in found if h.get("async")) == [
        "PostToolUse",
        "PostToolUseFailure",
        "Stop",
    ]


def test_copilot_project_keeps_command_entries(project: Path) -> None:
    opt_in(free_port())
    (project / ".claude" / "hookman.toml").write_text('agents = ["claude", "copilot"]\n')
    output = _install("hooks/guard.py", *NEWEST).output
    assert set(_types(project).values()) == {"command"}
    assert "GitHub Copilot CLI runs this file too" in " ".join(output.split())
    assert "serve" not in _manifest(project)


def test_json_says_each_path_and_a_running_server(project: Path) -> None:
    with fake_server(HOOKMAN) as port:
        opt_in(port)
        shown = hookman_json("install", "hooks/guard.py", *NEWEST)
        output = _install(*NEWEST).output
    assert shown["serve"]["port"] == port
    assert shown["serve"]["server"] == "running"
    assert shown["serve"]["events"]["PreToolUse"] == {
        "path": "server",
        "reason": "guard-blocks",
        "onFailure": "block",
    }
    assert shown["serve"]["events"]["UserPromptSubmit"]["reason"] == "prompt-gate"
    assert "hookman serve start" not in output


def test_uninstall_removes_http_entries(project: Path) -> None:
    opt_in(free_port())
    _install("hooks/guard.py", "hooks/notes.py", *NEWEST)
    result = hookman("uninstall")
    assert result.exit_code == 0, result.output
    settings_file = project / ".claude" / "settings.local.json"
    assert not settings_file.exists() or find_hookman_entries(local_settings(project)) == []


@pytest.mark.parametrize(
    ("flags", "agent_file"),
    [
        (("--agent", "qwen", "--qwen-version", "0.24.4"), ".qwen/settings.json"),
        (("--agent", "droid", "--droid-version", "0.225.2"), ".factory/hooks.json"),
    ],
)
def test_other_agents_files_keep_command_entries(
    project: Path, flags: tuple[str, ...], agent_file: str
) -> None:
    opt_in(free_port())
    _install("hooks/guard.py", "hooks/notes.py", *flags, *NEWEST)
    assert "http" in _types(project).values()  # Claude Code's own entries reach the server
    data = json.loads((project / agent_file).read_text(encoding="utf-8"))
    text = json.dumps(data)
    assert '"type": "http"' not in text and "/v1/hook/" not in text
    assert '"type": "command"' in text


def test_a_state_directory_the_client_would_expand_keeps_command_entries(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Claude Code expands $NAME in header values (no escape): the manifest header would name
    # another file, the server would refuse every call
    monkeypatch.setenv("HOOKMAN_HOME", str(tmp_path / "home$USER"))
    opt_in(free_port())
    output = _install("hooks/guard.py", "hooks/notes.py", *NEWEST).output
    assert set(_types(project).values()) == {"command"}
    assert "has a `$` in its path" in " ".join(output.split())
    assert "serve" not in _manifest(project)


def test_a_settings_file_holding_tokens_is_kept_from_other_users(project: Path) -> None:
    """A token opens its project's hooks to whoever reads it: once install writes one, the
    settings file is readable by its owner alone (it was 0644 under the usual umask)."""
    settings = project / ".claude" / "settings.local.json"
    _install("hooks/guard.py", *NEWEST)
    settings.chmod(0o644)  # the usual umask's mode
    _install(*NEWEST)
    assert settings.stat().st_mode & 0o777 == 0o644  # no token: the mode is the user's
    opt_in(free_port())
    _install(*NEWEST)
    assert settings.stat().st_mode & 0o777 == 0o600
