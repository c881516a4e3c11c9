from __future__ import annotations

import sys
from typing import Any

import pytest

from hookman.doctor import windows_syntax as module
from hookman.doctor.model import Handler, Source


def handler(command: str, **raw: Any) -> Handler:
    source = Source("project", "/p/.claude/settings.json")
    entry = {"type": "command", "command": command, **raw}
    return Handler(
        source, "hooks.X[0].hooks[0]", "PostToolUse", None, "command", command, None, entry
    )


def test_posix_shells_do_not_read_windows_syntax() -> None:
    assert module.windows_syntax(handler("%APPDATA%\\x.bat")) == "%APPDATA%"
    assert module.windows_syntax(handler("D:\\hooks\\fmt.exe --fix")) == "D:\\hooks\\fmt.exe"
    assert module.windows_syntax(handler("/bin/sh", args=[".claude\\hooks\\x.sh"])) is not None
    assert module.windows_syntax(handler("printf '%d%%\\n' 5")) is None


def test_on_windows_only_an_explicit_bash_is_a_posix_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    assert module.windows_syntax(handler("%APPDATA%\\x.bat")) is None
    assert module.windows_syntax(handler("%APPDATA%\\x.bat", shell="bash")) == "%APPDATA%"
