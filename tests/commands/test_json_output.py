"""What every command prints with `--json`, held strictly to its type in hookman/json_shapes.py
(tests/shape_check.py: every required key, no other key, each value of its type), in
scenarios that reach the keys a type makes optional and the values it allows to be null."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hookman import json_shapes as shapes
from hookman import paths
from hookman.doctor import sources
from tests.client_shell import as_client
from tests.fake_codex import install_fake_codex, trust_project
from tests.hook_repos import make_repo, release
from tests.shape_check import assert_shape

from .helpers import ASYNC_VERSION, DIRS, GUARD, NOTES, NOTIFIER, hookman, write_hook

OLD = ("--claude-version", "2.1.197")  # DirectoryAdded (2.1.219) is held back
RM_RF = {
    "session_id": "s1",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf /"},
    "tool_use_id": "t1",
    "transcript_path": "/tmp/t.jsonl",
}
KEEPER = """\
def hook(pi):
    def keep(event, ctx):
        pi.append_entry("seen", {"tool": event["tool_name"]})
        ctx.ui.set_status("keeper", "saw " + event["tool_name"])
        print("kept")
    pi.on("tool_call", keep, tools=["Bash"])
    pi.register_command("greet", description="Say hello", handler=lambda args, ctx: "hi")
"""
SECOND_GREETER = """\
def hook(pi):
    pi.register_command("greet", handler=lambda args, ctx: None)
"""


def printed(*args: str, exit_code: int = 0) -> Any:
    """The parsed stdout of `hookman ARGS --json`."""
    done = hookman(*args, "--json")
    assert done.exit_code == exit_code, done.output
    return json.loads(done.stdout)


def check(*args: str, shape: object, exit_code: int = 0) -> Any:
    data = printed(*args, exit_code=exit_code)
    assert_shape(data, shape)
    return data


def run_launcher(project: Path, payload: dict[str, Any]) -> None:
    """The installed launcher on one event, as Claude Code runs it: the runner writes the
    firing log line `log --json` prints."""
    launcher = paths.manifest_path(project).parent / "hookman-run.sh"
    subprocess.run(
        as_client("sh", str(launcher), payload["hook_event_name"]),
        input=json.dumps({**payload, "cwd": str(project)}),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=project,
    )


@pytest.fixture
def here(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(project)
    return project


@pytest.fixture
def codex(here: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in `codex` on PATH (tests/fake_codex.py) that trusts the project."""
    home = tmp_path / "codex-home"
    install_fake_codex(tmp_path / "bin", home)
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    subprocess.run(["git", "init", "-q"], cwd=here, check=True)
    trust_project(home, here)
    return home


def test_install_remove_enable_and_disable(here: Path) -> None:
    for name, source in (("guard", GUARD), ("dirs", DIRS), ("notes", NOTES)):
        write_hook(here, name, source)
    hooks = ("hooks/guard.py", "hooks/dirs.py")
    dry = check("install", *hooks, "--dry-run", *OLD, shape=shapes.InstallJson)
    assert dry["dry_run"] is True and dry["diff"] and dry["config_diff"]
    first = check("install", *hooks, *OLD, shape=shapes.InstallJson)
    assert first["held_back"]["DirectoryAdded"] == {"since": "2.1.219"}
    assert first["written"]["PreToolUse"]["matcher"] and first["warnings"]
    notes = check("install", "hooks/notes.py", "--async", *ASYNC_VERSION, shape=shapes.InstallJson)
    assert notes["written_async"] and notes["installed"] == ["notes"]

    assert check("disable", "guard", shape=shapes.DisableJson)["disabled"] == ["guard"]
    assert check("disable", "guard", shape=shapes.DisableUnchangedJson)["unchanged"] == ["guard"]
    assert check("enable", "guard", shape=shapes.EnableJson)["enabled"] == ["guard"]
    assert check("enable", "guard", shape=shapes.EnableUnchangedJson)["unchanged"] == ["guard"]

    # The code of guard changed: a bare install records and wires what it says now.
    (here / "hooks" / "guard.py").write_text(GUARD + '    pi.on("agent_start", check)\n')
    learned = check("install", shape=shapes.InstallJson)
    assert learned["subscriptions_changed"] == [
        {"hook": "guard", "gained": ["agent_start"], "lost": [], "tools": {}}
    ]
    (here / "hooks" / "guard.py").write_text(GUARD.replace('["Bash"]', '["Bash", "Write"]'))
    retooled = check("install", shape=shapes.InstallJson)["subscriptions_changed"]
    assert retooled[0]["lost"] == ["agent_start"]
    assert retooled[0]["tools"] == {"tool_call": {"before": ["Bash"], "after": ["Bash", "Write"]}}

    (here / "hooks" / "dirs.py").unlink()
    lacking = check("install", shape=shapes.InstallJson, exit_code=1)
    assert [problem["name"] for problem in lacking["missing"]] == ["dirs"]
    assert lacking["broken"] == []
    (here / "hooks" / "notes.py").write_text("def hook(pi):\n    pi.on(\n")
    refused = hookman("install", "--json")  # a hook that does not load: nothing written
    assert refused.exit_code == 1 and refused.stdout == ""
    assert "the hook 'notes' has a syntax error" in refused.stderr
    removed = check("remove", "dirs", "notes", shape=shapes.RemoveJson, exit_code=0)
    assert [hook["name"] for hook in removed["hooks"]] == ["guard"]


def test_list_and_log_after_the_runner_ran(here: Path) -> None:
    for name, source in (("guard", GUARD), ("dirs", DIRS), ("notes", NOTIFIER)):
        write_hook(here, name, source)
    printed("install", "hooks/guard.py", "hooks/dirs.py", *OLD)
    printed("install", "hooks/notes.py", "--async", *ASYNC_VERSION)
    printed("disable", "notes")
    printed("install", "hooks/dirs.py", *OLD)  # a target without DirectoryAdded again
    (here / "hooks" / "guard.py").write_text("def hook(pi):\n    pi.on(\n")
    run_launcher(here, RM_RF)
    listed = check("list", *OLD, shape=shapes.ListJson, exit_code=1)
    statuses = {
        facts["status"] for hook in listed["hooks"] for facts in hook["claude_events"].values()
    }
    assert statuses == {"written", "held_back", "disabled"}
    guard = listed["hooks"][0]
    assert guard["last_fired"] and guard["problem"] and listed["codex"] is None
    records = check("log", shape=list[shapes.FiringRecordJson])
    assert [record["outcome"] for record in records] == ["failed-closed"]
    assert records[0]["errors"] and records[0]["reason"]


def test_codex_among_the_agents(here: Path, codex: Path, tmp_path: Path) -> None:
    write_hook(here, "guard", GUARD)
    write_hook(here, "notes", NOTES)
    write_hook(here, "dirs", DIRS)
    installed = check(
        "install", "hooks/guard.py", "hooks/notes.py", "hooks/dirs.py", "--agent", "codex",
        *ASYNC_VERSION, shape=shapes.InstallJson,
    )  # fmt: skip
    assert installed["codex"]["trust"]["trusted"] and installed["codex"]["not_in_codex"]
    assert installed["codex"]["without_counterpart"]
    again = check("install", "--no-codex-trust", shape=shapes.InstallJson)
    assert again["codex"]["trust"]["already_trusted"] and again["codex"]["trust"]["todo"] is None
    listed = check("list", shape=shapes.ListJson)
    assert listed["codex"]["hooks"]["guard"]["events"] == ["PreToolUse"]
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps({**RM_RF, "cwd": str(here), "turn_id": "t", "model": "m"}))
    fired = check(
        "fire", "PreToolUse", "--agent", "codex", "--payload", str(payload), shape=shapes.FireJson
    )
    assert fired["codex"]["answer"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    (here / ".claude" / "hookman.toml").write_text(
        (here / ".claude" / "hookman.toml").read_text().replace(', "codex"', "")
    )
    dropped = check("install", shape=shapes.InstallJson)
    assert dropped["codex"]["written"] == [] and dropped["codex"]["changed"] is True
    assert dropped["codex"]["trust"] is None and dropped["codex"]["version"] is None


def test_fire_before_and_after_install(here: Path, tmp_path: Path) -> None:
    write_hook(here, "guard", GUARD)
    write_hook(here, "keeper", KEEPER)
    write_hook(here, "notes", NOTIFIER)
    assert hookman("new", "early", "--template", "bash_guard").exit_code == 0
    before = check("fire", "PreToolUse", shape=shapes.FireJson)
    assert before["installed"] is False and before["async"] is None
    printed("remove", "early")  # a guard before keeper would stop the call before it runs
    printed("install", "hooks/keeper.py", "hooks/guard.py", *ASYNC_VERSION)
    printed("install", "hooks/notes.py", "--async", *ASYNC_VERSION)
    assert hookman("new", "late", "--template", "bash_guard").exit_code == 0
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps({**RM_RF, "cwd": str(here)}))
    fired = check("fire", "PreToolUse", "--payload", str(payload), shape=shapes.FireJson)
    # `new` changed hookman.toml since the install: the runner denies until `hookman install`
    assert fired["outcome"] == "failed-closed" and fired["not_installed"] == ["late"]
    assert "changed since `hookman install`" in fired["effects"][0]
    assert fired["entries"] and fired["statuses"] and fired["output"]
    assert fired["async"] is None and "codex" not in fired
    observed = check("fire", "PostToolUse", shape=shapes.FireJson)["async"]
    assert observed is not None and observed["hooks"] and observed["ignored_answer"]


def test_doctor_with_findings_and_probes(
    here: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setattr(sources, "managed_dir", lambda: tmp_path / "managed")
    write_hook(here, "guard", GUARD)
    printed("install", "hooks/guard.py", *ASYNC_VERSION)
    command = {"type": "command", "command": "echo linted", "timeout": 5}
    settings = {
        "hooks": {
            "PreToolUze": [{"hooks": [{"type": "command", "command": "true"}]}],
            "PostToolUse": [{"matcher": "bash", "hooks": [command]}],
            "Stop": [{"hooks": [{"type": "command"}]}],
        }
    }
    (here / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2))
    report = check("doctor", *ASYNC_VERSION, shape=shapes.DoctorJson, exit_code=1)
    edits = {finding["edit"]["op"] for finding in report["findings"] if finding["edit"]}
    assert {"rename", "set", "delete"} <= edits and "probed" not in report
    probed = check(
        "doctor", "--probe", "--probe-commands", *ASYNC_VERSION, shape=shapes.DoctorJson,
        exit_code=1,
    )  # fmt: skip
    assert {run["kind"] for run in probed["probed"]} == {"hookman", "command"}


def test_hook_repositories_trials_updates_and_the_registry(here: Path, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "agent-hooks")
    tried = check("try-repo", str(repo), *ASYNC_VERSION, shape=shapes.TryRepoJson)
    assert tried["trial"]["hooks"] == ["no-rm-rf"]
    trial = check("list", shape=shapes.ListJson)["hooks"][0]
    assert trial["trial"] is True and trial["source"]["commit"]
    installed = check(
        "install", "no-rm-rf", "--repo", str(repo), "--rev", "v1.0.0", *ASYNC_VERSION,
        shape=shapes.InstallJson,
    )  # fmt: skip
    assert installed["hooks"][0]["source"]["kind"] == "repo"
    assert check("list", shape=shapes.ListJson)["hooks"][0]["source"]["commit"]
    release(repo, "v1.1.0", reason="newer")
    moved = check("autoupdate", shape=shapes.AutoupdateJson)
    assert moved["updates"][0]["changed"] is True
    assert (
        check("autoupdate", shape=shapes.AutoupdateUnchangedJson)["updates"][0]["changed"] is False
    )
    write_hook(here, "guard", GUARD)
    assert hookman("registry", "add", str(here / "hooks" / "guard.py")).exit_code == 0
    added = hookman(
        "registry", "add", str(repo), "--rev", "v1.1.0", "--hook", "no-rm-rf", "--name", "r"
    )
    assert added.exit_code == 0, added.output
    registry = check("registry", "list", shape=shapes.RegistryJson)
    assert registry["hooks"] and registry["repositories"]


def test_an_autoupdate_without_repository_hooks(here: Path) -> None:
    assert check("autoupdate", shape=shapes.AutoupdateUnchangedJson) == {"updates": []}


def test_templates_commands_and_a_plugin(here: Path, tmp_path: Path) -> None:
    templates = check("new", "--list", shape=list[shapes.TemplateJson])
    assert templates
    write_hook(here, "keeper", KEEPER)
    write_hook(here, "second", SECOND_GREETER)
    write_hook(here, "broken", GUARD)
    printed("install", "hooks/keeper.py", "hooks/second.py", "hooks/broken.py", *ASYNC_VERSION)
    (here / "hooks" / "broken.py").write_text("def hook(pi):\n    pi.on(\n")
    commands = check("commands", shape=shapes.HookCommandsJson)
    assert [row["shadowed_by"] for row in commands["commands"]] == [None, "keeper"]
    assert commands["load_errors"]
    (here / "hooks" / "broken.py").write_text(GUARD)
    plain = check(
        "plugin", "build", str(tmp_path / "p"), "--hooks", "keeper", *ASYNC_VERSION,
        shape=shapes.PluginJson,
    )  # fmt: skip
    assert plain["marketplace"] is None
    listed = check(
        "plugin", "build", str(tmp_path / "m" / "p"), "--marketplace", str(tmp_path / "m"),
        "--hooks", "keeper", *ASYNC_VERSION, shape=shapes.PluginJson,
    )  # fmt: skip
    assert listed["marketplace"] is not None
