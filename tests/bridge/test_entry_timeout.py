"""The entry's timeout, read from settings.local.json: only hookman's blocking handlers of the
event count, and anything unreadable means "use the manifest's"."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.entry_timeout import deadlines_within, runs_launcher_for, settings_timeout
from hookman.bridge.protocol import LAUNCHER_NAME

LAUNCHER = "/state/it's here/hookman-run.sh"


def _write(project: Path, hooks: object) -> None:
    (project / ".claude").mkdir(parents=True, exist_ok=True)
    (project / ".claude" / "settings.local.json").write_text(json.dumps({"hooks": hooks}))


def _handler(command: str, timeout: object, **extra: object) -> dict:
    return {"type": "command", "command": command, "timeout": timeout, **extra}


def test_the_smallest_timeout_of_hookmans_blocking_handlers_counts(tmp_path: Path) -> None:
    guarded = f"[ -f '{LAUNCHER}' ] && sh '{LAUNCHER}' PreToolUse && false || case $? in esac"
    _write(
        tmp_path,
        {
            "PreToolUse": [
                {"hooks": [_handler(guarded, 7)]},
                {"hooks": [_handler("./mine.sh PreToolUse", 1)]},  # not hookman's
                {"hooks": [_handler(f"sh '{LAUNCHER}' PreToolUse --async || :", 2)]},
                {"hooks": [_handler(f"sh '{LAUNCHER}' PreToolUseX", 3)]},  # another event
            ],
            "Stop": [{"hooks": [_handler(f"sh '{LAUNCHER}' Stop", 4)]}],
        },
    )

    assert settings_timeout(str(tmp_path), "PreToolUse") == 7.0
    assert settings_timeout(str(tmp_path), "Stop") == 4.0
    assert settings_timeout(str(tmp_path), "SessionStart") is None


@pytest.mark.parametrize(
    "hooks",
    [None, [], {"PreToolUse": "x"}, {"PreToolUse": [{"hooks": [_handler("sh x", True)]}]}],
)
def test_odd_settings_mean_no_timeout(tmp_path: Path, hooks: object) -> None:
    _write(tmp_path, hooks)
    assert settings_timeout(str(tmp_path), "PreToolUse") is None


def test_a_fifo_at_the_settings_file_does_not_block(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    os.mkfifo(tmp_path / ".claude" / "settings.local.json")
    assert settings_timeout(str(tmp_path), "PreToolUse") is None


@given(st.floats(min_value=0.01, max_value=100_000, allow_nan=False))
def test_the_deadline_and_hard_stop_fall_inside_the_timeout(timeout: float) -> None:
    deadline, hard_stop = deadlines_within(timeout)
    assert 0 < deadline <= hard_stop < timeout or timeout < 0.002
    assert deadline >= timeout / 2 - 0.001


_COMMAND_PIECES = st.lists(
    st.sampled_from(
        [
            LAUNCHER_NAME,
            "'",
            " ",
            "\t",
            "\n",
            "\u00a0",
            "PreToolUse",
            "Stop",
            "-",
            "_",
            "x",
            "1",
            "é",
            "\u0301",
            ";",
            "/state/",
            "PreToolUseFailure",
            "--async",
        ]
    ),
    max_size=10,
).map("".join)


@given(_COMMAND_PIECES, st.sampled_from(["PreToolUse", "Stop", "PreSkillShellCommand"]))
def test_the_launcher_scan_agrees_with_the_pattern_it_replaced(command: str, event: str) -> None:
    pattern = re.compile(re.escape(LAUNCHER_NAME) + r"'?\s+" + re.escape(event) + r"(?![\w-])")
    assert runs_launcher_for(command, event) == bool(pattern.search(command))


@pytest.mark.parametrize(
    ("command", "runs"),
    [
        (f"sh '/s/{LAUNCHER_NAME}' PreToolUse", True),
        (f"sh /s/{LAUNCHER_NAME} PreToolUse && false", True),
        (f"sh /s/{LAUNCHER_NAME} PreToolUseFailure", False),
        (f"sh /s/{LAUNCHER_NAME} PreToolUse-x", False),
        (f"sh /s/{LAUNCHER_NAME}PreToolUse", False),
        (f"sh /s/{LAUNCHER_NAME} Stop; sh /s/{LAUNCHER_NAME} PreToolUse", True),
        ("sh /s/other.sh PreToolUse", False),
    ],
)
def test_which_commands_run_the_launcher_for_an_event(command: str, runs: bool) -> None:
    assert runs_launcher_for(command, "PreToolUse") is runs


def test_the_warm_servers_http_entry_counts_for_its_event(tmp_path: Path) -> None:
    """The server's child runs under the http entry's timeout (hookman/serve/wire.py)."""
    gate = _handler(f"sh '{LAUNCHER}' UserPromptSubmit", 30)
    url = "http://127.0.0.1:47301/v1/hook/PreToolUse"
    _write(
        tmp_path,
        {
            "UserPromptSubmit": [{"hooks": [gate]}],
            "PreToolUse": [
                {"hooks": [{"type": "http", "url": url, "timeout": 9}]},
                {"hooks": [{"type": "http", "url": url + "?async=1", "timeout": 2}]},
                {
                    "hooks": [
                        {
                            "type": "http",
                            "url": "https://example.org/v1/hook/PreToolUse",
                            "timeout": 1,
                        }
                    ]
                },
            ],
        },
    )
    assert settings_timeout(str(tmp_path), "PreToolUse") == 9
