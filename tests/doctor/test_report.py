from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hookman.doctor.report import exit_code, report_json

from .conftest import command, diagnose, group, hookman_cli, install, settings

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
    # the sentinel is silent while all is well (no matcher, runner or agreement finding)
    assert [(f.code, f.severity) for f in ctx.findings] == [("hookman-never-fired", "info")]
    assert [(h.source.kind, h.event, h.matcher, h.loaded) for h in ctx.handlers] == [
        ("project", "PostToolUse", "Edit|Write|MultiEdit", True),
        ("local", "PreToolUse", "Bash", True),
        ("local", "PreToolUse", "^(?!(?:Bash)$).*", True),  # the sentinel: every other tool
        ("local", "UserPromptSubmit", None, True),  # the prompt gate
    ]


def test_the_handler_table_tells_the_sentinel_from_the_guard_s_entry(realistic: Path) -> None:
    done = hookman_cli("doctor", "--project", str(realistic), "--claude-version", "2.1.328")
    lines = [line for line in done.output.splitlines() if " runs=hookman" in line]
    assert [line.split(" runs=")[1].split(" timeout=")[0] for line in lines] == [
        "hookman PreToolUse",
        "hookman PreToolUse [sentinel]",
        "hookman UserPromptSubmit",
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
