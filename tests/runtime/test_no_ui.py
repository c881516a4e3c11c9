"""The no-UI context and the status-recording UI the bridge uses (docs/hook-api.md, `ctx.ui`)."""

from __future__ import annotations

from hookman.runtime import NoUIContext, StatusRecordingUI


def test_no_ui_dialogs_decline_and_display_calls_do_nothing() -> None:
    ui = NoUIContext()
    assert ui.select("Pick", ["a", "b"]) is None
    assert ui.confirm("Sure?", "really") is False
    assert ui.input("Name", "placeholder") is None
    assert ui.editor("Edit", "prefill") is None
    assert ui.custom(lambda: None) is None
    assert ui.notify("hello", "info") is None
    assert ui.set_status("k", "v") is None
    assert ui.set_editor_text("text") is None
    assert ui.get_editor_text() == ""
    assert ui.theme is None


def test_status_recording_ui_stores_replaces_keeps_empty_and_deletes_on_none() -> None:
    ui = StatusRecordingUI()
    ui.set_status("b", "build ok")
    ui.set_status("a", "lint")
    ui.set_status("b", "build failed")
    ui.set_status("c", "")
    ui.set_status("a", None)
    ui.set_status("missing", None)
    assert ui.statuses == {"b": "build failed", "c": ""}
    assert list(ui.statuses) == ["b", "c"]  # replaced in place


def test_status_recording_ui_starts_from_given_statuses_without_sharing_them() -> None:
    previous = {"k": "v"}
    ui = StatusRecordingUI(previous)
    ui.set_status("k", None)
    assert previous == {"k": "v"}
    assert ui.statuses == {}


def test_status_recording_ui_records_notifications_and_still_declines_dialogs() -> None:
    ui = StatusRecordingUI()
    ui.notify("deployed", "info")
    ui.notify("careful")
    assert ui.notifications == [("deployed", "info"), ("careful", None)]
    assert ui.confirm("ok?", "") is False
    assert ui.select("x", ["a"]) is None
