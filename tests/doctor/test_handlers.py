from __future__ import annotations

from pathlib import Path

from hookman.catalog.client_version import parse_version
from hookman.doctor.handlers import handler_problem, key_path, walk_hooks
from hookman.doctor.model import Source

from .conftest import command, diagnose, group, settings


def test_key_paths_quote_keys_that_are_not_identifiers() -> None:
    assert key_path("hooks", "PreToolUse") == "hooks.PreToolUse"
    assert key_path("hooks", 'Pre Tool"Use') == 'hooks["Pre Tool\\"Use"]'
    assert key_path("", "hooks") == "hooks"


def test_every_handler_keeps_its_source_path_and_fields() -> None:
    source = Source(
        "project",
        "s.json",
        data={"hooks": {"Stop": [group(command("x", timeout=5, **{"async": True}))]}},
    )
    handlers, invalid = walk_hooks(source, parse_version("2.1.328"))
    assert invalid == []
    (only,) = handlers
    assert (only.path, only.event, only.command, only.timeout, only.is_async) == (
        "hooks.Stop[0].hooks[0]",
        "Stop",
        "x",
        5.0,
        True,
    )


def test_handler_problems() -> None:
    version = parse_version("2.1.328")
    assert handler_problem({"type": "command", "command": "x"}, version) is None
    assert handler_problem({"type": "http", "url": "http://x"}, version) is None
    assert "unknown handler type" in (handler_problem({"type": "bash"}, version) or "")
    assert "without a `command`" in (handler_problem({"type": "command"}, version) or "")
    assert "needs Claude Code 2.1.48" in (
        handler_problem({"type": "http"}, parse_version("2.1.0")) or ""
    )


def test_huge_and_odd_timeouts_do_not_break_doctor(project: Path) -> None:
    (project / ".claude" / "settings.json").write_text(
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 1'
        + "0" * 400
        + "}, "
        '{"type": "command", "command": "true", "timeout": "10"}]}]}}'
    )
    ctx = diagnose(project)
    assert [h.timeout for h in ctx.handlers] == [float("inf"), None]
    assert "timeout-looks-like-ms" in [f.code for f in ctx.findings]


def test_hookman_entries_are_marked(project: Path) -> None:
    settings(
        project,
        {
            "PreToolUse": [
                group(command("/usr/bin/python3 -m hookman run PreToolUse --manifest /x.json"))
            ]
        },
    )
    assert [h.hookman for h in diagnose(project).handlers] == [True]
