"""Which entries reach the warm hook server (project/serve_paths.py): version facts from the
catalog, the prompt gate and guards without onFailure kept command entries."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.catalog import event_catalog
from hookman.catalog.client_version import parse_version
from hookman.project import serve_paths
from hookman.project.serve_paths import plan_paths

ALL = event_catalog.claude_events()
GUARDED = set(event_catalog.guarded_events())


def test_version_facts_are_the_catalogs() -> None:
    catalog = event_catalog.claude_code_catalog()
    assert serve_paths.http_since() == catalog["hook_types"]["http"]["since"]
    fields = catalog.get("hook_fields") or catalog["command_hook_fields"]
    assert serve_paths.on_failure_since() == fields["onFailure"]["since"] == "2.1.295"


def test_newest_client_sends_observe_only_and_guards_with_block_but_not_the_gate() -> None:
    plan = plan_paths(["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"], _v("2.1.332"), 4)
    assert plan.paths["PreToolUse"] == ("PreToolUse", True, serve_paths.GUARD_BLOCKS, "block")
    assert plan.paths["PostToolUse"] == ("PostToolUse", True, serve_paths.OBSERVE_ONLY, None)
    assert plan.paths["Stop"].server and plan.paths["Stop"].on_failure is None
    assert plan.paths["UserPromptSubmit"] == (
        "UserPromptSubmit",
        False,
        serve_paths.PROMPT_GATE,
        None,
    )
    assert plan.server_events() == ["PreToolUse", "PostToolUse", "Stop"]
    assert serve_paths.serve_section(plan) == {"port": 4}


@pytest.mark.parametrize(("version", "guard_on_server"), [("2.1.294", False), ("2.1.295", True)])
def test_guards_reach_the_server_only_from_on_failures_version(
    version: str, guard_on_server: bool
) -> None:
    plan = plan_paths(["PreToolUse", "PostToolUse"], _v(version), 4)
    assert plan.paths["PreToolUse"].server is guard_on_server
    if not guard_on_server:
        assert plan.paths["PreToolUse"].reason == serve_paths.NO_ON_FAILURE
    assert plan.paths["PostToolUse"].server


def test_before_http_hooks_and_unknown_version_everything_stays_a_command() -> None:
    older = plan_paths(["PostToolUse"], _v("2.1.47"), 4)
    assert older.paths["PostToolUse"].reason == serve_paths.NO_HTTP
    unknown = plan_paths(["PostToolUse"], None, 4)
    assert unknown.paths["PostToolUse"].reason == serve_paths.VERSION_UNKNOWN
    assert serve_paths.serve_section(unknown) is None


def test_session_start_stays_a_command_entry_the_client_skips_http_there() -> None:
    """Claude Code skips an http entry on SessionStart (and Setup), saying so only in its
    debug log: session_start hooks behind one would never run (tests/e2e/test_serve.py)."""
    plan = plan_paths(["SessionStart", "PostToolUse"], _v("2.1.332"), 4)
    assert plan.paths["SessionStart"].server is False
    assert plan.paths["SessionStart"].reason == serve_paths.NO_HTTP_EVENT
    assert plan.paths["PostToolUse"].server


def test_a_project_with_copilot_keeps_command_entries() -> None:
    plan = plan_paths(["PostToolUse"], _v("2.1.332"), 4, agents=["claude", "copilot"])
    assert plan.paths["PostToolUse"].reason == serve_paths.COPILOT
    assert not plan.reaches_server()


@settings(max_examples=200, deadline=None)
@given(
    events=st.lists(st.sampled_from(ALL), unique=True, max_size=8),
    version=st.tuples(st.integers(1, 2), st.integers(0, 2), st.integers(0, 400)),
)
def test_a_guarded_event_never_reaches_the_server_without_on_failure_block(
    events: list[str], version: tuple[int, int, int]
) -> None:
    target = _v(".".join(map(str, version)))
    plan = plan_paths(events, target, 4)
    assert list(plan.paths) == events
    for event, path in plan.paths.items():
        if event in GUARDED and path.server:
            assert path.on_failure == "block"
            assert target >= parse_version(str(serve_paths.on_failure_since()))
        if event not in GUARDED:
            assert path.on_failure is None
        assert not (event == "UserPromptSubmit" and path.server)


def _v(text: str):  # type: ignore[no-untyped-def]
    return parse_version(text)


def test_the_lean_opt_in_check_answers_as_wire_does() -> None:
    from hookman.serve import wire
    from tests.serve_fake import opt_in, opt_out

    assert serve_paths.opted_in() is wire.opted_in() is False
    opt_in()
    assert serve_paths.opted_in() is wire.opted_in() is True
    opt_out()
    assert serve_paths.opted_in() is wire.opted_in() is False


@pytest.mark.parametrize(
    ("path", "expands"),
    [
        ("/home/u/.local/state/hookman/projects/p/manifest.json", False),
        ("/srv/$HOME/manifest.json", True),
        ("/srv/${X}/manifest.json", True),
        ("/srv/a$/manifest.json", False),
        ("/srv/$1x/manifest.json", False),
    ],
)
def test_a_manifest_path_the_client_would_expand_keeps_every_entry_a_command(
    path: str, expands: bool
) -> None:
    plan = plan_paths(["PreToolUse", "PostToolUse"], _v("2.1.332"), 4, manifest_path=path)
    assert plan.reaches_server() is not expands
    if expands:
        assert {p.reason for p in plan.paths.values()} == {serve_paths.DOLLAR_PATH}
