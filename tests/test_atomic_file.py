from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
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


# --- temporary files of killed writers --------------------------------------------------------

_BLOCKED_WRITER = """
import os, sys, time
from pathlib import Path
from hookman import atomic_file
os.replace = lambda src, dst: time.sleep(600)  # killed here: after the copy, before the rename
atomic_write_text = atomic_file.atomic_write_text
atomic_write_text(Path(sys.argv[1]), '{"hooks": {"PreToolUse": []}}\\n' * 1000)
"""


def _leftovers(directory: Path, name: str) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.name != name)


def _age(path: Path, seconds: float) -> None:
    stamp = time.time() - seconds
    os.utime(path, (stamp, stamp))


def test_a_killed_writers_temp_copy_is_removed_by_the_next_write(tmp_path: Path) -> None:
    claude_dir = tmp_path / ".claude"
    claude_dir.mkdir()
    target = claude_dir / "settings.local.json"
    target.write_text("{}\n")
    writer = subprocess.Popen([sys.executable, "-c", _BLOCKED_WRITER, str(target)])
    try:
        deadline = time.monotonic() + 20
        while not _leftovers(claude_dir, target.name) and time.monotonic() < deadline:
            time.sleep(0.01)
        [leftover] = _leftovers(claude_dir, target.name)
        time.sleep(0.2)  # let it finish writing the copy
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    assert leftover.name.startswith(f".settings.local.json.hookman-tmp-{writer.pid}-")
    assert leftover.name.endswith(".tmp")
    assert target.read_text() == "{}\n"

    atomic_write_text(target, '{"a": 1}\n')  # within a minute: it might be a slow writer
    assert _leftovers(claude_dir, target.name) == [leftover]
    _age(leftover, 61)
    atomic_write_text(target, '{"a": 2}\n')

    assert _leftovers(claude_dir, target.name) == []
    assert target.read_text() == '{"a": 2}\n'


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


@pytest.mark.parametrize(
    ("name", "age", "removed"),
    [
        (".f.json.hookman-tmp-{dead}-abc_12.tmp", 61, True),
        (".f.json.hookman-tmp-{dead}-abc_12.tmp", 30, False),  # may be a slow writer
        (".f.json.hookman-tmp-{live}-abc_12.tmp", 1800, False),  # a live writer's
        (".f.json.hookman-tmp-{live}-abc_12.tmp", 3601, True),  # abandoned, pid reused
        (".f.json.abcd_123.tmp", 61, True),  # an older hookman's name
        (".f.json.abcd_123.tmp", 30, False),
        (".f.json.bak", 7200, False),
        (".g.json.hookman-tmp-{dead}-abc_12.tmp", 7200, False),  # another file's
        (".f.json.hookman-tmp-{dead}-abc_12.tmp.keep", 7200, False),
        ("f.json.hookman-tmp-{dead}-abc_12.tmp", 7200, False),
    ],
)
def test_only_stale_temp_files_of_the_same_target_are_removed(
    tmp_path: Path, name: str, age: float, removed: bool
) -> None:
    target = tmp_path / "f.json"
    target.write_text("{}")
    other = tmp_path / name.format(dead=_dead_pid(), live=os.getpid())
    other.write_text("copy")
    _age(other, age)

    atomic_write_text(target, "new")

    assert other.exists() is not removed
    assert target.read_text() == "new"


def test_a_directory_with_a_temp_name_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    odd = tmp_path / f".f.json.hookman-tmp-{_dead_pid()}-abc.tmp"
    odd.mkdir()
    _age(odd, 7200)

    atomic_write_text(target, "new")

    assert odd.is_dir()
