"""The same Python hooks guard Codex CLI, proven in the real `codex` binary (two pinned
versions), offline against a mock Responses API, installed by `hookman install --agent codex`
(which also records Codex's trust in hookman's entries through its app server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .codex_harness import CodexProject
from .mock_anthropic import Text, ToolUse, bash, say
from .mock_openai import RecordedRequest, shell, typed_into_session

pytestmark = pytest.mark.e2e

# Codex itself rejects `rm -rf` ("rm -f style commands are not permitted", measured on
# 0.171.0 with no hook at all), so each test also runs a command only the guard stops.
GUARD = """
def guard(event, ctx):
    command = event["input"].get("command", "")
    if "rm -rf" in command:
        return {"block": True, "reason": "GUARD-E2E: rm -rf is not allowed here"}
    if "BLOCK-ME" in command:
        return {"block": True, "reason": "GUARD-E2E: not this one"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

CONTEXT = """
def session(event, ctx):
    return {"hookSpecificOutput": {"hookEventName": "SessionStart",
                                   "additionalContext": "CTX-SESSION-E2E"}}


def prompt(event, ctx):
    return {"message": {"customType": "notes", "content": "CTX-PROMPT-E2E"}}


def hook(pi):
    pi.on("SessionStart", session)
    pi.on("before_agent_start", prompt)
"""


def order_hook(tag: str) -> str:
    return f"""
import os


def note(event, ctx):
    with open(os.path.join({str(Path("."))!r}, "order.log"), "a") as log:
        log.write("{tag}\\n")


def hook(pi):
    pi.on("tool_call", note, tools=["Bash"])
"""


def install(e2e: CodexProject, *hooks: str) -> str:
    done = e2e.hookman("install", *hooks, "--agent", "codex")
    return done.stdout


def test_rm_rf_is_denied_and_the_model_reads_why(codex_e2e: CodexProject) -> None:
    e2e = codex_e2e
    out = install(e2e, e2e.write_hook("guard", GUARD))
    assert "trusted in Codex: " in out, out
    victim = e2e.root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep")
    run = e2e.run_codex(
        "clean up",
        turns=[
            shell("rm -rf victim"),
            shell("echo BLOCK-ME > blocked.txt"),
            shell("echo harmless > ok.txt"),
            say("done"),
        ],
    )
    outputs = run.tool_outputs()
    assert (victim / "keep.txt").exists(), run.describe()
    assert outputs[0] == (
        "Command blocked by PreToolUse hook: GUARD-E2E: rm -rf is not allowed here. "
        "Command: rm -rf victim"
    ), run.describe()
    assert not (e2e.root / "blocked.txt").exists(), run.describe()
    assert outputs[1].startswith("Command blocked by PreToolUse hook: GUARD-E2E: not this one")
    assert (e2e.root / "ok.txt").read_text() == "harmless\n", run.describe()
    assert not any("hookman-run.sh" in text for text in outputs)


def test_context_reaches_the_model(codex_e2e: CodexProject) -> None:
    e2e = codex_e2e
    install(e2e, e2e.write_hook("context", CONTEXT))
    run = e2e.run_codex("hello", turns=[say("hi")])
    assert run.requests, run.describe()
    developer = run.requests[0].developer_texts()
    # Each context is a developer message of its own, holding exactly the text.
    assert "CTX-SESSION-E2E" in developer, developer
    assert "CTX-PROMPT-E2E" in developer, developer


def test_two_hooks_on_one_event_run_in_order(codex_e2e: CodexProject) -> None:
    e2e = codex_e2e
    first = e2e.write_hook("first", order_hook("first"))
    second = e2e.write_hook("second", order_hook("second"))
    install(e2e, first, second)
    hooks_file = json.loads(e2e.hooks_path.read_text())
    assert len(hooks_file["hooks"]["PreToolUse"]) == 1  # one ordered runner per event
    for _ in range(3):
        e2e.run_codex("go", turns=[shell("true"), say("done")])
    assert (e2e.root / "order.log").read_text() == "first\nsecond\n" * 3


@pytest.mark.parametrize("breakage", ["launcher deleted", "runner python gone"])
def test_a_broken_install_still_denies(codex_e2e: CodexProject, breakage: str) -> None:
    e2e = codex_e2e
    install(e2e, e2e.write_hook("guard", GUARD))
    command = json.loads(e2e.hooks_path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]
    launcher = Path(command["command"].split("[ -f ")[1].split(" ]")[0].strip("'"))
    if breakage == "launcher deleted":
        launcher.unlink()
    else:
        text = launcher.read_text()
        gone = e2e.scratch / "python-gone"
        line = next(line for line in text.splitlines() if line.startswith("python="))
        launcher.write_text(text.replace(line, f"python={gone}"))
    run = e2e.run_codex("note", turns=[shell("echo BLOCK-ME > made.txt"), say("done")])
    assert not (e2e.root / "made.txt").exists(), run.describe()
    assert run.tool_outputs()[0].startswith("Command blocked by PreToolUse hook: "), run.describe()
    expected = "hookman" if breakage == "launcher deleted" else "runner gave no answer"
    assert expected in run.tool_outputs()[0], run.describe()


ASKING = """
def ask(event, ctx):
    if "BLOCK-ME" in event["tool_input"].get("command", ""):
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                       "permissionDecision": "ask",
                                       "permissionDecisionReason": "ASK-E2E"},
                "suppressOutput": True}


def hook(pi):
    pi.on("PreToolUse", ask, tools=["Bash"])
"""


def test_an_ask_which_codex_would_ignore_becomes_a_deny(codex_e2e: CodexProject) -> None:
    e2e = codex_e2e
    install(e2e, e2e.write_hook("ask", ASKING))
    run = e2e.run_codex("note", turns=[shell("echo BLOCK-ME > made.txt"), say("done")])
    assert not (e2e.root / "made.txt").exists(), run.describe()
    assert "ASK-E2E" in run.tool_outputs()[0], run.describe()


@pytest.mark.parametrize(
    "answer",
    [
        {"permissionDecision": "ask", "permissionDecisionReason": "FACT"},
        {"permissionDecision": "deny", "permissionDecisionReason": "FACT", "x": 1},
        {"permissionDecision": "deny", "permissionDecisionReason": ""},
    ],
    ids=["ask", "deny-with-unknown-key", "deny-with-empty-reason"],
)
def test_fact_codex_fails_open_on_answers_it_does_not_honour(
    codex_e2e: CodexProject, answer: dict[str, object]
) -> None:
    """Why the runner answers Codex with its honoured fields only (bridge/codex_answer.py):
    a raw hook (no hookman) giving these answers does not stop the command."""
    e2e = codex_e2e
    reply = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", **answer}})
    command = f"cat >/dev/null; printf '%s\\n' '{reply}'"
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 10}]}
    e2e.hooks_path.parent.mkdir(exist_ok=True)
    e2e.hooks_path.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    run = e2e.run_codex(
        "note",
        turns=[shell("echo ran > ran.txt"), say("done")],
        extra_args=["--dangerously-bypass-hook-trust"],
    )
    assert (e2e.root / "ran.txt").read_text() == "ran\n", run.describe()


def test_the_same_hookman_toml_drives_claude_code_too(
    codex_e2e: CodexProject, claude_client: object, mock_api: object, network_isolation: object
) -> None:
    from .harness import DEFAULT_CLIENT_VERSIONS

    if getattr(claude_client, "version", None) != DEFAULT_CLIENT_VERSIONS[-1]:
        pytest.skip("one Claude Code version is enough beside each Codex version")
    e2e = CodexProject(
        codex_e2e.codex,
        codex_e2e.openai,
        network_isolation,  # type: ignore[arg-type]
        codex_e2e.root.parent / "both",
        claude=claude_client,
        claude_mock=mock_api,
    )
    install(e2e, e2e.write_hook("guard", GUARD))
    config = (e2e.root / ".claude" / "hookman.toml").read_text()
    assert 'agents = ["claude", "codex"]' in config
    (e2e.root / "victim").mkdir()
    codex_run = e2e.run_codex("note", turns=[shell("echo BLOCK-ME > made.txt"), say("done")])
    assert not (e2e.root / "made.txt").exists(), codex_run.describe()
    assert "GUARD-E2E" in codex_run.tool_outputs()[0], codex_run.describe()
    claude_run = e2e.run_claude("clean up", turns=[bash("rm -rf victim"), say("done")])
    assert (e2e.root / "victim").exists(), claude_run.describe()
    assert any("GUARD-E2E" in text for text in claude_run.tool_result_texts()), (
        claude_run.describe()
    )


TURN_HOOKS = """
import os


def post(event, ctx):
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                   "additionalContext": "CTX-POST-E2E"}}


def stop(event, ctx):
    marker = os.path.join(ctx.cwd, "stopped-once")
    if os.path.exists(marker):
        return None
    open(marker, "w").close()
    return {"decision": "block", "reason": "STOP-E2E: run the tests first"}


def hook(pi):
    pi.on("PostToolUse", post, tools=["Bash"])
    pi.on("Stop", stop)
"""


def test_post_tool_use_context_and_a_stop_block_reach_the_model(
    codex_e2e: CodexProject,
) -> None:
    e2e = codex_e2e
    install(e2e, e2e.write_hook("turns", TURN_HOOKS))
    run = e2e.run_codex("go", turns=[shell("echo hi"), say("done"), say("tests ran")])
    texts = [text for request in run.requests for text in request.developer_texts()]
    assert "CTX-POST-E2E" in texts, run.describe()
    assert len(run.requests) == 3, run.describe()  # the Stop block made Codex go on
    assert run.requests[2].text().count("STOP-E2E: run the tests first") >= 1, run.describe()


def test_codex_does_not_wait_for_an_async_hook(codex_e2e: CodexProject) -> None:
    from .test_async import GIVE_UP_SECONDS, MARKER, RELEASE, SLOW_NOTIFIER, _wait_for

    e2e = codex_e2e
    notifier = SLOW_NOTIFIER.replace('os.environ["CLAUDE_PROJECT_DIR"]', "ctx.cwd")
    e2e.hookman("install", "--async", e2e.write_hook("notifier", notifier), "--agent", "codex")
    post = json.loads(e2e.hooks_path.read_text())["hooks"]["PostToolUse"]
    assert "--async" in post[0]["hooks"][0]["command"] and "async" not in post[0]["hooks"][0]
    marker = e2e.root / MARKER
    run = e2e.run_codex("go", turns=[shell("echo async-e2e"), say("done")])
    finished_before_the_hook = not marker.exists()  # the hook is still waiting for RELEASE
    (e2e.root / RELEASE).write_text("go\n", encoding="utf-8")
    assert run.returncode == 0, run.describe()
    assert finished_before_the_hook, "Codex waited for the async hook"
    assert "ASYNC-REWRITE" not in run.tool_outputs()[0], run.describe()
    assert _wait_for(marker, GIVE_UP_SECONDS + 60), "the async hook never ran to its end"
    assert marker.read_text(encoding="utf-8") == "echo async-e2e released\n"


TERMINAL = ToolUse("exec_command", {"cmd": "bash", "tty": True, "yield_time_ms": 500})
TYPED = "echo BLOCK-ME > made.txt; rm -rf victim; exit\n"


def test_fact_codex_runs_no_hook_for_what_the_model_types_into_a_terminal(
    codex_e2e: CodexProject,
) -> None:
    """Why install and list tell a shell guard what it cannot see under Codex
    (agents/codex_sync.py): the guard allows `bash` in a terminal, and what the model then
    types into it (write_stdin) reaches no hook at all."""
    e2e = codex_e2e
    out = install(e2e, e2e.write_hook("guard", GUARD))
    assert "write_stdin" in " ".join(out.split()), out
    (e2e.root / "victim").mkdir()
    run = e2e.run_codex("go", turns=[[TERMINAL], typed_into_session(TYPED), say("done")])
    assert (e2e.root / "made.txt").exists(), run.describe()
    assert not (e2e.root / "victim").exists(), run.describe()


def test_codex_0_171_refuses_terminals_when_told(codex_e2e: CodexProject) -> None:
    """The way out install names: `[features] unified_exec_tty = false` (Codex 0.171.0)."""
    e2e = codex_e2e
    if e2e.codex.version != "0.171.0":
        pytest.skip("0.150.0 has no unified_exec_tty feature")
    install(e2e, e2e.write_hook("guard", GUARD))
    (e2e.root / "victim").mkdir()
    run = e2e.run_codex(
        "go",
        turns=[[TERMINAL], typed_into_session(TYPED), say("done")],
        extra_args=["-c", "features.unified_exec_tty=false"],
    )
    assert "TTY execution is disabled" in run.tool_outputs()[0], run.describe()
    assert (e2e.root / "victim").exists() and not (e2e.root / "made.txt").exists()


SLOW_GUARD = """
import time


def guard(event, ctx):
    if "BLOCK-ME" in event["input"].get("command", ""):
        time.sleep(30)
        return {"block": True, "reason": "GUARD-E2E: slow no"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""


def test_fact_codex_runs_the_command_when_a_hook_passes_its_timeout(
    codex_e2e: CodexProject,
) -> None:
    """Why the runner reads the timeout of its entry in .codex/hooks.json (a raw hook that
    would deny, too late)."""
    e2e = codex_e2e
    reply = json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "LATE",
            }
        }
    )
    command = f"cat >/dev/null; sleep 6; printf '%s\\n' '{reply}'"
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 2}]}
    e2e.hooks_path.parent.mkdir(exist_ok=True)
    e2e.hooks_path.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    run = e2e.run_codex(
        "note",
        turns=[shell("echo ran > ran.txt"), say("done")],
        extra_args=["--dangerously-bypass-hook-trust"],
    )
    assert (e2e.root / "ran.txt").read_text() == "ran\n", run.describe()


def test_a_codex_timeout_lowered_by_hand_still_ends_in_a_deny(codex_e2e: CodexProject) -> None:
    """The user lowers the timeout of hookman's entry in .codex/hooks.json and trusts the
    edit in Codex (here: --dangerously-bypass-hook-trust): the slow guard still denies,
    because the runner gives up before Codex's kill."""
    e2e = codex_e2e
    install(e2e, e2e.write_hook("guard", SLOW_GUARD))
    hooks_file = json.loads(e2e.hooks_path.read_text())
    hooks_file["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 5
    e2e.hooks_path.write_text(json.dumps(hooks_file))
    run = e2e.run_codex(
        "note",
        turns=[shell("echo BLOCK-ME > made.txt"), say("done")],
        extra_args=["--dangerously-bypass-hook-trust"],
    )
    assert not (e2e.root / "made.txt").exists(), run.describe()
    assert run.tool_outputs()[0].startswith("Command blocked by PreToolUse hook: "), run.describe()
    assert "deadline of 4 s" in run.tool_outputs()[0], run.describe()


_ALLOW = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
FOREIGN_ANSWERS = {
    "exit 1": "cat >/dev/null; exit 1",
    "an allow": f"cat >/dev/null; printf '%s\\n' '{json.dumps(_ALLOW)}'",
    "an ask": "cat >/dev/null; printf '%s\\n' '"
    + json.dumps(
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}
    )
    + "'",
    "junk": "cat >/dev/null; echo junk",
}


@pytest.mark.parametrize("foreign", FOREIGN_ANSWERS.values(), ids=list(FOREIGN_ANSWERS))
def test_a_foreign_hook_beside_hookman_s_cannot_undo_its_deny(
    codex_e2e: CodexProject, foreign: str
) -> None:
    """Codex runs matching hooks at once; whatever a foreign one answers on the same event,
    hookman's deny holds (measured on both versions)."""
    e2e = codex_e2e
    install(e2e, e2e.write_hook("guard", GUARD))
    hooks_file = json.loads(e2e.hooks_path.read_text())
    handler = {"type": "command", "command": foreign, "timeout": 10}
    hooks_file["hooks"]["PreToolUse"].append({"matcher": "Bash", "hooks": [handler]})
    e2e.hooks_path.write_text(json.dumps(hooks_file))
    run = e2e.run_codex(
        "note",
        turns=[shell("echo BLOCK-ME > made.txt"), say("done")],
        extra_args=["--dangerously-bypass-hook-trust"],
    )
    assert not (e2e.root / "made.txt").exists(), run.describe()
    assert "GUARD-E2E: not this one" in run.tool_outputs()[0], run.describe()


def test_fact_what_a_hook_learns_of_the_directory_a_command_runs_in(
    codex_e2e: CodexProject,
) -> None:
    """exec_command takes a `workdir`; hooks get only `{"command": ...}`, and `cwd` is that
    workdir on 0.171.0 but the session's directory on 0.150.0 (docs/agents.md): there a
    guard cannot tell where the command runs."""
    e2e = codex_e2e
    (e2e.root / "sub").mkdir()
    command = f"cat > {e2e.root}/payload.json; printf '{{}}\\n'"
    group = {"hooks": [{"type": "command", "command": command, "timeout": 10}]}
    e2e.hooks_path.parent.mkdir(exist_ok=True)
    e2e.hooks_path.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    call = ToolUse("exec_command", {"cmd": "pwd > here.txt", "workdir": str(e2e.root / "sub")})
    run = e2e.run_codex(
        "note", turns=[[call], say("done")], extra_args=["--dangerously-bypass-hook-trust"]
    )
    payload = json.loads((e2e.root / "payload.json").read_text())
    assert (e2e.root / "sub" / "here.txt").exists(), run.describe()
    assert payload["tool_input"] == {"command": "pwd > here.txt"}
    expected = e2e.root / "sub" if e2e.codex.version == "0.171.0" else e2e.root
    assert Path(payload["cwd"]) == expected


def test_a_patch_through_the_shell_tool_reaches_the_guard(codex_e2e: CodexProject) -> None:
    """Codex applies an `apply_patch <<'EOF'` command itself; its hooks still see it as
    `Bash` with the whole patch as the command, so the guard decides (measured)."""
    e2e = codex_e2e
    install(e2e, e2e.write_hook("guard", GUARD))
    (e2e.root / "doomed.txt").write_text("x\n")
    patch = (
        "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: doomed.txt\n"
        "*** Add File: BLOCK-ME.txt\n+x\n*** End Patch\nEOF\n"
    )
    run = e2e.run_codex("note", turns=[shell(patch), say("done")])
    assert (e2e.root / "doomed.txt").exists(), run.describe()
    assert not (e2e.root / "BLOCK-ME.txt").exists(), run.describe()
    assert "GUARD-E2E: not this one" in run.tool_outputs()[0], run.describe()


def test_fact_codex_runs_hooks_with_bash_and_ignores_a_silent_exit_2(
    codex_e2e: CodexProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex runs a hook's command with `/bin/bash -c` whatever $SHELL says, and an exit 2
    with nothing on stderr lets the command run (tests/bridge/test_attack_codex.py's
    verdict rules)."""
    e2e = codex_e2e
    environment = e2e.env
    monkeypatch.setattr(e2e, "env", lambda: {**environment(), "SHELL": "/bin/dash"})
    command = f'cat >/dev/null; echo "$0" > {e2e.root}/shell.txt; exit 2'
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 10}]}
    e2e.hooks_path.parent.mkdir(exist_ok=True)
    e2e.hooks_path.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    run = e2e.run_codex(
        "note",
        turns=[shell("echo ran > ran.txt"), say("done")],
        extra_args=["--dangerously-bypass-hook-trust"],
    )
    assert (e2e.root / "shell.txt").read_text() == "/bin/bash\n", run.describe()
    assert (e2e.root / "ran.txt").read_text() == "ran\n", run.describe()


def test_a_sub_agent_s_shell_command_meets_the_same_guard(codex_e2e: CodexProject) -> None:
    """The model spawns a sub-agent (multi_agent_v1.spawn_agent) whose shell command only
    the guard stops: Codex runs the project's hooks for it too (measured)."""
    e2e = codex_e2e
    install(e2e, e2e.write_hook("guard", GUARD))
    sub_outputs: list[str] = []

    def router(request: RecordedRequest) -> list[ToolUse | Text]:
        users = [json.dumps(item) for item in request.input_items if item.get("role") == "user"]
        outputs = [
            str(item.get("output"))
            for item in request.input_items
            if item.get("type") == "function_call_output"
        ]
        if any("SUBTASK-E2E" in text for text in users):  # the sub-agent's requests
            sub_outputs.extend(outputs)
            return shell("echo BLOCK-ME > made.txt") if not outputs else [Text("sub done")]
        if not outputs:
            return [ToolUse("multi_agent_v1.spawn_agent", {"message": "SUBTASK-E2E: go"})]
        if len(outputs) == 1:
            agent = json.loads(outputs[0])["agent_id"]
            wait = {"targets": [agent], "timeout_ms": 30000}
            return [ToolUse("multi_agent_v1.wait_agent", wait)]
        return [Text("done")]

    run = e2e.run_codex("go", router=router)
    assert not (e2e.root / "made.txt").exists(), run.describe()
    assert any("GUARD-E2E: not this one" in text for text in sub_outputs), run.describe()


_FACT_DENY = json.dumps(
    {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "FACT-DENY",
        }
    }
)


@pytest.mark.parametrize(
    ("shape", "command", "runs"),
    [
        # Exit 2, the JSON deny on stdout, nothing on stderr: the command runs.
        ("exit-2-json-stdout-empty-stderr", f"printf '%s\\n' '{_FACT_DENY}'; exit 2", True),
        # Exit 0, one JSON deny on stdout, text on stderr: denied.
        ("exit-0-json-stdout-text-stderr", f"printf '%s\\n' '{_FACT_DENY}'; echo t >&2", False),
        # Exit 2, a reason on stderr, junk on stdout: denied.
        ("exit-2-stderr-junk-stdout", "echo junk; echo FACT-DENY >&2; exit 2", False),
        # Exit 2, the JSON deny on stderr, stdout empty: denied.
        ("exit-2-json-stderr", f"printf '%s\\n' '{_FACT_DENY}' >&2; exit 2", False),
    ],
    ids=lambda value: value if isinstance(value, str) and value.startswith("exit") else "",
)
def test_fact_which_answer_channels_codex_honours(
    codex_e2e: CodexProject, shape: str, command: str, runs: bool
) -> None:
    """What Codex does with each channel hookman's launcher may answer on when a start-up
    file (BASH_ENV) took fd 1 or 2 (docs/agents.md records the results)."""
    e2e = codex_e2e
    full = f"cat >/dev/null; {command}"
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": full, "timeout": 10}]}
    e2e.hooks_path.parent.mkdir(exist_ok=True)
    e2e.hooks_path.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    run = e2e.run_codex(
        "note",
        turns=[shell("echo ran > ran.txt"), say("done")],
        extra_args=["--dangerously-bypass-hook-trust"],
    )
    assert (e2e.root / "ran.txt").exists() is runs, (shape, run.describe())


def test_fact_codex_makes_a_hook_s_pipes_in_order(codex_e2e: CodexProject) -> None:
    """Codex gives a hook three pipes made one after the other, stdin, stdout, stderr, so
    their inode numbers follow each other (Linux): when a start-up file made fds 1 and 2 one
    pipe, the runner tells which one by its number (bridge/answer_channel.py).

    Linux hands each CPU its own batch of 1024 inode numbers (get_next_ino), so when Codex's
    thread moves to the other CPU between two of its pipe() calls the numbers jump (seen in
    CI: 832, 833, 2197681). The hook fires four times: one consecutive triple proves the
    order; every fire's fds are pipes."""
    e2e = codex_e2e
    out = e2e.root / "inodes.txt"
    fds = "/proc/$$/fd/0 /proc/$$/fd/1 /proc/$$/fd/2"
    command = f"cat >/dev/null; stat -L -c '%F %i' {fds} | tr '\\n' ' ' >> {out}; echo >> {out}"
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 10}]}
    e2e.hooks_path.parent.mkdir(exist_ok=True)
    e2e.hooks_path.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    fires = 4
    run = e2e.run_codex(
        "note",
        turns=[*(shell(f"echo {n} >> ran.txt") for n in range(fires)), say("done")],
        extra_args=["--dangerously-bypass-hook-trust"],
    )
    triples = [line.split() for line in out.read_text().splitlines()]
    assert len(triples) == fires, (triples, run.describe())
    assert all(triple[0::2] == ["fifo"] * 3 for triple in triples), (triples, run.describe())
    numbers = [tuple(int(word) for word in triple[1::2]) for triple in triples]
    assert any(b == a + 1 and c == a + 2 for a, b, c in numbers), (numbers, run.describe())


@pytest.mark.parametrize(
    "start_up",
    [
        "exec 2>/dev/null",
        "exec 2>&1",
        "exec 1>&2",
        "exec 2>&-",
        "echo junk; BASH_XTRACEFD=1; set -x",
    ],
    ids=["2-null", "2-to-1", "1-to-2", "2-closed", "junk-and-trace-on-1"],
)
def test_a_guard_denies_past_a_hostile_bash_env(
    codex_e2e: CodexProject, monkeypatch: pytest.MonkeyPatch, start_up: str
) -> None:
    """A start-up file of Codex's `bash -c` that takes fd 1 or 2, or prints and traces on
    stdout: the guard's deny still reaches Codex (docs/agents.md, "The shell that runs a
    hook")."""
    e2e = codex_e2e
    install(e2e, e2e.write_hook("guard", GUARD))
    bash_env = e2e.root / "bash-env.sh"
    bash_env.write_text(start_up + "\n", encoding="utf-8")
    environment = e2e.env
    monkeypatch.setattr(e2e, "env", lambda: {**environment(), "BASH_ENV": str(bash_env)})
    run = e2e.run_codex("note", turns=[shell("echo BLOCK-ME > blocked.txt"), say("done")])
    assert not (e2e.root / "blocked.txt").exists(), run.describe()


WRITE_GUARD = """
def hook(pi):
    pi.on("tool_call", lambda event, ctx: {"block": True, "reason": "GUARD-E2E: no writes"},
          tools=["Write", "Edit"])
"""


def test_fact_the_tool_names_codex_s_hooks_receive(codex_e2e: CodexProject) -> None:
    """The tools Codex offers its model and the name each reaches hooks under, as the
    catalog records them (codex_events.json "hook_tools"): exec_command as `Bash`, the
    others under their own names; none of Claude Code's file tools, so a guard hookman
    wired for `Write|Edit` never runs while Codex writes a file (through its shell)."""
    from hookman.catalog.codex_catalog import codex_catalog, never_sent_tools

    facts = codex_catalog()["hook_tools"]
    e2e = codex_e2e
    install(e2e, e2e.write_hook("wguard", WRITE_GUARD))
    kept = e2e.root / "payloads.jsonl"
    command = f"cat >> {kept}; echo >> {kept}; printf '{{}}\\n'"
    hooks = json.loads(e2e.hooks_path.read_text())
    hooks["hooks"]["PreToolUse"].append({"hooks": [{"type": "command", "command": command}]})
    e2e.hooks_path.write_text(json.dumps(hooks))
    calls = [ToolUse("view_image", {"path": str(e2e.root / "a.txt")}), ToolUse("get_goal", {})]
    run = e2e.run_codex(
        "note",
        turns=[shell("echo secret > a.txt"), *[[call] for call in calls], say("done")],
        extra_args=["--dangerously-bypass-hook-trust"],
    )
    offered = [str(tool.get("name") or tool.get("type")) for tool in run.requests[0].body["tools"]]
    assert offered == facts["offered"][e2e.codex.version]
    names = [json.loads(line)["tool_name"] for line in kept.read_text().split("\n") if line]
    assert names == list(facts["sent"].values()), run.describe()
    assert (e2e.root / "a.txt").read_text() == "secret\n", run.describe()
    assert never_sent_tools(["Write", "Edit"]) == ["Write", "Edit"]
    assert not set(never_sent_tools(offered + names))
