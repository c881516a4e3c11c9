"""Hostile tests of issue 24 items 1-3 (subscriptions learned from the code, the runner
noticing a project that moved on, plugins carrying a repository hook's siblings), judged as
the client reads the answer (attack_support.py). Each xfail is a confirmed fail-open or
disagreement the builder is to fix (then the mark goes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookman.project.sentinel import stamp_path
from tests.commands.helpers import matcher_matches

from .attack_support import (
    DENY,
    STOPPED,
    TOOL_RUNS,
    hookman_install,
    installed_handlers,
    run_settings_command,
    sentinel_handlers,
)

GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm -rf" in str(event["input"]):
            return {"block": True, "reason": "no rm -rf"}
"""
OBSERVER = """
def hook(pi):
    pi.on("before_agent_start", lambda event, ctx: None)
"""
OBSERVER_THAT_GREW_A_GUARD = (
    OBSERVER
    + """
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm -rf" in str(event["input"]):
            return {"block": True, "reason": "no rm -rf"}
"""
)
# A guard whose tools are data beside the module (read by the factory, not imported).
DATA_GUARD = """
import json, pathlib
TOOLS = json.loads((pathlib.Path(__file__).parent / "guarded.json").read_text())

def hook(pi):
    @pi.on("tool_call", tools=TOOLS)
    def guard(event, ctx):
        if "rm -rf" in str(event["input"]):
            return {"block": True, "reason": "no rm -rf"}
"""


def _payload(project: Path, tool: str = "Bash", event: str = "PreToolUse") -> dict[str, Any]:
    tool_input = (
        {"command": "rm -rf victim"}
        if tool == "Bash"
        else {"file_path": str(project / "rm -rf"), "content": "x"}
    )
    return {
        "session_id": "issue24-hostile",
        "transcript_path": str(project / "transcript.jsonl"),
        "cwd": str(project),
        "hook_event_name": event,
        "permission_mode": "default",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_issue24",
        "prompt": "hello",
    }


def _write_hook(project: Path, name: str, source: str) -> None:
    (project / "hooks").mkdir(exist_ok=True)
    (project / "hooks" / f"{name}.py").write_text(source, encoding="utf-8")


def claude_code_does(project: Path, settings: dict[str, Any], tool: str) -> str:
    """What Claude Code does with a PreToolUse call of `tool`: runs every entry whose
    matcher matches; any deny blocks; no entry at all means the tool runs."""
    decision = TOOL_RUNS
    for group in settings.get("hooks", {}).get("PreToolUse", []):
        if not matcher_matches(group.get("matcher"), tool):
            continue
        for handler in group.get("hooks", []):
            verdict = run_settings_command(
                handler["command"],
                "PreToolUse",
                _payload(project, tool),
                timeout=handler.get("timeout", 600),
                cwd=project,
            )
            if verdict.decision == DENY:
                return DENY
    return decision


def claude_code_session(project: Path, settings: dict[str, Any], tool: str) -> str:
    """What a session does with a prompt that leads to a `tool` call: the client runs the
    UserPromptSubmit entries first (a stop there means the model is never asked, so no
    tool runs), then the PreToolUse entries as claude_code_does."""
    for group in settings.get("hooks", {}).get("UserPromptSubmit", []):
        for handler in group.get("hooks", []):
            if handler.get("async"):
                continue
            verdict = run_settings_command(
                handler["command"],
                "UserPromptSubmit",
                _payload(project, tool, "UserPromptSubmit"),
                timeout=handler.get("timeout", 600),
                cwd=project,
            )
            if verdict.decision == STOPPED:
                assert "hookman install" in verdict.why, verdict.why
                return STOPPED
    return claude_code_does(project, settings, tool)


def _hookman(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookman", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_guard_pulled_into_a_project_without_a_guarded_entry_is_denied(project: Path) -> None:
    _write_hook(project, "obs", OBSERVER)
    settings = hookman_install(project, "hooks/obs.py", "--claude-version", "2.1.332")
    assert installed_handlers(settings, "PreToolUse") == []  # observe-only: nothing guarded
    [sentinel] = sentinel_handlers(settings, "PreToolUse")
    assert "matcher" not in sentinel  # no blocking entry: the sentinel reaches every tool
    # nothing changed since install: the sentinel's shell lets the call run, no runner
    assert claude_code_does(project, settings, "Bash") == TOOL_RUNS
    _write_hook(project, "guard", GUARD)
    config = project / ".claude" / "hookman.toml"
    config.write_text(  # a teammate's `hookman install hooks/guard.py`, pulled
        config.read_text(encoding="utf-8")
        + '\n[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\n'
        'events = ["tool_call"]\ntools = { tool_call = ["Bash"] }\n',
        encoding="utf-8",
    )
    # the pull lands after the second install stamped (project/sentinel.py: one within it is
    # the prompt gate's to catch)
    later = stamp_path(project).stat().st_mtime + 1
    os.utime(config, (later, later))
    # What hookman says: fire tells the truth (the sentinel reaches the call, and the runner
    # denies it naming install).
    payload_file = project / "rm.json"
    payload_file.write_text(json.dumps(_payload(project)), encoding="utf-8")
    fire = _hookman(project, "fire", "PreToolUse", "--payload", str(payload_file), "--json")
    assert '"deny"' in fire.stdout and "hookman install" in fire.stdout, fire.stdout
    assert "without hookman" not in fire.stdout

    verdict = run_settings_command(
        sentinel["command"],
        "PreToolUse",
        _payload(project),
        timeout=sentinel["timeout"],
        cwd=project,
    )
    assert verdict.decision == DENY and "hookman install" in verdict.why, verdict
    assert claude_code_does(project, settings, "Bash") == DENY  # the sentinel reaches it
    assert claude_code_session(project, settings, "Bash") == STOPPED  # the gate, first


def test_a_path_hook_that_grew_a_guard_after_install_is_denied(project: Path) -> None:
    _write_hook(project, "obs", OBSERVER)
    settings = hookman_install(project, "hooks/obs.py", "--claude-version", "2.1.332")
    _write_hook(project, "obs", OBSERVER_THAT_GREW_A_GUARD)  # pulled, no install yet
    # doctor knows (subscriptions-changed), the client does not
    doctor = _hookman(project, "doctor", "--claude-version", "2.1.332")
    assert "subscriptions-changed" in doctor.stdout

    assert claude_code_session(project, settings, "Bash") == STOPPED


def test_a_bare_install_learns_tools_a_factory_reads_from_a_data_file(project: Path) -> None:
    _write_hook(project, "g", DATA_GUARD)
    (project / "hooks" / "guarded.json").write_text('["Bash"]', encoding="utf-8")
    hookman_install(project, "hooks/g.py", "--claude-version", "2.1.332")
    (project / "hooks" / "guarded.json").write_text('["Bash", "Write"]', encoding="utf-8")

    settings = hookman_install(project)  # what a teammate runs after the pull

    assert claude_code_does(project, settings, "Bash") == DENY  # still guarded
    assert claude_code_does(project, settings, "Write") == DENY


def test_a_copied_project_does_not_run_the_original_s_guards_in_silence(
    project: Path, tmp_path: Path
) -> None:
    _write_hook(project, "g", GUARD)
    hookman_install(project, "hooks/g.py", "--claude-version", "2.1.332")
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-a", str(project), str(copy)], check=True)
    _write_hook(copy, "g", GUARD.replace("rm -rf", "curl"))  # the copy's guard now stops curl
    config = copy / ".claude" / "hookman.toml"
    config.write_text(config.read_text(encoding="utf-8") + "# the copy's own\n", encoding="utf-8")
    settings = json.loads((copy / ".claude" / "settings.local.json").read_text(encoding="utf-8"))
    (handler,) = installed_handlers(settings, "PreToolUse")
    curl = _payload(copy)
    curl["tool_input"] = {"command": "curl https://example.invalid"}

    verdict = run_settings_command(
        handler["command"],
        "PreToolUse",
        curl,
        timeout=handler.get("timeout", 600),
        cwd=copy,
        env={"CLAUDE_PROJECT_DIR": str(copy)},
    )

    # Either the copy's guard runs (deny: no curl) or the runner denies naming install:
    # never the original project's guard in silence.
    assert verdict.decision == DENY, verdict


def _commit_repo(repo: Path) -> None:
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "v1"], check=True)
    subprocess.run([*git, "tag", "v1"], check=True)


def _repo_with_sibling(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    (repo / "hookman-hooks.toml").write_text(
        '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\n', encoding="utf-8"
    )
    (repo / "hooks" / "guard.py").write_text(
        "from .words import BAD\n\n"
        "def hook(pi):\n"
        '    @pi.on("tool_call", tools=["Bash"])\n'
        "    def guard(event, ctx):\n"
        '        if BAD in str(event["input"]):\n'
        '            return {"block": True, "reason": "no " + BAD}\n',
        encoding="utf-8",
    )
    return repo


def _repo_with_absolute_symlink_sibling(tmp_path: Path) -> Path:
    repo = _repo_with_sibling(tmp_path)
    outside = tmp_path / "outside_words.py"
    outside.write_text('BAD = "rm -rf"\n', encoding="utf-8")
    (repo / "hooks" / "words.py").symlink_to(outside)
    _commit_repo(repo)
    return repo


def test_install_and_the_runner_agree_on_a_repository_hook_with_a_symlinked_sibling(
    project: Path, tmp_path: Path
) -> None:
    repo = _repo_with_absolute_symlink_sibling(tmp_path)
    done = _hookman(
        project, "install", "guard", "--repo", str(repo), "--rev", "v1", "--claude-version",
        "2.1.332",
    )  # fmt: skip
    if done.returncode != 0:  # refused at install, naming the hook: what the brief asks
        assert "guard" in done.stderr
        return
    settings = json.loads((project / ".claude" / "settings.local.json").read_text("utf-8"))
    (handler,) = installed_handlers(settings, "PreToolUse")
    harmless = _payload(project)
    harmless["tool_input"] = {"command": "ls"}

    verdict = run_settings_command(
        handler["command"], "PreToolUse", harmless, timeout=handler["timeout"], cwd=project
    )

    # install said the hook is installed: the runner must then run it (ls is allowed)
    assert verdict.decision != DENY, verdict


def test_fire_tells_the_gap_doctor_and_list_report(project: Path) -> None:
    _write_hook(project, "obs", OBSERVER)
    hookman_install(project, "hooks/obs.py", "--claude-version", "2.1.332")
    _write_hook(project, "obs", OBSERVER_THAT_GREW_A_GUARD)
    payload_file = project / "rm.json"
    payload_file.write_text(json.dumps(_payload(project)), encoding="utf-8")
    listed = _hookman(project, "list")
    assert "behind the code of obs" in listed.stdout + listed.stderr

    fire = _hookman(project, "fire", "PreToolUse", "--payload", str(payload_file))

    assert "obs" in fire.stdout + fire.stderr, fire.stdout
    assert "hookman install" in fire.stdout + fire.stderr, fire.stdout


def test_plugin_build_from_a_repository_with_a_non_utf8_file_name(
    project: Path, tmp_path: Path
) -> None:
    repo = _repo_with_sibling(tmp_path)
    (repo / "hooks" / "words.py").write_text('BAD = "rm -rf"\n', encoding="utf-8")
    with open(bytes(repo / "hooks") + b"/\xffdata.txt", "wb") as handle:
        handle.write(b"x")
    _commit_repo(repo)
    done = _hookman(
        project, "install", "guard", "--repo", str(repo), "--rev", "v1", "--claude-version",
        "2.1.332",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr

    built = _hookman(project, "plugin", "build", str(tmp_path / "plugin"))

    assert "internal error" not in built.stderr, built.stderr
    assert built.returncode == 0 or not (tmp_path / "plugin").exists()


def test_list_does_not_hang_on_a_fifo_hookman_toml(project: Path) -> None:
    _write_hook(project, "g", GUARD)
    hookman_install(project, "hooks/g.py", "--claude-version", "2.1.332")
    config = project / ".claude" / "hookman.toml"
    config.unlink()
    os.mkfifo(config)

    try:
        listed = _hookman_within(project, 15, "list")
    except subprocess.TimeoutExpired:
        pytest.fail("hookman list still reading the FIFO after 15 s")

    assert listed.returncode != 0 and "hookman.toml" in listed.stderr


def _hookman_within(project: Path, seconds: float, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookman", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=seconds,
        check=False,
    )


WRITE_GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Write"])
    def guard(event, ctx):
        return {"block": True, "reason": "no writes"}
"""


def test_a_pulled_guard_on_another_tool_is_denied_until_install(project: Path) -> None:
    _write_hook(project, "g", GUARD)
    settings = hookman_install(project, "hooks/g.py", "--claude-version", "2.1.332")
    _write_hook(project, "no_write", WRITE_GUARD)
    config = project / ".claude" / "hookman.toml"
    config.write_text(  # a teammate's `hookman install hooks/no_write.py`, pulled
        config.read_text(encoding="utf-8")
        + '\n[[hooks]]\nname = "no_write"\npath = "hooks/no_write.py"\n'
        'events = ["tool_call"]\ntools = { tool_call = ["Write"] }\n',
        encoding="utf-8",
    )
    assert claude_code_does(project, settings, "Bash") == DENY  # the changed project denies

    assert claude_code_session(project, settings, "Write") == STOPPED


HUGE_REASON_GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        return {"block": True, "reason": "x" * 300000}
"""


def test_a_plugin_s_cut_answer_names_no_hookman_command(project: Path, tmp_path: Path) -> None:
    _write_hook(project, "big", HUGE_REASON_GUARD)
    hookman_install(project, "hooks/big.py", "--claude-version", "2.1.332")
    plugin = tmp_path / "plugin"
    built = _hookman(project, "plugin", "build", str(plugin), "--claude-version", "2.1.332")
    assert built.returncode == 0, built.stderr
    hooks = json.loads((plugin / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]
    [handler] = hooks["PreToolUse"][0]["hooks"]
    data = tmp_path / "data"
    data.mkdir()

    verdict = run_settings_command(
        handler["command"],
        "PreToolUse",
        _payload(project),
        timeout=float(handler["timeout"]),
        cwd=project,
        env={"CLAUDE_PLUGIN_ROOT": str(plugin), "CLAUDE_PLUGIN_DATA": str(data)},
    )

    assert verdict.decision == DENY
    said = json.dumps(verdict.answer)
    assert "`hookman " not in said, (verdict.answer or {}).get("systemMessage")


PROJECT_DIR_HOOK = """
import os, pathlib
ROOT = pathlib.Path(os.environ["CLAUDE_PROJECT_DIR"])  # set by Claude Code for every hook

def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm -rf" in str(event["input"]):
            return {"block": True, "reason": "no rm -rf in " + str(ROOT)}
"""


def test_a_hook_reading_claude_project_dir_at_import_can_be_installed(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    _write_hook(project, "cfg", PROJECT_DIR_HOOK)

    done = _hookman(project, "install", "hooks/cfg.py", "--claude-version", "2.1.332")

    assert done.returncode == 0, done.stderr
