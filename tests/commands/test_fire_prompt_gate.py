"""`hookman fire UserPromptSubmit` shows what the prompt gate answers (ARCHITECTURE.md, "The
prompt gate"), the same answer the installed entry gives: nothing while the project is as
installed, a stop naming `hookman install` once hookman.toml or a path hook's guards differ."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from .helpers import hookman, hookman_json, local_settings, write_hook

GUARD = """
def hook(pi):
    pi.on("tool_call", lambda event, ctx: None, tools=["Bash"])
"""
VERSION = ("--claude-version", "2.1.332")


def _installed_answer(project: Path, payload: Path) -> dict:
    """What the installed UserPromptSubmit entry answers, run as Claude Code runs it."""
    [group] = local_settings(project)["hooks"]["UserPromptSubmit"]
    done = subprocess.run(
        ["sh", "-c", group["hooks"][0]["command"]],
        input=payload.read_bytes(),
        capture_output=True,
        cwd=project,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(project)},
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout or b"{}")


@pytest.mark.parametrize("change", ["none", "hookman.toml", "code"])
def test_fire_shows_the_gate_s_own_answer(
    project: Path, change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    write_hook(project, "guard", GUARD)
    assert hookman("install", "hooks/guard.py", *VERSION).exit_code == 0
    payload = project / "prompt.json"
    payload.write_text(
        json.dumps(
            {
                "session_id": "s",
                "cwd": str(project),
                "hook_event_name": "UserPromptSubmit",
                "prompt": "hi",
            }
        )
    )
    if change == "hookman.toml":
        config = project / ".claude" / "hookman.toml"
        config.write_text(config.read_text() + "# pulled\n")
    elif change == "code":
        write_hook(project, "guard", GUARD.replace('["Bash"]', '["Bash", "Write"]'))

    fired = hookman_json("fire", "UserPromptSubmit", "--payload", str(payload))

    assert fired["answer"] == _installed_answer(project, payload)
    if change == "none":
        assert fired["answer"] == {}
    else:
        assert fired["answer"]["continue"] is False
        assert f"Run `hookman install` in {project}" in fired["answer"]["stopReason"]
    if change == "code":
        assert "'guard' now guards Write (tool_call)" in fired["answer"]["stopReason"]
