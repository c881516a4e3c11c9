"""The firing log's last-fired index (bridge/firing_log.py): what `hookman list` and doctor
read instead of every line of every project. It must answer what a pass over the log
answers, for every project and hook, whatever was planted in it or left half written."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.bridge import firing_log
from hookman.bridge.firing_log import (
    COMPLETE,
    append_record,
    hook_file_name,
    last_fired,
    last_fired_dir,
    read_records,
)

HERE = "/srv/work/here"
THERE = "/srv/work/there"


def line(number: int, project: str | None, hooks: list[str]) -> dict[str, Any]:
    return {"time": f"2026-12-01T00:00:{number:02d}.000Z", "project": project, "hooks": hooks}


def truth(log: str, project: str, hooks: list[str]) -> dict[str, str]:
    """What the log itself says: the time of the last line of `project` naming each hook."""
    fired: dict[str, str] = {}
    for record in read_records(log):
        if record.get("project") == project:
            for name in record.get("hooks") or []:
                fired[name] = str(record.get("time"))
    return {name: fired[name] for name in hooks if name in fired}


def folder(log: str, project: str) -> Path:
    return Path(last_fired_dir(os.path.dirname(log), project))


def no_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> dict[str, str]:
        raise AssertionError("the log was read")

    monkeypatch.setattr(firing_log, "_scan", refuse)


@pytest.fixture
def log(tmp_path: Path) -> str:
    return str(tmp_path / "log" / "firing.jsonl")


def test_the_runner_keeps_each_projects_hooks_and_a_hook_that_never_fired_is_absent(
    log: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    append_record(log, line(1, HERE, ["guard", "audit"]))
    append_record(log, line(2, THERE, ["guard"]))
    append_record(log, line(3, HERE, ["audit"]))
    append_record(log, line(4, HERE, []))
    for project in (HERE, THERE):  # the first reader completes the index from the log
        last_fired(log, project, [])
    no_scan(monkeypatch)

    assert last_fired(log, HERE, ["guard", "audit", "never"]) == {
        "guard": "2026-12-01T00:00:01.000Z",
        "audit": "2026-12-01T00:00:03.000Z",
    }
    assert last_fired(log, THERE, ["guard", "audit"]) == {"guard": "2026-12-01T00:00:02.000Z"}
    append_record(log, line(5, HERE, ["guard"]))
    assert last_fired(log, HERE, ["guard"]) == {"guard": "2026-12-01T00:00:05.000Z"}


def test_a_log_older_than_the_index_is_read_once_then_the_index_answers(
    log: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    os.makedirs(os.path.dirname(log), mode=0o700)
    lines = [line(1, HERE, ["guard"]), line(2, THERE, ["lint"]), line(3, HERE, ["lint"])]
    Path(log).write_text("".join(json.dumps(item) + "\n" for item in lines) + "not json\n")
    hooks = ["guard", "lint", "never"]

    assert last_fired(log, HERE, hooks) == truth(log, HERE, hooks)
    assert (folder(log, HERE) / COMPLETE).read_text() == HERE
    no_scan(monkeypatch)
    assert last_fired(log, HERE, hooks) == {
        "guard": "2026-12-01T00:00:01.000Z",
        "lint": "2026-12-01T00:00:03.000Z",
    }


def test_a_runner_line_before_the_first_reader_does_not_make_the_index_complete(
    log: str,
) -> None:
    os.makedirs(os.path.dirname(log), mode=0o700)
    Path(log).write_text(json.dumps(line(1, HERE, ["old"])) + "\n")  # an older hookman's
    append_record(log, line(2, HERE, ["guard"]))

    assert not (folder(log, HERE) / COMPLETE).exists()
    assert last_fired(log, HERE, ["old", "guard"]) == {
        "old": "2026-12-01T00:00:01.000Z",
        "guard": "2026-12-01T00:00:02.000Z",
    }


def test_the_index_stays_right_through_rotation(log: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(firing_log, "MAX_BYTES", 400)
    append_record(log, line(0, HERE, ["early"]))
    for project in (HERE, THERE):
        last_fired(log, project, [])
    for number in range(1, 40):
        append_record(log, line(number, HERE if number % 3 else THERE, ["guard", "lint"]))
    assert os.path.exists(f"{log}.2")
    hooks = ["guard", "lint"]

    no_scan(monkeypatch)
    assert last_fired(log, HERE, hooks) == truth(log, HERE, hooks)
    assert last_fired(log, THERE, hooks) == truth(log, THERE, hooks)
    # The line of `early` is rotated away; the index still knows when it last ran.
    assert truth(log, HERE, ["early"]) == {}
    assert last_fired(log, HERE, ["early"]) == {"early": "2026-12-01T00:00:00.000Z"}


PLANTS = {
    "garbage": lambda path: path.write_bytes(b"\x00\xffnot a time"),
    "a time without its digest": lambda path: path.write_text("2027-01-01T00:00:00.000Z\n"),
    "a write half done": lambda path: path.write_bytes(path.read_bytes()[:10]),
    "a wrong digest": lambda path: path.write_text("2027-01-01T00:00:00.000Z\t0123456789abcdef\n"),
    "too long": lambda path: path.write_text("2" * 10_000),
    "empty": lambda path: path.write_text(""),
    "a symlink": lambda path: (path.unlink(), path.symlink_to(path.with_name("elsewhere"))),
    "a FIFO": lambda path: (path.unlink(), os.mkfifo(path)),
    "a directory": lambda path: (path.unlink(), path.mkdir()),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_a_planted_or_half_written_hook_file_is_answered_from_the_log(log: str, plant: str) -> None:
    append_record(log, line(1, HERE, ["guard", "lint"]))
    last_fired(log, HERE, [])
    path = folder(log, HERE) / hook_file_name("guard")
    path.with_name("elsewhere").write_text("2027-01-01T00:00:00.000Z\n")
    PLANTS[plant](path)

    expected = {"guard": "2026-12-01T00:00:01.000Z", "lint": "2026-12-01T00:00:01.000Z"}
    assert last_fired(log, HERE, ["guard", "lint"]) == expected
    if plant != "a directory":  # repaired; a directory stays and is answered from the log
        assert firing_log._read_time(str(path)) == "2026-12-01T00:00:01.000Z"
    assert last_fired(log, HERE, ["guard", "lint"]) == expected


def test_a_planted_file_for_a_hook_the_log_never_ran_is_removed(log: str) -> None:
    append_record(log, line(1, HERE, ["guard"]))
    last_fired(log, HERE, [])
    path = folder(log, HERE) / hook_file_name("never")
    path.write_text("2027-01-01T00:00:00.000Z\n")

    assert last_fired(log, HERE, ["guard", "never"]) == {"guard": "2026-12-01T00:00:01.000Z"}
    assert not path.exists()


def test_a_complete_mark_of_another_project_or_planted_is_not_trusted(log: str) -> None:
    append_record(log, line(1, HERE, ["guard"]))
    with Path(log).open("a") as older_runner:
        older_runner.write(json.dumps(line(2, HERE, ["lint"])) + "\n")
    mark = folder(log, HERE) / COMPLETE
    mark.write_text(THERE)
    assert last_fired(log, HERE, ["lint"]) == {"lint": "2026-12-01T00:00:02.000Z"}
    assert mark.read_text() == HERE

    os.unlink(mark)
    os.symlink(folder(log, THERE), mark)
    assert last_fired(log, HERE, ["lint"]) == {"lint": "2026-12-01T00:00:02.000Z"}


def test_a_hook_whose_time_cannot_be_written_drops_the_complete_mark(log: str) -> None:
    append_record(log, line(1, HERE, ["guard"]))
    last_fired(log, HERE, [])
    path = folder(log, HERE) / hook_file_name("guard")
    path.unlink()
    path.mkdir()  # the runner cannot write there

    append_record(log, line(2, HERE, ["guard"]))
    assert not (folder(log, HERE) / COMPLETE).exists()
    assert last_fired(log, HERE, ["guard"]) == {"guard": "2026-12-01T00:00:02.000Z"}


@pytest.mark.parametrize("shared", ["log", "last-fired", "project"])
def test_a_directory_other_users_can_write_is_answered_from_the_log_alone(
    log: str, shared: str
) -> None:
    append_record(log, line(1, HERE, ["guard"]))
    last_fired(log, HERE, [])
    path = folder(log, HERE) / hook_file_name("guard")
    path.write_bytes(firing_log._framed("2099-01-01T00:00:00.000Z") or b"")
    directories = {"log": path.parents[2], "last-fired": path.parents[1], "project": path.parent}
    os.chmod(directories[shared], 0o777)

    assert last_fired(log, HERE, ["guard"]) == {"guard": "2026-12-01T00:00:01.000Z"}


def test_the_index_directories_are_private(log: str) -> None:
    umask = os.umask(0o002)  # a user-private-group umask: group write by default
    try:
        append_record(log, line(1, HERE, ["guard"]))
    finally:
        os.umask(umask)
    for directory in (folder(log, HERE), folder(log, HERE).parent):
        assert directory.stat().st_mode & 0o077 == 0


def test_no_log_directory_is_nothing_fired_and_makes_nothing(tmp_path: Path) -> None:
    log = str(tmp_path / "log" / "firing.jsonl")
    assert last_fired(log, HERE, ["guard"]) == {}
    assert not (tmp_path / "log").exists()


def test_hook_names_that_are_not_file_names_get_a_digest() -> None:
    assert hook_file_name("guard.v2-x_y") == "guard.v2-x_y"
    for name in ("../escape", ".complete", "a/b", "x" * 200, "é", ""):
        assert hook_file_name(name).startswith("~") and "/" not in hook_file_name(name)


def test_a_shorter_time_written_over_a_longer_one_reads_back(log: str) -> None:
    append_record(log, {"time": "2026-12-01T00:00:01.000000Z", "project": HERE, "hooks": ["g"]})
    append_record(log, {"time": "2026-12-01T00:00:02Z", "project": HERE, "hooks": ["g"]})
    last_fired(log, HERE, [])
    assert last_fired(log, HERE, ["g"]) == {"g": "2026-12-01T00:00:02Z"}


EVENTS = st.lists(
    st.tuples(
        st.sampled_from([HERE, THERE, "/srv/é t\\x"]),
        st.lists(st.sampled_from(["guard", "lint", "a/b"]), max_size=3),
        st.booleans(),  # the index is deleted (an older hookman's state) before this line
        st.booleans(),  # a reader runs after this line
    ),
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(events=EVENTS)
def test_the_index_always_answers_what_the_log_says(tmp_path_factory: Any, events: Any) -> None:
    root = tmp_path_factory.mktemp("log")
    log = str(root / "firing.jsonl")
    hooks = ["guard", "lint", "a/b", "never"]
    for number, (project, names, forget, read) in enumerate(events):
        if forget:
            shutil.rmtree(root / firing_log.LAST_FIRED_DIR, ignore_errors=True)
        append_record(log, line(number, project, names))
        if read:
            assert last_fired(log, project, hooks) == truth(log, project, hooks)
    for project in (HERE, THERE):
        assert last_fired(log, project, hooks) == truth(log, project, hooks)
