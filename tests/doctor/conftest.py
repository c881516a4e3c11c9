"""A hermetic world for doctor: the user dir, managed settings and PATH's `claude` are all
under tmp_path, so nothing on the developer's machine leaks into a finding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookman.doctor import sources
from hookman.doctor.context import Context
from hookman.doctor.report import DoctorOptions, run_doctor


@pytest.fixture(autouse=True)
def isolated_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)  # Codex's user layer: ~/.codex under home
    managed = tmp_path / "managed"
    monkeypatch.setattr(sources, "managed_dir", lambda: managed)
    return home


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def settings(project: Path, hooks: Any, name: str = "settings.json", **extra: Any) -> Path:
    return write_json(project / ".claude" / name, {"hooks": hooks, **extra})


def command(text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command": text, **extra}


def group(*handlers: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
    found["hooks"] = list(handlers)
    return found


def diagnose(project: Path, version: str | None = "2.1.328", **options: Any) -> Context:
    return run_doctor(DoctorOptions(project_dir=project, claude_version=version, **options))


def codes(ctx: Context, severity: str | None = None) -> list[str]:
    return [f.code for f in ctx.findings if severity is None or f.severity == severity]


def the(ctx: Context, code: str) -> Any:
    found = [f for f in ctx.findings if f.code == code]
    assert len(found) == 1, [f.json() for f in ctx.findings]
    return found[0]


def loud(ctx: Context) -> list[dict[str, Any]]:
    return [f.json() for f in ctx.findings if f.severity in ("error", "warning")]


GUARD = """\
def hook(pi):
    def check(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no"}
    pi.on("tool_call", check, tools=["Bash"])
"""


def hookman_cli(*args: str) -> Any:
    from typer.testing import CliRunner

    from hookman.cli.app import app

    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def write_hook(directory: Path, name: str, source: str) -> Path:
    path = directory / "hooks" / f"{name}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return path


def install(project: Path, source: str = GUARD, name: str = "guard") -> None:
    path = write_hook(project, name, source)
    done = hookman_cli(
        "install", str(path), "--claude-version", "2.1.328", "--project", str(project)
    )
    assert done.exit_code == 0, done.output
