"""`agents = [..., "copilot", "qwen", "droid"]` and `install --agent`: what install, list,
remove and uninstall write and say for GitHub Copilot CLI, Qwen Code and Factory droid
(docs/agents.md), as for Codex CLI: the agents' own files where each reads them, foreign
entries and other keys kept, git-excluded, refused when git tracks them, quiet on a machine
without the agent (information, exit 0), `--agent` refused there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookman.project.settings_entries import hookman_handler_is_sentinel

from .helpers import GUARD, hookman, hookman_json, local_settings, write_hook

VERSION = ("--claude-version", "2.1.332")
QWEN_FILE = Path(".qwen") / "settings.json"
DROID_FILE = Path(".factory") / "hooks.json"
EDIT_GUARD = """\
def hook(pi):
    def check(event, ctx):
        return {"block": True, "reason": "no"}
    pi.on("tool_call", check, tools=["Bash", "Write"])
"""


@pytest.fixture
def machine(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git project on a machine whose PATH holds git, sh and Python, and nothing else:
    tests put the agents they need into the returned directory (`give`)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("git", "sh"):
        found = subprocess.run(["which", tool], capture_output=True, text=True, check=True)
        (bin_dir / tool).symlink_to(found.stdout.strip())
    monkeypatch.setenv("PATH", os.pathsep.join([str(bin_dir), os.path.dirname(sys.executable)]))
    monkeypatch.chdir(project)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    return bin_dir


def give(bin_dir: Path, program: str, version: str) -> None:
    """A stand-in agent program answering `--version` as the real one does."""
    path = bin_dir / program
    path.write_text(f"#!/bin/sh\necho '{version}'\n", encoding="utf-8")
    path.chmod(0o755)


def all_agents(bin_dir: Path) -> None:
    give(bin_dir, "qwen", "0.24.4")
    give(bin_dir, "droid", "0.225.2")
    give(bin_dir, "copilot", "GitHub Copilot CLI 1.0.102.")


def install_guard(*more: str) -> None:
    result = hookman("install", "hooks/guard.py", *VERSION, *more)
    assert result.exit_code == 0, result.output


def test_install_agent_writes_each_agents_file_as_it_reads_it(project: Path, machine: Path) -> None:
    all_agents(machine)
    write_hook(project, "guard", EDIT_GUARD)
    (project / ".qwen").mkdir()
    (project / QWEN_FILE).write_text('{\n  "model": {"name": "qwen3-coder"}\n}\n')

    result = hookman("install", "hooks/guard.py", *VERSION, "--agent", "qwen", "--agent", "droid")

    assert result.exit_code == 0, result.output
    qwen = json.loads((project / QWEN_FILE).read_text())
    assert qwen["model"] == {"name": "qwen3-coder"}
    (group,) = qwen["hooks"]["PreToolUse"]
    assert group["matcher"] == "^(?:run_shell_command|monitor|write_file)$"
    assert " PreToolUse --agent qwen " in group["hooks"][0]["command"]
    droid = json.loads((project / DROID_FILE).read_text())
    assert "hooks" not in droid
    (group,) = droid["PreToolUse"]
    assert group["matcher"] == "^(?:Execute|Create)$"
    assert " PreToolUse --agent droid " in group["hooks"][0]["command"]
    assert f"Qwen Code: wrote PreToolUse in {project / QWEN_FILE}" in result.output
    assert f"Factory droid: wrote PreToolUse in {project / DROID_FILE}" in result.output
    assert ".qwen/settings.json: added to .git/info/exclude" in result.output
    exclude = (project / ".git" / "info" / "exclude").read_text()
    assert "/.qwen/settings.json" in exclude and "/.factory/hooks.json" in exclude
    toml = (project / ".claude" / "hookman.toml").read_text()
    assert 'agents = ["claude", "qwen", "droid"]' in toml


def test_a_repeated_install_changes_no_byte_and_says_kept(project: Path, machine: Path) -> None:
    all_agents(machine)
    write_hook(project, "guard", GUARD)
    install_guard("--agent", "qwen", "--agent", "droid")
    before = {path: (project / path).read_bytes() for path in (QWEN_FILE, DROID_FILE)}

    again = hookman("install", *VERSION)

    assert again.exit_code == 0, again.output
    assert {path: (project / path).read_bytes() for path in before} == before
    assert "Qwen Code: kept PreToolUse" in again.output
    assert "Factory droid: kept PreToolUse" in again.output


def test_disabling_the_only_hook_says_each_agent_s_entries_were_removed(
    project: Path, machine: Path
) -> None:
    all_agents(machine)
    write_hook(project, "guard", GUARD)
    install_guard("--agent", "qwen", "--agent", "droid")
    said = hookman("disable", "guard", *VERSION).output
    because = "(no enabled hook needs a {} event)"
    for name, path in (("Qwen Code", QWEN_FILE), ("Factory droid", DROID_FILE)):
        removed = f"{name}: removed hookman's entries from {project / path}"
        assert f"{removed} {because.format(name)}" in said, said
    again = hookman("install", *VERSION).output  # nothing of hookman's is left to keep
    assert "Qwen Code: no hookman entries (no enabled hook needs a Qwen Code event)" in again
    assert "no events" not in said + again and "kept" not in again, again


def test_the_json_has_an_object_per_agent(project: Path, machine: Path) -> None:
    all_agents(machine)
    write_hook(project, "guard", GUARD)

    shown = hookman_json(
        "install", "hooks/guard.py", *VERSION, "--agent", "droid", "--agent", "copilot"
    )

    assert shown["droid"]["written"] == ["PreToolUse"]
    assert shown["droid"]["version"] == "0.225.2" and shown["droid"]["installed_here"]
    assert shown["droid"]["changed"] and shown["droid"]["path"] == str(project / DROID_FILE)
    assert "--trust-folder" in shown["copilot"]["trust"]
    assert "qwen" not in shown and "codex" not in shown


def test_copilot_gets_no_file_and_claude_matchers_it_reads(project: Path, machine: Path) -> None:
    all_agents(machine)
    write_hook(project, "guard", EDIT_GUARD)

    result = hookman("install", "hooks/guard.py", *VERSION, "--agent", "copilot")

    assert result.exit_code == 0, result.output
    assert not (project / ".github").exists()
    group, sentinel = local_settings(project)["hooks"]["PreToolUse"]
    assert group["matcher"] == "Bash|Write"  # a comma-list matches nothing in Copilot
    # the sentinel's: a regex Copilot anchors (its trailing `.*` serves that)
    assert sentinel["matcher"] == "^(?!(?:Bash|Write)$).*"
    assert [hookman_handler_is_sentinel(h) for h in group["hooks"] + sentinel["hooks"]] == [
        False,
        True,
    ]
    said = [line for line in result.output.splitlines() if "Copilot" in line]
    assert "--trust-folder" in said[0] and "trust" in said[0]
    # then what a guard on Bash and Write does not see there (catalog "unguarded_tools")
    assert [line.split("tool ")[0] for line in said[1:]] == [
        "the hook 'guard' asks for 'Bash': GitHub Copilot CLI's write_bash ",
        "the hook 'guard' asks for 'Write': GitHub Copilot CLI's apply_patch ",
    ]


def test_list_shows_each_agents_events(project: Path, machine: Path) -> None:
    all_agents(machine)
    write_hook(project, "guard", GUARD)
    install_guard("--agent", "qwen", "--agent", "droid", "--agent", "copilot")

    listed = hookman_json("list")
    shown = hookman("list")

    assert listed["agents"] == ["claude", "qwen", "droid", "copilot"]
    assert listed["qwen"]["hooks"]["guard"]["events"] == ["PreToolUse"]
    assert listed["droid"]["path"] == str(project / DROID_FILE)
    assert listed["copilot"]["path"] is None and listed["copilot"]["version"] == "1.0.102"
    assert listed["codex"] is None
    assert f"Qwen Code target 0.24.4 ({project / QWEN_FILE}):" in shown.output
    assert "GitHub Copilot CLI target 1.0.102" in shown.output
    assert "  guard: PreToolUse" in shown.output


def test_a_committed_opt_in_is_quiet_on_a_machine_without_the_agents(
    project: Path, machine: Path
) -> None:
    write_hook(project, "guard", GUARD)
    install_guard()
    toml = project / ".claude" / "hookman.toml"
    toml.write_text('agents = ["claude", "qwen", "droid"]\n' + toml.read_text())

    result = hookman("install", *VERSION)

    assert result.exit_code == 0, result.output
    assert not (project / ".qwen").exists() and not (project / ".factory").exists()
    assert "warning" not in result.output.lower(), result.output
    assert (
        "Qwen Code: not installed here (no `qwen` on PATH), so its entries were not written; "
        "once Qwen Code is installed, run `hookman install` to wire it."
    ) in result.output.splitlines()
    assert any(
        line.startswith("Factory droid: not installed") for line in result.output.splitlines()
    )
    listed = hookman_json("list")
    assert listed["qwen"] is None and listed["droid"] is None and listed["warnings"] == []


def test_an_earlier_agent_file_is_left_as_it_was_where_the_agent_is_gone(
    project: Path, machine: Path
) -> None:
    write_hook(project, "guard", GUARD)
    install_guard("--agent", "droid", "--droid-version", "0.225.2")
    before = (project / DROID_FILE).read_bytes()

    result = hookman("install", *VERSION)

    assert result.exit_code == 0, result.output
    assert (project / DROID_FILE).read_bytes() == before
    assert "keeps the hookman entries an earlier install wrote, untouched" in result.output


@pytest.mark.parametrize(("agent", "program"), [("qwen", "qwen"), ("droid", "droid")])
def test_install_agent_without_the_agent_is_refused_and_writes_nothing(
    project: Path, machine: Path, agent: str, program: str
) -> None:
    write_hook(project, "guard", GUARD)

    result = hookman("install", "hooks/guard.py", "--agent", agent)

    assert result.exit_code == 1
    assert f"no `{program}` on PATH" in result.output
    assert "nothing was written" in result.output and f"--{agent}-version V" in result.output
    assert not (project / ".claude" / "hookman.toml").exists()
    assert not (project / ".qwen").exists() and not (project / ".factory").exists()


def test_a_version_flag_writes_for_an_agent_installed_later(project: Path, machine: Path) -> None:
    write_hook(project, "guard", GUARD)
    install_guard("--agent", "qwen", "--qwen-version", "0.24.4")
    assert (project / QWEN_FILE).is_file()


def test_a_version_flag_that_is_no_version_is_refused(project: Path, machine: Path) -> None:
    write_hook(project, "guard", GUARD)
    result = hookman("install", "hooks/guard.py", "--agent", "qwen", "--qwen-version", "new")
    assert result.exit_code == 2 and "is not a version" in result.output


def test_a_tracked_agent_file_is_refused_before_any_write(project: Path, machine: Path) -> None:
    give(machine, "qwen", "0.24.4")
    write_hook(project, "guard", GUARD)
    (project / ".qwen").mkdir()
    (project / QWEN_FILE).write_text('{"model": {"name": "team"}}\n')
    subprocess.run(["git", "add", str(QWEN_FILE)], cwd=project, check=True)

    result = hookman("install", "hooks/guard.py", *VERSION, "--agent", "qwen")

    assert result.exit_code == 1
    assert "is committed to git" in result.output and "nothing was changed" in result.output
    assert "git rm --cached .qwen/settings.json" in result.output
    assert "Traceback" not in result.output
    assert (project / QWEN_FILE).read_text() == '{"model": {"name": "team"}}\n'
    assert not (project / ".claude" / "settings.local.json").exists()


def test_leaving_an_agent_out_removes_hookman_entries_and_keeps_the_rest(
    project: Path, machine: Path
) -> None:
    all_agents(machine)
    write_hook(project, "guard", GUARD)
    (project / ".qwen").mkdir()
    mine = '{"hooks": [{"type": "command", "command": "./mine.sh"}]}'
    original = f'{{\n  "model": {{"name": "q"}},\n  "hooks": {{\n    "Stop": [{mine}]\n  }}\n}}\n'
    (project / QWEN_FILE).write_text(original)
    install_guard("--agent", "qwen")
    installed = (project / QWEN_FILE).read_text()
    assert '  "model": {"name": "q"},\n' in installed and f"[{mine}]" in installed
    toml = project / ".claude" / "hookman.toml"
    toml.write_text(toml.read_text().replace('agents = ["claude", "qwen"]', 'agents = ["claude"]'))

    result = hookman("install", *VERSION)

    assert result.exit_code == 0, result.output
    assert (project / QWEN_FILE).read_text() == original
    assert f"removed hookman's Qwen Code entries from {project / QWEN_FILE}" in result.output


def test_removing_the_last_hook_takes_the_agents_entries_out(project: Path, machine: Path) -> None:
    all_agents(machine)
    write_hook(project, "guard", GUARD)
    install_guard("--agent", "droid")
    result = hookman("remove", "guard", *VERSION)
    assert result.exit_code == 0, result.output
    assert json.loads((project / DROID_FILE).read_text()) == {}


def test_uninstall_takes_out_what_hookman_wrote_for_the_agents(
    project: Path, machine: Path
) -> None:
    all_agents(machine)
    write_hook(project, "guard", GUARD)
    (project / ".qwen").mkdir()
    (project / QWEN_FILE).write_text('{"model": {"name": "q"}}')
    install_guard("--agent", "qwen", "--agent", "droid")

    planned = hookman_json("uninstall", "--dry-run")
    result = hookman("uninstall")

    assert set(planned["agent_hooks"]) == {"qwen", "droid"}
    assert planned["agent_hooks"]["droid"]["file_removed"]
    assert not planned["agent_hooks"]["qwen"]["file_removed"]
    assert result.exit_code == 0, result.output
    assert f"{project / DROID_FILE}: 1 hookman entry (the file goes" in result.output
    assert not (project / ".factory").exists()
    assert (project / QWEN_FILE).read_text() == '{"model": {"name": "q"}}'
    assert "/.qwen/settings.json" not in (project / ".git" / "info" / "exclude").read_text()


def test_disable_and_enable_rewrite_the_agents_files(project: Path, machine: Path) -> None:
    all_agents(machine)
    write_hook(project, "guard", GUARD)
    install_guard("--agent", "qwen", "--agent", "droid")

    assert hookman("disable", "guard", *VERSION).exit_code == 0
    assert json.loads((project / DROID_FILE).read_text()) == {}
    assert json.loads((project / QWEN_FILE).read_text()) == {}
    enabled = hookman("enable", "guard", *VERSION)

    assert enabled.exit_code == 0, enabled.output
    assert "Factory droid: wrote PreToolUse" in enabled.output
    assert list(json.loads((project / DROID_FILE).read_text())) == ["PreToolUse"]
    assert list(json.loads((project / QWEN_FILE).read_text())["hooks"]) == ["PreToolUse"]


def test_copilot_named_where_it_is_not_installed_is_information(
    project: Path, machine: Path
) -> None:
    """Nothing is written for Copilot anywhere, so `--agent copilot` is not refused where it
    is absent; list says in one line that it is not installed here."""
    write_hook(project, "guard", GUARD)

    result = hookman("install", "hooks/guard.py", *VERSION, "--agent", "copilot")
    listed = hookman("list")

    assert result.exit_code == 0, result.output
    assert listed.exit_code == 0 and "warning" not in listed.output.lower(), listed.output
    assert (
        "GitHub Copilot CLI: not installed here (no `copilot` on PATH); once it is, it runs "
        "hookman's entries of .claude/settings.local.json in a folder it trusts."
    ) in listed.output.splitlines()
    assert hookman_json("list")["copilot"] is None


def test_list_marks_what_an_agents_file_lacks_here_as_it_does_for_claude(
    project: Path, machine: Path
) -> None:
    """A pull not installed since, or an agent's file deleted or edited by hand: each hook's
    line and the JSON say the agent runs no hook there, and a warning names install."""
    all_agents(machine)
    write_hook(project, "guard", GUARD)
    install_guard("--agent", "qwen", "--agent", "droid", "--agent", "copilot")
    fresh = hookman_json("list")
    for agent in ("qwen", "droid", "copilot"):
        assert fresh[agent]["hooks"]["guard"]["not_installed"] == [], fresh[agent]
        assert fresh[agent]["hooks"]["guard"]["installed_for"] == {}, fresh[agent]
    assert not _entry_warnings(fresh), fresh["warnings"]

    (project / DROID_FILE).write_text("{}")
    qwen = project / QWEN_FILE
    written = qwen.read_text()
    assert "(?:run_shell_command|monitor)" in written  # Qwen Code's names for Bash
    qwen.write_text(written.replace("(?:run_shell_command|monitor)", "(?:read_file)"))
    listed = hookman_json("list")
    shown = hookman("list").output
    said = " ".join(shown.split())

    assert listed["droid"]["hooks"]["guard"]["not_installed"] == ["PreToolUse"]
    assert listed["qwen"]["hooks"]["guard"]["installed_for"] == {"PreToolUse": ["read_file"]}
    droid_block = shown.split("Factory droid target", 1)[1]
    assert "  guard: PreToolUse (not installed here yet)" in droid_block.splitlines()[1]
    qwen_block = shown.split("Qwen Code target", 1)[1]
    assert "  guard: PreToolUse (installed here for read_file only)" in qwen_block.splitlines()[1]
    assert (
        f"{project / DROID_FILE} has no hookman entry for PreToolUse: Factory droid runs no "
        "hook on that event until `hookman install` writes the entries."
    ) in said, said
    assert (
        f"{project / QWEN_FILE}: hookman's PreToolUse entry runs hooks for read_file, not "
        "run_shell_command|monitor: "
        "`hookman install` rewrites it."
    ) in said, said

    (project / DROID_FILE).unlink()
    (project / QWEN_FILE).write_text("{ not json")
    gone = " ".join(hookman("list").output.split())
    assert (
        f"{project / DROID_FILE} does not exist here, so it has no hookman entry for PreToolUse: "
        "Factory droid runs no hook on that event until `hookman install` writes the entries."
    ) in gone, gone
    assert (
        f"{project / QWEN_FILE} cannot be read as JSON (`hookman doctor` says why), so it has no "
        "hookman entry for PreToolUse: Qwen Code runs no hook"
    ) in gone, gone
    (project / QWEN_FILE).unlink()

    assert hookman("install", *VERSION).exit_code == 0
    again = hookman_json("list")
    assert not _entry_warnings(again), again["warnings"]
    assert again["droid"]["hooks"]["guard"]["not_installed"] == []


def _entry_warnings(listed: dict) -> list[str]:
    return [w for w in listed["warnings"] if "hookman entry" in w or "runs hooks for" in w]


@pytest.mark.parametrize(
    "matcher", [".*", "Bash|Monitor", "^(?:run_shell_command|monitor|read_file)$"]
)
def test_a_hand_edited_matcher_the_agent_runs_the_hook_for_is_not_called_narrower(
    project: Path, machine: Path, matcher: str
) -> None:
    """`.*` matches every tool, and Qwen Code reads `Bash` as run_shell_command (measured:
    the guard ran and denied rm -rf with either) and `Monitor` as monitor (its aliases):
    list called both narrower than the hook."""
    all_agents(machine)
    write_hook(project, "guard", GUARD)
    install_guard("--agent", "qwen")
    qwen = project / QWEN_FILE
    written = qwen.read_text()
    installed = "^(?:run_shell_command|monitor)$"
    qwen.write_text(written.replace(installed, matcher.replace("\\", "\\\\")))
    assert qwen.read_text() != written
    listed = hookman_json("list")
    assert listed["qwen"]["hooks"]["guard"]["installed_for"] == {}, listed["qwen"]
    assert not _entry_warnings(listed), listed["warnings"]
    settings = project / ".claude" / "settings.local.json"
    written = settings.read_text()
    settings.write_text(written.replace('"matcher": "Bash"', '"matcher": ".*"', 1))
    claude = hookman_json("list")
    assert claude["hooks"][0]["claude_events"]["PreToolUse"]["matcher"] == "Bash"  # as planned
    assert "installed here for" not in hookman("list").output
    for python_only in ("(?i)bash", "\\\\ABash", "(?P<x>Bash)"):  # no JavaScript regex
        settings.write_text(written.replace('"matcher": "Bash"', f'"matcher": "{python_only}"', 1))
        assert "installed here for" in hookman("list").output, python_only


@pytest.mark.parametrize(("agent", "file"), [("qwen", QWEN_FILE), ("droid", DROID_FILE)])
def test_fire_as_an_agent_says_what_it_runs_on_this_machine(
    project: Path, machine: Path, agent: str, file: Path
) -> None:
    """A clone whose agent file is not written (or was deleted): the agent runs the call
    without hookman (measured: Qwen Code ran `rm -rf` there), so fire says so first, not the
    deny it would give once installed."""
    all_agents(machine)
    write_hook(project, "guard", EDIT_GUARD)  # denies every shell call
    install_guard("--agent", agent)
    fired = hookman_json("fire", "PreToolUse", "--agent", agent)
    assert "agent_entry" not in fired, fired["agent_entry"]
    assert "the tool call does not run" in fired[agent]["effects"]

    (project / file).unlink()
    gone = hookman_json("fire", "PreToolUse", "--agent", agent)
    said = gone["agent_entry"]
    assert said.startswith(f"{project / file} does not exist here, so it has no hookman entry")
    assert "runs it without hookman (nothing denies it) until `hookman install`" in said
    assert "once installed: the tool call does not run" in gone[agent]["effects"]
    shown = hookman("fire", "PreToolUse", "--agent", agent).output
    assert shown.splitlines()[1].startswith("not installed here: "), shown


@pytest.mark.parametrize("matcher", ["Bash.*", "(Bash)", "^Bash$"])
def test_a_qwen_regex_on_claude_s_name_is_not_said_to_cover_its_shell(
    project: Path, machine: Path, matcher: str
) -> None:
    """Qwen Code tests a regex against its own names only (measured: with these matchers it
    ran `rm -rf`, no guard): list and fire must not claim the guard runs."""
    all_agents(machine)
    write_hook(project, "guard", EDIT_GUARD)
    install_guard("--agent", "qwen")
    qwen = project / QWEN_FILE
    installed = "^(?:run_shell_command|monitor|write_file)$"
    qwen.write_text(qwen.read_text().replace(installed, matcher))
    listed = hookman_json("list")
    assert listed["qwen"]["hooks"]["guard"]["installed_for"] == {"PreToolUse": [matcher]}
    fired = hookman_json("fire", "PreToolUse", "--agent", "qwen")
    assert "runs it without hookman" in fired["agent_entry"], fired
    assert (
        f"{QWEN_FILE} has its hookman PreToolUse entry for {matcher} only: "
        in (fired["agent_entry"])
    )


def test_fire_as_droid_reads_a_claude_form_payload_in_droid_s_names(
    project: Path, machine: Path
) -> None:
    """A payload written as Claude Code's (`Bash`) is droid's `Execute`: right after install
    fire said droid's entry left it out; with the matcher edited to `Bash` (droid then ran
    `rm -rf`: measured) it said the call was denied."""
    all_agents(machine)
    write_hook(project, "guard", EDIT_GUARD)
    install_guard("--agent", "droid")
    payload = project / "claude-form.json"
    payload.write_text(
        json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "tool_input": {"command": "rm -rf x"}, "session_id": "s",
                    "cwd": str(project)})
    )  # fmt: skip
    words = ("fire", "PreToolUse", "--agent", "droid", "--payload", str(payload))
    assert "agent_entry" not in hookman_json(*words)
    droid = project / DROID_FILE
    droid.write_text(droid.read_text().replace("^(?:Execute|Create)$", "Bash"))
    assert "runs it without hookman" in hookman_json(*words)["agent_entry"]


def test_install_and_list_warn_when_qwen_s_hooks_are_switched_off(
    project: Path, machine: Path
) -> None:
    """`"disableAllHooks": true` in ~/.qwen/settings.json (doctor: qwen-hooks-disabled):
    every entry written runs for nothing, which install and list say with the fix."""
    all_agents(machine)
    write_hook(project, "guard", GUARD)
    user = Path.home() / ".qwen" / "settings.json"
    user.parent.mkdir(parents=True)
    user.write_text('{"disableAllHooks": true}\n', encoding="utf-8")
    said = (
        f'warning: `"disableAllHooks": true` in {user}: Qwen Code runs none of its hooks, '
        f"hookman's included; remove `disableAllHooks` from {user} (or set it to false)."
    )

    result = hookman("install", "hooks/guard.py", *VERSION, "--agent", "qwen")
    listed = hookman("list")

    assert result.exit_code == 0, result.output
    assert said in " ".join(result.output.split()), result.output
    assert said.removeprefix("warning: ") in hookman_json("install")["warnings"]
    assert said in " ".join(listed.output.split()), listed.output
    user.write_text('{"disableAllHooks": false}\n', encoding="utf-8")
    assert "disableAllHooks" not in hookman("install").output


RM_RF_GUARD = """\
def hook(pi):
    def check(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no rm -rf"}
    pi.on("tool_call", check, tools=["Bash"])
"""


@pytest.mark.parametrize(
    ("old", "runs_for"), [("^(?:run_shell_command)$", "run_shell_command"), ("Bash", "Bash")]
)
def test_a_guard_on_bash_covers_qwen_s_monitor_in_install_list_and_fire(
    project: Path, machine: Path, old: str, runs_for: str
) -> None:
    """Qwen Code's monitor runs its command in a shell (measured on 0.24.4: `monitor
    {command: "rm -rf victim"}` ran under a guard on Bash whose entry named
    run_shell_command only). install names monitor in the matcher; the hooks see it as Bash
    with its command; an entry without it (an older install's, or a hand-written `Bash`,
    which Qwen reads as run_shell_command only) is what list and fire say it is."""
    all_agents(machine)
    write_hook(project, "guard", RM_RF_GUARD)
    install_guard("--agent", "qwen")
    qwen = project / QWEN_FILE
    written = qwen.read_text()
    assert '"matcher": "^(?:run_shell_command|monitor)$"' in written
    payload = project / "monitor.json"
    payload.write_text(
        json.dumps({"hook_event_name": "PreToolUse", "tool_name": "monitor",
                    "tool_input": {"command": "rm -rf victim; echo gone", "description": "x"},
                    "session_id": "s", "cwd": str(project)})
    )  # fmt: skip
    words = ("fire", "PreToolUse", "--agent", "qwen", "--payload", str(payload))
    fired = hookman_json(*words)
    assert "agent_entry" not in fired, fired["agent_entry"]
    assert fired["qwen"]["model_sees"] == ["no rm -rf"], fired["qwen"]
    assert (
        "the hooks saw the tool 'Bash' (Qwen Code calls it 'monitor')" in (fired["qwen"]["effects"])
    )
    listed = hookman_json("list")
    assert listed["qwen"]["hooks"]["guard"]["installed_for"] == {}, listed["qwen"]

    qwen.write_text(written.replace("^(?:run_shell_command|monitor)$", old))
    listed = hookman_json("list")
    assert listed["qwen"]["hooks"]["guard"]["installed_for"] == {"PreToolUse": [runs_for]}
    said = hookman_json(*words)["agent_entry"]
    assert f"has its hookman PreToolUse entry for {old} only" in said, said
    assert "on monitor and runs it without hookman (nothing denies it)" in said, said


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("agent", "tools", "unguarded", "code"),
    [
        ("copilot", ["Bash"], ["write_bash"], "copilot-tool-unguarded"),
        ("copilot", ["Edit"], ["apply_patch"], "copilot-tool-unguarded"),
        ("copilot", ["Bash", "write_bash", "Write"], ["apply_patch"], "copilot-tool-unguarded"),
        ("droid", ["Write"], ["ApplyPatch"], "droid-tool-unguarded"),
        ("droid", ["Edit", "ApplyPatch"], [], "droid-tool-unguarded"),
        ("qwen", ["Bash", "Write"], [], "qwen-tool-unguarded"),
    ],
)
def test_install_list_and_doctor_name_the_agent_s_tools_a_guard_does_not_see(
    project: Path,
    machine: Path,
    agent: str,
    tools: list[str],
    unguarded: list[str],
    code: str,
) -> None:
    """Copilot's write_bash (text typed into a background shell: `write_bash`) and apply_patch
    (`Edit` with the patch in `input`, no `file_path`), droid's ApplyPatch: no rename hands
    them to a guard in Claude Code's shape (catalog "unguarded_tools"), so install, list and
    doctor say so, as they say Codex's write_stdin; a hook that asks for the agent's name
    too is not told."""
    all_agents(machine)
    source = EDIT_GUARD.replace('tools=["Bash", "Write"]', f"tools={tools!r}")
    write_hook(project, "guard", source)
    installed = hookman("install", "hooks/guard.py", *VERSION, "--agent", agent)
    assert installed.exit_code == 0, installed.output
    listed = hookman("list").output
    report = hookman_json("doctor")
    found = [f for f in report["findings"] if f["code"] == code]
    assert len(found) == len(unguarded), found
    name = {"copilot": "GitHub Copilot CLI", "droid": "Factory droid"}.get(agent, "")
    for tool, finding in zip(unguarded, found, strict=True):
        asked = ", ".join(repr(name) for name in tools if name in _asked(agent, tool))
        said = f"the hook 'guard' asks for {asked}: {name}'s {tool} tool "
        assert said in _flat(installed.output), installed.output
        assert said in _flat(listed), listed
        assert said[1:] in finding["message"], finding
        assert finding["severity"] == "warning"
    if not unguarded:
        assert "asks for" not in _flat(installed.output + listed)


def _asked(agent: str, tool: str) -> list[str]:
    from hookman.catalog.agent_catalog import unguarded_tools

    return list(unguarded_tools(agent)[tool]["asked"])


FOREIGN = "sh ./check-shell.sh"


@pytest.mark.parametrize(
    ("agent", "tool", "code"),
    [("qwen", "run_shell_command", "qwen-foreign-pre-tool-use"),
     ("droid", "Execute", "droid-foreign-pre-tool-use")],
)  # fmt: skip
def test_install_list_doctor_and_fire_say_a_foreign_hook_can_undo_the_deny(
    project: Path, machine: Path, agent: str, tool: str, code: str
) -> None:
    """A foreign PreToolUse hook for the guarded tool (measured: its malformed answer undoes
    hookman's deny under Qwen Code 0.24.4 and droid 0.225.2, in any order): install and list
    warn in doctor's sentence and fix, and fire's deny says it may not hold."""
    all_agents(machine)
    write_hook(project, "guard", RM_RF_GUARD)
    install_guard("--agent", agent)
    path = project / (QWEN_FILE if agent == "qwen" else DROID_FILE)
    payload = project / "rm.json"
    payload.write_text(
        json.dumps({"hook_event_name": "PreToolUse", "tool_name": tool,
                    "tool_input": {"command": "rm -rf victim"}, "session_id": "s",
                    "cwd": str(project)})
    )  # fmt: skip
    fire_words = ("fire", "PreToolUse", "--agent", agent, "--payload", str(payload))
    before = hookman_json(*fire_words)[agent]["effects"]
    assert "the tool call does not run" in before, before
    document = json.loads(path.read_text())
    events = document["hooks"] if agent == "qwen" else document
    foreign = {"matcher": tool, "hooks": [{"type": "command", "command": FOREIGN}]}
    events["PreToolUse"].append(foreign)
    path.write_text(json.dumps(document, indent=2))
    name, answers, version = {
        "qwen": ("Qwen Code", "a `reason` or `systemMessage` that is not a string", "0.24.4"),
        "droid": (
            "Factory droid",
            "`continue: false` with a `stopReason` that is not a string",
            "0.225.2",
        ),
    }[agent]
    sentence = (
        f"the PreToolUse hook `{FOREIGN}` in {path} is not hookman's and runs for {tool} too: "
        f"{name} lets a malformed answer from it ({answers}) undo hookman's deny and run the "
        f"call (measured with {name} {version}), so hookman cannot vouch for its guards on "
        "that tool while the hook is there."
    )
    fix = (
        f"move that hook's check into a hookman hook (`hookman new`) and remove it from {path}, "
        "or just remove it: no order of the hooks helps."
    )
    said = f"{sentence} Fix: {fix}"

    installed = hookman("install")
    listed = hookman("list")

    assert installed.exit_code == 0, installed.output
    assert f"warning: {said}" in _flat(installed.output), installed.output
    assert hookman_json("install")["warnings"].count(said) == 1
    assert f"warning: {said}" in _flat(listed.output), listed.output
    assert hookman_json("list")["warnings"].count(said) == 1
    doctor = json.loads(hookman("doctor", "--json").stdout)
    (finding,) = [f for f in doctor["findings"] if f["code"] == code]
    assert (finding["severity"], finding["message"], finding["fix"]) == ("warning", sentence, fix)
    effects = hookman_json(*fire_words)[agent]["effects"]
    assert "the tool call does not run" not in effects, effects
    caveat = (
        "the tool call does not run, unless a malformed answer of a hook that is not "
        "hookman's undoes the deny"
    )
    assert effects[effects.index(caveat) + 1] == sentence, effects
    shown = _flat(hookman(*fire_words).output)
    assert f"effect: {caveat} effect: {sentence}" in shown, shown
