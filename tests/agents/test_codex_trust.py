"""The trust step as data: which of Codex's hooks hookman trusts (its own entries of this
project's .codex/hooks.json, nothing else) and what it leaves to the user, as a TrustTodo
(commands/codex_wording.py words it). Codex's app server is stubbed here; the stand-in
binary is in tests/commands/test_install_codex.py, the real one in tests/e2e/test_codex.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookman.agents import codex_sync
from hookman.agents.codex_app_server import CodexAppServerError, CodexHook
from hookman.agents.codex_sync import TrustTodo, trust_hookman_hooks
from hookman.project.launcher import launcher_path
from hookman.project.settings_entries import build_command


@pytest.fixture
def codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "codex-home"
    home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


def _hook(project: Path, key: str, *, trusted: bool, source: Path | None = None) -> CodexHook:
    command = build_command("PreToolUse", launcher_path(project), agent="codex")
    return CodexHook(
        key=key,
        command=command,
        source_path=str(source or project / ".codex" / "hooks.json"),
        current_hash=f"hash-{key}",
        trust_status="trusted" if trusted else "untrusted",
        event_name="pre_tool_use",
    )


def _codex_lists(
    monkeypatch: pytest.MonkeyPatch, listed: list[CodexHook] | Exception
) -> list[list[tuple[str, str]]]:
    """Stub Codex's app server: `listed` for hooks/list; the trust calls are returned."""
    calls: list[list[tuple[str, str]]] = []

    def list_hooks(cwd: str) -> list[CodexHook]:
        if isinstance(listed, Exception):
            raise listed
        return listed

    def trust(keys_hashes: list[tuple[str, str]]) -> str:
        calls.append(list(keys_hashes))
        return "config.toml"

    monkeypatch.setattr(codex_sync, "list_hooks", list_hooks)
    monkeypatch.setattr(codex_sync, "trust", trust)
    return calls


def test_only_hookmans_own_entries_of_this_file_are_trusted(
    project: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    foreign = _hook(project, "foreign", trusted=False)._replace(command="./audit.sh")
    elsewhere = _hook(project, "elsewhere", trusted=False, source=project / "other.json")
    ours = _hook(project, "ours", trusted=False)
    done = _hook(project, "done", trusted=True)
    calls = _codex_lists(monkeypatch, [foreign, elsewhere, ours, done])
    outcome = trust_hookman_hooks(project)
    assert calls == [[("ours", "hash-ours")]]
    assert (outcome.trusted, outcome.already, outcome.todo) == (["ours"], ["done"], None)


def test_all_trusted_already_asks_nothing_of_codex_or_the_user(
    project: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _codex_lists(monkeypatch, [_hook(project, "a", trusted=True)])
    outcome = trust_hookman_hooks(project)
    assert calls == []
    assert (outcome.trusted, outcome.already, outcome.todo) == ([], ["a"], None)


def test_without_record_the_untrusted_keys_are_left_to_the_user(
    project: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed = [_hook(project, key, trusted=key == "b") for key in ("a", "b", "c")]
    calls = _codex_lists(monkeypatch, listed)
    outcome = trust_hookman_hooks(project, record=False)
    assert calls == []
    assert outcome.todo is TrustTodo.NOT_RECORDED
    assert (outcome.untrusted, outcome.already, outcome.trusted) == (["a", "c"], ["b"], [])


@pytest.mark.parametrize("at", ["list", "trust"])
def test_an_app_server_error_is_carried_with_its_step(
    project: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch, at: str
) -> None:
    error = CodexAppServerError("codex went away.")
    _codex_lists(monkeypatch, error if at == "list" else [_hook(project, "a", trusted=False)])
    if at == "trust":

        def trust(keys_hashes: list[tuple[str, str]]) -> str:
            raise error

        monkeypatch.setattr(codex_sync, "trust", trust)
    outcome = trust_hookman_hooks(project)
    expected = TrustTodo.ASK_FAILED if at == "list" else TrustTodo.RECORD_FAILED
    assert (outcome.todo, outcome.error, outcome.trusted) == (expected, "codex went away.", [])


def test_none_listed_tells_an_untrusted_project_from_a_trusted_one(
    project: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _codex_lists(monkeypatch, [_hook(project, "foreign", trusted=False)._replace(command="x")])
    assert trust_hookman_hooks(project).todo is TrustTodo.PROJECT_NOT_TRUSTED
    (codex_home / "config.toml").write_text(
        f'[projects."{project.parent}"]\ntrust_level = "trusted"\n', encoding="utf-8"
    )
    assert trust_hookman_hooks(project).todo is TrustTodo.NONE_LISTED
