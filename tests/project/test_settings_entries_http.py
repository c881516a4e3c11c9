"""hookman's http handlers (the warm hook server's entries): written, recognised as hookman's
(127.0.0.1, /v1/hook/EVENT and the X-Hookman-Manifest header, never one without), replaced by
command entries and back where they stand, removed, and foreign http handlers left alone."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.project import settings_entries
from hookman.project.settings_entries import (
    HookmanEntry,
    apply_hookman_entries,
    build_command,
    find_hookman_entries,
    hookman_handler_is_async,
    hookman_http_event,
    hookman_http_port,
    is_hookman_handler,
)
from hookman.serve import wire

LAUNCHER = Path("/state/projects/p-0123/hookman-run.sh")
MANIFEST = "/state/projects/p-0123/manifest.json"
SECRET = b"ab" * 32
EVENTS = ["PreToolUse", "PostToolUse", "Stop", "SessionEnd", "UserPromptSubmit"]


def _http(
    event: str = "PostToolUse",
    matcher: str | None = None,
    timeout: int | float | None = 30,
    *,
    port: int = 47311,
    on_failure: str | None = None,
    is_async: bool = False,
) -> HookmanEntry:
    return HookmanEntry(
        event,
        matcher,
        "",
        timeout,
        is_async=is_async,
        url=wire.hook_url(port, event, run_async=is_async),
        headers=wire.entry_headers(SECRET, MANIFEST),
        on_failure=on_failure,
    )


def _command(
    event: str = "PostToolUse",
    matcher: str | None = None,
    timeout: Any = 30,
    *,
    is_async: bool = False,
) -> HookmanEntry:
    guarded = event == "PreToolUse" and not is_async
    command = build_command(event, LAUNCHER, guarded=guarded, run_async=is_async)
    return HookmanEntry(event, matcher, command, timeout, is_async)


def test_wire_constants_are_the_ones_settings_entries_recognises() -> None:
    # settings_entries keeps its own copies (wire imports hmac, which doctor and list need
    # not load to recognise an entry): they must stay the same
    assert settings_entries.SERVE_HOST == wire.HOST
    assert settings_entries.SERVE_HOOK_PATH == wire.HOOK_PATH_PREFIX
    assert settings_entries.SERVE_MANIFEST_HEADER == wire.MANIFEST_HEADER


def test_http_entry_shape() -> None:
    handler = _http("PreToolUse", on_failure="block").handler()
    assert handler == {
        "type": "http",
        "url": "http://127.0.0.1:47311/v1/hook/PreToolUse",
        "headers": {
            "X-Hookman-Manifest": MANIFEST,
            "Authorization": "Bearer " + wire.project_token(SECRET, MANIFEST),
        },
        "timeout": 30,
        "onFailure": "block",
    }
    assert "onFailure" not in _http("PostToolUse").handler()
    assert "async" not in _http("PostToolUse").handler()


def test_recognised_as_hookmans_with_event_and_port() -> None:
    handler = _http("Stop", port=47399).handler()
    assert is_hookman_handler(handler)
    assert hookman_http_event(handler) == "Stop"
    assert hookman_http_port(handler) == 47399
    assert not hookman_handler_is_async(handler)
    marked = _http("Stop", is_async=True).handler()
    assert hookman_http_event(marked) == "Stop" and hookman_handler_is_async(marked)
    assert marked["url"].endswith("?async=1") and "async" not in marked


@pytest.mark.parametrize(
    "change",
    [
        {"url": "http://localhost:47311/v1/hook/Stop"},
        {"url": "http://10.0.0.2:47311/v1/hook/Stop"},
        {"url": "https://127.0.0.1:47311/v1/hook/Stop"},
        {"url": "http://127.0.0.1:47311/v2/hook/Stop"},
        {"url": "http://127.0.0.1:47311/v1/hook/"},
        {"url": "http://127.0.0.1:47311/v1/hook/Stop/x"},
        {"url": "http://127.0.0.1:notaport/v1/hook/Stop"},
        {"headers": {"Authorization": "Bearer x"}},
        {"headers": {"X-Hookman-Manifest": ""}},
        {"headers": "X-Hookman-Manifest"},
        {"type": "command"},
        {"url": None},
    ],
)
def test_other_http_handlers_are_foreign(change: dict[str, Any]) -> None:
    handler = {**_http("Stop").handler(), **change}
    if hookman_http_event(handler) is not None:  # a bad port still names the event
        assert hookman_http_port(handler) is None
        return
    assert not is_hookman_handler(handler)


def test_switching_paths_replaces_the_handler_where_it_stands() -> None:
    settings: dict[str, Any] = {"hooks": {}}
    apply_hookman_entries(settings, [_command("PostToolUse", "Edit")])
    apply_hookman_entries(settings, [_http("PostToolUse", "Edit")])
    group = settings["hooks"]["PostToolUse"]
    assert group == [{"matcher": "Edit", "hooks": [_http("PostToolUse", "Edit").handler()]}]
    apply_hookman_entries(settings, [_command("PostToolUse", "Edit")])
    assert settings["hooks"]["PostToolUse"] == [_command("PostToolUse", "Edit").group()]
    assert list(settings["hooks"]["PostToolUse"][0]["hooks"][0]) == ["type", "command", "timeout"]


def test_keys_a_user_added_survive_a_switch() -> None:
    settings: dict[str, Any] = {"hooks": {}}
    apply_hookman_entries(settings, [_command("Stop")])
    settings["hooks"]["Stop"][0]["hooks"][0]["statusMessage"] = "checking"
    apply_hookman_entries(settings, [_http("Stop")])
    handler = settings["hooks"]["Stop"][0]["hooks"][0]
    assert handler == {**_http("Stop").handler(), "statusMessage": "checking"}
    apply_hookman_entries(settings, [_command("Stop")])
    handler = settings["hooks"]["Stop"][0]["hooks"][0]
    assert handler == {**_command("Stop").handler(), "statusMessage": "checking"}


def test_on_failure_goes_when_the_entry_no_longer_asks_for_it() -> None:
    settings: dict[str, Any] = {}
    apply_hookman_entries(settings, [_http("PreToolUse", "Bash", on_failure="block")])
    apply_hookman_entries(settings, [_http("PreToolUse", "Bash", port=47312)])
    handler = settings["hooks"]["PreToolUse"][0]["hooks"][0]
    assert "onFailure" not in handler
    assert hookman_http_port(handler) == 47312


def test_foreign_http_handler_beside_hookmans_is_kept() -> None:
    foreign = {"type": "http", "url": "http://127.0.0.1:9000/v1/hook/Stop", "timeout": 5}
    settings: dict[str, Any] = {"hooks": {"Stop": [{"hooks": [foreign]}]}}
    apply_hookman_entries(settings, [_http("Stop")])
    apply_hookman_entries(settings, [])
    assert settings == {"hooks": {"Stop": [{"hooks": [foreign]}]}}


# --- property: any mix of paths, any foreign content -------------------------------------------

_scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=6)
_foreign_http = st.fixed_dictionaries(
    {
        "type": st.just("http"),
        "url": st.one_of(
            st.text(max_size=30),
            st.builds(
                "http://{}:{}/v1/hook/{}".format,
                st.sampled_from(["127.0.0.1", "localhost", "[::1]", "example.org"]),
                st.integers(1, 65535),
                st.sampled_from(EVENTS),
            ),
        ),
    },
    optional={
        "headers": st.dictionaries(
            st.sampled_from(["Authorization", "X-Other", "x-hookman-manifest"]), st.text(max_size=8)
        ),
        "timeout": st.integers(1, 60),
    },
)
_foreign_handler = _foreign_http | st.fixed_dictionaries(
    {"type": st.just("command"), "command": st.text(max_size=12)}
)
_foreign_settings = st.fixed_dictionaries(
    {
        "hooks": st.dictionaries(
            st.sampled_from(EVENTS),
            st.lists(
                st.fixed_dictionaries(
                    {"hooks": st.lists(_foreign_handler, min_size=1, max_size=2)},
                    optional={"matcher": st.sampled_from(["Bash", "Edit"])},
                ),
                min_size=1,
                max_size=2,
            ),
            min_size=1,
            max_size=3,
        )
    },
    optional={"env": st.dictionaries(st.text(max_size=4), _scalars, max_size=2)},
)


@st.composite
def _entry_sets(draw: st.DrawFn) -> list[HookmanEntry]:
    keys = st.tuples(st.sampled_from(EVENTS), st.booleans())
    entries = []
    for event, is_async in draw(st.lists(keys, unique=True, max_size=5)):
        matcher = draw(st.sampled_from([None, "Bash", "Edit|Write"]))
        timeout = draw(st.sampled_from([None, 30, 1.5]))
        if draw(st.booleans()):
            on_failure = None if is_async else draw(st.sampled_from([None, "block"]))
            port = draw(st.integers(1024, 65535))
            entry = _http(
                event, matcher, timeout, port=port, on_failure=on_failure, is_async=is_async
            )
            entries.append(entry)
        else:
            entries.append(_command(event, matcher, timeout, is_async=is_async))
    return entries


@settings(max_examples=120, deadline=None)
@given(foreign=_foreign_settings, first=_entry_sets(), second=_entry_sets())
def test_any_mix_of_paths_installs_switches_and_goes_leaving_foreign_content(
    foreign: dict[str, Any], first: list[HookmanEntry], second: list[HookmanEntry]
) -> None:
    found_before = find_hookman_entries(foreign)
    assume_foreign_only = not found_before
    settings_now = copy.deepcopy(foreign)
    apply_hookman_entries(settings_now, first)
    if assume_foreign_only:
        written = sorted(
            (e, h.get("type"), hookman_handler_is_async(h))
            for e, h in find_hookman_entries(settings_now)
        )
        assert written == sorted(
            (e.event, "http" if e.is_http else "command", e.is_async) for e in first
        )
    apply_hookman_entries(settings_now, second)
    ours = find_hookman_entries(settings_now)
    if assume_foreign_only:
        assert len(ours) == len(second)
        for entry in second:
            (handler,) = [
                h
                for event, h in ours
                if event == entry.event and hookman_handler_is_async(h) == entry.is_async
            ]
            expected = {**entry.handler(), **({"matcher": entry.matcher} if entry.matcher else {})}
            assert handler == expected
    apply_hookman_entries(settings_now, [])
    assert find_hookman_entries(settings_now) == []
    if assume_foreign_only:
        assert json.dumps(settings_now) == json.dumps(foreign)


_candidate_http = st.fixed_dictionaries(
    {
        "type": st.just("http"),
        "url": st.builds(
            "{}://{}:{}{}{}".format,
            st.sampled_from(["http", "https"]),
            st.sampled_from(["127.0.0.1", "localhost", "127.0.0.2", "[::1]"]),
            st.integers(1, 65535),
            st.sampled_from(["/v1/hook/", "/v1/hooks/", "/v1/identity", "/"]),
            st.sampled_from(EVENTS),
        ),
        "headers": st.dictionaries(
            st.sampled_from(["X-Hookman-Manifest", "Authorization", "x-hookman-manifest"]),
            st.sampled_from(["", MANIFEST]),
        ),
    }
)


@settings(max_examples=200, deadline=None)
@given(handler=_candidate_http)
def test_recogniser_claims_only_hookmans_form(handler: dict[str, Any]) -> None:
    # a generated handler is hookman's only when it has the url form AND the header
    claimed = is_hookman_handler(handler)
    headers = handler.get("headers") or {}
    assert claimed == (
        bool(headers.get("X-Hookman-Manifest"))
        and handler["url"].startswith("http://127.0.0.1:")
        and "/v1/hook/" in handler["url"]
    )
