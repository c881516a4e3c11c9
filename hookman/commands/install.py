"""`hookman install [HOOK ...]`: add hooks to hookman.toml and write settings.local.json.

HOOK is a path to a `.py` factory (named after its stem unless --name), or a name known to
hookman.toml, the user registry or the bundled templates. Installing a listed hook again
re-learns what it subscribes to. No HOOK: rewrite settings from hookman.toml as it is.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookman.bridge.protocol import CODEX_AGENT, PROMPT_GATE_EVENT
from hookman.catalog.agent_catalog import DROID_AGENT, QWEN_AGENT
from hookman.commands.agent_wording import agent_sentences
from hookman.commands.git_wording import exclusion_sentence, pycache_sentence
from hookman.commands.options import (
    CLAUDE_VERSION,
    DRY_RUN,
    JSON,
    PROJECT,
    Argument,
    Option,
    agent_values,
    cli_command,
)
from hookman.commands.plan_wording import PROMPT_GATE_NOTE, SENTINEL_NOTE, held_back_sentences
from hookman.commands.serve_path_wording import not_running_sentence, paths_sentence
from hookman.commands.sync_report import (
    codex_sentences,
    store_sentences,
    subscription_sentences,
    sync_json,
    sync_warnings,
)
from hookman.errors import HookmanError
from hookman.hooks.sources import HookChoice, choose_hook, choose_repo_hook
from hookman.install.fetched import repos_of, store_snapshot
from hookman.install.report import project_target
from hookman.install.sync import SyncResult, sync_if_nothing_changes, sync_project
from hookman.output import console, escape, print_json
from hookman.project.config import (
    KNOWN_AGENTS,
    HookSpec,
    NewHook,
    ProjectConfigView,
    load_project_config,
    read_project_config,
)
from hookman.project.hooks_gitignore import PycacheIgnore
from hookman.project.location import CLAUDE_DIR, find_project_dir
from hookman.project.lock import edit_lock
from hookman.project.serve_paths import ServePlan, paths_json

if TYPE_CHECKING:
    from hookman.doctor.serve_probe import ServerState
    from hookman.hooks.subscriptions import Subscriptions
    from hookman.install.unchanged import Recorder
    from hookman.json_shapes import InstallJson, ServePlanJson
    from hookman.output import Printer

RUNNING = "running"  # hookman/doctor/serve_probe.py RUNNING (imported only when asked)


@cli_command(
    "install",
    Argument(
        "hooks",
        "[HOOK]...",
        variadic=True,
        show_default=False,
        complete="installable",
        help="Hooks to add: a path to a .py factory, or a name known to hookman.toml, the "
        "user registry or the bundled templates. None: rewrite settings from hookman.toml.",
    ),
    Option(
        "--name", metavar="NAME", help="Name for a single path hook (default: the file's stem)."
    ),
    Option(
        "--allow-unknown-event",
        flag=True,
        help="Keep event names no Claude Code version knows (inert).",
    ),
    Option(
        "--async",
        secondary="--no-async",
        dest="run_async",
        help="Observe-only: run the hooks given in a separate entry Claude Code does not "
        "wait for (--no-async: wait again). Default: keep each hook's setting.",
    ),
    Option(
        "--repo",
        metavar="REPO",
        help="Install the named hooks from this hook repository (a git URL or a path).",
    ),
    Option("--rev", metavar="REV", help="With --repo: the tag or full commit SHA to pin."),
    Option(
        "--agent",
        dest="agents",
        metavar="AGENT",
        multiple=True,
        help=f"Also write this agent's hooks from now on ({agent_values()}), recorded as "
        "`agents` in hookman.toml.",
    ),
    Option(
        "--codex-version",
        metavar="V",
        help="Target Codex CLI version (default: `codex --version`).",
    ),
    Option(
        "--qwen-version",
        metavar="V",
        help="Target Qwen Code version (default: `qwen --version`).",
    ),
    Option(
        "--droid-version",
        metavar="V",
        help="Target Factory droid version (default: `droid --version`).",
    ),
    Option(
        "--no-codex-trust",
        dest="codex_trust",
        flag=True,
        value=False,
        help="Do not record Codex's trust in hookman's own hooks; only say what to do.",
    ),
    PROJECT,
    CLAUDE_VERSION,
    DRY_RUN,
    JSON,
    help="""Add hooks to the project and write its Claude Code settings.

    Writes .claude/hookman.toml and .claude/settings.local.json (and, when the project's
    agents include them, Codex CLI's .codex/hooks.json, Qwen Code's .qwen/settings.json and
    Factory droid's .factory/hooks.json).""",
    examples=(
        "hookman install hooks/guard.py",
        "hookman install guard --async",
        "hookman install          # rewrite settings from hookman.toml",
    ),
)
def install(
    hooks: Sequence[str] = (),
    *,
    name: str | None = None,
    allow_unknown_event: bool = False,
    run_async: bool | None = None,
    project: Path | None = None,
    claude_version: str | None = None,
    dry_run: bool = False,
    json_output: bool = False,
    repo: str | None = None,
    rev: str | None = None,
    agents: Sequence[str] = (),
    codex_version: str | None = None,
    codex_trust: bool = True,
    qwen_version: str | None = None,
    droid_version: str | None = None,
) -> int:
    """Install `hooks` into the project and write its settings. Returns the exit code.

    `agents` (`--agent codex`) records in hookman.toml that hookman writes those agents'
    hooks too (`agents = [...]`, docs/agents.md); with Codex CLI in the project's agents,
    .claude/.. and .codex/hooks.json are written, and (`codex_trust`) Codex's trust in
    hookman's own entries is recorded through its app server. Qwen Code (`qwen`) and Factory
    droid (`droid`) get their own hooks files (`qwen_version`, `droid_version`: the target,
    default `PROGRAM --version`); GitHub Copilot CLI (`copilot`) runs settings.local.json's
    entries, so nothing of its own is written for it.

    With `repo` and `rev`, each of `hooks` is the name of a hook the repository offers
    (its hookman-hooks.toml); hookman.toml records the repository and rev, the commit the rev
    names goes into .claude/hookman-pins.json, and the code is fetched into the store.

    `run_async` True (`--async`) makes the hooks given observe-only: they run in a separate
    `async: true` entry Claude Code does not wait for; False (`--no-async`) makes them
    blocking again; None keeps each listed hook's setting (a new hook is blocking).

    `--json` prints an `InstallJson` (hookman/json_shapes.py): what was written, with
    "installed", the names given on this command line.
    Exit 1 when a hook is missing or broken (it was written anyway: a guard then denies).
    """
    _check_options(hooks, name, run_async, repo, rev, agents)
    since = time.time_ns()  # a bare install that wrote nothing is remembered (_remembered)
    versions = {QWEN_AGENT: qwen_version, DROID_AGENT: droid_version}
    _check_codex_here(agents, codex_version)
    _check_agents_here(agents, versions)
    project_dir = find_project_dir(project)
    if not hooks and not (project_dir / CLAUDE_DIR).exists():
        raise HookmanError(
            f"there is nothing to install in {project_dir}: it has no .claude/ directory, so no "
            "hookman.toml lists a hook.",
            "start with `hookman new NAME --template bash_guard --install` (`hookman new --list` "
            "shows the templates), or `hookman install PATH.py` for a hook you have.",
        )
    preview = read_project_config(project_dir)
    target = project_target(project_dir, claude_version, preview)
    origin = None if repo is None or rev is None else (repo, rev)
    # What the store holds before anything is fetched (learning a new repository hook does).
    stored_before = store_snapshot(
        [*repos_of(preview.hooks), *([repo] if repo else [])], project_dir
    )
    learned = _learn_all(
        hooks, name, preview, project_dir, allow_unknown_event, keep=not dry_run, origin=origin
    )
    result = None
    new_agents = [agent for agent in agents if agent not in preview.agents]
    options: dict[str, Any] = {
        "codex_version": codex_version,
        "trust_codex": codex_trust,
        "agent_versions": versions,
        "known": {choice.name: subscriptions for choice, subscriptions in learned},
        "allow_unknown_event": allow_unknown_event,
    }
    # Most repeated installs change nothing: then no lock (a hook not listed yet: a change).
    if not dry_run and all(preview.find(choice.name) for choice, _ in learned):
        edited = learned or new_agents
        unlocked = (
            _edited_config(project_dir, learned, run_async, new_agents) if edited else preview
        )
        result = sync_if_nothing_changes(project_dir, unlocked, target, **options)
    recorder = (
        _recorder() if not (hooks or claude_version or json_output or result is None) else None
    )
    if result is None:
        with edit_lock(project_dir, dry_run=dry_run):
            config = _edited_config(project_dir, learned, run_async, new_agents)
            result = sync_project(
                project_dir, config, target, dry_run=dry_run, stored_before=stored_before, **options
            )
    installed = [choice.name for choice, _ in learned]
    if json_output:
        shown: InstallJson = {**sync_json(result), "installed": installed}
        served = serve_json(result)
        if served is not None:
            shown["serve"] = served
        print_json(shown)
    else:
        print_sync_report(result, verb="installed", names=installed, printer=recorder)
    _remembered(project_dir, result, recorder, since)
    return exit_code_of(result)


def _recorder() -> Recorder:
    from hookman.install.unchanged import Recorder

    return Recorder(console())


def _remembered(
    project_dir: Path, result: SyncResult, recorder: Recorder | None, since: int
) -> None:
    """A bare install that wrote nothing: what it printed, for the next one to print while
    its inputs stay as they are (install/unchanged.py; --agent, --claude-version and the
    other agents' versions take the full install, as a stamp is not written for them)."""
    serve = result.plan.serve
    if serve is not None and serve.reaches_server():
        return  # its output says whether the server runs now: asked live, never replayed
    if recorder is not None:
        from hookman.install.unchanged import remember_unchanged

        remember_unchanged(project_dir, result, recorder, exit_code_of(result), since)


def _check_options(
    hooks: Sequence[str],
    name: str | None,
    run_async: bool | None,
    repo: str | None,
    rev: str | None,
    agents: Sequence[str],
) -> None:
    """Refuse options that do not go together (exit 2) before anything is read."""
    if run_async is not None and not hooks:
        raise HookmanError(
            f"--{'' if run_async else 'no-'}async applies to the hooks given, but none was.",
            "name the hooks: `hookman install NAME --async`.",
            exit_code=2,
        )
    if name is not None and len(hooks) != 1:
        raise HookmanError(
            f"--name names exactly one hook, but {len(hooks)} were given.",
            "install the hooks one at a time when you rename them.",
            exit_code=2,
        )
    if (repo is None) != (rev is None):
        raise HookmanError(
            "--repo and --rev go together: a hook repository is pinned at a rev.",
            "e.g. `hookman install no-rm-rf --repo https://example.org/acme/agent-hooks.git "
            "--rev v1.2.0`.",
            exit_code=2,
        )
    if repo is not None and not hooks:
        raise HookmanError(
            "--repo needs the names of the hooks to install from it.",
            f"`hookman try-repo {shlex.quote(repo)}` lists what it offers.",
            exit_code=2,
        )
    for agent in agents:
        if agent not in KNOWN_AGENTS:
            raise HookmanError(
                f"--agent {agent!r} is not an agent hookman writes hooks for.",
                "pass one of: " + ", ".join(KNOWN_AGENTS) + ".",
                exit_code=2,
            )


def _check_codex_here(agents: Sequence[str], codex_version: str | None) -> None:
    """`--agent codex` where Codex CLI is not installed is refused before anything is
    written: the entries would run nowhere and Codex could not be asked to trust them. A
    committed `agents` list is quiet there instead (install/sync.py); --codex-version V
    writes for a Codex that is not here yet."""
    if CODEX_AGENT not in agents or codex_version is not None:
        return
    from hookman.catalog import codex_catalog

    if not codex_catalog.codex_installed():
        raise HookmanError(
            "--agent codex asks hookman to wire Codex CLI, but it is not installed here (no "
            "`codex` on PATH), so nothing would run its entries and Codex could not be asked "
            "to trust them; nothing was written.",
            "install Codex CLI and run `hookman install --agent codex` again, or pass "
            "--codex-version V to write its entries for a Codex installed later.",
        )


def _check_agents_here(agents: Sequence[str], versions: dict[str, str | None]) -> None:
    """`--agent qwen` (or droid) where its program is not installed is refused before
    anything is written, as `--agent codex` is: the entries would run nowhere. A committed
    `agents` list is quiet there instead (install/agent_step.py); --AGENT-version V writes
    for one installed later."""
    from hookman.agents import agent_facts

    for agent in agent_facts.file_agents():
        if agent not in agents or versions.get(agent) is not None:
            continue
        if agent_facts.agent_installed(agent):
            continue
        name, program = agent_facts.display_name(agent), agent_facts.program(agent)
        raise HookmanError(
            f"--agent {agent} asks hookman to wire {name}, but it is not installed here (no "
            f"`{program}` on PATH), so nothing would run its entries; nothing was written.",
            f"install {name} and run `hookman install --agent {agent}` again, or pass "
            f"--{agent}-version V to write its entries for a {name} installed later.",
        )


def _edited_config(
    project_dir: Path,
    learned: list[tuple[HookChoice, Subscriptions]],
    run_async: bool | None,
    agents: Sequence[str] = (),
) -> ProjectConfigView:
    """hookman.toml with the learned hooks and the new agents put in (read-only, so no
    tomlkit, when none)."""
    if not learned and not agents:
        return read_project_config(project_dir)
    config = load_project_config(project_dir)
    for agent in agents:
        config.add_agent(agent)
    listed = {hook.name: hook for hook in config.hooks}
    for choice, _ in learned:
        _check_still_same_source(choice, listed.get(choice.name))
    records = [
        NewHook(choice.name, choice.source, subscriptions.events, subscriptions.tools)
        for choice, subscriptions in learned
    ]
    config.put_hooks(records, run_async=run_async)  # one pass: validated once
    return config


def _learn_all(
    arguments: Sequence[str],
    name: str | None,
    config: ProjectConfigView,
    project_dir: Path,
    allow_unknown_event: bool,
    *,
    keep: bool,
    origin: tuple[str, str] | None = None,
) -> list[tuple[HookChoice, Subscriptions]]:
    # Imported here: the child that learns is started only when a module changed.
    from hookman.hooks.subscriptions import (
        LearnRequest,
        check_event_names,
        learn_many,
        subscriptions_or_raise,
    )

    choices: dict[str, HookChoice] = {}
    requests: list[LearnRequest] = []
    for argument in arguments:
        if origin is not None:
            choice = choose_repo_hook(
                argument, *origin, name=name, project_dir=project_dir, config=config
            )
        else:
            choice = choose_hook(
                argument, name_override=name, project_dir=project_dir, config=config
            )
        if choice.name in choices:
            _check_same_hook(choices[choice.name], choice)
            continue
        if not choice.module_path.is_file():
            raise HookmanError(
                f"the module of the hook {choice.name!r} ({choice.module_path}) does not exist.",
                "check the path, or fix the registry entry with `hookman registry add`.",
            )
        # A hook not yet listed is known only by what was typed (e.g. hooks/x.py).
        retry = choice.name if choice.already_listed else shlex.quote(argument)
        if name is not None and not choice.already_listed:
            retry += f" --name {shlex.quote(name)}"
        choices[choice.name] = choice
        requests.append(LearnRequest(choice.name, choice.module_path, choice.package_root, retry))
    # One child for every hook named here (none for those learned before).
    outcomes = learn_many(requests, project_dir, keep=keep) if requests else {}
    learned: list[tuple[HookChoice, Subscriptions]] = []
    for choice in choices.values():
        subscriptions = subscriptions_or_raise(outcomes, choice.name)
        check_event_names(choice.name, subscriptions.events, allow_unknown=allow_unknown_event)
        learned.append((choice, subscriptions))
    return learned


def _check_same_hook(first: HookChoice, again: HookChoice) -> None:
    # The same hook given twice is harmless; two different ones under one name would
    # silently lose the second.
    if first.source != again.source:
        raise HookmanError(
            f"two of the hooks given would both be named {first.name!r} "
            f"({first.source.describe()} and {again.source.describe()}).",
            "install them one at a time, and give one of them another name with --name.",
        )


def _check_still_same_source(choice: HookChoice, listed: HookSpec | None) -> None:
    # Another hookman may have listed the same name while this one was learning.
    if listed is not None and listed.source != choice.source:
        raise HookmanError(
            f"hookman.toml already has a hook named {choice.name!r} "
            f"(from {listed.source.describe()}).",
            "pick another name with --name, or `hookman remove` the old one first.",
        )


DRY_RUN_VERBS = {
    "installed": "install",
    "removed": "remove",
    "enabled": "enable",
    "disabled": "disable",
}


def print_sync_report(
    result: SyncResult, *, verb: str, names: Sequence[str], printer: Printer | None = None
) -> None:
    """The human-readable summary shared by install and remove: the hooks named, the target,
    each entry hookman's part of settings.local.json now holds, and which files changed
    (`printer`: where to, default the console)."""
    out = console() if printer is None else printer
    if result.dry_run:
        out.print("[bold]dry run:[/] nothing was written.")
        for diff in (result.config_diff, result.settings_change.diff()):
            if diff:
                out.print(diff, end="", markup=False, highlight=False)
    for name in names:
        said = f"would {DRY_RUN_VERBS.get(verb, verb)}" if result.dry_run else verb
        out.print(f"{said} [bold]{escape(name)}[/]")
    for sentence in subscription_sentences(result):
        out.print(escape(sentence), highlight=False)
    out.print(f"Claude Code target: {escape(result.target.describe())}", highlight=False)
    for event, entry in result.plan.entries.items():
        gate = event == PROMPT_GATE_EVENT and result.plan.prompt_gate_only
        out.print(
            f"  {escape(event)}{_matcher_text(entry.matcher)} [dim]timeout[/] {entry.timeout}s"
            + (f" [dim]({PROMPT_GATE_NOTE})[/]" if gate else "")
        )
    for event, entry in result.plan.async_entries.items():
        out.print(
            f"  {escape(event)} [dim](async)[/]{_matcher_text(entry.matcher)} "
            f"[dim]timeout[/] {entry.timeout}s"
        )
    for event, entry in result.plan.sentinels.items():
        tools = "every other tool" if entry.matcher is not None else "every tool"
        out.print(
            f"  {escape(event)} [dim]{tools}[/] [dim]timeout[/] {entry.timeout}s "
            f"[dim]({SENTINEL_NOTE})[/]"
        )
    if not result.plan.entries and not result.plan.async_entries:
        out.print("  no hookman entries (no enabled hook needs a Claude Code event)")
    print_serve_paths(result, out)
    for sentence in held_back_sentences(result.plan, result.target):
        out.print(f"[yellow]{escape(sentence)}[/]")
    if result.target.version is None and result.plan.held_back:
        out.print(
            "  [dim]pass --claude-version V or set claude_version in hookman.toml to write "
            "newer events[/]"
        )
    if not result.dry_run:
        if result.config_diff:
            out.print(".claude/hookman.toml changed")
        settings_state = "changed" if result.settings_change.changed else "unchanged"
        out.print(f".claude/settings.local.json {settings_state}")
    if result.git:
        said = exclusion_sentence(result.git)
        out.print(f"git: .claude/settings.local.json {escape(said)}")
    for sentence in store_sentences(result):
        out.print(escape(sentence), highlight=False)
    if result.pycache is PycacheIgnore.WRITTEN:
        out.print(f"git: {escape(pycache_sentence())}", highlight=False)
    for sentence in codex_sentences(result):
        out.print(escape(sentence), highlight=False)
    for sentence in agent_sentences(result):
        out.print(escape(sentence), highlight=False)
    for warning in sync_warnings(result):
        out.print(f"[yellow]warning:[/] {escape(warning)}")
    print_missing(result)
    print_broken(result)


def print_serve_paths(result: SyncResult, out: Any = None) -> bool:
    """Where the user opted in to the warm hook server: which events reach it and which stay
    command entries (and why); with entries reaching it, a hint when it is not running
    (install never starts it). `out`: the printer (default: the console). Returns whether
    what it printed depends on the server's state now (asked live, not read from a file:
    such output must not be replayed later)."""
    serve = result.plan.serve
    if serve is None:
        return False
    out = out or console()
    out.print(escape(paths_sentence(serve, result.target.version)), highlight=False)
    state = None if result.dry_run else _server_state(serve)
    if state is not None and state.state != RUNNING:
        sentence = not_running_sentence(serve, state.state, _state_detail(state))
        out.print(f"[yellow]warning:[/] {escape(sentence)}", highlight=False)
    return state is not None


def _state_detail(state: ServerState) -> str:
    """What not_running_sentence says of the state: hookman's own unanswering server named."""
    from hookman.doctor.serve_probe import UNRESPONSIVE, unresponsive_sentence

    return unresponsive_sentence(state) if state.state == UNRESPONSIVE else state.detail


def _server_state(serve: ServePlan) -> ServerState | None:
    """What answers on the server's port, asked only when an entry reaches it."""
    if not serve.reaches_server():
        return None
    from hookman.doctor.serve_probe import probe

    return probe(serve.port)


def serve_json(result: SyncResult) -> ServePlanJson | None:
    """install's `serve` key: each entry's path, and the server's state (None: not opted in)."""
    described = paths_json(result.plan.serve)
    if described is None or result.plan.serve is None:
        return None
    state = None if result.dry_run else _server_state(result.plan.serve)
    described["server"] = None if state is None else state.state
    return described  # type: ignore[return-value]  # built to ServePlanJson's shape


def print_broken(result: SyncResult) -> None:
    """The hooks whose module does not compile: written anyway (a guard among them denies);
    their presence makes the command exit 1."""
    out = console()
    for problem, fix in result.broken.values():
        out.print(f"[red]does not load:[/] {escape(problem)}", highlight=False)
        out.print(f"  fix: {escape(fix)}", highlight=False)


def print_missing(result: SyncResult) -> None:
    """The hooks this machine lacks: written anyway (they fail to load, so a guard among
    them denies), each with how to get it. Their presence makes the command exit 1."""
    out = console()
    for name, (problem, fix) in result.missing.items():
        there = name in result.not_files  # a named pipe at its path: there, but not a file
        label = "does not load:" if there else "missing:"
        out.print(f"[red]{label}[/] {escape(problem)}", highlight=False)
        until = "until it is a Python file again" if there else "until it is there"
        out.print(
            f"  {until}, {escape(name)} fails to load whenever it should run "
            "(a guard denies its tool calls).",
            highlight=False,
        )
        if fix:
            out.print(f"  fix: {escape(fix)}", highlight=False)


def exit_code_of(result: SyncResult) -> int:
    """1 when a listed hook's module is missing on this machine or does not compile (the rest
    was written)."""
    return 1 if result.missing or result.broken else 0


def _matcher_text(matcher: str | None) -> str:
    return f" [dim]matcher[/] {escape(matcher)}" if matcher else ""
