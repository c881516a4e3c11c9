"""`hookman doctor` on the command line: exact plain output, --json shape, exit codes, and
never a traceback whatever the settings hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hookman.cli.app import app
from hookman.doctor import sources
from hookman.doctor.report import DoctorOptions, run_doctor


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sources, "managed_dir", lambda: tmp_path / "managed")


def doctor(project: Path, *args: str) -> object:
    return CliRunner().invoke(
        app, ["doctor", "--project", str(project), "--claude-version", "2.1.328", *args]
    )


def write_settings(project: Path, data: object) -> None:
    (project / ".claude" / "settings.json").write_text(json.dumps(data))


BROKEN = {
    "hooks": {
        "PostToolUze": [{"hooks": [{"type": "command", "command": "true"}]}],
        "PostToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "true"}]}],
    }
}


def test_plain_output_names_file_line_event_path_message_and_fix(project: Path) -> None:
    (project / ".claude" / "settings.json").write_text(json.dumps(BROKEN, indent=2))
    result = doctor(project)
    assert result.exit_code == 1
    assert result.stdout == (
        f"hookman doctor: project {project}, Claude Code 2.1.328\n"
        "\n"
        "sources:\n"
        "  user: ~/.claude/settings.json (not present)\n"
        "  project: .claude/settings.json (2 handlers)\n"
        "  local: .claude/settings.local.json (not present)\n"
        "\n"
        ".claude/settings.json (project):\n"
        "  hooks.PostToolUze[0].hooks[0]: PostToolUze matcher=- runs=true timeout=- "
        "loaded=NO (unknown-event) matches=?\n"
        "  hooks.PostToolUse[0].hooks[0]: PostToolUse matcher=bash runs=true timeout=- "
        "loaded=yes matches=nothing\n"
        "\n"
        "findings: .claude/settings.json\n"
        "error unknown-event line 3, hooks.PostToolUze\n"
        "  `PostToolUze` is not a Claude Code event, so its hooks never run.\n"
        "  fix: move its matcher groups into the `PostToolUse` array, then delete "
        "`PostToolUze`.\n"
        "error matcher-case line 15, hooks.PostToolUse[0].matcher\n"
        "  the matcher `bash` never matches: names are case-sensitive and the tool is `Bash`; "
        "the hook never runs.\n"
        "  fix: use the matcher `Bash`.\n"
        "\n"
        "2 handlers (1 loaded by the client); 2 errors, 0 warnings, 0 info.\n"
    )


def test_a_clean_project_exits_0_and_says_so(project: Path) -> None:
    result = doctor(project)
    assert result.exit_code == 0
    assert "no findings" in result.stdout
    assert result.stdout.endswith(
        "0 handlers (0 loaded by the client); 0 errors, 0 warnings, 0 info.\n"
    )


def test_json_has_sources_handlers_and_findings_with_stable_fields(project: Path) -> None:
    write_settings(project, BROKEN)
    result = doctor(project, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert {"sources", "handlers", "findings"} <= set(report)
    finding = report["findings"][0]
    assert {"code", "severity", "file", "event", "path", "message", "fix"} <= set(finding)
    handler = report["handlers"][1]
    assert {
        k: handler[k] for k in ("event", "matcher", "type", "command", "loaded", "matches")
    } == {
        "event": "PostToolUse",
        "matcher": "bash",
        "type": "command",
        "command": "true",
        "loaded": True,
        "matches": [],
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--claude-version", "banana"], "not a Claude Code version"),
        (["--managed-settings", "/nonexistent/managed.json"], "does not exist"),
    ],
)
def test_when_doctor_cannot_run_it_exits_2_with_one_sentence(
    project: Path, args: list[str], message: str
) -> None:
    result = CliRunner().invoke(app, ["doctor", "--project", str(project), *args])
    assert result.exit_code == 2 and message in result.stderr
    assert "Traceback" not in result.output


def test_a_missing_project_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["doctor", "--project", str(tmp_path / "nope")])
    assert result.exit_code == 2


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)
events = st.sampled_from(["PreToolUse", "PostToolUse", "Stop", "SessionEnd", "PostToolUze", ""])
handlers = st.fixed_dictionaries(
    {"type": st.sampled_from(["command", "http", "bogus", 3])},
    optional={
        "command": st.text(max_size=30) | json_values,
        "timeout": json_values,
        "async": json_values,
    },
)
groups = st.fixed_dictionaries(
    {},
    optional={
        "matcher": st.text(max_size=12) | json_values,
        "hooks": st.lists(handlers | json_values, max_size=3),
    },
)
hooks_objects = st.dictionaries(
    events, st.lists(groups | json_values, max_size=3) | json_values, max_size=4
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    hooks=hooks_objects | json_values,
    extra=st.dictionaries(
        st.sampled_from(["disableAllHooks", "enabledPlugins", "allowManagedHooksOnly"]),
        json_values,
        max_size=2,
    ),
)
def test_any_settings_content_gives_findings_never_an_exception(
    project: Path, hooks: object, extra: dict[str, object]
) -> None:
    write_settings(project, {"hooks": hooks, **extra})
    ctx = run_doctor(DoctorOptions(project_dir=project, claude_version="2.1.328"))
    assert ctx.sources.sources  # the settings file it wrote was read (findings may be none)
    for finding in ctx.findings:
        assert finding.severity in ("error", "warning", "info") and finding.fix


def run_doctor_on(project: Path, hooks: object) -> list[object]:
    write_settings(project, {"hooks": hooks})
    return run_doctor(DoctorOptions(project_dir=project, claude_version="2.1.328")).findings


def _strict_json(text: str) -> bool:
    """Whether Claude Code (and doctor) can read the text: JSON without NaN or Infinity."""

    def refuse(constant: str) -> object:
        raise ValueError(constant)

    try:
        json.loads(text, parse_constant=refuse)
    except ValueError:
        return False
    return True


def _apply(data: dict[str, object], edit: dict[str, object]) -> None:
    from hookman.doctor.locate import path_steps

    steps = path_steps(str(edit["path"]))
    assert steps, edit
    parent: object = data
    for step in steps[:-1]:
        parent = parent[step]  # type: ignore[index]
    last = steps[-1]
    if edit["op"] == "set":
        parent[last] = edit["value"]  # type: ignore[index]
    elif edit["op"] == "delete":
        del parent[last]  # type: ignore[union-attr, arg-type]
    else:
        assert edit["value"] not in parent  # type: ignore[operator]
        parent[edit["value"]] = parent.pop(last)  # type: ignore[index, union-attr]


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(hooks=hooks_objects)
def test_applying_a_findings_edit_removes_that_finding(
    project: Path, hooks: dict[str, object]
) -> None:
    # A miscased matcher on an event the strategy never draws: one edit every example has.
    planted = {"matcher": "bash", "hooks": [{"type": "command", "command": "true"}]}
    hooks = {"PermissionRequest": [planted], **hooks}
    write_settings(project, {"hooks": hooks})
    options = DoctorOptions(project_dir=project, claude_version="2.1.328")
    edited = [finding for finding in run_doctor(options).findings if finding.edit is not None]
    if _strict_json((project / ".claude" / "settings.json").read_text()):  # else: unreadable
        assert "hooks.PermissionRequest[0].matcher" in [finding.path for finding in edited]
    for finding in edited:
        data = json.loads((project / ".claude" / "settings.json").read_text())
        _apply(data, finding.edit)
        write_settings(project, data)
        after = run_doctor(options).findings
        family = finding.code.split("-")[0]  # invalid-entry*, matcher-*, unknown-event, ...
        before_count = sum(f.code.startswith(family) for f in run_doctor_on(project, hooks))
        assert (finding.code, finding.path) not in [(f.code, f.path) for f in after] or (
            sum(f.code.startswith(family) for f in after) < before_count
        )
        write_settings(project, {"hooks": hooks})


def _probed_section(stdout: str) -> list[str]:
    section = stdout.split("\nprobed (what ran, and how the client takes each result):\n", 1)[1]
    return section.split("\n\n", 1)[0].splitlines()


def test_probe_commands_says_what_ran_and_how_each_result_was_classified(project: Path) -> None:
    write_settings(
        project,
        {
            "hooks": {
                "PostToolUse": [
                    {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo linted"}]}
                ]
            }
        },
    )
    result = doctor(project, "--probe-commands")
    assert result.exit_code == 0
    assert result.stdout == (
        f"hookman doctor: project {project}, Claude Code 2.1.328\n"
        "\n"
        "sources:\n"
        "  user: ~/.claude/settings.json (not present)\n"
        "  project: .claude/settings.json (1 handler)\n"
        "  local: .claude/settings.local.json (not present)\n"
        "\n"
        ".claude/settings.json (project):\n"
        "  hooks.PostToolUse[0].hooks[0]: PostToolUse matcher=Bash runs=echo linted timeout=- "
        "loaded=yes matches=Bash\n"
        "\n"
        "findings: .claude/settings.json\n"
        "warning plain-stdout-dropped line 1, hooks.PostToolUse[0].hooks[0]\n"
        "  the hook prints plain text on PostToolUse, where the client puts stdout only in its "
        "debug log: the model never sees it.\n"
        '  fix: print {"hookSpecificOutput": {"hookEventName": "PostToolUse", '
        '"additionalContext": "..."}} instead.\n'
        "\n"
        "probed (what ran, and how the client takes each result):\n"
        "  PostToolUse `echo linted` (.claude/settings.json hooks.PostToolUse[0].hooks[0]), "
        "Bash `echo hi`: printed plain text, which the client keeps in its debug log\n"
        "  PostToolUse `echo linted` (.claude/settings.json hooks.PostToolUse[0].hooks[0]), "
        "Bash `rm -rf ./build`: printed plain text, which the client keeps in its debug log\n"
        "\n"
        "1 handler (1 loaded by the client); 0 errors, 1 warning, 0 info.\n"
    )


GUARD_HOOK = """\
def hook(pi):
    def check(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no rm -rf"}
    pi.on("tool_call", check, tools=["Bash"])
    pi.on("before_agent_start", lambda event, ctx: {"message": {"content": "be brief"}})
"""


def test_probe_names_each_hookman_run_and_the_commands_it_did_not_run(project: Path) -> None:
    hook = project / "hooks" / "guard.py"
    hook.parent.mkdir()
    hook.write_text(GUARD_HOOK)
    installed = CliRunner().invoke(
        app, ["install", str(hook), "--claude-version", "2.1.328", "--project", str(project)]
    )
    assert installed.exit_code == 0, installed.output
    write_settings(
        project,
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./check.sh"}]}]}},
    )
    result = doctor(project, "--probe")
    assert _probed_section(result.stdout) == [
        "  PreToolUse hookman (guard), Bash `echo hi`: no answer: the client lets the call run",
        "  PreToolUse hookman (guard), Bash `rm -rf ./build`: denied (no rm -rf): the guard works",
        "  UserPromptSubmit hookman (guard): answered with additionalContext",
        "  Stop `./check.sh` (.claude/settings.json hooks.Stop[0].hooks[0]): not run "
        "(--probe-commands runs command hooks)",
    ]
    plain = doctor(project)
    assert "probed" not in plain.stdout


def test_probe_json_adds_probed_and_keeps_every_other_key(project: Path) -> None:
    write_settings(
        project,
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 0"}]}]}},
    )
    plain = json.loads(doctor(project, "--json").stdout)
    probed = json.loads(doctor(project, "--json", "--probe-commands").stdout)
    assert "probed" not in plain
    assert set(probed) == set(plain) | {"probed"}
    assert probed["probed"] == [
        {
            "kind": "command",
            "event": "Stop",
            "hooks": [],
            "command": "exit 0",
            "file": str(project / ".claude" / "settings.json"),
            "path": "hooks.Stop[0].hooks[0]",
            "sample": "Stop",
            "result": "no_answer",
            "summary": "exit 0, no output (observe only)",
            "findings": [],
        }
    ]


def test_probe_of_nothing_says_so(project: Path) -> None:
    result = doctor(project, "--probe")
    assert _probed_section(result.stdout) == [
        "  nothing: no hookman hooks are installed and no command hooks are set."
    ]
