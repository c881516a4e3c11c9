"""`fire` and `doctor --probe` run every template's hooks without writing into the project:
the hooks run in a scratch copy of .claude/ (cwd, ctx.cwd, CLAUDE_PROJECT_DIR), with desktop
notifications off, and the environment and cwd are put back afterwards."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hookman.cli.app import app
from hookman.doctor import sources
from hookman.rehearsal.sandbox import sandbox_project, sandboxed
from hookman.scaffold.template_files import bundled_templates


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(sources, "managed_dir", lambda: tmp_path / "managed")


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def run(project: Path, *args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--project", str(project)])
    assert "Traceback" not in result.output
    return result.stdout


def test_no_template_writes_into_the_project_under_fire_or_probe(project: Path) -> None:
    for name in bundled_templates():
        run(project, "new", name, "-t", name)
    run(project, "install", "--claude-version", "2.1.332")
    before = tree(project)
    cwd, environment = os.getcwd(), dict(os.environ)
    run(project, "doctor", "--probe")
    events = json.loads(run(project, "list", "--json"))["hooks"]
    fired = {event for hook in events for event in hook["claude_events"]}
    reports = [
        json.loads(run(project, "fire", event, "--json"))
        for event in sorted(fired)
        if (Path(__file__).parents[2] / "hookman/catalog/payloads" / f"{event}.json").exists()
    ]
    assert reports, fired
    assert tree(project) == before
    assert os.getcwd() == cwd and dict(os.environ) == environment
    notified = [
        r
        for r in reports
        for run_ in (r, r["async"] or {"hooks": []})
        if any(h["name"] == "notify" and h["calls"] for h in run_["hooks"])
    ]
    for report in reports:
        assert report["project"] == str(project)
        assert "scratch copy of the project's .claude/" in report["sandbox"]["note"]
    assert notified  # the notify template ran, and its log went to the sandbox, not here
    assert not (project / ".claude" / "notifications.log").exists()


def test_the_sandbox_holds_a_copy_and_restores_cwd_and_environment(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / ".claude" / "hookman.toml").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nowhere")
    scratch = tmp_path / "scratch"
    box = sandbox_project(project, str(scratch))
    assert (box / ".claude" / "hookman.toml").read_text(encoding="utf-8") == "x = 1\n"
    cwd = os.getcwd()
    with sandboxed(box):
        assert Path.cwd() == box.resolve()
        assert os.environ["CLAUDE_PROJECT_DIR"] == str(box)
        assert os.environ["NOTIFY_DESKTOP"] == "0"
        assert "DISPLAY" not in os.environ and "DBUS_SESSION_BUS_ADDRESS" not in os.environ
        Path(".claude/notifications.log").write_text("x", encoding="utf-8")
    assert os.getcwd() == cwd
    assert os.environ["CLAUDE_PROJECT_DIR"] == str(project)
    assert os.environ["DISPLAY"] == ":0"
    assert "NOTIFY_DESKTOP" not in os.environ
    assert not (project / ".claude" / "notifications.log").exists()
