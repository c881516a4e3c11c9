"""The sentinel (project/sentinel.py, command-sentinel.sh): the second hookman entry of a
guarded event, over every tool its blocking entry does not match. While nothing install read
changed, its command ends in the shell (exit 0, no output, no process started); once
hookman.toml, the pins or a path hook's module is newer than install's stamp, it runs the
runner, which denies naming `hookman install` when the project moved on or a hook's code
guards what install did not wire, and answers `{}` otherwise.

Each command runs as Claude Code runs it: its settings command under `SHELL -c`, detached
(tests/bridge/attack_support.py run_settings_command judges the answer)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookman import paths
from hookman.project.sentinel import stamp_path
from tests.bridge.attack_support import (
    ALLOW,
    DENY,
    installed_handlers,
    run_settings_command,
    sentinel_handlers,
)

from .helpers import (
    local_settings,
    pulled_after_install,
    tool_payload,
    wait_past_stamp,
    write_hook,
)

VERSION = ("--claude-version", "2.1.332")
BASH_GUARD = """\
def hook(pi):
    def check(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "no rm -rf"}
    pi.on("tool_call", check, tools=["Bash"])
"""
WRITE_GUARD = """\
def hook(pi):
    pi.on("tool_call", lambda event, ctx: {"block": True, "reason": "no writes"}, tools=["Write"])
"""
# BASH_GUARD's module after a pull: it guards Write too, which install did not wire
GREW_A_WRITE_GUARD = (
    BASH_GUARD
    + """\
    pi.on("tool_call", lambda event, ctx: {"block": True, "reason": "no writes"}, tools=["Write"])
"""
)
EVERY_TOOL_GUARD = """\
def hook(pi):
    pi.on("tool_call", lambda event, ctx: None)
"""
# The `/bin/sh` family a client may run the command with; posh has no `-nt` (its own test).
SHELLS = {
    "dash": ["dash"],
    "bash": ["bash"],
    "busybox": ["busybox", "sh"],
    "mksh": ["mksh"],
    "posh": ["posh"],
}
SENTINEL_NOTE = "(sentinel: denies if the project changed)"


def _shell(name: str) -> list[str]:
    """The words that start shell `name` (skipped where it is not installed, failed in CI)."""
    words = SHELLS[name]
    found = shutil.which(words[0])
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{name} is not installed (CI must have it: .ci/run)")
        pytest.skip(f"{name} is not installed")
    return [found, *words[1:]]


def _install(project: Path, *args: str) -> str:
    """`hookman install ARGS` in the project, as a user runs it; its output."""
    done = subprocess.run(
        [sys.executable, "-m", "hookman", "install", *args, *VERSION],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done
    return done.stdout


def _installed_bash_guard(project: Path) -> Path:
    module = write_hook(project, "g", BASH_GUARD)
    _install(project, "hooks/g.py")
    return module


def _sentinel(project: Path, event: str = "PreToolUse") -> dict[str, Any]:
    (handler,) = sentinel_handlers(local_settings(project), event)
    return handler


def _spy_on_sh(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose `sh` (what the guarded command runs the launcher with) notes
    each start in a file before it runs the real one: the sentinel's fast path starts none."""
    spy = tmp_path / "spy"
    spy.mkdir(parents=True)
    started = tmp_path / "sh-started"
    real = shutil.which("sh") or "/bin/sh"
    (spy / "sh").write_text(f'#!{real}\necho started >> "{started}"\nexec {real} "$@"\n')
    (spy / "sh").chmod(0o755)
    return {"PATH": f"{spy}{os.pathsep}{os.environ['PATH']}"}, started


def _run_raw(
    shell: list[str], command: str, payload: dict[str, Any], cwd: Path, env: dict[str, str]
) -> tuple[int, bytes, bytes]:
    """Run `command` under `SHELL -c`, detached, as Claude Code does; (status, out, err)."""
    process = subprocess.Popen(
        [*shell, "-c", command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env={**os.environ, **env},
        start_new_session=True,
    )
    try:
        out, err = process.communicate(json.dumps(payload).encode(), timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # what the command left behind
    return process.returncode, out, err


def _assert_quiet(project: Path, tmp_path: Path, tool: str, shell: list[str] | None = None) -> None:
    """The sentinel lets a `tool` call through at once: exit 0, no output, no `sh` started."""
    env, started = _spy_on_sh(tmp_path)
    command = _sentinel(project)["command"]
    done = _run_raw(shell or ["/bin/sh"], command, tool_payload(project, tool), project, env)
    assert done == (0, b"", b""), done
    assert not started.exists(), "the sentinel started a process while nothing changed"


def _sentinel_verdict(project: Path, tool: str, shell: str = "/bin/sh", **env: str) -> Any:
    handler = _sentinel(project)
    return run_settings_command(
        handler["command"],
        "PreToolUse",
        tool_payload(project, tool),
        timeout=handler["timeout"],
        cwd=project,
        env=env,
        shell=shell,
    )


def _pull_write_guard(project: Path) -> None:
    """A teammate's `hookman install hooks/no_write.py`, pulled (no install here yet)."""
    module = write_hook(project, "no_write", WRITE_GUARD)
    config = project / ".claude" / "hookman.toml"
    config.write_text(
        config.read_text(encoding="utf-8")
        + '\n[[hooks]]\nname = "no_write"\npath = "hooks/no_write.py"\n'
        'events = ["tool_call"]\ntools = { tool_call = ["Write"] }\n',
        encoding="utf-8",
    )
    pulled_after_install(project, config, module)


def _fire(project: Path, tool: str) -> dict[str, Any]:
    payload = project / f"{tool}.json"
    payload.write_text(json.dumps(tool_payload(project, tool)), encoding="utf-8")
    fire = [sys.executable, "-m", "hookman", "fire", "PreToolUse"]
    done = subprocess.run(
        [*fire, "--payload", str(payload), "--json"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["answer"]


@pytest.mark.parametrize("shell_name", ["dash", "bash", "busybox", "mksh"])
def test_an_unchanged_project_s_sentinel_ends_in_the_shell(
    project: Path, tmp_path: Path, shell_name: str
) -> None:
    shell = _shell(shell_name)
    _installed_bash_guard(project)
    handler = _sentinel(project)
    assert local_settings(project)["hooks"]["PreToolUse"][1]["matcher"] == "^(?!(?:Bash)$).*"

    _assert_quiet(project, tmp_path, "Write", shell)

    # what it would run: the event's guarded command, the blocking entry's
    (blocking,) = installed_handlers(local_settings(project), "PreToolUse")
    assert handler["command"].endswith(f" && exit 0; {blocking['command']}")


def test_a_pulled_guard_on_an_unwired_tool_is_denied_naming_install(
    project: Path, tmp_path: Path
) -> None:
    _installed_bash_guard(project)
    _pull_write_guard(project)

    verdict = _sentinel_verdict(project, "Write")
    answer = _fire(project, "Write")

    assert verdict.decision == DENY, verdict
    assert "hookman install" in verdict.why and "hookman.toml changed" in verdict.why
    specific = answer["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "hookman install" in specific["permissionDecisionReason"]


def test_a_path_hook_that_grew_a_guard_on_an_unwired_tool_is_denied(
    project: Path, tmp_path: Path
) -> None:
    module = _installed_bash_guard(project)
    module.write_text(GREW_A_WRITE_GUARD, encoding="utf-8")  # pulled: hookman.toml as it was
    pulled_after_install(project, module)

    assert "hookman install" in _assert_write_denied_for_g(project).why


def _assert_write_denied_for_g(project: Path) -> Any:
    """The sentinel's verdict on a Write call: denied, naming the guard 'g' now guards it."""
    verdict = _sentinel_verdict(project, "Write")
    assert verdict.decision == DENY, verdict
    assert "'g' now guards Write" in verdict.why
    return verdict


HELPER_GUARD = """\
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "lib"))
from rules import TOOLS


def hook(pi):
    pi.on("tool_call", lambda event, ctx: {"block": True, "reason": "by the rules"}, tools=TOOLS)
"""


def test_a_helper_module_outside_the_hooks_directory_that_widened_a_guard_is_denied(
    project: Path, tmp_path: Path
) -> None:
    """The walk: a guard's tools come from a helper in a directory of its own (on sys.path
    by the hook), a pull widens them: the sentinel watches the helper install learned."""
    rules = project / "lib" / "rules.py"
    rules.parent.mkdir()
    rules.write_text('TOOLS = ["Bash"]\n', encoding="utf-8")
    write_hook(project, "g", HELPER_GUARD)
    _install(project, "hooks/g.py")
    assert str(rules) in _sentinel(project)["command"]
    _assert_quiet(project, tmp_path, "Write")

    rules.write_text('TOOLS = ["Bash", "Write"]\n', encoding="utf-8")  # pulled
    pulled_after_install(project, rules)
    assert "hookman install" in _assert_write_denied_for_g(project).why


def test_a_helper_reached_through_a_directory_link_repointed_is_denied(
    project: Path, tmp_path: Path
) -> None:
    """The walk: `lib -> vendor/v1`, then `ln -sfn vendor/v2 lib` (both older than the
    stamp): the link's own directory changed, and the sentinel watches it."""
    for version, tools in (("v1", '["Bash"]'), ("v2", '["Bash", "Write"]')):
        (project / "vendor" / version).mkdir(parents=True)
        (project / "vendor" / version / "rules.py").write_text(f"TOOLS = {tools}\n")
    (project / "lib").symlink_to(Path("vendor") / "v1")
    write_hook(project, "g", HELPER_GUARD)
    _install(project, "hooks/g.py")
    _assert_quiet(project, tmp_path, "Write")

    wait_past_stamp(project)
    (project / "lib.new").symlink_to(Path("vendor") / "v2")
    os.replace(project / "lib.new", project / "lib")  # what `ln -sfn` does
    _assert_write_denied_for_g(project)


def test_helpers_past_the_cap_are_still_watched_by_their_directories(
    project: Path, tmp_path: Path
) -> None:
    """More helper modules than the sentinel names one by one: a pull that writes one of
    them anew still changes its directory, which the sentinel watches."""
    rules = project / "lib" / "rules.py"
    rules.parent.mkdir()
    rules.write_text('TOOLS = ["Bash"]\n', encoding="utf-8")
    package = project / "hooks" / "bulk"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "".join(f"from . import m{n}\n" for n in range(70)), encoding="utf-8"
    )
    for n in range(70):
        (package / f"m{n}.py").write_text(f"N = {n}\n", encoding="utf-8")
    bulk = "sys.path.insert(0, os.path.dirname(__file__))\nimport bulk\nfrom rules import"
    write_hook(project, "g", HELPER_GUARD.replace("from rules import", bulk))
    _install(project, "hooks/g.py")
    command = _sentinel(project)["command"]
    assert str(rules) not in command and f"{rules.parent} ]" in command
    _assert_quiet(project, tmp_path, "Write")

    wait_past_stamp(project)
    pulled = rules.with_suffix(".tmp")
    pulled.write_text('TOOLS = ["Bash", "Write"]\n', encoding="utf-8")
    os.replace(pulled, rules)  # git writes a pulled file anew
    _assert_write_denied_for_g(project)


def test_install_wires_the_pulled_guard_and_quiets_the_sentinel(
    project: Path, tmp_path: Path
) -> None:
    _installed_bash_guard(project)
    _pull_write_guard(project)
    assert _sentinel_verdict(project, "Write").decision == DENY

    said = _install(project)

    groups = local_settings(project)["hooks"]["PreToolUse"]
    assert [group["matcher"] for group in groups] == ["Bash|Write", "^(?!(?:Bash|Write)$).*"]
    assert f"  PreToolUse every other tool timeout 30s {SENTINEL_NOTE}" in said.splitlines()
    manifest = json.loads(paths.manifest_path(project).read_text(encoding="utf-8"))
    assert manifest["sentinels"]["PreToolUse"] == {"matcher": "^(?!(?:Bash|Write)$).*"}
    _assert_quiet(project, tmp_path, "Read")
    # Write now reaches the blocking entry, whose guard denies it by its own reason
    (blocking,) = installed_handlers(local_settings(project), "PreToolUse")
    verdict = run_settings_command(
        blocking["command"], "PreToolUse", tool_payload(project, "Write"), timeout=30, cwd=project
    )
    assert (verdict.decision, verdict.why) == (DENY, "no writes")


@pytest.mark.parametrize("stamp_is", ["stale", "missing"])
def test_without_a_current_stamp_the_runner_answers_and_denies_nothing(
    project: Path, tmp_path: Path, stamp_is: str
) -> None:
    _installed_bash_guard(project)
    stamp = stamp_path(project)
    if stamp_is == "stale":
        os.utime(stamp, (946684800, 946684800))  # 2000: older than every file install read
    else:
        stamp.unlink()
    env, started = _spy_on_sh(tmp_path)

    verdict = _sentinel_verdict(project, "Write", **env)

    assert started.exists(), "the sentinel did not run the runner"
    assert (verdict.decision, verdict.answer) == (ALLOW, {}), verdict


def test_posh_which_has_no_nt_runs_the_runner_and_denies_a_changed_project(
    project: Path, tmp_path: Path
) -> None:
    posh = _shell("posh")[0]
    _installed_bash_guard(project)
    unchanged = _sentinel_verdict(project, "Write", shell=posh)
    assert (unchanged.decision, unchanged.answer) == (ALLOW, {}), unchanged
    _pull_write_guard(project)

    verdict = _sentinel_verdict(project, "Write", shell=posh)

    assert verdict.decision == DENY, verdict
    assert "hookman install" in verdict.why


def test_a_bare_install_after_a_touched_hookman_toml_refreshes_the_stamp(
    project: Path, tmp_path: Path
) -> None:
    _installed_bash_guard(project)
    config = project / ".claude" / "hookman.toml"
    settings_before = local_settings(project)
    pulled_after_install(project, config)  # the same bytes, a newer time (a checkout, say)
    env, started = _spy_on_sh(tmp_path)
    assert _sentinel_verdict(project, "Write", **env).answer == {}
    assert started.exists()  # not quiet: the runner ran (and found nothing changed)

    said = _install(project)

    assert ".claude/settings.local.json unchanged" in said.splitlines()
    assert local_settings(project) == settings_before
    _assert_quiet(project, tmp_path / "after", "Write")


def test_a_guard_on_every_tool_needs_no_sentinel(project: Path) -> None:
    write_hook(project, "all", EVERY_TOOL_GUARD)

    said = _install(project, "hooks/all.py")

    settings = local_settings(project)
    assert [group.get("matcher") for group in settings["hooks"]["PreToolUse"]] == [None]
    assert sentinel_handlers(settings, "PreToolUse") == []
    assert len(installed_handlers(settings, "PreToolUse")) == 1
    manifest = json.loads(paths.manifest_path(project).read_text(encoding="utf-8"))
    assert "PreToolUse" not in manifest.get("sentinels", {})
    assert "PreToolUse every" not in said
