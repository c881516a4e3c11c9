"""The client's own off-switches in the real client, and doctor naming each with its fix
(doctor/findings_switches.py; facts in catalog/doctor_facts.json, "off_switches"):

- managed `strictPluginOnlyCustomization` naming "hooks": the project's hookman guard is
  silent; doctor says `hooks-plugin-only` (error); its fix, the guard shipped as a plugin
  (`hookman plugin build`), denies again. The client reads managed settings from
  /etc/claude-code only (no override in the binary), so it runs in a mount namespace of its
  own whose /etc is an overlay holding them: the machine's /etc is never touched, and doctor
  reads the same file through `--managed-settings`;
- `CLAUDE_CODE_SIMPLE=1` (what `--bare` sets): the guard is silent; doctor, run in that
  environment, says `hooks-off-bare-mode`;
- the Stop-hook cap: a hookman Stop guard that always blocks is overridden after
  CLAUDE_CODE_STOP_HOOK_BLOCK_CAP blocks, and the turn ends; doctor says `stop-block-cap`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say
from .test_plugin import build_plugin, install_from_marketplace

pytestmark = pytest.mark.e2e

GUARD = """
def guard(event, ctx):
    if "BLOCK-ME" in event["input"].get("command", ""):
        return {"block": True, "reason": "SWITCH-GUARD-E2E: not this one"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

STOP_GUARD = """
import os


def gate(event, ctx):
    with open(os.path.join(ctx.cwd, "stops.log"), "a") as log:
        log.write("blocked\\n")
    return {"decision": "block", "reason": "STOP-GATE-E2E: not done yet"}


def hook(pi):
    pi.on("Stop", gate)
"""

BLOCKED = "SWITCH-GUARD-E2E: not this one"


def _fail_or_skip(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"E2E CANNOT RUN IN CI: {reason}", pytrace=False)
    pytest.skip(reason)


def doctor(e2e: E2EProject, *extra: str) -> tuple[int, dict[str, Any]]:
    done = e2e.hookman("doctor", "--json", "--claude-version", e2e.version, *extra, check=False)
    return done.returncode, json.loads(done.stdout)


def codes(report: dict[str, Any], severity: str | None = None) -> list[str]:
    return [f["code"] for f in report["findings"] if severity in (None, f["severity"])]


def guard_denies(e2e: E2EProject) -> bool:
    """One `echo BLOCK-ME` the model runs: True when the guard denied it."""
    run = e2e.run_claude("go", turns=[bash("echo BLOCK-ME-$((40+2))"), say("ok")])
    assert run.returncode == 0, run.describe()
    [result] = run.tool_results()
    denied = BLOCKED in str(result["content"])
    assert denied or "BLOCK-ME-42" in str(result["content"]), run.describe()
    return denied


def with_managed_settings(e2e: E2EProject, settings: dict[str, Any]) -> Path:
    """Run the client with these managed settings in /etc/claude-code (an overlay on /etc in
    a mount namespace of its own); return the file, for doctor's --managed-settings."""
    probe = [*(e2e.isolation.prefix or ()), "unshare", "-m", "true"]
    if subprocess.run(probe, capture_output=True, timeout=30, check=False).returncode != 0:
        _fail_or_skip("no mount namespace can be made here (`unshare -m`)")
    policy = e2e.scratch / "policy" / "managed-settings.json"
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    upper, work = e2e.scratch / "etc-upper", e2e.scratch / "etc-work"
    upper.mkdir(exist_ok=True)
    work.mkdir(exist_ok=True)
    script = (
        'mount -t overlay overlay -o "lowerdir=/etc,upperdir=$0,workdir=$1" /etc && '
        'mkdir -p /etc/claude-code && cp "$2" /etc/claude-code/managed-settings.json && '
        'shift 2 && exec "$@"'
    )
    e2e.client_prefix = ["unshare", "-m", "sh", "-c", script, str(upper), str(work), str(policy)]
    return policy


def test_strict_plugin_only_silences_the_project_guard_and_a_plugin_guards_again(
    e2e: E2EProject,
) -> None:
    e2e.hookman("install", e2e.write_hook("guard", GUARD), "--claude-version", e2e.version)
    assert guard_denies(e2e), "the guard must deny before the switch"
    policy = with_managed_settings(e2e, {"strictPluginOnlyCustomization": ["hooks"]})

    assert not guard_denies(e2e), "strictPluginOnlyCustomization left the project guard on"
    code, report = doctor(e2e, "--managed-settings", str(policy))
    found = [f for f in report["findings"] if f["code"] == "hooks-plugin-only"]
    assert code == 1 and [f["severity"] for f in found] == ["error"], report["findings"]
    assert "hookman plugin build" in found[0]["fix"]

    # the fix: a guard shipped as a plugin (test_plugin's, denying `rm -rf`), the project's
    # own entries removed
    marketplace, _plugin = build_plugin(e2e, keep_entries=True)
    e2e.hookman("remove", "guard", "ctx")
    install_from_marketplace(e2e, marketplace, "user")
    victim = e2e.root / "victim"
    victim.mkdir()
    run = e2e.run_claude("tidy up", turns=[bash(f"rm -rf {victim}"), say("ok")])
    [denied] = run.tool_results()
    assert victim.is_dir(), "a plugin's guard must run under strictPluginOnlyCustomization"
    assert "PLUGIN-GUARD-E2E: rm -rf is not allowed here" in str(denied["content"])
    code, report = doctor(e2e, "--managed-settings", str(policy))
    assert code == 0 and codes(report, "error") == [], report["findings"]


def test_bare_mode_silences_the_guard_and_doctor_says_so(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("guard", GUARD), "--claude-version", e2e.version)
    e2e.extra_env["CLAUDE_CODE_SIMPLE"] = "1"

    assert not guard_denies(e2e), "CLAUDE_CODE_SIMPLE left the guard on"
    code, report = doctor(e2e)
    assert code == 0 and "hooks-off-bare-mode" in codes(report, "info"), report["findings"]

    del e2e.extra_env["CLAUDE_CODE_SIMPLE"]
    assert guard_denies(e2e)
    assert "hooks-off-bare-mode" not in codes(doctor(e2e)[1])


def test_the_stop_cap_ends_the_turn_whatever_a_stop_guard_answers(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("gate", STOP_GUARD), "--claude-version", e2e.version)
    e2e.extra_env["CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"] = "2"

    run = e2e.run_claude("go", turns=[say(f"done {n}") for n in range(6)])

    assert run.returncode == 0, run.describe()
    blocks = (e2e.root / "stops.log").read_text().splitlines()
    assert len(blocks) == 3, run.describe()  # blocked twice, the third block is overridden
    assert run.model_saw("STOP-GATE-E2E: not done yet"), run.describe()
    code, report = doctor(e2e)
    found = [f for f in report["findings"] if f["code"] == "stop-block-cap"]
    assert code == 0 and len(found) == 1 and "more than 2 times" in found[0]["message"]
