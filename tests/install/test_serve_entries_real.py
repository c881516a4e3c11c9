"""The entries install writes, posted as Claude Code posts them (the url, the headers as
written) to the real `hookman serve run`: the guard's deny comes back,
a harmless call is allowed; install, doctor and fire agree the server runs, then that it
does not once stopped. (The real client: tests/e2e/test_serve.py.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookman.project.settings_entries import find_hookman_entries
from tests.serve.served import Served


def _handlers(served: Served) -> dict[str, dict[str, Any]]:
    settings = json.loads((served.root / ".claude" / "settings.local.json").read_text())
    return {
        event: handler
        for event, handler in find_hookman_entries(settings)
        if handler["type"] == "http" and "async=1" not in handler["url"]
    }


def _post_as_the_client(served: Served, handler: dict[str, Any], payload: dict) -> Any:
    headers = dict(handler["headers"])
    headers["Content-Type"] = "application/json"
    path = handler["url"].split(str(served.port), 1)[1]
    status, body = served.request("POST", path, json.dumps(payload).encode(), headers)
    assert status == 200, body
    return body


def _serve_codes(served: Served) -> list[str]:
    done = served.hookman("doctor", "--json", "--claude-version", "2.1.332", check=False)
    return sorted(f["code"] for f in json.loads(done.stdout)["findings"] if "serve" in f["code"])


def test_installed_entries_reach_the_real_server_and_every_command_agrees(
    tmp_path: Path,
) -> None:
    served = Served(tmp_path)
    served.root.mkdir()
    served.hookman("serve", "enable", "--port", str(served.port))
    served.install()
    handlers = _handlers(served)
    assert handlers["PreToolUse"]["onFailure"] == "block"
    assert "warm hook server is not running" in served.hookman("install").stdout
    codes = _serve_codes(served)
    assert codes == ["hookman-serve-not-running"], served.hookman("doctor", check=False).stdout
    served.start()
    try:
        guard = handlers["PreToolUse"]
        denied = _post_as_the_client(served, guard, served.bash("PreToolUse", "rm -rf /"))
        assert denied["hookSpecificOutput"]["permissionDecision"] == "deny"
        assert "no rm -rf" in denied["hookSpecificOutput"]["permissionDecisionReason"]
        allowed = _post_as_the_client(served, guard, served.bash("PreToolUse", "ls"))
        assert allowed.get("hookSpecificOutput", {}).get("permissionDecision") != "deny"
        assert "not running" not in served.hookman("install").stdout
        assert _serve_codes(served) == []
        fired = json.loads(served.hookman("fire", "PreToolUse", "--json").stdout)
        assert fired["entry"]["path"] == "server"
    finally:
        served.stop()
    assert _serve_codes(served) == ["hookman-serve-not-running"]
