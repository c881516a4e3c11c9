from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hookman.doctor.report import exit_code, report_json

from .conftest import command, diagnose, group, install, settings

FORMATTER = "#!/bin/sh\ncat > /dev/null\nexit 0\n"


@pytest.fixture
def realistic(project: Path) -> Path:
    """A hookman-installed guard, a sane foreign formatter, permissions, in a git work tree."""
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    script = project / "scripts" / "format.sh"
    script.parent.mkdir()
    script.write_text(FORMATTER)
    script.chmod(0o755)
    formatter = command('"$CLAUDE_PROJECT_DIR"/scripts/format.sh', timeout=30)
    settings(
        project,
        {"PostToolUse": [group(formatter, matcher="Edit|Write|MultiEdit")]},
        permissions={"allow": ["Bash(npm test)"]},
    )
    install(project)
    return project


@pytest.mark.parametrize("probe", [{}, {"probe": True}, {"probe_commands": True}])
def test_a_realistic_clean_project_passes_with_no_noise(
    realistic: Path, probe: dict[str, bool]
) -> None:
    ctx = diagnose(realistic, **probe)
    assert exit_code(ctx) == 0
    assert [(f.code, f.severity) for f in ctx.findings] == [("hookman-never-fired", "info")]
    assert [(h.source.kind, h.event, h.loaded) for h in ctx.handlers] == [
        ("project", "PostToolUse", True),
        ("local", "PreToolUse", True),
        ("local", "UserPromptSubmit", True),  # the prompt gate
    ]


def test_json_report_lists_sources_handlers_and_findings(realistic: Path) -> None:
    report = report_json(diagnose(realistic))
    kinds = [source["kind"] for source in report["sources"]]
    assert kinds == ["user", "project", "local", "hookman.toml", "manifest", "registry"]
    assert report["handlers"][1]["hookman"] is True
    assert report["handlers"][0]["matches"] == ["Write", "Edit", "MultiEdit"]


def test_errors_come_first_and_set_exit_code_1(project: Path) -> None:
    settings(project, {"Stop": [group(command("true"), matcher="x")], "PostToolUze": []})
    ctx = diagnose(project)
    assert [f.severity for f in ctx.findings] == ["error", "warning"]
    assert exit_code(ctx) == 1
