from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.atomic_file import atomic_write_text, write_text_if_changed


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_writes_new_file_with_umask_respecting_default_mode(tmp_path: Path) -> None:
    target = tmp_path / "new.json"
    old_umask = os.umask(0o027)
    try:
        atomic_write_text(target, "{}\n")
    finally:
        os.umask(old_umask)
    assert target.read_text() == "{}\n"
    assert _mode(target) == 0o640


def test_new_file_gets_requested_mode_exactly(tmp_path: Path) -> None:
    target = tmp_path / "private.json"
    atomic_write_text(target, "x", mode=0o600)
    assert _mode(target) == 0o600


def test_existing_file_keeps_its_mode_and_ignores_requested_mode(tmp_path: Path) -> None:
    target = tmp_path / "kept.json"
    target.write_text("old")
    target.chmod(0o640)
    atomic_write_text(target, "new", mode=0o600)
    assert target.read_text() == "new"
    assert _mode(target) == 0o640


def test_replaces_rather_than_rewrites_in_place(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old")
    old_inode = target.stat().st_ino
    atomic_write_text(target, "new")
    assert target.stat().st_ino != old_inode


def test_leaves_no_temporary_files(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_failed_write_removes_temp_file_and_keeps_old_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old")

    def failing_replace(src: object, dst: object) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk on fire"):
        atomic_write_text(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_follows_symlink_and_replaces_its_target(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    atomic_write_text(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"


def test_write_if_changed_skips_identical_bytes(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("same")
    before = target.stat()
    assert write_text_if_changed(target, "same") is False
    after = target.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_write_if_changed_writes_different_or_missing(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    assert write_text_if_changed(target, "a") is True
    assert write_text_if_changed(target, "b") is True
    assert target.read_text() == "b"


@settings(max_examples=50, deadline=None)
@given(text=st.text())
def test_round_trips_any_text_as_utf8(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    target = tmp_path_factory.mktemp("rt") / "f.txt"
    atomic_write_text(target, text)
    assert target.read_bytes() == text.encode("utf-8")
