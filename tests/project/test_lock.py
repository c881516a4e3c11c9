from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hookman import paths
from hookman.errors import HookmanError
from hookman.project.lock import edit_lock, project_lock, project_lock_path

_HOLD_LOCK = r"""
import sys, time
from pathlib import Path
from hookman.project.lock import project_lock

with project_lock(Path(sys.argv[1])):
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))
    if len(sys.argv) > 3:
        Path(sys.argv[3]).write_text("released")  # still holding it: the waiter must not be in
"""

_ADD_ENTRY = r"""
import sys
from pathlib import Path
from hookman.project.lock import project_lock
from hookman.project.settings_entries import (
    HookmanEntry,
    apply_hookman_entries,
    find_hookman_entries,
)
from hookman.project.settings_file import update_settings

project = Path(sys.argv[1])
event = sys.argv[2]
path = project / ".claude" / "settings.local.json"
mine = HookmanEntry(event, None, f"python3 -m hookman run {event}", 10)


def add_mine(settings):
    # What `install` does: keep every entry already there, add this process's own.
    present = [
        HookmanEntry(name, handler.get("matcher"), handler["command"], handler.get("timeout"))
        for name, handler in find_hookman_entries(settings)
    ]
    apply_hookman_entries(settings, [*present, mine])


with project_lock(project):
    update_settings(path, add_mine)
"""


def test_lock_file_lives_in_hookman_state_not_in_the_project(project: Path) -> None:
    with project_lock(project):
        lock_file = project_lock_path(project)
        assert lock_file.exists()
        assert lock_file.parent == paths.project_state_dir(project)
    assert not any(path.name.endswith(".lock") for path in project.rglob("*"))


def test_lock_is_reentrant_within_one_thread(project: Path) -> None:
    entered = []
    with project_lock(project), project_lock(project, timeout=0.1):
        entered.append("inner")  # the second acquire in this thread did not time out
    assert entered == ["inner"]


def test_held_lock_times_out_with_a_clear_error(project: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(project), "30"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        started = time.monotonic()
        with pytest.raises(HookmanError) as caught, project_lock(project, timeout=0.3):
            pass
        assert 0.25 <= time.monotonic() - started < 25  # the holder holds it for 30 s
        assert caught.value.message.startswith("another hookman is changing this project")
        assert caught.value.hint
    finally:
        holder.kill()
        holder.wait()
    with project_lock(project, timeout=5):
        pass


def test_lock_waits_for_the_holder_to_finish(project: Path) -> None:
    released = project.parent / "released.txt"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(project), "0.5", str(released)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        with project_lock(project, timeout=120):
            # an order, not a time: the lock came only after the holder was done with it
            assert released.read_text() == "released"
    finally:
        holder.kill()
        holder.wait()


def test_unwritable_state_dir_is_a_clear_error(
    project: Path, hookman_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = hookman_home / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("HOOKMAN_HOME", str(blocker))
    with (
        pytest.raises(HookmanError, match="cannot create its state directory"),
        project_lock(project),
    ):
        pass


def test_concurrent_installs_lose_nothing(project: Path) -> None:
    events = [f"Event{number:02d}" for number in range(16)]
    workers = [
        subprocess.Popen([sys.executable, "-c", _ADD_ENTRY, str(project), event])
        for event in events
    ]
    assert [worker.wait(timeout=120) for worker in workers] == [0] * len(events)
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert sorted(settings["hooks"]) == events


def test_a_dry_run_takes_no_lock_and_creates_nothing(project: Path, hookman_home: Path) -> None:
    with edit_lock(project, dry_run=True):
        assert list(hookman_home.iterdir()) == []
    with edit_lock(project, dry_run=False):
        assert project_lock_path(project).exists()
