"""`hookman fire EVENT [--payload FILE]`: run the project's hooks on one event, in-process,
and show what each hook returned, the answer Claude Code would get and what the model sees.

The rehearsal itself (hookman.rehearsal.rehearse) is shared with `hookman doctor --probe`.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookman import paths
from hookman.bridge.agent_facts import OTHER_AGENTS, display_name
from hookman.bridge.agent_payload import claude_payload
from hookman.bridge.protocol import CODEX_AGENT
from hookman.catalog import event_catalog
from hookman.commands.agent_fire_view import agent_view, captured_payload, foreign_caveat
from hookman.commands.options import JSON, PROJECT, Argument, Option, cli_command
from hookman.errors import HookmanError
from hookman.output import console, escape, print_json
from hookman.project.location import find_project_dir
from hookman.rehearsal.entry_path import installed_entry
from hookman.rehearsal.rehearse import (
    json_safe,
    load_installed_manifest,
    rehearsal_manifest,
    rehearse,
    sample_payload,
)
from hookman.runtime.loader import LOAD_FAILED_PREFIX

if TYPE_CHECKING:
    from hookman.bridge.manifest_reader import Manifest
    from hookman.json_shapes import FireEntryJson, FireJson


@cli_command(
    "fire",
    Argument("event", "EVENT", complete="events", help="Claude Code event name (e.g. PreToolUse)."),
    Option(
        "--payload",
        metavar="FILE",
        type="path",
        complete="files",
        help="Payload JSON file (default: a bundled sample).",
    ),
    Option(
        "--agent",
        metavar="AGENT",
        help=(
            "Show what this agent and its model get (codex, copilot, qwen, droid; "
            "default Claude Code)."
        ),
    ),
    PROJECT,
    JSON,
    help="Run the hooks on a sample event; show what Claude Code and the model get.",
    examples=("hookman fire PreToolUse", "hookman fire PreToolUse --payload rm-rf.json"),
)
def fire(
    event: str,
    *,
    payload: Path | None = None,
    project: Path | None = None,
    json_output: bool = False,
    agent: str | None = None,
) -> int:
    """`agent` "codex" (`--agent codex`): show what Codex CLI and its model get (the runner's
    answer in Codex's protocol, agents/codex_view.py) instead of Claude Code's.

    `agent` "copilot", "qwen" or "droid": the payload that agent sends (the one captured
    from its binary when there is one and no --payload), its tool names mapped as the runner
    maps them, and what the agent and its model get (commands/agent_fire_view.py).

    `--json` prints a `FireJson` (hookman/json_shapes.py); with `--agent codex` it adds
    "codex", with another agent a key of that agent's name."""
    if agent not in (None, "claude", "codex", *OTHER_AGENTS):
        raise HookmanError(
            f"--agent {agent!r} is not an agent hookman writes hooks for.",
            "pass claude, codex, " + ", ".join(OTHER_AGENTS[:-1]) + f" or {OTHER_AGENTS[-1]}.",
            exit_code=2,
        )
    project_dir = find_project_dir(project)
    _check_event(event)
    installed = paths.manifest_path(project_dir).exists()
    manifest = (
        load_installed_manifest(project_dir) if installed else rehearsal_manifest(project_dir)
    )
    pending = _not_installed_hooks(project_dir, manifest) if installed else []
    with tempfile.TemporaryDirectory(prefix="hookman-fire-") as scratch:
        payload_data, source = _payload(event, payload, project_dir, scratch)
        sent = payload_data
        if agent in OTHER_AGENTS:
            if payload is None:
                captured, where = captured_payload(agent, event, project_dir)
                if captured:
                    sent, source = captured, where
            payload_data = claude_payload(agent, sent)
        rehearsed = rehearse(manifest, event, payload_data, scratch)
    if installed:
        rehearsed["effects"][:0] = _wiring_effects(project_dir, event, payload_data)
    report: FireJson = {
        **rehearsed,
        "payload_source": source,
        "installed": installed,
        "not_installed": pending,
    }
    if installed:
        report["entry"] = installed_entry(project_dir, event)
        down = _server_effects(report["entry"], event)
        if down:  # what the client gets now; the rehearsal's, once the server answers
            report["effects"] = down + [f"once the server runs: {e}" for e in report["effects"]]
    if agent == "codex":
        from hookman.agents.codex_view import codex_view

        report["codex"] = codex_view(event, report["answer"], payload_data)
    elif agent in OTHER_AGENTS:
        views: dict[str, Any] = report  # type: ignore[assignment]  # the key is the agent's name
        views[agent] = agent_view(agent, event, report["answer"], sent, payload_data)
        foreign_caveat(project_dir, agent, views[agent], sent)
    if agent == CODEX_AGENT and _codex_never_sends(report, payload_data):
        pass  # no Codex call is this one: whether an entry reaches it does not matter
    elif agent in (CODEX_AGENT, *OTHER_AGENTS) and _wanted(project_dir, report):
        guarded = manifest.client.is_guarded(event)
        _agent_reach(project_dir, report, agent, guarded, sent, payload_data)
    if json_output:
        print_json(json_safe(report))
    elif agent == "codex":
        _print_codex_report(report)
    elif agent in OTHER_AGENTS:
        _print_agent_report(report, agent)
    else:
        _print_report(report)
    return 0


def _print_codex_report(report: Mapping[str, Any]) -> None:
    out = console()
    out.print(
        f"[bold]{escape(report['event'])}[/] under Codex CLI in {escape(report['project'])} "
        f"({escape(report['payload_source'])})"
    )
    _print_agent_entry(report)
    if "entry" in report and _says_entry(report["entry"]):
        out.print(escape(entry_sentence(report["entry"])), highlight=False)
    if not report["hooks"] and not report["async"]:
        out.print("no hook of this project listens to this event.")
    _print_hooks(report["hooks"])
    codex = report["codex"]
    out.print("\n[bold]answer to Codex[/] (exit 0)")
    out.print(json.dumps(json_safe(codex["answer"]), indent=2, ensure_ascii=False), markup=False)
    out.print("\n[bold]the model sees[/]")
    for text in codex["model_sees"] or ["(nothing)"]:
        out.print(f"  {escape(text)}", highlight=False)
    for text in codex["effects"]:
        out.print(f"[bold]effect:[/] {escape(text)}", highlight=False)


def _print_agent_report(report: Mapping[str, Any], agent: str) -> None:
    out = console()
    name = display_name(agent)
    out.print(
        f"[bold]{escape(report['event'])}[/] under {escape(name)} in "
        f"{escape(report['project'])} ({escape(report['payload_source'])})"
    )
    _print_agent_entry(report)
    if "entry" in report and _says_entry(report["entry"]):
        out.print(escape(entry_sentence(report["entry"])), highlight=False)
    if not report["hooks"] and not report["async"]:
        out.print("no hook of this project listens to this event.")
    _print_hooks(report["hooks"])
    view = report[agent]
    out.print(f"\n[bold]answer to {escape(name)}[/] (exit 0)")
    out.print(json.dumps(json_safe(view["answer"]), indent=2, ensure_ascii=False), markup=False)
    out.print("\n[bold]the model sees[/]")
    for text in view["model_sees"] or ["(nothing)"]:
        out.print(f"  {escape(text)}", highlight=False)
    for text in view["effects"]:
        out.print(f"[bold]effect:[/] {escape(text)}", highlight=False)


def _print_agent_entry(report: Mapping[str, Any]) -> None:
    """The line saying the agent's own entries here do not reach this call (`_agent_reach`)."""
    if "agent_tool" in report:
        said = escape(report["agent_tool"])
        console().print(f"[yellow]never sent by Codex:[/] {said}", highlight=False)
    if "agent_entry" in report:
        said = escape(report["agent_entry"])
        console().print(f"[yellow]not installed here:[/] {said}", highlight=False)


def _agent_reach(
    project_dir: Path,
    report: FireJson,
    agent: str,
    guarded: bool,
    sent: Mapping[str, Any],
    seen: Mapping[str, Any],
) -> None:
    """Where the agent's own entries on this machine do not reach this call (a fresh clone,
    its file deleted, a matcher that leaves the tool out), the agent runs it without hookman:
    said first, and the view's effects become what it gets once install wrote them (the
    agent's view said a deny it does not give). `sent`: the payload as the agent sends it;
    `seen`: as hooks see it (Claude Code's tool names)."""
    from hookman.commands.agent_installed import unreached_sentence

    said = unreached_sentence(
        str(project_dir),
        agent,
        report["event"],
        sent.get("tool_name"),
        seen.get("tool_name"),
        guarded=guarded,
    )
    if said is None:
        return
    report["agent_entry"] = said
    view: dict[str, Any] = report[agent]  # type: ignore[literal-required]
    view["effects"] = [f"once installed: {effect}" for effect in view["effects"]]


def _wanted(project_dir: Path, report: FireJson) -> bool:
    """Whether hookman has anything for the event: a hook the installed manifest runs on it,
    an answer the runner gives (a project that changed since install denies a guarded call
    with no hook of its own), or a hook hookman.toml now plans an entry for (a pull not
    installed since): then an agent whose file lacks the entry runs the call without it."""
    if report["hooks"] or report["async"] or report["answer"]:
        return True
    from hookman.errors import HookmanError
    from hookman.project.config import read_project_config
    from hookman.project.install_plan import plan_install

    try:
        plan = plan_install(read_project_config(project_dir).hooks, None)
    except HookmanError:
        return False
    return report["event"] in plan.entries or report["event"] in plan.async_entries


def _codex_never_sends(report: FireJson, payload: Mapping[str, Any]) -> bool:
    """Where the payload names a tool Codex never names in a hook payload (`Write`: catalog
    codex_events.json "hook_tools"), say so first, and make the view's effects what the
    hooks would do were Codex to send it (it never does, so it never denies such a call)."""
    from hookman.catalog.codex_catalog import never_sent_tools
    from hookman.commands.codex_wording import never_sent_tool_sentence

    tool = payload.get("tool_name")
    if not isinstance(tool, str) or not never_sent_tools([tool]):
        return False
    report["agent_tool"] = never_sent_tool_sentence(tool)
    view = report["codex"]
    view["effects"] = [f"were Codex to send it: {effect}" for effect in view["effects"]]
    return True


def _not_installed_hooks(project_dir: Path, manifest: Manifest) -> list[str]:
    """Enabled hooks hookman.toml lists that the installed manifest does not run (e.g. one
    just made with `hookman new`): `fire` runs what Claude Code runs, so they are named.
    An unparsable hookman.toml stops `fire` as it stops install and list (one rule): the
    manifest may no longer be what the user means to run."""
    from hookman.project.config import read_project_config

    config = read_project_config(project_dir)
    installed = {hook.name for hook in manifest.hooks}
    return [hook.name for hook in config.hooks if hook.enabled and hook.name not in installed]


def _server_effects(entry: FireEntryJson, event: str) -> list[str]:
    """What the client gets now when the entry reaches the warm hook server and hookman's
    server does not answer on its port (the answer fire shows is the one it sends once it
    runs): a guarded call denied (and the port keeper's reason, when it holds the port), an
    observe-only event's hooks not run, or another process's answer."""
    if entry["path"] != "server" or not isinstance(entry["port"], int):
        return []
    from hookman.doctor.serve_probe import OTHER, RUNNING, UNRESPONSIVE, probe

    found = probe(entry["port"])
    if found.state == RUNNING:
        return []
    if found.state == OTHER:
        return [
            f"another process holds port {entry['port']}: Claude Code takes its answer, not "
            "the one shown (`hookman doctor` names it)"
        ]
    start = "`hookman serve start`, or the next prompt, starts it"
    down = "the warm hook server is not running now"
    if found.state == UNRESPONSIVE:
        from hookman.bridge.serve_proof import UNRESPONSIVE_FIX

        down, start = f"{found.holder} does not answer now", f"run {UNRESPONSIVE_FIX}"
    if entry["on_failure"] != "block":
        return [f"{down}, so no hook runs on this event ({start})"]
    said = f"{down}, so Claude Code denies this call, not what the answer shown says ({start})"
    if found.kept:
        from hookman.serve.answers import stopped_reason

        said += f"; hookman's port keeper answers, and the model reads: {stopped_reason(event)}"
    return [said]


def _wiring_effects(project_dir: Path, event: str, payload: Mapping[str, Any]) -> list[str]:
    """What list and doctor say about the installed entries against the project now: each
    hook whose code subscribes to more or less than is recorded or installed, and each
    guard no installed entry reaches for this event and the payload's tool (Claude Code
    runs that call without hookman until install: install/guard_wiring.py)."""
    from hookman.commands.subscription_wording import gap_sentence
    from hookman.install.guard_wiring import unwired_guards
    from hookman.install.subscription_gaps import subscription_gaps
    from hookman.project.config import read_project_config

    config = read_project_config(project_dir)
    view = subscription_gaps(config, project_dir)
    tool = payload.get("tool_name")
    said = [
        guard.sentence()
        for guard in unwired_guards(config, project_dir, view.code)
        if guard.event == event and (guard.tools is None or tool in guard.tools)
    ]
    gaps = (gap_sentence(gap) for gap in view.gaps if gap.failure is None)
    return said + [sentence for sentence in gaps if sentence]


def _check_event(event: str) -> None:
    if event_catalog.is_claude_event(event):
        return
    serving = event_catalog.claude_events_serving(event)
    if serving:
        hint = f"{event} is a runtime event; fire the Claude Code event serving it: "
        hint += " or ".join(serving) + "."
    else:
        import difflib

        close = difflib.get_close_matches(event, event_catalog.claude_events(), n=1)
        hint = (
            f"did you mean {close[0]}?"
            if close
            else "fire a Claude Code event such as PreToolUse, PostToolUse, UserPromptSubmit or "
            "Stop (docs/claude-code-facts.md describes them)."
        )
    raise HookmanError(f"{event!r} is not a Claude Code event.", hint, exit_code=2)


def _payload(
    event: str, payload_file: Path | None, project_dir: Path, scratch: str
) -> tuple[dict[str, Any], str]:
    if payload_file is not None:
        return _read_payload_file(payload_file), str(payload_file)
    data = sample_payload(event, project_dir, scratch)
    if data is None:
        raise HookmanError(
            f"there is no bundled sample payload for {event}.",
            f"pass one with `hookman fire {event} --payload FILE`.",
        )
    return data, f"bundled sample {event}.json"


def _read_payload_file(path: Path) -> dict[str, Any]:
    hint = "pass a file holding one JSON object, such as a Claude Code hook payload."
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise HookmanError(f"cannot read the payload file {path}: {reason}.", hint) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise HookmanError(
            f"the payload file {path} is not valid JSON "
            f"(line {error.lineno}, column {error.colno}: {error.msg}).",
            hint,
        ) from None
    if not isinstance(data, dict):
        raise HookmanError(f"the payload file {path} does not hold a JSON object.", hint)
    return data


def _print_report(report: Mapping[str, Any]) -> None:
    out = console()
    out.print(
        f"[bold]{escape(report['event'])}[/] in {escape(report['project'])} "
        f"({escape(report['payload_source'])})"
    )
    if not report["installed"]:
        out.print(
            "[yellow]not installed yet:[/] this is what hookman.toml asks for; "
            "`hookman install` writes it into .claude/settings.local.json.",
            highlight=False,
        )
    if report["not_installed"]:
        names = report["not_installed"]
        them = "it" if len(names) == 1 else "them"
        out.print(
            f"[yellow]not installed yet:[/] {escape(', '.join(names))} (in hookman.toml only; "
            f"`hookman install` adds {them} to what Claude Code runs).",
            highlight=False,
        )
    if "entry" in report and _says_entry(report["entry"]):
        out.print(escape(entry_sentence(report["entry"])), highlight=False)
    if not report["hooks"] and not report["async"]:
        out.print("no hook of this project listens to this event.")
    _print_hooks(report["hooks"])
    if report["output"]:
        out.print("\n[bold]hook output[/] (captured; goes to the firing log, never to Claude Code)")
        out.print(escape(report["output"].rstrip("\n")), markup=False, highlight=False)
    counts = " [dim]- the answer that counts[/]" if report["async"] else ""
    out.print(f"\n[bold]answer to Claude Code[/] (exit {report['exit_code']}){counts}")
    out.print(json.dumps(json_safe(report["answer"]), indent=2, ensure_ascii=False), markup=False)
    out.print("\n[bold]the model sees[/]")
    for text in report["model_sees"] or ["(nothing)"]:
        out.print(f"  {escape(text)}")
    for entry in report["entries"]:
        data = json.dumps(json_safe(entry["data"]), ensure_ascii=False)
        out.print(
            f"[bold]entry appended:[/] {escape(str(entry['custom_type']))} {escape(data)}",
            highlight=False,
        )
    for key, text in report["statuses"].items():
        out.print(f"[bold]status:[/] {escape(key)} = {escape(text)}", highlight=False)
    for label, key in (
        ("the user sees", "user_sees"),
        ("effect", "effects"),
        ("queued for the next event with a context channel", "queued_for_next_event"),
        ("notice", "notices"),
    ):
        for text in report[key]:
            out.print(f"[bold]{label}:[/] {escape(text)}")
    if report["async"]:
        _print_async(report["async"])


def _says_entry(entry: FireEntryJson) -> bool:
    """Whether the path is worth a line: the entry reaches the server, or the user opted in
    to it (then a command entry is news too); otherwise fire reads as it always did."""
    if entry["path"] == "server":
        return True
    from hookman.project.serve_paths import opted_in

    return entry["path"] == "command" and opted_in()


def entry_sentence(entry: FireEntryJson) -> str:
    """Which path the installed entry takes; the answer shown is the runner's either way."""
    if entry["path"] == "server":
        blocks = " (onFailure block)" if entry["on_failure"] == "block" else ""
        said = (
            f"installed entry: Claude Code posts to the warm hook server on port "
            f"{entry['port']}{blocks}, which runs this same runner: the answer below is what it "
            "sends back"
        )
        return said + "."
    if entry["path"] == "command":
        return "installed entry: Claude Code runs the command (the launcher starts the runner)."
    return "installed entry: none for this event in .claude/settings.local.json."


def _print_hooks(hooks: Sequence[Mapping[str, Any]], label: str = "hook") -> None:
    out = console()
    for hook in hooks:
        out.print(f"\n[bold]{label} {escape(hook['name'])}[/]")
        if hook["load_error"]:
            error = hook["load_error"].removeprefix(LOAD_FAILED_PREFIX)
            out.print(f"  [red]failed to load:[/] {escape(error)}")
        elif not hook["calls"]:
            out.print("  no handler ran")
        for call in hook["calls"]:
            if call["error"] is not None:
                out.print(f"  {escape(call['event'])}: [red]raised[/] {escape(call['error'])}")
            else:
                shown = json.dumps(json_safe(call["result"]), ensure_ascii=False)
                out.print(f"  {escape(call['event'])} -> {escape(shown)}")


def _print_async(report: Mapping[str, Any]) -> None:
    out = console()
    out.print(
        "\n[bold]async hooks[/] (their own `async: true` entry: Claude Code does not wait for "
        "them, and their answer, always {}, does not count)"
    )
    _print_hooks(report["hooks"], label="async hook")
    if report["output"]:
        out.print("\n[bold]async hook output[/] (captured; goes to the firing log)")
        out.print(escape(report["output"].rstrip("\n")), markup=False, highlight=False)
    for label, key in (
        ("queued for the next event with a context channel", "queued_for_next_event"),
        ("notice", "notices"),
    ):
        for text in report[key]:
            out.print(f"[bold]async {label}:[/] {escape(text)}")
