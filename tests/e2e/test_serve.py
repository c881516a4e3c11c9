"""The warm hook server (`hookman serve`, docs/serve.md) in the real clients: with the user
opted in, `hookman install` writes http entries that reach a server started with `hookman
serve start`; guards deny and the model reads why, context reaches the model in order; with
the server stopped, its child killed, hung past its deadline, the server killed mid-request,
or an impostor on its port, every guarded call is denied (or the prompt stopped) and the
model or the user reads why; observe-only events never block; a client without `onFailure`
(2.1.197) keeps command guards. What each client does with http entries:
docs/claude-code-facts.md, "HTTP hooks".

The default run drives the newest client in two sessions; HOOKMAN_E2E_SERVE_FULL=1 (CI's
second pass, .ci/run) adds 2.1.328, 2.1.197 and the slower cases."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import ClaudeRun, E2EProject
from .mock_anthropic import MockAnthropic, bash, say
from .serve_harness import (
    FULL,
    HookServer,
    Impostor,
    ImpostorOnceFree,
    client_or_skip,
    free_port,
    handlers,
    sentinels,
    serve_project,
)
from .test_async import GIVE_UP_SECONDS, MARKER, RELEASE, SLOW_NOTIFIER, _wait_for

pytestmark = pytest.mark.e2e

NEWEST = "2.1.332"
WITH_ON_FAILURE = (NEWEST, "2.1.328") if FULL else (NEWEST,)
full_only = pytest.mark.skipif(not FULL, reason="HOOKMAN_E2E_SERVE_FULL=1 runs it")

GUARD = """
import os
import signal
import time


def guard(event, ctx):
    command = event["input"].get("command", "")
    if "rm -rf" in command:
        return {"block": True, "reason": "SERVE-E2E: rm -rf is not allowed here"}
    if "die-now" in command:  # the server's child for this request dies
        os.kill(os.getpid(), signal.SIGKILL)
    if "freeze-now" in command:  # the child stops, its own watchdog with it
        os.kill(os.getpid(), signal.SIGSTOP)
    if "sleep-long" in command:  # the runner's own deadline in the child answers
        time.sleep(120)
    if "kill-server" in command:  # the server itself dies while this request waits
        os.kill(os.getppid(), signal.SIGKILL)
        time.sleep(3)
    if "claude-shape" in command:  # a result hookman does not understand
        return {"decision": "block", "reason": "no"}
    if "raise-now" in command:
        raise RuntimeError("SERVE-E2E-BUG")


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

# Two observe-only hooks on one event, in hookman.toml order, and SessionStart context.
FIRST_NOTE = """
def hook(pi):
    @pi.on("tool_result", tools=["Bash"])
    def note(event, ctx):
        pi.send_message("SERVE-ORDER-1 saw " + event["input"]["command"])

    @pi.on("session_start")
    def greet(event, ctx):
        pi.send_message("SERVE-SESSION-START context")
"""

SECOND_NOTE = """
def hook(pi):
    @pi.on("tool_result", tools=["Bash"])
    def note(event, ctx):
        pi.send_message("SERVE-ORDER-2 saw " + event["input"]["command"])
"""

# An observe-only hook that fails every way it can: the tool must run all the same.
BROKEN_OBSERVER = """
import os
import signal


def hook(pi):
    @pi.on("tool_result", tools=["Bash"])
    def note(event, ctx):
        command = event["input"]["command"]
        if "observer-dies" in command:
            os.kill(os.getpid(), signal.SIGKILL)
        if "observer-raises" in command:
            raise RuntimeError("SERVE-E2E observer bug")
        pi.send_message("SERVE-OBSERVED " + command)
"""

GUARD_REASON = "SERVE-E2E: rm -rf is not allowed here"
ON_FAILURE_BLOCK = 'blocking because onFailure is "block"'
KEPT_REASON = "because its hook server is not running"  # the port keeper's deny


def hookman_cli(*args: str) -> str:
    """A command line the model's Bash call runs: hookman, in the client's environment (its
    HOOKMAN_HOME, so this test's server)."""
    return " ".join([sys.executable, "-m", "hookman", *args])


@pytest.fixture
def served(
    request: pytest.FixtureRequest, mock_api: MockAnthropic, tmp_path: Path
) -> Iterator[tuple[E2EProject, HookServer]]:
    """A loopback project of the client named by the test's `version` parameter, its user
    opted in to the server on a free port; whatever server it has is stopped at the end."""
    e2e = serve_project(client_or_skip(request.param), mock_api, tmp_path)
    server = HookServer(e2e)
    server.enable()
    try:
        yield e2e, server
    finally:
        server.cleanup()


def versions(*chosen: str) -> pytest.MarkDecorator:
    return pytest.mark.parametrize(
        "served", chosen, ids=[f"claude-{v}" for v in chosen], indirect=True
    )


def install_guard_and_notes(e2e: E2EProject) -> None:
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    e2e.hookman("install", e2e.write_hook("first", FIRST_NOTE))
    e2e.hookman("install", e2e.write_hook("second", SECOND_NOTE))


def assert_guard_reaches_server(e2e: E2EProject) -> None:
    """The entries install wrote for a client with `onFailure`: the guard and the observers
    are http entries to the server (the guard blocking on failure), the prompt gate a
    command."""
    settings = e2e.settings()
    (guard,) = handlers(settings, "PreToolUse")
    assert guard["type"] == "http" and guard.get("onFailure") == "block", guard
    (sentinel,) = sentinels(settings, "PreToolUse")  # every other tool: always a command
    assert sentinel["type"] == "command", sentinel
    (observer,) = handlers(settings, "PostToolUse")
    assert observer["type"] == "http" and observer.get("onFailure") != "block", observer
    assert [h["type"] for h in handlers(settings, "UserPromptSubmit")] == ["command"]


def denied(run: ClaudeRun, index: int) -> str:
    """The text of the `index`th tool_result, which must be an error (the call was denied)."""
    result = run.tool_results()[index]
    assert result.get("is_error") is True, run.describe()
    return run.tool_result_texts()[index]


@versions(*WITH_ON_FAILURE)
def test_the_server_guards_and_informs_then_stopped_it_denies_every_guarded_call(
    served: tuple[E2EProject, HookServer],
) -> None:
    e2e, server = served
    install_guard_and_notes(e2e)
    assert_guard_reaches_server(e2e)
    pid = server.start()
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude(
        "tidy up",
        turns=[
            bash(f"rm -rf {victim}"),
            bash("echo die-now"),
            bash("ls"),
            bash(hookman_cli("serve", "stop")),
            bash(f"rm -rf {victim}"),
            bash("ls"),
            say("ok"),
        ],
    )

    assert run.returncode == 0, run.describe()
    texts = run.tool_result_texts()
    assert len(texts) == 6, run.describe()
    # With the server: the guard's deny, with its reason.
    assert GUARD_REASON in denied(run, 0), run.describe()
    # The server's child killed mid-request: the server's own deny names what happened.
    killed = denied(run, 1)
    assert "hook server" in killed and "SIGKILL" in killed, killed
    # A harmless call runs; both observers' context follows it, in hookman.toml order.
    assert "hooks" in texts[2].split(), run.describe()
    heard = run.all_message_text()
    assert "SERVE-SESSION-START context" in heard, run.describe()
    assert 0 <= heard.find("SERVE-ORDER-1 saw ls") < heard.find("SERVE-ORDER-2 saw ls")
    # The model stops the server; every guarded call after it is denied, the model told why:
    # hookman's port keeper answers for the stopped server (hookman/serve/keeper.py).
    assert f"pid {pid}" in texts[3], run.describe()
    for index in (4, 5):
        text = denied(run, index)
        assert KEPT_REASON in text and "hookman serve start" in text, text
    assert victim.is_dir()
    # Observe-only events after the stop (PostToolUse, Stop) were lost, never blocking.
    assert "SERVE-ORDER-1 saw " + hookman_cli("serve", "stop") not in heard
    assert not server.running()


@versions(NEWEST)
def test_an_impostor_on_the_port_stops_the_prompt_naming_it(
    served: tuple[E2EProject, HookServer],
) -> None:
    e2e, server = served
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    (guard,) = handlers(e2e.settings(), "PreToolUse")
    assert guard["type"] == "http" and guard.get("onFailure") == "block", guard
    victim = e2e.root / "victim"
    victim.mkdir()

    with Impostor(server.port) as impostor:
        run = e2e.run_claude("tidy up", turns=[bash(f"rm -rf {victim}"), say("ok")])

    stopped = run.stopped_by_hook()
    assert "another process" in stopped and str(server.port) in stopped, run.describe()
    assert "hookman serve status" in stopped
    assert run.main_requests == [], run.describe()
    assert victim.is_dir()
    assert impostor.requests and all("/v1/identity" in r for r in impostor.requests)
    # Nothing of the impostor's was taken for hookman's server: none was started over it.
    assert server.pid() is None


@full_only
@versions(*WITH_ON_FAILURE)
def test_hooks_hung_past_the_deadlines_are_denied_and_the_server_answers_on(
    served: tuple[E2EProject, HookServer],
) -> None:
    """A hook that sleeps: the runner's own deadline in the server's child denies naming it.
    A child that stops itself (SIGSTOP: its runner's timers stop with it): only the server's
    hard deadline (just below the entry's 30 s timeout) can answer."""
    e2e, server = served
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    server.start()

    run = e2e.run_claude(
        "go", turns=[bash("echo sleep-long"), bash("echo freeze-now"), bash("ls"), say("ok")]
    )

    assert run.returncode == 0, run.describe()
    slept = denied(run, 0)
    assert "guard" in slept and "did not finish within hookman's deadline" in slept, slept
    frozen = denied(run, 1)
    # The server's deny, or (on a machine too loaded to answer in the last 0.75 s) the
    # client's own timeout, which blocks as well: the call is denied either way.
    assert ("hook server" in frozen and "did not finish" in frozen) or (
        "timed out" in frozen and ON_FAILURE_BLOCK in frozen
    ), frozen
    assert "hooks" in run.tool_result_texts()[2].split(), run.describe()
    assert server.running()


@full_only
@versions(*WITH_ON_FAILURE)
def test_the_server_killed_mid_request_denies_and_the_next_prompt_starts_it_again(
    served: tuple[E2EProject, HookServer],
) -> None:
    e2e, server = served
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    first_pid = server.start()
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude(
        "go", turns=[bash("echo kill-server"), bash(f"rm -rf {victim}"), bash("ls"), say("ok")]
    )

    assert run.returncode == 0, run.describe()
    # The request under way when the server died fails (the client's onFailure denies it);
    # the calls after it are denied by hookman's port keeper, saying why.
    assert ON_FAILURE_BLOCK in denied(run, 0), run.describe()
    for index in (1, 2):
        text = denied(run, index)
        assert KEPT_REASON in text, text
    assert victim.is_dir()

    # The next prompt's gate finds the keeper on the port and starts the server, which takes
    # the port from it; the first guarded call may come before it answers (then the keeper
    # denies it).
    again = e2e.run_claude(
        "go on", turns=[bash("echo warming"), bash("ls"), bash(f"rm -rf {victim}"), say("ok")]
    )

    assert again.returncode == 0, again.describe()
    assert "hooks" in again.tool_result_texts()[1].split(), again.describe()
    assert GUARD_REASON in denied(again, 2)
    assert server.pid() not in (None, first_pid)
    assert victim.is_dir()


@full_only
@versions(*WITH_ON_FAILURE)
def test_the_runner_s_rules_hold_on_the_server_and_an_edited_hook_is_read_again(
    served: tuple[E2EProject, HookServer],
) -> None:
    """A result hookman does not understand and a guard that raises deny with the runner's
    own reasons; a hook edited while the server runs is the one that answers next."""
    e2e, server = served
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    server.start()

    run = e2e.run_claude("go", turns=[bash("echo claude-shape"), bash("echo raise-now"), say("ok")])

    assert run.returncode == 0, run.describe()
    shape = denied(run, 0)
    assert "fields a tool_call result does not have: 'decision'" in shape, shape
    assert "hookman disable guard" in shape, shape
    raised = denied(run, 1)
    assert "guard" in raised and "SERVE-E2E-BUG" in raised, raised

    e2e.write_hook("guard", GUARD.replace("SERVE-E2E: rm -rf", "SERVE-E2E-EDITED: rm -rf"))
    again = e2e.run_claude("go", turns=[bash("rm -rf nothing-here"), say("ok")])

    assert "SERVE-E2E-EDITED: rm -rf is not allowed here" in denied(again, 0), again.describe()
    assert server.running()


@full_only
@versions(*WITH_ON_FAILURE)
def test_observe_only_hooks_never_block_whatever_befalls_the_server(
    served: tuple[E2EProject, HookServer],
) -> None:
    e2e, server = served
    e2e.hookman("install", e2e.write_hook("observer", BROKEN_OBSERVER))
    (observer,) = handlers(e2e.settings(), "PostToolUse")
    assert observer["type"] == "http" and "onFailure" not in observer, observer
    assert handlers(e2e.settings(), "PreToolUse") == []
    server.start()

    run = e2e.run_claude(
        "go",
        turns=[
            bash("echo observer-dies"),
            bash("echo observer-raises"),
            bash("echo observed-fine"),
            bash(hookman_cli("serve", "stop")),
            bash("echo after-the-stop"),
            say("ok"),
        ],
    )

    assert run.returncode == 0, run.describe()
    texts = run.tool_result_texts()
    assert texts[0] == "observer-dies" and texts[1] == "observer-raises", run.describe()
    assert texts[2] == "observed-fine" and texts[4] == "after-the-stop", run.describe()
    assert not any(result.get("is_error") for result in run.tool_results()), run.describe()
    assert run.model_saw("SERVE-OBSERVED echo observed-fine"), run.describe()
    assert not run.model_saw("SERVE-OBSERVED echo after-the-stop")
    assert run.result.get("result") == "ok", run.describe()


@full_only
@versions("2.1.197")
def test_a_client_without_on_failure_keeps_command_guards_that_need_no_server(
    served: tuple[E2EProject, HookServer],
) -> None:
    e2e, server = served
    install_guard_and_notes(e2e)
    settings = e2e.settings()
    assert [h["type"] for h in handlers(settings, "PreToolUse")] == ["command"]
    assert not any(
        "onFailure" in h for event in settings["hooks"] for h in handlers(settings, event)
    )
    (observer,) = handlers(settings, "PostToolUse")
    assert observer["type"] == "http", observer
    server.start()
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude(
        "tidy up",
        turns=[
            bash(f"rm -rf {victim}"),
            bash("ls"),
            bash(hookman_cli("serve", "stop")),
            bash(f"rm -rf {victim}"),
            bash("ls"),
            say("ok"),
        ],
    )

    assert run.returncode == 0, run.describe()
    texts = run.tool_result_texts()
    assert GUARD_REASON in denied(run, 0) and GUARD_REASON in denied(run, 3)
    assert "hooks" in texts[1].split() and "hooks" in texts[4].split(), run.describe()
    assert run.model_saw("SERVE-ORDER-1 saw ls") and run.model_saw("SERVE-SESSION-START")
    assert victim.is_dir()


@pytest.mark.parametrize("ending", ["stop", "kill", "opt-out"])
@versions(NEWEST)
def test_an_impostor_cannot_take_the_port_of_a_server_that_ended_mid_session(
    served: tuple[E2EProject, HookServer], ending: str
) -> None:
    """The server is stopped (`hookman serve stop`), killed (SIGKILL), or turned off and
    stopped (`hookman serve disable`, then stop, this project not installed since) during a
    session and another process tries to take its port before the next prompt's gate can
    look: hookman's port keeper holds the port, and the guarded call is denied with the
    reason the model reads, never answered `{}` by the impostor."""
    e2e, server = served
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    server.start()
    victim = e2e.root / "victim"
    victim.mkdir()
    end = {
        "stop": hookman_cli("serve", "stop"),
        "kill": f"kill -9 $(cat {server.directory / 'pid'})",
        "opt-out": hookman_cli("serve", "disable") + " && " + hookman_cli("serve", "stop"),
    }[ending]

    with ImpostorOnceFree(server.port) as impostor:
        run = e2e.run_claude(
            "tidy up",
            turns=[bash(f"{end} && sleep 1"), bash(f"rm -rf {victim}"), say("ok")],
        )

    assert victim.is_dir(), run.describe()
    text = denied(run, 1)
    if ending == "opt-out":
        assert "hook server was turned off (`hookman serve disable`)" in text, text
        assert "Run `hookman install` in the project" in text, text
    else:
        assert KEPT_REASON in text and "hookman serve start" in text, text
    assert impostor.requests == [], impostor.requests
    assert server.keeper_pid() is not None
    assert "hookman keeps the port" in e2e.hookman("serve", "status", check=False).stdout


@full_only
@versions(NEWEST)
def test_a_state_directory_with_a_dollar_sign_keeps_working_guards(
    served: tuple[E2EProject, HookServer], tmp_path: Path
) -> None:
    """The client expands `$NAME` in an http entry's header values, with no escape
    (docs/claude-code-facts.md): a manifest path holding `$USER` would reach the server
    changed (401, every guarded call denied). Install keeps command entries there."""
    e2e, _ = served
    e2e.extra_env["HOOKMAN_HOME"] = str(tmp_path / "hookman$USER")
    server = HookServer(e2e)
    server.enable()
    try:
        e2e.hookman("install", e2e.write_hook("guard", GUARD))
        (guard,) = handlers(e2e.settings(), "PreToolUse")
        server.start()

        run = e2e.run_claude("go", turns=[bash("ls"), bash("rm -rf nothing-here"), say("ok")])
    finally:
        server.cleanup()

    assert guard["type"] == "command", guard
    assert "hooks" in run.tool_result_texts()[0].split(), (guard, run.describe())
    assert GUARD_REASON in denied(run, 1)


@full_only
@versions(NEWEST)
def test_an_async_hook_on_the_server_holds_nothing_up_and_runs_to_its_end(
    served: tuple[E2EProject, HookServer],
) -> None:
    """As tests/e2e/test_async.py, through the server: answered `{}` at once, the server's
    child runs on (it waits for the test's release, so order, not speed, decides)."""
    e2e, server = served
    # The project's path written in (the server's child has no CLAUDE_PROJECT_DIR: see the
    # test below); the rest is test_async.py's notifier.
    notifier_source = SLOW_NOTIFIER.replace('os.environ["CLAUDE_PROJECT_DIR"]', repr(str(e2e.root)))
    e2e.hookman("install", "--async", e2e.write_hook("notifier", notifier_source))
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    (notifier,) = handlers(e2e.settings(), "PostToolUse")
    assert notifier["type"] == "http" and "async" in notifier["url"], notifier
    assert "onFailure" not in notifier, notifier
    server.start()
    marker = e2e.root / MARKER

    run = e2e.run_claude("go", turns=[bash("echo async-e2e"), bash("rm -rf precious"), say("ok")])
    finished_before_the_hook = not marker.exists()
    (e2e.root / RELEASE).write_text("go", encoding="utf-8")

    assert run.returncode == 0, run.describe()
    assert finished_before_the_hook, marker.read_text(encoding="utf-8")
    assert run.tool_result_texts()[0] == "async-e2e", run.describe()
    assert GUARD_REASON in denied(run, 1)
    assert _wait_for(marker, GIVE_UP_SECONDS + 60), "the async hook never ran to its end"
    assert marker.read_text(encoding="utf-8") == "echo async-e2e released\n"


PROJECT_DIR_REPORTER = """
import os


def hook(pi):
    @pi.on("tool_result", tools=["Bash"])
    def report(event, ctx):
        pi.send_message("SERVE-PROJECT-DIR=" + os.environ.get("CLAUDE_PROJECT_DIR", "(none)"))
"""


@full_only
@versions(NEWEST)
def test_a_hook_on_the_server_has_the_project_directory_a_command_hook_has(
    served: tuple[E2EProject, HookServer],
) -> None:
    e2e, server = served
    e2e.hookman("install", e2e.write_hook("reporter", PROJECT_DIR_REPORTER))
    server.start()

    run = e2e.run_claude("go", turns=[bash("echo hi"), say("ok")])

    assert run.model_saw(f"SERVE-PROJECT-DIR={e2e.root}"), run.describe()


@versions(NEWEST)
def test_a_server_on_another_port_stops_the_prompt_naming_the_fix(
    served: tuple[E2EProject, HookServer],
) -> None:
    """The recorded port moved while the server ran (a move that did not happen, a hand
    edit) and the project was installed for the new one: nothing can start on it while the
    server holds its lock, so the gate stops the prompt, naming where the server runs and how
    it moves; the model is never asked."""
    e2e, server = served
    server.start()
    moved_to = free_port()
    (server.directory / "port").write_text(f"{moved_to}\n")
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    (guard,) = handlers(e2e.settings(), "PreToolUse")
    assert f":{moved_to}/" in guard["url"], guard
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude("tidy up", turns=[bash(f"rm -rf {victim}"), say("ok")])

    stopped = run.stopped_by_hook()
    assert f"runs on port {server.port}" in stopped and f"not on port {moved_to}" in stopped
    assert "`hookman serve stop` then `hookman serve start`" in stopped, run.describe()
    assert run.main_requests == [], run.describe()
    assert victim.is_dir()


@versions(NEWEST)
def test_a_plugin_built_from_the_project_guards_beside_the_server_and_lets_the_rest_run(
    served: tuple[E2EProject, HookServer],
) -> None:
    """A team's seam: the project's hooks go to the server (http entries) and the plugin
    built from them is installed too. The plugin's runner reads those http entries for its
    timeout with what it carries alone; it once failed there and denied every call, `echo`
    included (ModuleNotFoundError: hookman.user_dirs)."""
    from .test_plugin import build_plugin, install_from_marketplace

    e2e, server = served
    marketplace, _plugin = build_plugin(e2e, keep_entries=True)
    (guard,) = handlers(e2e.settings(), "PreToolUse")
    assert guard["type"] == "http", guard
    install_from_marketplace(e2e, marketplace, "user")
    server.start()
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude(
        "tidy up", turns=[bash(f"rm -rf {victim}"), bash("echo harmless-$((40+2))"), say("ok")]
    )

    denied_call, harmless = run.tool_results()
    assert denied_call["is_error"] is True, run.describe()
    assert "PLUGIN-GUARD-E2E: rm -rf is not allowed here" in denied_call["content"]
    assert victim.is_dir()
    assert harmless["content"] == "harmless-42", run.describe()
