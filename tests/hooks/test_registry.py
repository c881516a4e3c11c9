from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hookman import paths
from hookman.errors import HookmanError
from hookman.hooks.registry import (
    add_registry_entry,
    registry_entries,
    registry_problems,
    remove_registry_entry,
)


def test_an_absent_registry_is_empty() -> None:
    assert registry_entries() == {}


def test_add_list_and_remove(tmp_path: Path) -> None:
    guard = tmp_path / "guard.py"
    assert add_registry_entry("guard", guard) is None
    assert registry_entries() == {"guard": guard}
    assert '[hooks.guard]\npath = "' in paths.registry_path().read_text()
    assert remove_registry_entry("guard") == guard
    assert registry_entries() == {}


def test_adding_a_name_again_replaces_its_path(tmp_path: Path) -> None:
    add_registry_entry("guard", tmp_path / "old.py")
    assert add_registry_entry("guard", tmp_path / "new.py") == tmp_path / "old.py"
    assert registry_entries() == {"guard": tmp_path / "new.py"}


def test_removing_an_unknown_name_raises_key_error() -> None:
    with pytest.raises(KeyError):
        remove_registry_entry("nope")


def test_comments_survive_edits(tmp_path: Path) -> None:
    registry = paths.registry_path()
    registry.parent.mkdir(parents=True)
    registry.write_text('# my hooks\n[hooks.a]  # first\npath = "/x/a.py"\n')
    add_registry_entry("b", tmp_path / "b.py")
    remove_registry_entry("b")
    assert registry.read_text().startswith('# my hooks\n[hooks.a]  # first\npath = "/x/a.py"\n')


def test_a_malformed_registry_is_refused_and_left_alone(tmp_path: Path) -> None:
    registry = paths.registry_path()
    registry.parent.mkdir(parents=True)
    registry.write_text("[hooks.a\npath = 1\n")
    with pytest.raises(HookmanError) as error:
        add_registry_entry("b", tmp_path / "b.py")
    assert "line 1" in error.value.message
    assert registry.read_text() == "[hooks.a\npath = 1\n"


def test_a_broken_entry_is_reported_but_can_be_removed() -> None:
    registry = paths.registry_path()
    registry.parent.mkdir(parents=True)
    registry.write_text('[hooks.bad]\npath = "relative.py"\n')
    assert registry_entries() == {}  # left out: it blocks no other entry
    assert registry_problems() == {"bad": "needs an absolute `path`"}
    remove_registry_entry("bad")
    assert registry_entries() == {}


def test_concurrent_adds_lose_nothing(tmp_path: Path) -> None:
    names = [f"hook{index}" for index in range(12)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(lambda name: add_registry_entry(name, tmp_path / f"{name}.py"), names))
    assert set(registry_entries()) == set(names)


def test_a_bom_and_crlf_endings_are_read_and_kept(tmp_path: Path) -> None:
    registry = paths.registry_path()
    registry.parent.mkdir(parents=True)
    text = '\ufeff# my hooks\r\n[hooks.guard]\r\npath = "/opt/guard.py"\r\n'
    registry.write_bytes(text.encode("utf-8"))
    assert registry_entries() == {"guard": Path("/opt/guard.py")}
    add_registry_entry("notes", tmp_path / "notes.py")
    written = registry.read_bytes().decode("utf-8")
    assert written.startswith(text)
    assert "\n" not in written.replace("\r\n", "")
    remove_registry_entry("notes")
    assert registry.read_bytes().decode("utf-8").rstrip() == text.rstrip()


def test_removing_an_entry_without_a_path_returns_none() -> None:
    registry = paths.registry_path()
    registry.parent.mkdir(parents=True)
    registry.write_text("[hooks]\nodd = 1\n")
    assert remove_registry_entry("odd") is None
    assert registry_entries() == {}


def test_an_unusable_registry_dir_is_a_clear_error(hookman_home: Path) -> None:
    (hookman_home / "config").write_text("a file where the config dir belongs")
    with pytest.raises(HookmanError, match="cannot lock the user registry"):
        add_registry_entry("guard", Path("/opt/guard.py"))
