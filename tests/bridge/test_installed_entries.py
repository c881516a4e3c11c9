"""bridge/installed_entries.py: which events settings.local.json has hookman's entries for,
and the path each takes, as `hookman list` shows them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.installed_entries import installed_entries
from hookman.bridge.protocol import LAUNCHER_NAME, SENTINEL_STAMP_NAME
from hookman.project.install_plan import covers, exact_matcher, matcher_names

LAUNCH = f"sh '/state/{LAUNCHER_NAME}'"
URL = "http://127.0.0.1:41234/v1/hook/"


def _write(project: Path, hooks: object) -> str:
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.local.json").write_text(json.dumps({"hooks": hooks}))
    return str(project)


def _group(*handlers: dict) -> list[dict]:
    return [{"matcher": "Bash", "hooks": list(handlers)}]


def test_each_form_of_hookmans_entries_is_found_with_its_path(tmp_path: Path) -> None:
    project = _write(
        tmp_path,
        {
            "PreToolUse": _group({"type": "command", "command": f"{LAUNCH} PreToolUse"}),
            "PostToolUse": _group(
                {"type": "command", "command": f"{LAUNCH} PostToolUse --async", "async": True}
            ),
            "Stop": _group({"type": "http", "url": URL + "Stop"}),
            "Notification": _group({"type": "http", "url": URL + "Notification?async=1"}),
        },
    )
    assert installed_entries(project) == {
        ("PreToolUse", False): ("command", "Bash"),
        ("PostToolUse", True): ("command", "Bash"),
        ("Stop", False): ("server", "Bash"),
        ("Notification", True): ("server", "Bash"),
    }


def test_the_matcher_is_the_first_hookman_entry_s_group_s(tmp_path: Path) -> None:
    launch = {"type": "command", "command": f"{LAUNCH} PreToolUse"}
    foreign = {"type": "command", "command": "./mine.sh"}
    project = _write(
        tmp_path,
        {
            "PreToolUse": [
                {"matcher": "Read", "hooks": [foreign]},
                {"matcher": "Bash|Write", "hooks": [launch]},
                {"matcher": "Edit", "hooks": [launch]},
            ],
            "Stop": [{"hooks": [{"type": "http", "url": URL + "Stop"}]}],
            "PostToolUse": [
                {"matcher": 3, "hooks": [{**launch, "command": f"{LAUNCH} PostToolUse"}]}
            ],
        },
    )
    found = installed_entries(project)
    assert found[("PreToolUse", False)].matcher == "Bash|Write"
    assert found[("Stop", False)].matcher is None  # no matcher: every tool
    assert found[("PostToolUse", False)].matcher is None  # not text: read as none


@pytest.mark.parametrize(
    ("matcher", "tools", "covered"),
    [
        (None, None, True),
        ("", ("Bash",), True),
        ("*", None, True),
        ("Bash|Write", ("Bash",), True),
        ("Bash|Write", ("Write", "Bash"), True),
        ("Bash", ("Bash", "Write"), False),
        ("Bash|Write", None, False),
        ("mcp__github__.*", ("mcp__github__.*",), True),
        ("Bash", ("Bas",), False),
        ("^(?:mcp__s\\.t|Bash)$", ("mcp__s.t",), True),
        ("^(?:mcp__s\\.t|Bash)$", ("Bash", "mcp__s.t"), True),
        ("^(?:mcp__s\\.t)$", ("Bash",), False),
        ("^(?:a\\|b)$", ("a|b",), True),
    ],
)
def test_an_entry_covers_the_tools_its_matcher_names(
    matcher: str | None, tools: tuple[str, ...] | None, covered: bool
) -> None:
    assert covers(matcher, tools) is covered


@pytest.mark.parametrize(
    "handler",
    [
        {"type": "command", "command": "./my-own-guard.sh"},
        {"type": "command", "command": f"{LAUNCH} PostToolUse"},  # another event's launcher
        {"type": "command", "command": f"[ x -nt {SENTINEL_STAMP_NAME} ] || {LAUNCH} PreToolUse"},
        {"type": "http", "url": "http://example.com/v1/hook/PreToolUse"},
        {"type": "http", "url": URL + "PostToolUse"},
        {"type": "command", "command": None},
        "not a handler",
    ],
    ids=["foreign", "other-event", "sentinel", "other-host", "other-path", "no-command", "str"],
)
def test_what_is_not_hookmans_entry_for_the_event_is_not_found(
    tmp_path: Path, handler: object
) -> None:
    assert installed_entries(_write(tmp_path, {"PreToolUse": _group(handler)})) == {}


@pytest.mark.parametrize("text", ["", "{", "[]", '{"hooks": []}', '{"hooks": {"E": 3}}'])
def test_a_missing_or_malformed_file_has_no_entries(tmp_path: Path, text: str) -> None:
    assert installed_entries(str(tmp_path)) == {}
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.local.json").write_text(text)
    assert installed_entries(str(tmp_path)) == {}


def test_the_async_query_is_the_one_install_writes() -> None:
    from hookman.bridge import installed_entries as reader
    from hookman.serve import wire

    assert reader.ASYNC_QUERY == wire.ASYNC_QUERY
    assert wire.hook_url(1, "Stop", run_async=True).endswith("?" + reader.ASYNC_QUERY)


@given(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=5, unique=True))
def test_the_names_of_every_matcher_install_writes_read_back(names: list[str]) -> None:
    """matcher_names inverts exact_matcher for any tool names, plain or not (a dot, a `|`,
    a backslash): list never calls a tool uncovered that install wrote a matcher for."""
    matcher = exact_matcher(names)
    if matcher is None:  # `*` among them: every tool
        return
    assert matcher_names(matcher) == list(dict.fromkeys(names))
    assert covers(matcher, tuple(names))


@pytest.mark.parametrize(
    ("matcher", "tools", "covered"),
    [
        # edited by hand: read as the client reads a matcher (a regex, unanchored)
        (".*", None, True),
        (".*", ("Bash", "mcp__s__t"), True),
        ("^.*$", None, True),
        ("Ba.*", ("Bash",), True),
        ("Ba.*", None, False),
        ("Notebook.*", ("Bash",), False),
        ("Bash|Write", None, False),  # an exact list never covers every tool
        ("(", ("Bash",), False),  # not a regex: runs for nothing
    ],
)
def test_a_hand_edited_matcher_covers_what_the_client_matches(
    matcher: str, tools: tuple[str, ...] | None, covered: bool
) -> None:
    """list called `.*` narrower than the hook (it read the matcher as the names `.*`)."""
    assert covers(matcher, tools) is covered
