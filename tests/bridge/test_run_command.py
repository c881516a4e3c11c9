"""`python -m hookman run EVENT --manifest M` as Claude Code runs it: real payloads on stdin,
exactly one JSON answer on stdout, exit 0, nothing on stderr."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookman.bridge.answer import DEFAULT_BLOCK_REASON
from hookman.bridge.capture import CAPTURE_LIMIT
from hookman.bridge.run_command import (
    ANSWER_LIMIT,
    CUT_NOTICE,
    EXIT_NO_ANSWER,
    NO_ANSWER_NOTICE,
    TEXT_LIMIT,
    parse_options,
)
from hookman.project.launcher import MISSING_LAUNCHER_TEXT
from tests.direct_command import RUNNER_CODE

from .conftest import SAMPLES, RunnerProject

GUARD = """
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "rm -rf is not allowed here"}
"""


def _deny_reason(answer: dict) -> str:
    specific = answer["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse"
    assert specific["permissionDecision"] == "deny"
    return specific["permissionDecisionReason"]


def test_a_guard_denies_rm_rf_with_its_reason(runner_project: RunnerProject) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])
    payload = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    answer = runner_project.answer("PreToolUse", payload)

    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "rm -rf is not allowed here",
        }
    }
    (record,) = runner_project.log_records()
    assert record["event"] == "PreToolUse"
    assert record["outcome"] == "denied"
    assert record["reason"] == "rm -rf is not allowed here"  # for `hookman log`'s last denies
    assert record["hooks"] == ["guard"]
    assert record["session"] == payload["session_id"]


def test_an_allowed_call_gets_an_empty_answer(runner_project: RunnerProject) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])

    assert runner_project.answer("PreToolUse", runner_project.payload("PreToolUse")) == {}


def test_a_block_without_reason_gets_the_default_reason(runner_project: RunnerProject) -> None:
    source = 'def hook(pi):\n    pi.on("tool_call", lambda event, ctx: {"block": True})\n'
    runner_project.add_hook("quiet", source, ["tool_call"], ["PreToolUse"])

    answer = runner_project.answer("PreToolUse", runner_project.payload("PreToolUse"))

    assert _deny_reason(answer) == f"{DEFAULT_BLOCK_REASON} (quiet)"


def test_a_raising_guard_fails_closed_naming_the_hook(runner_project: RunnerProject) -> None:
    source = """
    def hook(pi):
        @pi.on("tool_call")
        def guard(event, ctx):
            raise ValueError("policy file missing")
    """
    runner_project.add_hook("policy", source, ["tool_call"], ["PreToolUse"])

    answer = runner_project.answer("PreToolUse", runner_project.payload("PreToolUse"))

    reason = _deny_reason(answer)
    assert "'policy'" in reason and "policy file missing" in reason
    assert "`hookman disable policy`" in reason
    (record,) = runner_project.log_records()
    assert record["outcome"] == "failed-closed"
    assert record["reason"] == reason
    assert record["errors"][0]["hook"] == "policy"


def test_a_guard_with_a_syntax_error_fails_closed(runner_project: RunnerProject) -> None:
    runner_project.add_hook("broken", "def hook(pi)\n    pass\n", ["tool_call"], ["PreToolUse"])

    answer = runner_project.answer("PreToolUse", runner_project.payload("PreToolUse"))

    reason = _deny_reason(answer)
    assert "'broken'" in reason and "failed to load" in reason


def test_a_broken_hook_that_guards_other_tools_does_not_deny(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook(
        "edit-guard", "syntax error(", ["tool_call"], ["PreToolUse"], {"tool_call": ["Edit"]}
    )

    answer = runner_project.answer("PreToolUse", runner_project.payload("PreToolUse"))

    assert "permissionDecision" not in answer.get("hookSpecificOutput", {})
    assert "'edit-guard' failed to load" in answer["systemMessage"]


HUNG_GUARD = """
import time
def hook(pi):
    @pi.on("tool_call")
    def slow(event, ctx):
        time.sleep(60)
"""

ALARM_DISARMING_GUARD = """
import signal, time
def hook(pi):
    @pi.on("tool_call")
    def own_timeout(event, ctx):
        signal.alarm(0)  # e.g. a library cancelling its own alarm, and hookman's with it
        time.sleep(60)
"""


@pytest.mark.parametrize(
    ("name", "source"),
    [("slow", HUNG_GUARD), ("own_timeout", ALARM_DISARMING_GUARD)],
    ids=["hung guard", "guard that disarms SIGALRM"],
)
def test_a_hung_guard_is_denied_at_the_deadline(
    runner_project: RunnerProject, name: str, source: str
) -> None:
    runner_project.add_hook(name, source, ["tool_call"], ["PreToolUse"])
    runner_project.entries["PreToolUse"]["deadline"] = 0.5
    runner_project.write_manifest()

    answer = runner_project.answer("PreToolUse", runner_project.payload("PreToolUse"))

    reason = _deny_reason(answer)
    assert f"'{name}'" in reason and "deadline of 0.5 s" in reason
    (record,) = runner_project.log_records()
    assert record["outcome"] == "timeout"


SLOW_IMPORT = """
import time
time.sleep(60)
def hook(pi):
    pi.on("tool_call", lambda event, ctx: None)
"""


def test_a_guard_whose_import_passes_the_deadline_is_named(runner_project: RunnerProject) -> None:
    runner_project.add_hook("slow-load", SLOW_IMPORT, ["tool_call"], ["PreToolUse"])
    runner_project.entries["PreToolUse"]["deadline"] = 0.5
    runner_project.write_manifest()

    reason = _deny_reason(runner_project.answer("PreToolUse", runner_project.payload("PreToolUse")))

    assert "the hook 'slow-load' did not finish within hookman's deadline of 0.5 s" in reason
    assert "`hookman disable slow-load`" in reason
    assert "(loading)" not in reason and "NAME" not in reason


def test_a_deadline_passed_before_any_hook_loaded_names_no_hook(
    runner_project: RunnerProject, tmp_path: Path
) -> None:
    """The site's start-up code runs under the runner's clock, before any hook loads: the
    deny says where hookman was, and names commands that work (no placeholder)."""
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])
    runner_project.entries["PreToolUse"]["deadline"] = 0.5
    runner_project.write_manifest()
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import time\ntime.sleep(60)\n", encoding="utf-8")

    answer = runner_project.answer_installed(
        "PreToolUse", runner_project.payload("PreToolUse"), env={"PYTHONPATH": str(site)}
    )

    reason = _deny_reason(answer)
    assert "hookman's deadline of 0.5 s passed before the project's hooks started loading" in (
        reason
    )
    assert "`hookman fire PreToolUse`" in reason and "`hookman log`" in reason
    assert "(loading)" not in reason and "NAME" not in reason and "disable" not in reason
    (record,) = runner_project.wait_for_log_records(1)
    assert record["outcome"] == "timeout"
    assert record["errors"][0]["hook"] == "hookman"


def test_a_missing_manifest_denies_on_pre_tool_use(runner_project: RunnerProject) -> None:
    done = runner_project.run(
        "PreToolUse", runner_project.payload("PreToolUse"), manifest=runner_project.root / "nope"
    )

    assert done.returncode == 0 and done.stderr == ""
    reason = _deny_reason(json.loads(done.stdout))
    assert "does not exist" in reason and "hookman install" in reason


def test_a_missing_manifest_is_reported_on_other_events(runner_project: RunnerProject) -> None:
    done = runner_project.run(
        "Stop", runner_project.payload("Stop"), manifest=runner_project.root / "nope"
    )

    assert done.returncode == 0 and done.stderr == ""
    assert "hookman install" in json.loads(done.stdout)["systemMessage"]


def test_prints_and_subprocess_output_do_not_corrupt_the_answer(
    runner_project: RunnerProject,
) -> None:
    source = """
    import subprocess, sys
    print("loading noise")
    def hook(pi):
        @pi.on("tool_call")
        def noisy(event, ctx):
            print("stdout noise")
            sys.stderr.write("stderr noise\\n")
            subprocess.run(["echo", "child noise"], check=True)
            return {"block": True, "reason": "nope"}
    """
    runner_project.add_hook("noisy", source, ["tool_call"], ["PreToolUse"])

    answer = runner_project.answer("PreToolUse", runner_project.payload("PreToolUse"))

    assert _deny_reason(answer) == "nope"
    output = runner_project.log_records()[0]["output"]
    for noise in ("loading noise", "stdout noise", "stderr noise", "child noise"):
        assert noise in output


def test_before_agent_start_message_becomes_additional_context(
    runner_project: RunnerProject,
) -> None:
    source = """
    def hook(pi):
        @pi.on("before_agent_start")
        def remind(event, ctx):
            return {"message": {"custom_type": "note", "content": [
                {"type": "text", "text": "Prompt was: " + event["prompt"]}], "display": False}}
    """
    runner_project.add_hook("remind", source, ["before_agent_start"], ["UserPromptSubmit"])

    answer = runner_project.answer("UserPromptSubmit", runner_project.payload("UserPromptSubmit"))

    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": "Prompt was: run echo hi",
        }
    }


REDACT = """
def hook(pi):
    @pi.on("tool_result")
    def redact(event, ctx):
        text = event["content"][0]["text"]
        return {"content": [{"type": "text", "text": text.replace("hi", "[redacted]")}]}
"""


def test_a_redaction_becomes_updated_tool_output_in_bash_shape(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook("redact", REDACT, ["tool_result"], ["PostToolUse"])

    answer = runner_project.answer("PostToolUse", runner_project.payload("PostToolUse"))

    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "updatedToolOutput": {
                "stdout": "[redacted]",
                "stderr": "",
                "interrupted": False,
                "isImage": False,
                "noOutputExpected": False,
            },
        }
    }


BASH_REDACTED = {
    "hookEventName": "PostToolUse",
    "updatedToolOutput": {
        "stdout": "[redacted]",
        "stderr": "",
        "interrupted": False,
        "isImage": False,
        "noOutputExpected": False,
    },
}


def test_a_redaction_on_2_1_197_is_updated_tool_output_in_bash_shape(
    runner_project: RunnerProject,
) -> None:
    runner_project.claude_version = "2.1.197"  # measured: applies updatedToolOutput for Bash
    runner_project.add_hook("redact", REDACT, ["tool_result"], ["PostToolUse"])

    answer = runner_project.answer("PostToolUse", runner_project.payload("PostToolUse"))

    assert answer == {"hookSpecificOutput": BASH_REDACTED}
    assert runner_project.log_records()[0]["notices"] == []


def test_a_redaction_on_a_client_older_than_the_measured_bound_is_reported(
    runner_project: RunnerProject,
) -> None:
    runner_project.claude_version = "2.0.0"
    runner_project.add_hook("redact", REDACT, ["tool_result"], ["PostToolUse"])

    answer = runner_project.answer("PostToolUse", runner_project.payload("PostToolUse"))

    assert "hookSpecificOutput" not in answer
    assert "Claude Code 2.0.0 cannot replace a tool's output" in answer["systemMessage"]


def test_a_redaction_for_an_unknown_version_is_tried_and_logged(
    runner_project: RunnerProject,
) -> None:
    runner_project.claude_version = None
    runner_project.add_hook("redact", REDACT, ["tool_result"], ["PostToolUse"])

    answer = runner_project.answer("PostToolUse", runner_project.payload("PostToolUse"))

    assert answer == {"hookSpecificOutput": BASH_REDACTED}
    (notice,) = runner_project.log_records()[0]["notices"]
    assert "the target Claude Code version is unknown" in notice


def test_failure_results_are_ignored(runner_project: RunnerProject) -> None:
    source = """
    def hook(pi):
        @pi.on("tool_result")
        def rewrite(event, ctx):
            assert event["is_error"] is True
            assert event["content"] == [{"type": "text", "text": "Exit code 3\\nfailing"}]
            return {"content": [{"type": "text", "text": "all good"}]}
    """
    runner_project.add_hook("rewrite", source, ["tool_result"], ["PostToolUseFailure"])

    answer = runner_project.answer(
        "PostToolUseFailure", runner_project.payload("PostToolUseFailure")
    )

    assert answer == {}
    assert runner_project.log_records()[0]["errors"] == []


SEND_ON_SESSION_END = """
def hook(pi):
    @pi.on("session_shutdown")
    def bye(event, ctx):
        pi.send_message("the last session ended at step 3")
"""


def test_a_message_sent_without_a_channel_arrives_on_the_next_channel(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook(
        "notes", SEND_ON_SESSION_END, ["session_shutdown"], ["SessionEnd", "SessionStart"]
    )
    end = runner_project.payload("SessionEnd", session_id="s-1")
    start = runner_project.payload("SessionStart", session_id="s-1")

    assert runner_project.answer("SessionEnd", end) == {}
    first = runner_project.answer("SessionStart", start)
    again = runner_project.answer("SessionStart", start)

    assert first == {
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": "the last session ended at step 3",
        }
    }
    assert again == {}


def test_queued_messages_stay_with_their_session(runner_project: RunnerProject) -> None:
    runner_project.add_hook(
        "notes", SEND_ON_SESSION_END, ["session_shutdown"], ["SessionEnd", "SessionStart"]
    )
    runner_project.answer("SessionEnd", runner_project.payload("SessionEnd", session_id="a"))

    other = runner_project.answer(
        "SessionStart", runner_project.payload("SessionStart", session_id="b")
    )

    assert other == {}


SEND_ON_STOP = """
def hook(pi):
    @pi.on("agent_end")
    def remember(event, ctx):
        pi.send_message("tests were not run")
"""


def test_a_message_sent_on_stop_waits_for_the_next_prompt(runner_project: RunnerProject) -> None:
    # additionalContext on Stop would give the model another turn, so the text is queued.
    runner_project.add_hook("remember", SEND_ON_STOP, ["agent_end"], ["Stop"])
    runner_project.entries["UserPromptSubmit"] = {"timeout": 30, "deadline": 27.0}
    runner_project.write_manifest()
    session = {"session_id": "s-stop"}

    stop = runner_project.answer("Stop", runner_project.payload("Stop", **session))
    prompt = runner_project.answer(
        "UserPromptSubmit", runner_project.payload("UserPromptSubmit", **session)
    )

    assert stop == {}
    assert prompt == {
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": "tests were not run",
        }
    }


def test_context_a_stop_handler_returns_itself_is_passed_on(
    runner_project: RunnerProject,
) -> None:
    # A raw Claude Code field asks for Claude Code's behaviour (another turn); queued texts
    # stay queued.
    source = """
    def hook(pi):
        pi.on("agent_end", lambda event, ctx: pi.send_message("for later"))
        pi.on("Stop", lambda event, ctx: {"hookSpecificOutput": {
            "hookEventName": "Stop", "additionalContext": "keep going"}})
    """
    runner_project.add_hook("both", source, ["agent_end", "Stop"], ["Stop", "SessionStart"])
    session = {"session_id": "s-raw"}

    stop = runner_project.answer("Stop", runner_project.payload("Stop", **session))
    start = runner_project.answer("SessionStart", runner_project.payload("SessionStart", **session))

    returned = {"hookEventName": "Stop", "additionalContext": "keep going"}
    assert stop == {"hookSpecificOutput": returned}
    assert start["hookSpecificOutput"]["additionalContext"] == "for later"


def test_a_manifest_without_client_facts_still_runs_and_queues_messages(
    runner_project: RunnerProject,
) -> None:
    runner_project.with_client_facts = False
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])
    greet = 'def hook(pi):\n    pi.on("session_start", lambda e, c: pi.send_message("hi"))\n'
    runner_project.add_hook("greet", greet, ["session_start"], ["SessionStart"])
    denied = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    assert _deny_reason(runner_project.answer("PreToolUse", denied)) == "rm -rf is not allowed here"
    assert runner_project.answer("SessionStart", runner_project.payload("SessionStart")) == {}
    assert "run `hookman install`" in runner_project.log_records()[-1]["notices"][0]
    assert "hi" in next(runner_project.state_dir.glob("sessions/*/queue.jsonl")).read_text()


STOP_HOOK = """
def hook(pi):
    @pi.on("agent_end")
    def ended(event, ctx):
        pi.append_entry("agent_end", {"messages": event["messages"], "agent": ctx.agent_id})

    @pi.on("Stop")
    def raw(event, ctx):
        pi.append_entry("raw_stop", {"agent_id": event.get("agent_id"), "ctx": ctx.agent_id})
"""


def test_stop_without_agent_id_is_agent_end(runner_project: RunnerProject) -> None:
    runner_project.add_hook("stop", STOP_HOOK, ["agent_end", "Stop"], ["Stop"])
    payload = runner_project.payload("Stop")

    assert runner_project.answer("Stop", payload) == {}

    entries = _entries(runner_project, payload["session_id"])
    assert [entry["custom_type"] for entry in entries] == ["agent_end", "raw_stop"]
    assert entries[0]["data"] == {"messages": [], "agent": None}


def test_stop_with_agent_id_is_a_subagent_not_agent_end(runner_project: RunnerProject) -> None:
    runner_project.add_hook("stop", STOP_HOOK, ["agent_end", "Stop"], ["Stop"])
    payload = runner_project.payload("Stop", agent_id="sub-7")

    assert runner_project.answer("Stop", payload) == {}

    entries = _entries(runner_project, payload["session_id"])
    assert [entry["custom_type"] for entry in entries] == ["raw_stop"]
    assert entries[0]["data"] == {"agent_id": "sub-7", "ctx": "sub-7"}
    assert runner_project.log_records()[0]["agent_id"] == "sub-7"


def _entries(runner_project: RunnerProject, session: str) -> list[dict]:
    path = runner_project.state_dir / "sessions" / session / "entries.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_raw_handlers_merge_with_runtime_results(runner_project: RunnerProject) -> None:
    first = """
    def hook(pi):
        pi.on("PreToolUse", lambda event, ctx: {"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "additionalContext": "from " + event["type"]}})
    """
    second = """
    def hook(pi):
        pi.on("PreToolUse", lambda event, ctx: {"hookSpecificOutput": {
            "permissionDecision": "deny", "permissionDecisionReason": "raw says no"}})
        pi.on("PreToolUse", lambda event, ctx: {"hookSpecificOutput": {
            "permissionDecision": "allow", "additionalContext": "second"}})
    """
    runner_project.add_hook("first", first, ["PreToolUse"], ["PreToolUse"])
    runner_project.add_hook("second", second, ["PreToolUse"], ["PreToolUse"])

    answer = runner_project.answer("PreToolUse", runner_project.payload("PreToolUse"))

    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "raw says no",
            "additionalContext": "from PreToolUse\n\nsecond",
        }
    }


def test_set_status_persists_for_the_session(runner_project: RunnerProject) -> None:
    source = """
    def hook(pi):
        @pi.on("session_start")
        def status(event, ctx):
            ctx.ui.set_status("build", "green")
            ctx.ui.set_status("gone", "x")
            ctx.ui.set_status("gone", None)
    """
    runner_project.add_hook("status", source, ["session_start"], ["SessionStart"])
    payload = runner_project.payload("SessionStart", session_id="../../evil")

    runner_project.answer("SessionStart", payload)

    (status_file,) = runner_project.state_dir.glob("sessions/*/status.json")
    assert status_file.parent.parent == runner_project.state_dir / "sessions"
    assert json.loads(status_file.read_text()) == {"build": "green"}


def test_an_error_elsewhere_is_reported_and_dispatch_goes_on(
    runner_project: RunnerProject,
) -> None:
    failing = 'def hook(pi):\n    pi.on("session_start", lambda e, c: 1 / 0)\n'
    working = 'def hook(pi):\n    pi.on("session_start", lambda e, c: pi.send_message("hello"))\n'
    runner_project.add_hook("failing", failing, ["session_start"], ["SessionStart"])
    runner_project.add_hook("working", working, ["session_start"], ["SessionStart"])

    answer = runner_project.answer("SessionStart", runner_project.payload("SessionStart"))

    assert answer["hookSpecificOutput"]["additionalContext"] == "hello"
    assert "'failing' failed on session_start: division by zero" in answer["systemMessage"]
    assert runner_project.log_records()[0]["outcome"] == "errors"


def test_pre_compact_cancel_blocks_the_compaction(runner_project: RunnerProject) -> None:
    source = """
    def hook(pi):
        pi.on("session_before_compact", lambda event, ctx: {"cancel": True})
    """
    runner_project.add_hook("keep", source, ["session_before_compact"], ["PreCompact"])

    answer = runner_project.answer("PreCompact", runner_project.payload("PreCompact"))

    assert answer == {"decision": "block", "reason": "Compaction was cancelled by the hook 'keep'."}


@pytest.mark.parametrize("stdin", ["", "garbage", "[1, 2]", '{"unterminated": '])
def test_garbage_on_stdin_gets_a_clean_empty_answer_where_nothing_is_guarded(
    runner_project: RunnerProject, stdin: str
) -> None:
    runner_project.add_hook(
        "stop", 'def hook(pi):\n    pi.on("agent_end", print)\n', ["agent_end"], ["Stop"]
    )

    assert runner_project.answer("Stop", stdin) == {}
    assert runner_project.log_records()[0]["outcome"] == "bad-payload"


def test_an_unknown_event_gets_a_clean_empty_answer(runner_project: RunnerProject) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])

    assert runner_project.answer("PreToolUze", runner_project.payload("PreToolUse")) == {}
    assert runner_project.log_records()[0]["outcome"] == "unknown-event"


SAMPLE_NAMES = sorted(path.stem for path in SAMPLES.iterdir())


@pytest.mark.parametrize("event", SAMPLE_NAMES)
def test_every_sample_payload_gets_one_clean_answer(
    runner_project: RunnerProject, event: str
) -> None:
    claude_event = event.split(".")[0]
    source = f'def hook(pi):\n    pi.on("{claude_event}", lambda event, ctx: None)\n'
    runner_project.add_hook("observer", source, [claude_event], [claude_event])

    assert runner_project.answer(claude_event, runner_project.payload(event)) == {}


FORBIDDEN_ON_THE_RUN_PATH = {
    "typer",
    "rich",
    "click",
    "tomlkit",
    "tomllib",
    "tomli",
    "filelock",
    "platformdirs",
    "argparse",
    "asyncio",
    "contextlib",
    "importlib",
    "runpy",
    "warnings",
    "logging",
    "tempfile",
    "datetime",
    "dataclasses",
    "inspect",
}


MODULES_SEEN = """
def hook(pi):
    import sys

    @pi.on("tool_call")
    def note(event, ctx):
        with open(OUT, "w", encoding="utf-8") as handle:
            handle.write("\\n".join(sorted(sys.modules)))
"""


def test_the_run_path_imports_nothing_heavy(runner_project: RunnerProject, tmp_path: Path) -> None:
    """What the runner has imported by the time a handler runs, less what this interpreter's
    own site imports (a .pth file may import anything): nothing heavy, and none of the
    json package, re or enum (bridge/lean_json.py)."""
    seen = tmp_path / "modules.txt"
    runner_project.add_hook(
        "note", MODULES_SEEN.replace("OUT", repr(str(seen))), ["tool_call"], ["PreToolUse"]
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    site_brings = subprocess.run(
        [sys.executable, "-c", "import sys; print('\\n'.join(sys.modules))"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()
    command = [sys.executable, "-S", "-c", RUNNER_CODE, "run", "PreToolUse", "--manifest"]
    done = subprocess.run(
        [*command, str(runner_project.manifest_path)],
        input=json.dumps(runner_project.payload("PreToolUse")),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    imported = set(seen.read_text(encoding="utf-8").split()) - set(site_brings)
    assert "hookman.bridge.dispatch" in imported
    assert not imported & {
        "hookman.catalog.event_catalog",
        "hookman.catalog.client_version",
        "hookman.project.manifest",
    }
    top_level = {name.split(".")[0] for name in imported}
    assert not top_level & (FORBIDDEN_ON_THE_RUN_PATH | {"json", "re", "enum", "typing"})


def _event_manifest_async(argv: list[str]) -> tuple[str | None, str | None, bool]:
    options = parse_options(argv)
    return options.event, options.manifest, options.run_async


def test_parse_options_reads_event_and_manifest() -> None:
    assert _event_manifest_async(["PreToolUse", "--manifest", "/m.json"]) == (
        "PreToolUse",
        "/m.json",
        False,
    )
    assert _event_manifest_async(["Stop", "--async", "--manifest=/a b.json"]) == (
        "Stop",
        "/a b.json",
        True,
    )
    assert _event_manifest_async([]) == (None, None, False)


def test_hook_bytecode_is_cached_in_the_state_dir_not_the_project(
    runner_project: RunnerProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # the user's wish for their own tree
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])

    done = runner_project.run("PreToolUse", runner_project.payload("PreToolUse"))

    assert done.returncode == 0, done.stderr
    cached = list((runner_project.state_dir / "pycache").rglob("guard.*.pyc"))
    assert len(cached) == 1
    assert not list(runner_project.root.rglob("__pycache__"))


def _strict_json(text: str) -> dict:
    """Parse as Claude Code (JavaScript JSON.parse) would: no NaN or Infinity."""
    return json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))


def test_a_deny_survives_another_hook_returning_values_json_cannot_hold(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])
    odd = """
    def hook(pi):
        @pi.on("PreToolUse")
        def odd(event, ctx):
            return {"tags": {"a"}, "score": float("nan"), (1, 2): 3,
                    "hookSpecificOutput": {"additionalContext": "file \\udc80.txt"}}
    """
    runner_project.add_hook("odd", odd, ["PreToolUse"], ["PreToolUse"])
    payload = runner_project.payload("PreToolUse")
    payload["tool_input"]["command"] = "rm -rf /"

    done = runner_project.run("PreToolUse", payload)

    assert done.returncode == 0 and done.stderr == ""
    answer = _strict_json(done.stdout)
    assert _deny_reason(answer) == "rm -rf is not allowed here"
    # made fit for JSON, then left out: no Claude Code output field has these names
    assert not {"tags", "score", "(1, 2)"} & set(answer)
    assert "tags: not a field Claude Code reads on PreToolUse" in answer["systemMessage"]
    assert answer["hookSpecificOutput"]["additionalContext"] == "file ?.txt"
    assert "hook 'odd' returned values JSON cannot hold" in answer["systemMessage"]


def test_a_forked_child_does_not_keep_the_agent_waiting(runner_project: RunnerProject) -> None:
    pid_file = runner_project.root / "child.pid"
    source = f"""
    import os, time
    def hook(pi):
        @pi.on("tool_call")
        def forks(event, ctx):
            if os.fork() == 0:
                open({str(pid_file)!r}, "w").write(str(os.getpid()))
                time.sleep(30)
                os._exit(0)
            return {{"block": True, "reason": "forked"}}
    """
    runner_project.add_hook("forks", source, ["tool_call"], ["PreToolUse"])
    started = time.monotonic()
    try:
        # capture_output waits for every holder of the stdout pipe, as Claude Code does.
        answer = runner_project.answer("PreToolUse", runner_project.payload("PreToolUse"))
        assert time.monotonic() - started < 15
    finally:
        for _ in range(50):
            if pid_file.exists() and pid_file.read_text():
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
                break
            time.sleep(0.1)
    assert _deny_reason(answer) == "forked"


SLOW_OBSERVER = """
import os
import time


def hook(pi):
    @pi.on("tool_result")
    def observe(event, ctx):
        # waits for the test to release it: the caller can only have its answer first if
        # it did not wait for the hook (an order, not a speed; gives up after 120 s)
        give_up = time.monotonic() + 120
        while not os.path.exists(os.path.join(ctx.cwd, "release.txt")):
            if time.monotonic() > give_up:
                break
            time.sleep(0.05)
        with open(os.path.join(ctx.cwd, "observed.txt"), "a") as handle:
            handle.write(event["input"]["command"] + "\\n")
        print("observer noise")
        pi.send_message("OBSERVED " + event["input"]["command"])
        return {"content": [{"type": "text", "text": "an observer cannot rewrite"}]}
"""
# A blocking hook beside it on the same event (an async hook's guarded events are never
# async: install keeps them blocking, see test_async_hooks_never_run_async_on_a_guarded_event).
TAGGER = """
def hook(pi):
    @pi.on("tool_result")
    def tag(event, ctx):
        return {"content": [{"type": "text", "text": "tagged"}]}
"""


def test_an_async_run_answers_at_once_and_its_hooks_finish_detached(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook("tagger", TAGGER, ["tool_result"], ["PostToolUse"])
    runner_project.add_hook(
        "observer", SLOW_OBSERVER, ["tool_result"], ["PostToolUse"], is_async=True
    )
    payload = runner_project.payload("PostToolUse", tool_input={"command": "rm -rf /"})
    marker = runner_project.root / "observed.txt"

    done = runner_project.run("PostToolUse", payload, run_async=True)
    answered_before_the_hook = not marker.exists()  # the hook still waits for release.txt
    (runner_project.root / "release.txt").write_text("go\n")

    assert (done.returncode, done.stdout, done.stderr) == (0, "{}\n", "")
    assert answered_before_the_hook  # the caller did not wait for the hook
    (record,) = runner_project.wait_for_log_records(1, seconds=180)
    assert marker.read_text() == "rm -rf /\n"
    assert record["async"] is True
    assert record["hooks"] == ["observer"]  # the blocking hook is not part of this run
    assert record["outcome"] == "ok"
    assert record["output"] == "observer noise\n"
    [notice] = record["notices"]
    assert notice.startswith("async hooks cannot decide; Claude Code does not wait for them")
    assert "an observer cannot rewrite" in notice


def test_a_blocking_run_leaves_out_the_async_hooks(runner_project: RunnerProject) -> None:
    runner_project.add_hook("tagger", TAGGER, ["tool_result"], ["PostToolUse"])
    runner_project.add_hook(
        "observer", SLOW_OBSERVER, ["tool_result"], ["PostToolUse"], is_async=True
    )
    payload = runner_project.payload("PostToolUse", tool_input={"command": "rm -rf /"})

    answer = runner_project.answer("PostToolUse", payload)

    assert "tagged" in json.dumps(answer["hookSpecificOutput"]["updatedToolOutput"])
    (record,) = runner_project.log_records()
    assert record["hooks"] == ["tagger"] and "async" not in record
    assert not (runner_project.root / "observed.txt").exists()


def test_async_hooks_never_run_async_on_a_guarded_event(runner_project: RunnerProject) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"], is_async=True)
    payload = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    answer = runner_project.answer("PreToolUse", payload)
    done = runner_project.run("PreToolUse", payload, run_async=True)

    assert _deny_reason(answer) == "rm -rf is not allowed here"
    assert (done.returncode, done.stdout) == (0, "{}\n")
    first, second = runner_project.wait_for_log_records(2)
    assert first["hooks"] == ["guard"] and second["hooks"] == []


def test_async_send_message_waits_for_the_next_message_channel(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook(
        "observer", SLOW_OBSERVER, ["tool_result"], ["PostToolUse"], is_async=True
    )
    runner_project.add_hook("prompt", "def hook(pi):\n    pass\n", [], ["UserPromptSubmit"])
    payload = runner_project.payload("PostToolUse", tool_input={"command": "ls"})
    (runner_project.root / "release.txt").write_text("go\n")  # the observer need not wait
    assert runner_project.run("PostToolUse", payload, run_async=True).stdout == "{}\n"
    runner_project.wait_for_log_records(1, seconds=180)

    answer = runner_project.answer("UserPromptSubmit", runner_project.payload("UserPromptSubmit"))

    assert answer["hookSpecificOutput"]["additionalContext"] == "OBSERVED ls"


def test_an_async_run_without_a_manifest_answers_nothing(runner_project: RunnerProject) -> None:
    missing = runner_project.root / "missing.json"
    done = runner_project.run(
        "PreToolUse", runner_project.payload("PreToolUse"), manifest=missing, run_async=True
    )

    assert (done.returncode, done.stdout) == (0, "{}\n")
    (record,) = runner_project.log_records()
    assert record["async"] is True and record["outcome"] == "no-manifest"


RAW_SKILL_SHELL_RAISES = """
def hook(pi):
    @pi.on("PreSkillShellCommand")
    def check(event, ctx):
        raise ValueError("policy file missing")
"""
GUARD_RAISES = """
def hook(pi):
    @pi.on("tool_call")
    def check(event, ctx):
        raise ValueError("policy file missing")
"""


@pytest.mark.parametrize(
    ("name", "source", "events", "problem"),
    [
        ("slow", HUNG_GUARD, ["tool_call"], "deadline of 0.5 s"),
        ("raw", RAW_SKILL_SHELL_RAISES, ["PreSkillShellCommand"], "policy file missing"),
        ("guard", GUARD_RAISES, ["tool_call"], "policy file missing"),
    ],
    ids=["hung guard", "raw handler raises", "guard raises"],
)
def test_a_skill_shell_command_is_denied_when_a_guard_cannot_decide(
    runner_project: RunnerProject, name: str, source: str, events: list[str], problem: str
) -> None:
    runner_project.claude_version = "2.1.332"
    runner_project.add_hook(name, source, events, ["PreSkillShellCommand"])
    runner_project.entries["PreSkillShellCommand"]["deadline"] = 0.5
    runner_project.write_manifest()

    answer = runner_project.answer(
        "PreSkillShellCommand", runner_project.payload("PreSkillShellCommand")
    )

    specific = answer["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreSkillShellCommand"
    assert specific["permissionDecision"] == "deny"
    assert f"'{name}'" in specific["permissionDecisionReason"]
    assert problem in specific["permissionDecisionReason"]


def test_a_skill_shell_command_is_denied_when_the_manifest_is_gone(
    runner_project: RunnerProject,
) -> None:
    payload = runner_project.payload("PreSkillShellCommand")

    answer = runner_project.answer("PreSkillShellCommand", payload)

    assert answer["hookSpecificOutput"]["hookEventName"] == "PreSkillShellCommand"
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_without_a_manifest_the_skill_shell_deny_names_a_shell_command(
    runner_project: RunnerProject,
) -> None:
    answer = runner_project.answer(
        "PreSkillShellCommand", runner_project.payload("PreSkillShellCommand")
    )
    reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.startswith("hookman blocked this shell command because the manifest ")


# --- through the installed command: a guard fails closed whatever the hooks do ---------------

HARMLESS = {"command": "ls"}


def _installed_deny_reason(runner_project: RunnerProject, event: str = "PreToolUse", **kw) -> str:
    payload = runner_project.payload(event, tool_input=HARMLESS, **kw)
    done = runner_project.run_installed(event, payload)
    if done.returncode == 2:  # a deny on stderr, which Claude Code honours on a guarded event
        assert not done.stdout, done
        return done.stderr.decode()
    assert done.returncode == 0 and done.stdout.count(b"\n") == 1, done
    answer = json.loads(done.stdout)
    specific = answer["hookSpecificOutput"]
    assert specific["hookEventName"] == event
    assert specific["permissionDecision"] == "deny"
    return specific["permissionDecisionReason"]


def _guard_that(body: str) -> str:
    """A tool_call guard whose handler runs `body` (indented lines) and then allows."""
    lines = "\n".join(f"        {line}" for line in textwrap.dedent(body).strip().splitlines())
    return f"""
import atexit, os, signal, subprocess, sys, threading, time
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
{lines}
"""


ENDS_THE_PROCESS = {
    "os._exit(0)": "os._exit(0)",
    "os._exit(3)": "os._exit(3)",
    "SIGKILL": "os.kill(os.getpid(), signal.SIGKILL)",
    "SIGTERM": "os.kill(os.getpid(), signal.SIGTERM)",
    "SIGSEGV": "os.kill(os.getpid(), signal.SIGSEGV)",
    "SIGINT": "signal.signal(signal.SIGINT, signal.SIG_DFL)\nos.kill(os.getpid(), signal.SIGINT)",
    "closes every fd": "os.closerange(0, 65536)",
    "execs another program": "os.execv('/bin/true', ['true'])",
    "forks, the parent exits": "if os.fork():\n    os._exit(0)",
    "kills the launcher": "os.kill(os.getppid(), signal.SIGKILL)",
    "closes every fd, then raises": "os.closerange(0, 65536)\nraise RuntimeError('x')",
    "sys.exit(0)": "sys.exit(0)",
    "KeyboardInterrupt": "raise KeyboardInterrupt",
    "GeneratorExit": "raise GeneratorExit",
}


@pytest.mark.parametrize("body", list(ENDS_THE_PROCESS.values()), ids=list(ENDS_THE_PROCESS))
def test_a_guard_that_ends_the_runner_is_denied(runner_project: RunnerProject, body: str) -> None:
    runner_project.add_hook("guard", _guard_that(body), ["tool_call"], ["PreToolUse"])

    reason = _installed_deny_reason(runner_project)

    # (a killed launcher: the settings command's own exit-2 deny, one short line)
    assert "hookman blocked this tool call" in reason or MISSING_LAUNCHER_TEXT in reason
    assert "hookman install" in reason or "'guard'" in reason


BLOCK = "\nreturn {'block': True, 'reason': 'no'}"
BREAKS_THE_CHANNEL = {
    "replaces sys.stdout": "sys.stdout = open(os.devnull, 'w')" + BLOCK,
    "closes sys.stdout": "sys.stdout.close()" + BLOCK,
    "closes fds 0, 1, 2": "os.close(0)\nos.close(1)\nos.close(2)" + BLOCK,
    "sys.stdout = None": "sys.stdout = None\nprint('x')" + BLOCK,
    "sys.stderr = None": "sys.stderr = None\nimport warnings\nwarnings.warn('x')" + BLOCK,
}


@pytest.mark.parametrize("body", list(BREAKS_THE_CHANNEL.values()), ids=list(BREAKS_THE_CHANNEL))
def test_a_guard_that_breaks_the_answer_channel_still_denies(
    runner_project: RunnerProject, body: str
) -> None:
    runner_project.add_hook("guard", _guard_that(body), ["tool_call"], ["PreToolUse"])

    assert _installed_deny_reason(runner_project) == "no"


UNRENDERABLE = """
class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no str")
    def __repr__(self):
        raise RuntimeError("no repr")

def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        raise Unprintable()
"""


def test_an_error_whose_message_cannot_be_rendered_denies_naming_the_hook(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook("guard", UNRENDERABLE, ["tool_call"], ["PreToolUse"])

    done = runner_project.run_installed(
        "PreToolUse", runner_project.payload("PreToolUse", tool_input=HARMLESS)
    )

    assert done.stderr == b"" and done.returncode == 0
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "'guard' raised an error (Unprintable" in reason
    (record,) = runner_project.log_records()
    assert record["outcome"] == "failed-closed"


def test_a_raw_handler_whose_error_cannot_be_rendered_denies(runner_project: RunnerProject) -> None:
    source = UNRENDERABLE.replace('pi.on("tool_call")', 'pi.on("PreToolUse")')
    runner_project.add_hook("raw", source, ["PreToolUse"], ["PreToolUse"])

    assert "'raw'" in _installed_deny_reason(runner_project)


LINGERS = {
    "non-daemon thread": "threading.Thread(target=time.sleep, args=(60,)).start()",
    "atexit job": "atexit.register(time.sleep, 60)",
    "child holding every fd": (
        "fds = [int(n) for n in os.listdir('/proc/self/fd')]\n"
        "keep = [fd for fd in fds if fd > 2 and os.path.exists(f'/proc/self/fd/{fd}')]\n"
        "child = subprocess.Popen(['sleep', '60'], pass_fds=keep, start_new_session=True)\n"
        "open(os.environ['PIDS'], 'a').write(f'{child.pid}\\n')"
    ),
    "forked child": (
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    time.sleep(60)\n"
        "    os._exit(0)\n"
        "open(os.environ['PIDS'], 'a').write(f'{pid}\\n')"
    ),
}


@pytest.mark.parametrize("body", list(LINGERS.values()), ids=list(LINGERS))
def test_the_answer_comes_at_once_whatever_a_guard_leaves_behind(
    runner_project: RunnerProject, body: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    pids.touch()
    monkeypatch.setenv("PIDS", str(pids))
    guard = _guard_that(body + "\nreturn {'block': True, 'reason': 'checked'}")
    runner_project.add_hook("guard", guard, ["tool_call"], ["PreToolUse"])
    started = time.monotonic()
    try:
        answer = runner_project.answer_installed(
            "PreToolUse", runner_project.payload("PreToolUse"), timeout=30
        )
    finally:
        for pid in pids.read_text().split():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)

    assert time.monotonic() - started < 10
    assert answer["hookSpecificOutput"]["permissionDecisionReason"] == "checked"


BAD_PAYLOADS = {
    "empty": b"",
    "whitespace": b" \n",
    "not JSON": b"garbage",
    "an array": b"[1, 2]",
    "a string": b'"PreToolUse"',
    "truncated": b'{"tool_name": "Bash", "tool_input": {"command": "rm -rf /"',
    "huge integer": b'{"tool_name": "Bash", "n": 1' + b"0" * 5000 + b"}",
    "deep nesting": b'{"a": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
    "invalid UTF-8": b'{"tool_name": "Bash", "tool_input": {"command": "rm -rf /\xff"}}',
    "lone surrogate": b'{"tool_name": "Bash", "tool_input": {"command": "rm -rf \\ud800/"}}',
    "NaN": b'{"tool_name": "Bash", "tool_input": {"command": "ls"}, "x": NaN',
}


@pytest.mark.parametrize("payload", list(BAD_PAYLOADS.values()), ids=list(BAD_PAYLOADS))
def test_a_payload_hookman_cannot_read_is_denied_on_a_guarded_event(
    runner_project: RunnerProject, payload: bytes
) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])

    answer = runner_project.answer_installed("PreToolUse", payload)

    reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "the payload on stdin is not a JSON object hookman can read" in reason
    assert runner_project.log_records()[0]["outcome"] == "bad-payload"


UNREADABLE_ANYWHERE = {name: p for name, p in BAD_PAYLOADS.items() if name != "lone surrogate"}


@pytest.mark.parametrize(
    "payload", list(UNREADABLE_ANYWHERE.values()), ids=list(UNREADABLE_ANYWHERE)
)
def test_a_payload_hookman_cannot_read_is_only_noted_elsewhere(
    runner_project: RunnerProject, payload: bytes
) -> None:
    runner_project.add_hook(
        "ends", 'def hook(pi):\n    pi.on("agent_end", print)\n', ["agent_end"], ["Stop"]
    )

    assert runner_project.answer_installed("Stop", payload) == {}
    assert runner_project.log_records()[0]["outcome"] == "bad-payload"


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(payload=st.binary(max_size=200))
def test_any_bytes_on_stdin_end_in_one_answer_that_never_lets_rm_through(
    runner_project: RunnerProject, payload: bytes
) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])

    answer = runner_project.answer_installed("PreToolUse", payload)

    assert answer == {} or answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    try:
        parsed = json.loads(payload.decode("utf-8"))
    except ValueError:
        parsed = None
    if not isinstance(parsed, dict):
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


# --- every guard checks exactly what will run -------------------------------------------------

RM_GUARD = """
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if "rm -rf" in event["input"].get("command", ""):
            return {"block": True, "reason": "rm -rf is not allowed here"}
"""
RAW_RM_GUARD = """
def hook(pi):
    @pi.on("PreToolUse")
    def guard(event, ctx):
        if "rm -rf" in event["tool_input"].get("command", ""):
            return {"hookSpecificOutput": {"permissionDecision": "deny",
                                           "permissionDecisionReason": "raw: no rm -rf"}}
"""
MUTATES_INPUT = """
def hook(pi):
    @pi.on("tool_call")
    def tidy(event, ctx):
        event["input"]["command"] = "ls"
        event["input"] = {"command": "ls"}
"""
MUTATES_RAW_INPUT = """
def hook(pi):
    @pi.on("PreToolUse")
    def tidy(event, ctx):
        event["tool_input"]["command"] = "ls"
"""


@pytest.mark.parametrize(
    ("first", "first_events", "guard", "guard_events", "reason"),
    [
        (MUTATES_INPUT, ["tool_call"], RM_GUARD, ["tool_call"], "rm -rf is not allowed here"),
        (MUTATES_INPUT, ["tool_call"], RAW_RM_GUARD, ["PreToolUse"], "raw: no rm -rf"),
        (MUTATES_RAW_INPUT, ["PreToolUse"], RAW_RM_GUARD, ["PreToolUse"], "raw: no rm -rf"),
    ],
    ids=["tool_call then tool_call", "tool_call then raw", "raw then raw"],
)
def test_a_change_an_earlier_hook_makes_in_place_never_reaches_a_later_guard(
    runner_project: RunnerProject,
    first: str,
    first_events: list[str],
    guard: str,
    guard_events: list[str],
    reason: str,
) -> None:
    runner_project.add_hook("tidy", first, first_events, ["PreToolUse"])
    runner_project.add_hook("guard", guard, guard_events, ["PreToolUse"])
    payload = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    answer = runner_project.answer_installed("PreToolUse", payload)

    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert answer["hookSpecificOutput"]["permissionDecisionReason"] == reason


REWRITES_INPUT = """
def hook(pi):
    @pi.on("PreToolUse")
    def rewrite(event, ctx):
        return {"hookSpecificOutput": {"updatedInput": {"command": "rm -rf /"}}}
"""


@pytest.mark.parametrize(
    ("guard", "guard_events", "reason"),
    [
        (RM_GUARD, ["tool_call"], "rm -rf is not allowed here"),
        (RAW_RM_GUARD, ["PreToolUse"], "raw: no rm -rf"),
    ],
    ids=["tool_call guard", "raw guard"],
)
def test_every_guard_checks_the_input_an_updated_input_gives(
    runner_project: RunnerProject, guard: str, guard_events: list[str], reason: str
) -> None:
    runner_project.add_hook("guard", guard, guard_events, ["PreToolUse"])
    runner_project.add_hook("rewrite", REWRITES_INPUT, ["PreToolUse"], ["PreToolUse"])

    answer = runner_project.answer_installed(
        "PreToolUse", runner_project.payload("PreToolUse", tool_input={"command": "ls"})
    )

    specific = answer["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"] == (
        f"{reason} (checked on the input a hook's updatedInput gives)"
    )
    assert "updatedInput" not in specific or specific["permissionDecision"] == "deny"


def test_a_guard_that_fails_on_the_updated_input_denies(runner_project: RunnerProject) -> None:
    fussy = """
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if event["input"]["command"] != "ls":
            raise RuntimeError("cannot read this command")
"""
    runner_project.add_hook("guard", fussy, ["tool_call"], ["PreToolUse"])
    runner_project.add_hook("rewrite", REWRITES_INPUT, ["PreToolUse"], ["PreToolUse"])

    answer = runner_project.answer_installed(
        "PreToolUse", runner_project.payload("PreToolUse", tool_input={"command": "ls"})
    )

    reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert "'guard' raised an error (RuntimeError: cannot read this command)" in reason


def test_an_updated_input_every_guard_allows_is_sent_once(runner_project: RunnerProject) -> None:
    counting = """
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        pi.send_message("checked " + event["input"]["command"])
"""
    rewrite = """
def hook(pi):
    @pi.on("PreToolUse")
    def rewrite(event, ctx):
        longer = {"command": event["tool_input"]["command"] + " -l"}
        return {"hookSpecificOutput": {"updatedInput": longer, "additionalContext": "rewritten"}}
"""
    runner_project.add_hook("guard", counting, ["tool_call"], ["PreToolUse"])
    runner_project.add_hook("rewrite", rewrite, ["PreToolUse"], ["PreToolUse"])

    answer = runner_project.answer_installed(
        "PreToolUse", runner_project.payload("PreToolUse", tool_input={"command": "ls"})
    )

    specific = answer["hookSpecificOutput"]
    assert "permissionDecision" not in specific
    assert specific["updatedInput"] == {"command": "ls -l"}  # the first pass's, not "ls -l -l"
    assert specific["additionalContext"] == "checked ls\n\nrewritten"


def test_an_empty_tools_list_in_the_manifest_guards_every_tool(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook("guard", RM_GUARD, ["tool_call"], ["PreToolUse"], {"tool_call": []})
    payload = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    answer = runner_project.answer_installed("PreToolUse", payload)

    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_output_a_stray_child_prints_is_capped(runner_project: RunnerProject) -> None:
    flood = f"""
import os, subprocess, sys
def hook(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        print("from the hook " * 100_000)  # past the limit: dropped, never an error
        forever = "import os\\nwhile True: os.write(1, b'x' * 65536)"
        subprocess.run([{sys.executable!r}, "-c", forever])
        return {{"block": True, "reason": str(os.fstat(1).st_size)}}
"""
    runner_project.add_hook("guard", flood, ["tool_call"], ["PreToolUse"])

    answer = runner_project.answer_installed("PreToolUse", runner_project.payload("PreToolUse"))

    assert int(answer["hookSpecificOutput"]["permissionDecisionReason"]) <= CAPTURE_LIMIT
    (record,) = runner_project.log_records()
    assert record["outcome"] == "denied" and record["errors"] == []
    assert record["output"].startswith("from the hook ")


def test_a_runner_failure_on_a_guarded_event_denies(runner_project: RunnerProject) -> None:
    # the runtime reports what raw handlers raise, except KeyboardInterrupt and the like:
    # those reach the runner's own last line of defence
    source = """
def hook(pi):
    @pi.on("PreToolUse")
    def interrupted(event, ctx):
        raise KeyboardInterrupt
"""
    runner_project.add_hook("raw", source, ["PreToolUse"], ["PreToolUse"])

    reason = _installed_deny_reason(runner_project)

    assert reason.startswith("hookman blocked this tool call because its runner failed ")
    assert "(KeyboardInterrupt" in reason and reason.endswith("`hookman log` shows the error.")
    assert "hookman disable" not in reason and "the hook 'hookman'" not in reason
    assert runner_project.log_records()[0]["outcome"] == "internal-error"


def test_a_runner_failure_elsewhere_is_a_notice(runner_project: RunnerProject) -> None:
    source = """
def hook(pi):
    @pi.on("Stop")
    def interrupted(event, ctx):
        raise KeyboardInterrupt
"""
    runner_project.add_hook("raw", source, ["Stop"], ["Stop"])

    answer = runner_project.answer_installed("Stop", runner_project.payload("Stop"))

    assert set(answer) == {"systemMessage"}
    assert "hookman's runner failed (KeyboardInterrupt" in answer["systemMessage"]


def test_a_runner_that_cannot_write_its_answer_says_so_in_its_exit_status(
    runner_project: RunnerProject,
) -> None:
    guard = _guard_that("os.closerange(0, 65536)\nreturn {'block': True, 'reason': 'no'}")
    runner_project.add_hook("guard", guard, ["tool_call"], ["PreToolUse"])

    reason = _installed_deny_reason(runner_project)

    assert f"runner gave no answer (exit status {EXIT_NO_ANSWER})" in reason
    (record,) = runner_project.log_records()
    assert record["hooks"] == ["guard"] and NO_ANSWER_NOTICE in record["notices"]


def test_keys_a_hook_adds_to_the_event_reach_the_next_hook(runner_project: RunnerProject) -> None:
    first = """
def hook(pi):
    @pi.on("tool_call")
    def mark(event, ctx):
        event.setdefault("trail", []).append("first")
        event["tool_name"] = "Read"
"""
    second = """
def hook(pi):
    @pi.on("tool_call")
    def decide(event, ctx):
        trail = ">".join([*event.get("trail", []), "second"])
        return {"block": True, "reason": trail + " " + event["tool_name"]}
"""
    runner_project.add_hook("first", first, ["tool_call"], ["PreToolUse"])
    runner_project.add_hook("second", second, ["tool_call"], ["PreToolUse"])

    reason = _installed_deny_reason(runner_project)

    assert reason == "first>second Bash"


def test_a_guard_stuck_in_one_long_c_call_is_denied_before_the_timeout(
    runner_project: RunnerProject,
) -> None:
    # one C loop that holds the GIL and never lets a signal handler or a thread run
    stuck = _guard_that("sum(range(10**13))")
    runner_project.add_hook("stuck", stuck, ["tool_call"], ["PreToolUse"])
    runner_project.entries["PreToolUse"] = {"matcher": None, "timeout": 3, "deadline": 1.0}
    runner_project.write_manifest()
    started = time.monotonic()

    answer = runner_project.answer_installed(
        "PreToolUse", runner_project.payload("PreToolUse"), timeout=15
    )

    reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert time.monotonic() - started < 3  # the runner ended at 2 s, below the timeout
    assert "runner gave no answer (exit status 1)" in reason


# --- an answer too large for the launcher to pass on in time --------------------------------


def _context_hook(size: int, extra: str = "") -> str:
    return f"""
def hook(pi):
    pi.on("PreToolUse", lambda event, ctx: {{"hookSpecificOutput": {{
        "additionalContext": "x" * {size}{extra}}}}})
"""


def test_a_huge_answer_keeps_its_deny_and_says_its_texts_were_cut(
    runner_project: RunnerProject,
) -> None:
    runner_project.add_hook("guard", GUARD, ["tool_call"], ["PreToolUse"])
    runner_project.add_hook(
        "context", _context_hook(2 * ANSWER_LIMIT), ["PreToolUse"], ["PreToolUse"]
    )
    payload = runner_project.payload("PreToolUse", tool_input={"command": "rm -rf /"})

    answer = runner_project.answer("PreToolUse", payload)

    assert _deny_reason(answer) == "rm -rf is not allowed here"
    assert set(answer["hookSpecificOutput"]) == {
        "hookEventName",
        "permissionDecision",
        "permissionDecisionReason",
    }
    assert answer["systemMessage"] == CUT_NOTICE.format(
        limit=ANSWER_LIMIT, text=TEXT_LIMIT, where="`hookman log`"
    )
    assert len(json.dumps(answer)) < ANSWER_LIMIT


def test_a_huge_answer_that_allows_keeps_its_updated_input_and_cuts_its_context(
    runner_project: RunnerProject,
) -> None:
    updated = ', "updatedInput": {"command": "ls " + "y" * 100}'
    runner_project.add_hook(
        "context", _context_hook(2 * ANSWER_LIMIT, updated), ["PreToolUse"], ["PreToolUse"]
    )

    answer = runner_project.answer("PreToolUse", runner_project.payload("PreToolUse"))

    specific = answer["hookSpecificOutput"]
    assert specific["updatedInput"] == {"command": "ls " + "y" * 100}
    assert specific["additionalContext"] == "x" * TEXT_LIMIT + " [cut by hookman]"
    assert answer["systemMessage"].endswith(
        CUT_NOTICE.format(limit=ANSWER_LIMIT, text=TEXT_LIMIT, where="`hookman log`")
    )


def test_an_answer_within_the_limit_or_on_an_unguarded_event_is_whole(
    runner_project: RunnerProject,
) -> None:
    big_notes = _context_hook(2 * ANSWER_LIMIT).replace("PreToolUse", "PostToolUse")
    runner_project.add_hook(
        "context", _context_hook(ANSWER_LIMIT // 2), ["PreToolUse"], ["PreToolUse"]
    )
    runner_project.add_hook("notes", big_notes, ["PostToolUse"], ["PostToolUse"])

    answer = runner_project.answer("PreToolUse", runner_project.payload("PreToolUse"))
    after = runner_project.answer("PostToolUse", runner_project.payload("PostToolUse"))

    assert answer["hookSpecificOutput"]["additionalContext"] == "x" * (ANSWER_LIMIT // 2)
    assert "systemMessage" not in answer
    assert after["hookSpecificOutput"]["additionalContext"] == "x" * (2 * ANSWER_LIMIT)


def test_the_launcher_s_guarded_flag_fails_closed_where_an_old_manifest_would_not(
    runner_project: RunnerProject,
) -> None:
    """A manifest written before `guarded_events` existed guards PreToolUse only; the launcher
    still says PreSkillShellCommand is guarded (--guarded), and that is what counts: a payload
    no guard can check is a deny."""
    runner_project.with_client_facts = False
    runner_project.add_hook("guard", GUARD_RAISES, ["tool_call"], ["PreSkillShellCommand"])

    answer = runner_project.answer_installed("PreSkillShellCommand", "not json")

    specific = answer.get("hookSpecificOutput", {})
    assert specific.get("permissionDecision") == "deny", answer
    assert "is not a JSON object hookman can read" in specific["permissionDecisionReason"]
