"""doctor's Codex findings, proven in the real `codex` binary (both pinned versions), offline
against the mock Responses API, CODEX_HOME in the test's temp dir (codex_harness.py):

- a hookman hook Codex does not trust is silent in `codex exec`; doctor reports it
  (codex-hook-untrusted, read from Codex's own app server); after the fix doctor prints, it is
  clean for it and the hook really runs (it blocks the command);
- a hook changed since Codex trusted it is reported as modified (Codex's trustStatus);
- a project Codex does not trust is reported (codex-project-untrusted), and after the printed
  fix (the config entry, then `hookman install --agent codex`) the hook runs.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest

from .codex_harness import CodexProject
from .mock_anthropic import say
from .mock_openai import shell

pytestmark = pytest.mark.e2e

GUARD = """
def guard(event, ctx):
    if "BLOCK-ME" in event["input"].get("command", ""):
        return {"block": True, "reason": "DOCTOR-E2E: not this one"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

BLOCKED = "Command blocked by PreToolUse hook: DOCTOR-E2E: not this one"


def doctor(e2e: CodexProject) -> dict[str, Any]:
    done = e2e.hookman("doctor", "--json", check=False)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def codex_findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["code"].startswith("codex-")]


def the(report: dict[str, Any], code: str) -> dict[str, Any]:
    found = [f for f in report["findings"] if f["code"] == code]
    assert len(found) == 1, report["findings"]
    return found[0]


def guarded_run(e2e: CodexProject) -> tuple[bool, Any]:
    """One `codex exec` whose model runs a command the guard blocks: (blocked, run)."""
    made = e2e.root / "made.txt"
    made.unlink(missing_ok=True)
    run = e2e.run_codex("note", turns=[shell("echo BLOCK-ME > made.txt"), say("done")])
    outputs = run.tool_outputs()
    blocked = bool(outputs) and outputs[0].startswith(BLOCKED)
    assert blocked != made.exists(), run.describe()
    return blocked, run


def run_fix_command(e2e: CodexProject, fix: str) -> None:
    """Run the `hookman ...` command a fix names, as the user would."""
    start = fix.index("`hookman ") + 1
    words = shlex.split(fix[start : fix.index("`", start)])
    assert words[0] == "hookman", fix
    e2e.hookman(*words[1:])


def test_an_untrusted_hookman_hook_is_reported_and_the_fix_makes_it_run(
    codex_e2e: CodexProject,
) -> None:
    e2e = codex_e2e
    e2e.hookman("install", e2e.write_hook("guard", GUARD), "--agent", "codex", "--no-codex-trust")
    blocked, run = guarded_run(e2e)
    assert not blocked, run.describe()  # Codex skips the untrusted hook without a word

    found = the(doctor(e2e), "codex-hook-untrusted")
    assert found["severity"] == "error" and found["event"] == "PreToolUse", found
    assert found["file"] == str(e2e.hooks_path) and found["line"] is not None, found
    run_fix_command(e2e, found["fix"])

    assert codex_findings(doctor(e2e)) == []
    blocked, run = guarded_run(e2e)
    assert blocked, run.describe()


def test_a_hook_changed_since_trusted_is_reported_as_modified(codex_e2e: CodexProject) -> None:
    e2e = codex_e2e
    e2e.hookman("install", e2e.write_hook("guard", GUARD), "--agent", "codex")
    assert codex_findings(doctor(e2e)) == []
    data = json.loads(e2e.hooks_path.read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 31
    e2e.hooks_path.write_text(json.dumps(data, indent=2))

    report = doctor(e2e)
    found = the(report, "codex-hook-modified")
    assert found["severity"] == "error", found
    assert the(report, "codex-hookman-stale")["fix"].startswith("run `hookman install`")
    blocked, run = guarded_run(e2e)
    assert not blocked, run.describe()  # Codex skips a modified hook, as doctor says

    run_fix_command(e2e, found["fix"])
    assert codex_findings(doctor(e2e)) == []


def test_an_untrusted_project_is_reported_and_the_fix_makes_it_run(
    codex_e2e: CodexProject,
) -> None:
    e2e = codex_e2e
    config = e2e.codex_home / "config.toml"
    config.write_text("", encoding="utf-8")  # forget the project's trust
    e2e.hookman("install", e2e.write_hook("guard", GUARD), "--agent", "codex")

    report = doctor(e2e)
    found = the(report, "codex-project-untrusted")
    assert found["severity"] == "error" and "PreToolUse" in found["message"], found
    assert "dangerously" not in found["fix"]
    assert [f["code"] for f in codex_findings(report)] == ["codex-project-untrusted"]
    entry = f'[projects."{e2e.root}"] trust_level = "trusted"'
    assert entry in found["fix"] and str(config) in found["fix"]
    if e2e.codex.version == "0.150.0":
        assert "--trust" not in found["fix"]  # that Codex's exec has no --trust
    else:
        assert "codex exec --trust" in found["fix"]
        # (0.150.0's `codex exec --dangerously-bypass-approvals-and-sandbox`, the harness's
        # run, records the project's trust itself, so the silent run is shown on 0.171.0.)
        blocked, run = guarded_run(e2e)
        assert not blocked, run.describe()  # Codex never reads an untrusted project's .codex/
        assert "trust_level" not in config.read_text()

    config.write_text(entry.replace("] ", "]\n") + "\n", encoding="utf-8")
    run_fix_command(e2e, found["fix"])
    assert codex_findings(doctor(e2e)) == []
    blocked, run = guarded_run(e2e)
    assert blocked, run.describe()
