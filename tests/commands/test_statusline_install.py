"""`hookman statusline --install` writes a statusLine that runs whatever PATH the client has,
and doctor checks the one Claude Code uses (and that its fix works)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hookman.doctor.report import DoctorOptions, run_doctor

from .helpers import hookman

BARE = {"type": "command", "command": "hookman statusline"}


def codes(project: Path, *, probe: bool = False) -> dict[str, dict]:
    ctx = run_doctor(DoctorOptions(project_dir=project, claude_version="2.1.332", probe=probe))
    return {f.code: f.json() for f in ctx.findings if f.code.startswith("statusline-")}


def status_command(project: Path) -> str:
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    return settings["statusLine"]["command"]


def test_the_written_status_line_runs_without_hookman_on_path(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    (project / ".claude" / "settings.local.json").write_text('{"env": {"A": "1"}}\n')
    result = hookman("statusline", "--install")
    assert result.exit_code == 0, result.output
    command = status_command(project)
    assert command.startswith(sys.executable) and command.endswith(" -m hookman statusline")
    assert json.loads((project / ".claude" / "settings.local.json").read_text())["env"] == {
        "A": "1"
    }
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps({"session_id": "s1", "workspace": {"project_dir": str(project)}}),
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(project)},  # no venv on the client's PATH
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert codes(project, probe=True) == {}
    again = hookman("statusline", "--install")
    assert "already has the statusLine" in again.output


def test_a_foreign_status_line_is_never_replaced(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    settings = project / ".claude" / "settings.local.json"
    text = '{"statusLine": {"type": "command", "command": "my-line"}}\n'
    settings.write_text(text)
    result = hookman("statusline", "--install")
    assert result.exit_code == 1
    assert "already has a statusLine of its own (it runs 'my-line')" in result.output
    assert settings.read_text() == text


def test_doctor_finds_a_bare_name_and_a_gone_interpreter_and_its_fix_works(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    settings = project / ".claude" / "settings.local.json"
    settings.write_text(json.dumps({"statusLine": BARE}))
    found = codes(project)
    assert list(found) == ["statusline-bare-name"]
    assert "`hookman statusline --install`" in found["statusline-bare-name"]["fix"]
    gone = {"type": "command", "command": "/nowhere/venv/bin/python -m hookman statusline"}
    settings.write_text(json.dumps({"statusLine": gone}))
    assert list(codes(project)) == ["statusline-missing"]
    assert hookman("statusline", "--install").exit_code == 0  # the fix doctor names
    assert codes(project, probe=True) == {}


def test_doctor_probe_runs_it_and_reports_a_failure(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    broken = tmp_path / "python"
    broken.write_text("#!/bin/sh\necho 'No module named hookman' >&2\nexit 1\n")
    broken.chmod(0o755)
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps(
            {"statusLine": {"type": "command", "command": f"{broken} -m hookman statusline"}}
        )
    )
    assert "statusline-fails" not in codes(project)  # plain doctor runs nothing
    found = codes(project, probe=True)
    assert "No module named hookman" in found["statusline-fails"]["message"]
    assert "statusline-other-hookman" in found
