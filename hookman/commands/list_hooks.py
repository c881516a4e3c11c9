"""`hookman list`: the project's hooks in dispatch order, with what Claude Code gets for each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookman import paths
from hookman.bridge.firing_log import last_fired as last_fired_times
from hookman.bridge.installed_entries import InstalledEntry, installed_entries
from hookman.bridge.protocol import CODEX_AGENT
from hookman.catalog.agent_catalog import COPILOT_AGENT, DROID_AGENT, QWEN_AGENT
from hookman.commands.options import CLAUDE_VERSION, JSON, PROJECT, cli_command
from hookman.commands.plan_wording import target_warnings, tool_name_warnings
from hookman.hooks.sources import shadowed_sources
from hookman.install.report import (
    claude_events_of,
    hook_json,
    installed_trial_hooks,
    project_target,
    tools_at,
)
from hookman.install.resolution import hook_problems_and_additions
from hookman.output import console, escape, print_json
from hookman.project.config import HookSpec, ProjectConfigView, read_project_config
from hookman.project.install_plan import InstallPlan, covers, matcher_names, plan_install
from hookman.project.location import find_project_dir

if TYPE_CHECKING:
    from rich.table import Table

    from hookman.agents.codex_sync import UnsentTools
    from hookman.install.subscription_gaps import CodeView
    from hookman.json_shapes import (
        ClaudeEventJson,
        CodexHookJson,
        ListAgentJson,
        ListCodexJson,
        ListedHookJson,
        ListedRepoSourceJson,
        ListJson,
        PathSourceJson,
    )


@cli_command(
    "list",
    PROJECT,
    CLAUDE_VERSION,
    JSON,
    help="The project's hooks in dispatch order.",
    examples=("hookman list", "hookman list --json"),
)
def list_hooks(
    *, project: Path | None = None, claude_version: str | None = None, json_output: bool = False
) -> int:
    """Show the project's hooks. Returns the exit code.

    `--json` prints a `ListJson` (hookman/json_shapes.py).
    Exit 1 when an enabled hook does not load on this machine (as install).
    """
    project_dir = find_project_dir(project)
    config = read_project_config(project_dir)
    target = project_target(project_dir, claude_version, config)
    trial = installed_trial_hooks(project_dir)
    hooks = config.hooks + trial
    plan = plan_install(hooks, target.version, prompt_gate=True)
    last_fired = _last_fired(project_dir, hooks)
    pins = _pinned_commits(project_dir)
    problems, added = hook_problems_and_additions(config, project_dir)
    code_view = _code_view(config, project_dir, problems)
    rows = [
        _hook_row(
            order,
            hook,
            plan,
            last_fired.get(hook.name),
            pins,
            trial=hook in trial,
            problem=problems.get(hook.name),
        )
        for order, hook in enumerate(hooks, start=1)
    ]
    _add_subscriptions(rows, code_view)
    code = 1 if problems else 0
    version = None if target.version is None else str(target.version)
    warnings = target_warnings(plan, target) + tool_name_warnings(config.hooks)
    warnings += _gap_warnings(code_view)
    warnings += [f"{said}: `hookman install` fetches the pinned commit again." for said in added]
    warnings += _unwired_warnings(config, project_dir, code_view)
    codex_view = _codex_view(project_dir, config.agents, hooks, plan)
    codex = None if codex_view is None else codex_view[0]
    if codex_view is not None:
        warnings += codex_view[1]
    from hookman.commands.list_agents import agent_views

    others = agent_views(project_dir, config.agents, hooks, plan)
    for _, sentences in others.values():
        warnings += sentences
    changed = _changed_since_install(project_dir, rows)
    installed = installed_entries(str(project_dir))
    warnings += changed + _not_wired_here(rows, installed, told=bool(changed))
    via = _add_via(rows, installed)
    if json_output:
        shown: ListJson = {
            "project": str(project_dir),
            "claude_version": version,
            "claude_version_source": target.source,
            "hooks": rows,
            "held_back": {event: {"since": since} for event, since in plan.held_back.items()},
            "agents": list(config.agents),
            "codex": codex,
            "copilot": _view(others, COPILOT_AGENT),
            "qwen": _view(others, QWEN_AGENT),
            "droid": _view(others, DROID_AGENT),
            "warnings": warnings,
        }
        print_json(shown)
        return code
    _print_rows(project_dir, target.describe(), rows, via=via)
    out = console()
    if codex is not None:
        _print_codex(codex)
    elif _codex_absent(config.agents):
        from hookman.commands.codex_wording import absent_sentences

        for sentence in absent_sentences(project_dir):
            out.print(escape(sentence), highlight=False)
    from hookman.commands.list_agents import print_agents

    print_agents(project_dir, config.agents, {agent: view for agent, (view, _) in others.items()})
    for warning in warnings:
        out.print(f"[yellow]warning:[/] {escape(warning)}")
    for problem, fix in problems.values():
        out.print(f"[red]does not load:[/] {escape(problem)}", highlight=False)
        if fix:
            out.print(f"  fix: {escape(fix)}", highlight=False)
    return code


def _view(others: dict[str, tuple[ListAgentJson, list[str]]], agent: str) -> ListAgentJson | None:
    found = others.get(agent)
    return None if found is None else found[0]


def _code_view(
    config: ProjectConfigView, project_dir: Path, problems: dict[str, tuple[str, str]]
) -> CodeView:
    """What each enabled hook's code subscribes to against hookman.toml and the installed
    entries (install/subscription_gaps.py); a hook whose code does not load joins
    `problems` (install refuses it too)."""
    from hookman.install.subscription_gaps import subscription_gaps

    view = subscription_gaps(config, project_dir)
    for gap in view.gaps:
        if gap.failure is not None:
            problems.setdefault(gap.hook, gap.failure)
    return view


def _add_subscriptions(rows: list[ListedHookJson], view: CodeView) -> None:
    """Each row's `learned` and `subscription_gap` (trial rows keep null)."""
    from hookman.commands.subscription_wording import gap_json, learned_json

    gaps = {gap.hook: gap for gap in view.gaps}
    for row in rows:
        if row["trial"]:
            continue
        row["learned"] = learned_json(view.code.get(row["name"]))
        row["subscription_gap"] = gap_json(gaps.get(row["name"]))


def _unwired_warnings(config: ProjectConfigView, project_dir: Path, view: CodeView) -> list[str]:
    """The guards no installed entry reaches (install/guard_wiring.py): those calls run
    without hookman until install."""
    from hookman.install.guard_wiring import unwired_guards

    return [guard.sentence() for guard in unwired_guards(config, project_dir, view.code)]


def _gap_warnings(view: CodeView) -> list[str]:
    from hookman.commands.subscription_wording import gap_sentence

    said = (gap_sentence(gap) for gap in view.gaps)
    return [sentence for sentence in said if sentence is not None]


def _codex_view(
    project_dir: Path, agents: tuple[str, ...], hooks: list[HookSpec], plan: InstallPlan
) -> tuple[ListCodexJson, list[str]] | None:
    """What hookman writes for Codex CLI, per hook, and what it cannot write, in words
    (None when the agents leave Codex out, or it is not installed here: install writes
    nothing for it then)."""
    if "codex" not in agents or _codex_absent(agents):
        return None
    from hookman.agents.codex_files import codex_hooks_path
    from hookman.agents.codex_sync import plan_codex
    from hookman.bridge.installed_entries import agent_installed_entries
    from hookman.catalog.codex_catalog import detect_codex_version
    from hookman.commands.agent_installed import installed_state, unwritten_sentences
    from hookman.commands.codex_wording import plan_sentences
    from hookman.project.launcher import launcher_path

    codex = plan_codex(hooks, plan, launcher_path(project_dir), detect_codex_version())
    written = agent_installed_entries(str(project_dir), CODEX_AGENT)
    per_hook: dict[str, CodexHookJson] = {}
    for hook in hooks:
        if not hook.enabled:
            continue
        served = [event for event in claude_events_of(hook) if event in codex.events]
        per_hook[hook.name] = {
            "events": served,
            "no_counterpart": codex.without_counterpart.get(hook.name, []),
            **installed_state(hook, served, written),
            "never_sent": _never_sent(codex.never_sent.get(hook.name, [])),
        }
    shown: ListCodexJson = {
        "version": None if codex.version is None else str(codex.version),
        "path": str(codex_hooks_path(project_dir)),
        "events": codex.events,
        "hooks": per_hook,
    }
    unwritten = unwritten_sentences("Codex", codex.entries, written, shown["path"])
    return shown, plan_sentences(codex) + unwritten


def _never_sent(found: Sequence[UnsentTools]) -> list[str]:
    """The tools a hook asks for that Codex never names in a hook payload."""
    return list(dict.fromkeys(tool for unsent in found for tool in unsent.tools))


def _codex_absent(agents: tuple[str, ...]) -> bool:
    """The agents name Codex CLI, which this machine lacks (as install/sync.py decides)."""
    from hookman.catalog.codex_catalog import codex_installed

    return "codex" in agents and not codex_installed()


def _print_codex(codex: ListCodexJson) -> None:
    from hookman.commands.agent_installed import event_cell

    out = console()
    target = codex["version"] or "unknown"
    out.print(f"Codex CLI target {escape(target)} ({escape(codex['path'])}):", highlight=False)
    for name, facts in codex["hooks"].items():
        events = ", ".join(event_cell(event, facts) for event in facts["events"]) or "-"
        missing = facts["no_counterpart"]
        lack = f"  (no Codex counterpart: {', '.join(missing)})" if missing else ""
        unsent = facts.get("never_sent", [])
        lack += f"  (Codex never sends: {', '.join(unsent)})" if unsent else ""
        out.print(f"  {escape(name)}: {escape(events)}{escape(lack)}", highlight=False)


def _pinned_commits(project_dir: Path) -> dict[tuple[str, str], str]:
    from hookman.errors import HookmanError
    from hookman.project.pins import read_pins

    try:
        return {key: pin.commit for key, pin in read_pins(project_dir).items()}
    except HookmanError:
        return {}


def _hook_row(
    order: int,
    hook: HookSpec,
    plan: InstallPlan,
    last_fired: str | None,
    pins: dict[tuple[str, str], str] | None = None,
    *,
    trial: bool = False,
    problem: tuple[str, str] | None,
) -> ListedHookJson:
    claude_events: dict[str, ClaudeEventJson] = {}
    for event in claude_events_of(hook):
        if not hook.enabled:
            claude_events[event] = {"status": "disabled", "matcher": None, "since": None}
        elif event in plan.held_back:
            claude_events[event] = {
                "status": "held_back",
                "matcher": None,
                "since": plan.held_back[event],
            }
        elif event in (entries := plan.async_entries if hook.is_async else plan.entries):
            matcher = entries[event].matcher
            claude_events[event] = {"status": "written", "matcher": matcher, "since": None}
    given = hook_json(hook, plan)
    source: PathSourceJson | ListedRepoSourceJson
    if given["source"]["kind"] == "repo":
        pins_of = pins or {}
        commit = hook.source.rev if trial else pins_of.get((hook.source.value, hook.source.rev))
        source = {**given["source"], "commit": commit}
    else:
        source = given["source"]
    row: ListedHookJson = {
        "order": order,
        **given,
        "source": source,
        "claude_events": claude_events,
        "last_fired": last_fired,
        "shadows": shadowed_sources(hook),
        "trial": trial,
        "problem": None if problem is None else problem[0],
        "fix": None if problem is None else problem[1] or None,
        "learned": None,
        "subscription_gap": None,
    }
    return row


def _last_fired(project_dir: Path, hooks: list[HookSpec]) -> dict[str, str]:
    """Hook name -> time of the last firing-log line for this project that ran it (read
    from the log's last-fired index: bridge/firing_log.py)."""
    names = [hook.name for hook in hooks]
    return last_fired_times(str(paths.firing_log_path()), str(project_dir), names)


def _print_rows(
    project_dir: Path, target: str, rows: Sequence[Mapping[str, Any]], *, via: bool = False
) -> None:
    """The table (a terminal) or one line per hook; with `via` (the user opted in to the
    warm hook server) the path each installed entry takes."""
    out = console()
    out.print(f"project {escape(str(project_dir))}, Claude Code target {escape(target)}")
    if not rows:
        out.print(
            "no hooks yet: `hookman new NAME --template T` or `hookman install PATH.py` adds one.",
            highlight=False,
        )
        return
    if out.is_terminal:
        from rich.table import Table

        # The on/off state sits under the hook's name: one column less keeps the table
        # unwrapped on a 100-column terminal.
        table = Table()
        headers = ("#", "hook", "source", "events", "Claude Code", *VIA_HEADER[:via], "last fired")
        for header in headers:
            table.add_column(header, overflow="fold")
        for row in rows:
            order, name, source_text, enabled, events, claude, fired = _cells(row, separator="\n")
            hook_cell = name if enabled == "enabled" else f"{name}\n{enabled}"
            if not via:
                cells = (order, hook_cell, source_text, events, claude, fired)
                table.add_row(*(escape(cell) for cell in cells))
                continue
            cells = (order, hook_cell, source_text, events, claude, _via_lines(row), fired)
            _add_line_rows(table, cells)
        out.print(table)
        return
    for row in rows:
        order, name, source_text, enabled, events, claude, fired = _cells(row)
        paths = f"via: {_via_text(row)}  " if via else ""
        out.print(
            f"{order}. {name}  [{source_text}]  {enabled}  events: {events}  "
            f"claude: {claude}  {paths}last fired: {fired}",
            markup=False,
            highlight=False,
        )


VIA_HEADER = ("via",)
NO_ENTRY = "-"


def _via_lines(row: Mapping[str, Any]) -> str:
    """The table's cell: one path per line of the Claude Code cell."""
    paths = [facts.get("via") or NO_ENTRY for facts in row["claude_events"].values()]
    return "\n".join(paths) or NO_ENTRY


def _add_line_rows(table: Table, cells: Sequence[str]) -> None:
    """One table row per line of the hook's cells (no rule between them: it reads as one
    row), so each event's path stays beside the event when a long line wraps."""
    columns = [cell.split("\n") for cell in cells]
    for index in range(max(len(lines) for lines in columns)):
        table.add_row(*(escape(lines[index]) if index < len(lines) else "" for lines in columns))


def _via_text(row: Mapping[str, Any]) -> str:
    """One line's words: the path when every entry takes the same, else each event's."""
    paths = {event: facts.get("via") or NO_ENTRY for event, facts in row["claude_events"].items()}
    if not paths:
        return NO_ENTRY
    if len(set(paths.values())) == 1:
        return next(iter(paths.values()))
    return ", ".join(f"{event} {path}" for event, path in paths.items())


def _not_wired_here(
    rows: list[ListedHookJson],
    installed: dict[tuple[str, bool], InstalledEntry],
    *,
    told: bool,
) -> list[str]:
    """Each written event this machine's settings.local.json has no hookman entry for (a
    fresh clone before `hookman install`, a file deleted or edited by hand) is shown as not
    installed: the client runs nothing for it. An entry whose matcher leaves out tools the
    hook asks for (a pull that gave a guard Write, not installed since) keeps its matcher in
    the row, the one the client runs. One sentence each, unless the changed-since-install
    notice already told why."""
    missing: list[str] = []
    narrower: dict[str, tuple[str, list[str]]] = {}  # event -> its matcher, hooks left short
    for row in rows:
        for event, facts in row["claude_events"].items():
            entry = installed.get((event, row["async"]))
            if facts["status"] != "written":
                continue
            if entry is None:
                row["claude_events"][event] = {
                    "status": "not_installed",
                    "matcher": None,
                    "since": None,
                }
                if event not in missing:
                    missing.append(event)
            elif not covers(entry.matcher, tools_at(row["events"], row["tools"], event)):
                facts["matcher"] = entry.matcher
                shown = "|".join(matcher_names(entry.matcher or ""))
                narrower.setdefault(event, (shown, []))[1].append(row["name"])
    if told:
        return []
    said = []
    if missing:
        said.append(
            f"this machine's settings.local.json has no hookman entry for {', '.join(missing)}: "
            "Claude Code runs no hook on those events until `hookman install` writes the entries."
        )
    for event, (matcher, names) in narrower.items():
        said.append(
            f"this machine's {event} entry runs hooks for {matcher} only, not for every tool "
            f"{', '.join(names)} {'asks' if len(names) == 1 else 'ask'} for: "
            "`hookman install` rewrites it."
        )
    return said


def _add_via(rows: list[ListedHookJson], installed: dict[tuple[str, bool], InstalledEntry]) -> bool:
    """Where the user opted in to the warm hook server: each written event's `via`, the path
    its installed entry in settings.local.json takes (an http entry reaches the server, a
    command entry runs the launcher); the async entry for an async hook. False (rows left
    as they were) when the user has not opted in."""
    from hookman.project.serve_paths import opted_in

    if not opted_in():
        return False
    for row in rows:
        for event, facts in row["claude_events"].items():
            written = facts["status"] == "written"
            entry = installed.get((event, row["async"])) if written else None
            facts["via"] = None if entry is None else entry.path
    return True


def _cells(row: Mapping[str, Any], separator: str = ", ") -> tuple[str, ...]:
    source = row["source"]
    source_text = source["value"]
    if source["kind"] == "repo":
        commit = source.get("commit")
        pinned = f" ({commit[:12]})" if commit and commit != source["rev"] else ""
        source_text = f"repo {source_text} at {source['rev']}{pinned}"
        if row.get("trial"):
            source_text += " (trial: not in hookman.toml)"
    elif source["kind"] != "path":
        source_text = f"{source['kind']} {source_text}"
    if row["shadows"]:
        source_text += f" (shadows {', '.join(row['shadows'])})"
    return (
        str(row["order"]),
        row["name"],
        source_text,
        ("enabled" if row["enabled"] else "disabled") + (", async" if row["async"] else ""),
        separator.join(row["events"]) or "-",
        separator.join(
            _claude_cell(event, facts, row["events"], row["tools"])
            for event, facts in row["claude_events"].items()
        )
        or "-",
        row["last_fired"] or "never",
    )


def _claude_cell(
    event: str,
    facts: Mapping[str, Any],
    events: Sequence[str],
    tools: Mapping[str, Sequence[str]],
) -> str:
    """The event and the tools its entry runs this hook for (the entry's matcher, shared by
    every hook on the event, where the hook asks for every tool it names)."""
    if facts["status"] == "held_back":
        return f"{event} (held back: needs >= {facts['since']})"
    if facts["status"] == "disabled":
        return f"{event} (disabled)"
    if facts["status"] == "not_installed":
        return f"{event} (not installed here yet)"
    asked = tools_at(events, tools, event)
    shown = "|".join(asked) if asked else facts["matcher"]
    cell = f"{event}[{shown}]" if shown else event
    if not covers(facts["matcher"], asked):  # the installed entry leaves some out
        cell += f" (installed here for {'|'.join(matcher_names(facts['matcher']))} only)"
    return cell


def _changed_since_install(project_dir: Path, rows: list[ListedHookJson]) -> list[str]:
    """One sentence when hookman.toml or the pins changed since `hookman install` ran here
    (bridge/project_moved.py): what is listed is then not what runs, so an event hookman.toml
    asks for that this machine's entries lack is shown as not installed."""
    from hookman.bridge.manifest_reader import ManifestError, read_manifest
    from hookman.bridge.project_moved import changed_notice, guarded_reach, project_change

    try:
        manifest = read_manifest(str(paths.manifest_path(project_dir)))
    except ManifestError:
        return []
    change = project_change(manifest.installed_from, manifest.config_path)
    if change is None:
        return []
    installed = {hook.name: hook for hook in manifest.hooks}
    for row in rows:
        hook = installed.get(row["name"])
        for event, facts in row["claude_events"].items():
            entry = event in manifest.entries or event in manifest.async_entries
            wired = hook is not None and event in hook.claude_events and entry
            if facts["status"] == "written" and not wired:
                row["claude_events"][event] = {
                    "status": "not_installed",
                    "matcher": None,
                    "since": None,
                }
    reach = guarded_reach(manifest.entries, manifest.client.is_guarded, manifest.sentinels)
    notice = changed_notice(change, str(project_dir), reach, sentinels=bool(manifest.sentinels))
    return [notice.removeprefix("hookman: ")]
