"""`hookman plugin build`: what the plugin holds, and the OUT_DIRs and names it refuses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge.protocol import GUARDED_DONE_STATUS, LAUNCHER_NAME
from hookman.bridge.serve_proof import HOOK_PATH_PREFIX
from hookman.errors import HookmanError
from hookman.plugin.build import build_plugin, check_plugin_name, default_plugin_name
from hookman.plugin.carry import carried_files
from tests.client_shell import as_client
from tests.commands.helpers import NOTIFIER, hookman, write_hook

from .conftest import VERSION

PAYLOAD = {
    "session_id": "s1",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf /tmp/x"},
    "cwd": "/tmp",
}


def build(project: Path, out: Path, *args: str):  # type: ignore[no-untyped-def]
    return hookman("plugin", "build", str(out), "--project", str(project), *VERSION, *args)


def all_hooks(out: Path) -> dict:
    """Every event of the plugin's hooks files (hooks.json and those plugin.json names)."""
    plugin = json.loads((out / ".claude-plugin" / "plugin.json").read_text())
    names = ["hooks/hooks.json"] + [name[2:] for name in plugin.get("hooks", [])]
    found: dict = {}
    for name in names:
        for event, groups in json.loads((out / name).read_text())["hooks"].items():
            assert event not in found, f"{event} is in two hooks files"
            found[event] = groups
    return found


def run_launcher(
    plugin: Path, event: str, payload: dict, data: Path, path: str, project: Path | None = None
) -> str:
    """The plugin's launcher as the client runs it; in `project` (its directory the working
    one and CLAUDE_PROJECT_DIR) when one is given."""
    in_project = {} if project is None else {"CLAUDE_PROJECT_DIR": str(project)}
    done = subprocess.run(
        as_client("sh", str(plugin / "hookman-runner" / "run.sh"), event),
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={"PATH": path, "CLAUDE_PLUGIN_DATA": str(data), **in_project},
        cwd=project or "/",
        timeout=60,
        check=False,
    )
    assert done.returncode == GUARDED_DONE_STATUS, done.stderr
    return done.stdout


def test_the_plugin_holds_its_hooks_the_runner_and_a_manifest_with_relative_paths(
    built_project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "plug"
    done = build(built_project, out, "--name", "team-guards")

    assert done.exit_code == 0, done.output
    assert "built the plugin team-guards 0.1.0" in done.output
    plugin = json.loads((out / ".claude-plugin" / "plugin.json").read_text())
    assert (plugin["name"], plugin["version"]) == ("team-guards", "0.1.0")
    hooks = all_hooks(out)
    settings = json.loads((built_project / ".claude" / "settings.local.json").read_text())
    # the events install writes, but the prompt gate: a plugin serves no one project
    assert sorted(hooks) == sorted(set(settings["hooks"]) - {"UserPromptSubmit"})
    assert all(len(groups) == 1 for groups in hooks.values())  # one runner per event
    command = hooks["PreToolUse"][0]["hooks"][0]["command"]
    launcher = '"${CLAUDE_PLUGIN_ROOT}/hookman-runner/run.sh"'
    assert f"EXIT; [ -f {launcher} ] && sh {launcher} PreToolUse && false || " in command
    assert "exit 2 ;; esac" in command  # a launcher that did not run to its end blocks
    manifest = json.loads((out / "hookman-runner" / "manifest.json").read_text())
    assert [h["path"] for h in manifest["hooks"]] == ["hooks/guard.py", "hooks/notes.py"]
    assert manifest["plugin"] == {"name": "team-guards"}
    assert str(built_project) not in (out / "hookman-runner" / "manifest.json").read_text()
    assert (out / "hookman-runner" / "lib" / "hookman" / "bridge" / "run_command.py").is_file()
    assert not (out / "hookman-runner" / "lib" / "hookman" / "project").exists()


def test_the_plugin_runs_on_a_python3_without_hookman_after_the_cache_move(
    built_project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "plug"
    assert build(built_project, out).exit_code == 0
    moved = tmp_path / "cache dir $x" / "plug"
    moved.parent.mkdir()
    os.replace(out, moved)
    clean = "/usr/bin:/bin"
    check = subprocess.run(
        ["python3", "-I", "-c", "import hookman"], env={"PATH": clean}, capture_output=True
    )
    if check.returncode == 0:
        pytest.skip("the system python3 has hookman installed")

    answer = run_launcher(moved, "PreToolUse", PAYLOAD, tmp_path / "data", clean)

    assert json.loads(answer)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert json.loads(answer)["hookSpecificOutput"]["permissionDecisionReason"] == "no"
    allowed = {**PAYLOAD, "tool_input": {"command": "ls"}}
    assert json.loads(run_launcher(moved, "PreToolUse", allowed, tmp_path / "data", clean)) == {}
    assert (tmp_path / "data" / "firing.jsonl").is_file()
    assert not list(moved.rglob("__pycache__"))


def test_the_runner_imports_only_the_carried_modules(built_project: Path, tmp_path: Path) -> None:
    """`python3 -I` (no PYTHON* variables, no user site, no script dir on sys.path), the
    system's python3 where there is one: the runner path imports nothing of hookman but
    runtime and bridge, and the guard answers."""
    out = tmp_path / "plug"
    assert build(built_project, out).exit_code == 0
    clean = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
    done = subprocess.run(
        [
            clean,
            "-I",
            "-X",
            "importtime",
            str(out / "hookman-runner" / "start.py"),
            "run",
            "PreToolUse",
            "--manifest",
            str(out / "hookman-runner" / "manifest.json"),
        ],
        input=json.dumps(PAYLOAD),
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "CLAUDE_PLUGIN_DATA": str(tmp_path / "data")},
        timeout=60,
        check=False,
    )
    imported = [
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "hookman" in line.rsplit("|", 1)[1]
    ]
    assert imported, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[0])["hookSpecificOutput"]["permissionDecision"] == (
        "deny"
    )
    outside = [
        name
        for name in imported
        if name.strip() not in ("hookman", "hookman.runtime", "hookman.bridge")
        and not name.strip().startswith(("hookman.runtime.", "hookman.bridge."))
    ]
    assert outside == []


def test_a_hook_importing_hookman_management_code_is_refused(project: Path, tmp_path: Path) -> None:
    write_hook(
        project,
        "bad",
        "from hookman.project import config\n\n"
        "def hook(pi):\n    pi.on('tool_call', lambda e, c: None)\n",
    )
    assert (
        hookman(
            "install", str(project / "hooks" / "bad.py"), "--project", str(project), *VERSION
        ).exit_code
        == 0
    )
    out = tmp_path / "plug"

    done = build(project, out)

    assert done.exit_code == 1
    assert "the hook 'bad' imports hookman.project" in done.output
    assert "only hookman.runtime and hookman.bridge run inside a plugin" in done.output
    assert "Traceback" not in done.output
    assert not out.exists()


def test_an_out_dir_holding_something_else_is_refused_and_left_alone(
    built_project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")

    done = build(built_project, out)

    assert done.exit_code == 1
    assert "hookman never overwrites what it did not write" in done.output
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    assert (out / "notes.txt").read_text() == "mine"


def test_a_file_as_out_dir_is_refused(built_project: Path, tmp_path: Path) -> None:
    out = tmp_path / "file"
    out.write_text("x")
    assert build(built_project, out).exit_code == 1
    assert out.read_text() == "x"


def test_a_rebuild_keeps_the_users_keys_and_bumps_the_version_only_on_change(
    built_project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "plug"
    assert build(built_project, out).exit_code == 0
    manifest = out / ".claude-plugin" / "plugin.json"
    data = json.loads(manifest.read_text())
    data["author"] = {"name": "Team"}
    manifest.write_text(json.dumps(data, indent=2) + "\n")

    again = build(built_project, out)
    assert again.exit_code == 0 and "unchanged the plugin" in again.output
    assert json.loads(manifest.read_text())["author"] == {"name": "Team"}
    write_hook(
        built_project, "guard", (built_project / "hooks" / "guard.py").read_text() + "\n# v2\n"
    )
    changed = build(built_project, out)
    assert changed.exit_code == 0 and "rebuilt the plugin" in changed.output
    assert json.loads(manifest.read_text())["version"] == "0.1.1"
    assert json.loads(manifest.read_text())["author"] == {"name": "Team"}


def test_a_rebuild_refuses_to_overwrite_a_changed_file(built_project: Path, tmp_path: Path) -> None:
    out = tmp_path / "plug"
    assert build(built_project, out).exit_code == 0
    hooks_json = out / "hooks" / "hooks.json"
    hooks_json.write_text(hooks_json.read_text() + " ")
    planted = out / "hookman-runner" / "extra.txt"

    done = build(built_project, out)

    assert done.exit_code == 1 and "was changed since hookman built the plugin" in done.output
    assert hooks_json.read_text().endswith(" ")
    hooks_json.write_text(hooks_json.read_text()[:-1])
    planted.write_text("keep me")
    done = build(built_project, out)
    assert done.exit_code == 1 and "is not a file hookman wrote" in done.output
    assert planted.read_text() == "keep me"


@pytest.mark.parametrize("name", ["Team", "team_guards", "team guards", "-x", "a--b", "x" * 65, ""])
def test_an_invalid_plugin_name_is_refused(built_project: Path, tmp_path: Path, name: str) -> None:
    done = build(built_project, tmp_path / "plug", "--name", name)
    assert done.exit_code == 2
    assert "is not a valid plugin name" in done.output
    assert not (tmp_path / "plug").exists()


@given(st.text(max_size=80))
def test_the_default_name_is_always_a_valid_plugin_name(directory: str) -> None:
    name = default_plugin_name(Path("/") / directory.replace("/", "_").replace("\0", "_"))
    assert check_plugin_name(name) == name


def test_no_enabled_hook_is_refused(project: Path, tmp_path: Path) -> None:
    with pytest.raises(HookmanError, match="no enabled hook"):
        build_plugin(tmp_path / "plug", project)


def test_an_unknown_hook_name_is_refused(built_project: Path, tmp_path: Path) -> None:
    done = build(built_project, tmp_path / "plug", "--hooks", "nope")
    assert done.exit_code == 2 and "no hook named 'nope'" in done.output


def test_hooks_picks_the_named_ones(built_project: Path, tmp_path: Path) -> None:
    out = tmp_path / "plug"
    assert build(built_project, out, "--hooks", "guard").exit_code == 0
    manifest = json.loads((out / "hookman-runner" / "manifest.json").read_text())
    assert [h["name"] for h in manifest["hooks"]] == ["guard"]
    assert "SessionStart" not in all_hooks(out)


def test_an_older_target_gets_no_event_it_does_not_know(
    built_project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "plug"
    done = hookman(
        "plugin", "build", str(out), "--project", str(built_project), "--claude-version", "2.1.197"
    )
    assert done.exit_code == 0, done.output
    assert "held back PreSkillShellCommand" in done.output
    assert "PreSkillShellCommand" not in all_hooks(out)


def test_events_newer_than_the_oldest_client_go_to_files_of_their_own(
    built_project: Path, tmp_path: Path
) -> None:
    """2.1.197 drops a whole hooks file naming an event it does not know (measured): the
    events every supported client knows stay in hooks/hooks.json."""
    from hookman.catalog import event_catalog

    out = tmp_path / "plug"
    assert build(built_project, out).exit_code == 0
    floor = event_catalog.oldest_supported_client()
    base = json.loads((out / "hooks" / "hooks.json").read_text())["hooks"]
    assert base and all(event_catalog.since(event) <= floor for event in base)
    plugin = json.loads((out / ".claude-plugin" / "plugin.json").read_text())
    assert plugin["hooks"] == ["./hooks/since-2.0.56.json", "./hooks/since-2.1.332.json"]
    assert list(json.loads((out / "hooks" / "since-2.0.56.json").read_text())["hooks"]) == [
        "PostToolUseFailure"
    ]
    newer = json.loads((out / "hooks" / "since-2.1.332.json").read_text())["hooks"]
    assert list(newer) == ["PreSkillShellCommand"]


def test_a_rebuild_without_the_newer_events_removes_their_file(
    built_project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "plug"
    assert build(built_project, out).exit_code == 0
    assert (out / "hooks" / "since-2.1.332.json").is_file()
    assert build(built_project, out, "--hooks", "notes").exit_code == 0
    assert not (out / "hooks" / "since-2.1.332.json").exists()
    plugin = json.loads((out / ".claude-plugin" / "plugin.json").read_text())
    assert "./hooks/since-2.1.332.json" not in plugin["hooks"]


def test_an_async_hook_gets_an_async_entry_that_is_never_waited_for(
    project: Path, tmp_path: Path
) -> None:
    write_hook(project, "notifier", NOTIFIER)
    path = str(project / "hooks" / "notifier.py")
    assert hookman("install", path, "--async", "--project", str(project), *VERSION).exit_code == 0
    out = tmp_path / "plug"

    assert build(project, out).exit_code == 0

    [group] = all_hooks(out)["PostToolUse"]
    [handler] = group["hooks"]
    assert handler["async"] is True
    assert handler["command"].endswith("PostToolUse --async || :")


def test_the_plugin_answers_in_a_project_whose_hooks_go_to_the_warm_server(
    built_project: Path, tmp_path: Path
) -> None:
    """A project that opted in to the warm server has http entries in settings.local.json:
    the plugin's runner reads them for the timeout that counts (bridge/entry_timeout.py)
    with what the plugin carries alone, and its guard still tells a tool call from another
    (it once denied every call: serve_proof imported hookman.user_dirs, not carried)."""
    out = tmp_path / "plug"
    assert build(built_project, out).exit_code == 0
    served = tmp_path / "served"
    (served / ".claude").mkdir(parents=True)
    gate = f"sh '/x/{LAUNCHER_NAME}' UserPromptSubmit"
    url = f"http://127.0.0.1:45678{HOOK_PATH_PREFIX}PreToolUse"
    settings = {
        "hooks": {
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": gate}]}],
            "PreToolUse": [{"hooks": [{"type": "http", "url": url, "timeout": 30}]}],
        }
    }
    (served / ".claude" / "settings.local.json").write_text(json.dumps(settings))

    def answer(command: str) -> str:
        payload = {**PAYLOAD, "cwd": str(served), "tool_input": {"command": command}}
        data = tmp_path / "data"
        return run_launcher(out, "PreToolUse", payload, data, os.environ["PATH"], served)

    denied = json.loads(answer("rm -rf /tmp/x"))["hookSpecificOutput"]
    assert (denied["permissionDecision"], denied["permissionDecisionReason"]) == ("deny", "no")
    assert json.loads(answer("ls")) == {}


def test_every_carried_module_imports_with_only_the_carried_files(tmp_path: Path) -> None:
    """What a plugin's lib/ holds, on a python3 with no site-packages (-I -S): each module the
    runner may import loads (a module-level import of anything not carried fails here)."""
    lib = tmp_path / "lib"
    names = []
    for relative, source in carried_files():
        (lib / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, lib / relative)
        names.append(relative.removesuffix(".py").removesuffix("/__init__").replace("/", "."))
    program = f"import sys; sys.path.insert(0, {str(lib)!r})\n"
    program += f"for name in {names!r}: __import__(name)"
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", program], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
