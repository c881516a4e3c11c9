"""The `codex app-server` client: the handshake, hooks/list and config/batchWrite, against a
stand-in speaking the measured protocol (the real binary: tests/e2e/test_codex.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookman.agents.codex_app_server import CodexAppServerError, list_hooks, trust
from tests.fake_codex import install_fake_codex, trust_project, trust_state


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    home = tmp_path / "codex-home"
    program = install_fake_codex(tmp_path / "bin", home)
    monkeypatch.setenv("CODEX_HOME", str(home))
    project = tmp_path / "project"
    (project / ".codex").mkdir(parents=True)
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}
    (project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    trust_project(home, project)
    return program, project


def test_lists_hooks_with_key_hash_and_trust(fake: tuple[Path, Path]) -> None:
    program, project = fake
    (hook,) = list_hooks(str(project), program=str(program))
    assert hook.key == f"{project}/.codex/hooks.json:pre_tool_use:0:0"
    assert hook.command == "./guard.sh" and hook.event_name == "preToolUse"
    assert hook.current_hash.startswith("sha256:") and not hook.trusted


def test_trust_records_the_hash_codex_reported(fake: tuple[Path, Path]) -> None:
    program, project = fake
    (hook,) = list_hooks(str(project), program=str(program))
    written = trust([(hook.key, hook.current_hash)], program=str(program))
    assert written.endswith("config.toml")
    assert trust_state(Path(program).parent.parent / "codex-home") == {hook.key: hook.current_hash}
    (again,) = list_hooks(str(project), program=str(program))
    assert again.trusted


def test_nothing_to_trust_starts_no_server(tmp_path: Path) -> None:
    assert trust([], program=str(tmp_path / "no-such-codex")) == ""


def test_a_missing_codex_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(CodexAppServerError, match="could not start"):
        list_hooks(str(tmp_path), program=str(tmp_path / "no-such-codex"))


def test_an_error_answer_is_one_sentence(tmp_path: Path, fake: tuple[Path, Path]) -> None:
    program, project = fake
    from hookman.agents.codex_app_server import _Session

    with _Session(str(program), str(project)) as session, pytest.raises(CodexAppServerError):
        session.call("no/such", {})
