from __future__ import annotations

from pathlib import Path

import pytest

from hookman.bridge.hook_set import CallTracker, load_hook_set
from hookman.bridge.manifest_reader import ManifestHook


def _hook(tmp_path: Path, name: str, source: str) -> ManifestHook:
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return ManifestHook(name, str(path), ("tool_call",), ("PreToolUse",), {})


def test_failures_keep_their_names_and_order(tmp_path: Path) -> None:
    good = _hook(tmp_path, "good", 'def hook(pi):\n    pi.on("tool_call", lambda e, c: None)\n')
    bad = _hook(tmp_path, "bad", "raise RuntimeError('at import')\n")

    hook_set = load_hook_set([bad, good], str(tmp_path), "Bash", CallTracker())

    assert hook_set.names == ["good"]
    assert [(f.hook.name, f.error) for f in hook_set.failures] == [
        ("bad", "Failed to load hook: at import")
    ]
    assert hook_set.name_for_path(good.path) == "good"


def test_wrapped_handlers_record_errors_with_the_hook_name(tmp_path: Path) -> None:
    source = 'def hook(pi):\n    pi.on("tool_call", lambda e, c: 1 / 0)\n'
    tracker = CallTracker()
    hook_set = load_hook_set([_hook(tmp_path, "div", source)], str(tmp_path), None, tracker)
    (handler,) = hook_set.loaded[0].handlers["tool_call"]

    with pytest.raises(ZeroDivisionError):
        handler({}, None)

    (call,) = tracker.calls
    assert (call.hook, call.event) == ("div", "tool_call")
    assert call.error == "ZeroDivisionError: division by zero"
    assert tracker.current_hook == "div"
