"""What install writes for Codex CLI, and the trust Codex needs before it runs it.

The entries: one matcher group per event, as for Claude Code (Codex launches matching hooks
concurrently, so one ordered runner per event keeps hookman's dispatch order), for the
events hookman planned that the installed Codex version knows (catalog/codex_events.json),
each running the project's launcher with `--agent codex`, so the runner answers in Codex's
protocol (bridge/codex_answer.py). A timeout Codex clamps (SessionEnd: 3 s) is written as
the clamp. Async hooks keep the runner's `--async` (it answers at once and runs them in a
child), without Claude Code's `"async": true` key.

Trust: Codex skips a non-managed hook until CODEX_HOME/config.toml trusts its current hash,
and a rewritten definition has a new hash. After a write that changed the file, hookman
records trust for its own entries through `codex app-server` (codex_app_server.py), which the
user asked for by installing them, and reports exactly which; where it cannot, what is left
to the user (a TrustTodo). The sentences are the commands' (commands/codex_wording.py).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from hookman.agents.codex_app_server import CodexAppServerError, list_hooks, trust
from hookman.agents.codex_files import codex_hooks_path
from hookman.bridge.protocol import CODEX_AGENT, PRE_TOOL_USE
from hookman.catalog import codex_catalog, event_catalog
from hookman.catalog.client_version import ClientVersion
from hookman.project.config import HookSpec
from hookman.project.install_plan import InstallPlan
from hookman.project.settings_entries import HookmanEntry, build_command, is_hookman_command

REWRITING_EVENT = "tool_result"  # the runtime event whose result may replace a tool's output
POST_TOOL_USE = "PostToolUse"
SHELL_TOOL = "Bash"  # the name Codex's hooks see for its shell tool, exec_command


class VersionFacts(Enum):
    """The agent version whose facts (catalog/codex_events.json, <agent>_events.json) a
    plan uses."""

    CHECKED = "checked"  # the target's own, or an older checked version's
    OLDEST = "oldest"  # `PROGRAM --version` gave no answer: the oldest version checked
    NEWEST = "newest"  # the target is newer than every version checked: the newest's

    @classmethod
    def of(cls, version: ClientVersion | None, newest: ClientVersion) -> VersionFacts:
        if version is None:
            return cls.OLDEST
        return cls.NEWEST if version > newest else cls.CHECKED


def no_such_tool(one: bool = True) -> str:
    """Why Codex never names a Claude Code tool in a hook payload (catalog "hook_tools")."""
    name = "that name" if one else "those names"
    return f"(it has no tool by {name}; its shell tool reaches hooks as {SHELL_TOOL!r})"


@dataclass(frozen=True)
class UnsentTools:
    """A subscription asking for tools Codex never names in a hook payload."""

    subscription: str  # the runtime (or Claude Code) event the hook listens to
    tools: tuple[str, ...]  # the tools it asks for that Codex never sends
    runs_for: tuple[str, ...]  # the other tools it asks for (empty: never runs for it)

    def sentence(self, hook: str, never_runs: bool) -> str:
        """What install, list and doctor say about it (`never_runs`: Codex runs the hook for
        none of its subscriptions)."""
        tools = ", ".join(repr(tool) for tool in self.tools)
        one = len(self.tools) == 1
        why = f"{'a tool' if one else 'tools'} Codex never names in its hooks' payloads " + (
            no_such_tool(one)
        )
        asked = f"the hook {hook!r} asks for {tools} on {self.subscription!r}, {why}"
        if never_runs:
            return f"{asked}: it never runs under Codex."
        if not self.runs_for:
            return f"{asked}: it never runs under Codex for {self.subscription!r}."
        rest = ", ".join(repr(tool) for tool in self.runs_for)
        return f"{asked}: under Codex it runs for {rest} only."


@dataclass(frozen=True)
class CodexPlan:
    """The entries for Codex and what could not be written for it."""

    version: ClientVersion | None
    entries: list[HookmanEntry]
    # Claude Code events hookman planned that this Codex version does not run hooks for
    not_in_codex: list[str] = field(default_factory=list)
    # hook name -> its runtime (or Claude Code) subscriptions no Codex event serves
    without_counterpart: dict[str, list[str]] = field(default_factory=dict)
    # hooks that may rewrite a tool's output (tool_result), which hookman does not pass on
    output_rewriters: list[str] = field(default_factory=list)
    # hooks that guard shell commands: Codex runs no hook for what the model types into a
    # running command (write_stdin), so they never see it
    shell_guards: list[str] = field(default_factory=list)
    # hook name -> [(the Codex tool name it asks for, the name Codex's hooks see instead)]
    codex_tool_names: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # hook name -> the subscriptions whose tools name some Codex never sends in a hook
    # payload (Write, Edit: catalog "hook_tools"), so it never runs for them under Codex
    never_sent: dict[str, list[UnsentTools]] = field(default_factory=dict)
    # hooks all of whose subscriptions Codex never runs (no counterpart, or only tools it
    # never sends)
    never_run: list[str] = field(default_factory=list)

    @property
    def events(self) -> list[str]:
        return list(dict.fromkeys(entry.event for entry in self.entries))

    @property
    def facts(self) -> VersionFacts:
        """Which of hookman's Codex facts the entries were planned from."""
        return VersionFacts.of(self.version, codex_catalog.newest_checked())


def plan_codex(
    hooks: Sequence[HookSpec], plan: InstallPlan, launcher: Path, version: ClientVersion | None
) -> CodexPlan:
    known = codex_catalog.hookman_codex_events(version)
    guarded = event_catalog.guarded_events()
    entries: list[HookmanEntry] = []
    # No prompt gate: Codex honours no stop of a prompt (codex_events.json "answers").
    served = plan.hook_entries()
    for event, entry in served.items():
        if event in known:
            command = build_command(event, launcher, guarded=event in guarded, agent=CODEX_AGENT)
            entries.append(
                HookmanEntry(event, entry.matcher, command, _capped(event, entry.timeout))
            )
    for event, entry in plan.async_entries.items():
        if event in known:
            command = build_command(event, launcher, run_async=True, agent=CODEX_AGENT)
            timeout = _capped(event, entry.timeout)
            entries.append(
                HookmanEntry(event, entry.matcher, command, timeout, is_async=True, async_key=False)
            )
    planned = [*served, *plan.async_entries]
    not_in_codex = list(dict.fromkeys(event for event in planned if event not in known))
    without: dict[str, list[str]] = {}
    rewriters: list[str] = []
    shell_guards: list[str] = []
    seen_as = {codex: seen for seen, codex in codex_catalog.codex_catalog()["tools"].items()}
    named: dict[str, list[tuple[str, str]]] = {}
    for hook in hooks:
        if not hook.enabled:
            continue
        asked = dict.fromkeys(name for names in hook.tools.values() for name in names)
        for name in asked:
            if name in seen_as:
                named.setdefault(hook.name, []).append((name, seen_as[name]))
        if REWRITING_EVENT in hook.events and POST_TOOL_USE in known:
            rewriters.append(hook.name)
        for subscription in hook.events:
            tools = hook.tools.get(subscription)
            served = event_catalog.claude_events_for(subscription, tools)
            if served and not any(event in known for event in served):
                without.setdefault(hook.name, []).append(subscription)
            shell = tools is None or SHELL_TOOL in tools or event_catalog.ALL_TOOLS in tools
            guards = PRE_TOOL_USE in served and PRE_TOOL_USE in known and not hook.is_async
            if guards and shell and hook.name not in shell_guards:
                shell_guards.append(hook.name)
    unsent = {hook.name: _unsent_of(hook, known) for hook in hooks if hook.enabled}
    unsent = {name: found for name, found in unsent.items() if found}
    never_run = [hook.name for hook in hooks if hook.enabled and _never_runs(hook, without, unsent)]
    return CodexPlan(
        version, entries, not_in_codex, without, rewriters, shell_guards, named, unsent, never_run
    )


def _unsent_of(hook: HookSpec, known: Sequence[str]) -> list[UnsentTools]:
    """The hook's subscriptions a Codex event serves whose tools name some Codex never
    sends in a hook payload (catalog "hook_tools")."""
    found: list[UnsentTools] = []
    for subscription in hook.events:
        tools = hook.tools.get(subscription)
        if not tools or event_catalog.ALL_TOOLS in tools:
            continue
        served = event_catalog.claude_events_for(subscription, tools)
        if not any(event in known for event in served):
            continue
        unsent = codex_catalog.never_sent_tools(tools)
        if unsent:
            rest = tuple(tool for tool in dict.fromkeys(tools) if tool not in unsent)
            found.append(UnsentTools(subscription, tuple(unsent), rest))
    return found


def _never_runs(
    hook: HookSpec, without: dict[str, list[str]], unsent: dict[str, list[UnsentTools]]
) -> bool:
    """Whether Codex runs the hook for none of its subscriptions."""
    silent = set(without.get(hook.name, []))
    silent |= {found.subscription for found in unsent.get(hook.name, []) if not found.runs_for}
    return bool(hook.events) and all(subscription in silent for subscription in hook.events)


def _capped(event: str, timeout: int | float | None) -> int | float | None:
    cap = codex_catalog.timeout_cap(event)
    if cap is None or timeout is None or timeout <= cap:
        return timeout
    return int(cap) if cap == int(cap) else cap


def manifest_section(codex: CodexPlan) -> dict[str, Any]:
    """The manifest's "codex" section: what the runner needs to answer Codex."""
    return {
        "version": None if codex.version is None else str(codex.version),
        "events": codex.events,
        "answers": codex_catalog.answer_fields(),
    }


class TrustTodo(Enum):
    """What is left to the user when hookman could not make Codex trust its hooks."""

    ASK_FAILED = "ask-failed"  # Codex's app server did not list its hooks (`error`)
    NONE_LISTED = "none-listed"  # Codex trusts the project, yet lists none of hookman's hooks
    PROJECT_NOT_TRUSTED = "project-not-trusted"  # so Codex does not read .codex/hooks.json
    NOT_RECORDED = "not-recorded"  # --no-codex-trust: `untrusted` stay untrusted
    RECORD_FAILED = "record-failed"  # the app server did not record the trust (`error`)


@dataclass
class CodexTrust:
    """What the trust step did: keys trusted now, hookman entries already trusted, and what
    the user must do when hookman could not (None: nothing), with what it is about: the keys
    left untrusted, or the app server's error."""

    trusted: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    todo: TrustTodo | None = None
    untrusted: list[str] = field(default_factory=list)
    error: str | None = None


def trust_hookman_hooks(project_dir: Path, *, record: bool = True) -> CodexTrust:
    """Record Codex's trust in hookman's own entries of the project's .codex/hooks.json
    (with `record`), through Codex's app server; say what is left to the user."""
    source = os.path.realpath(codex_hooks_path(project_dir))
    outcome = CodexTrust()
    try:
        hooks = [
            hook
            for hook in list_hooks(str(project_dir))
            if os.path.realpath(hook.source_path or "/") == source
            and is_hookman_command(hook.command)
        ]
    except CodexAppServerError as error:
        outcome.todo, outcome.error = TrustTodo.ASK_FAILED, str(error)
        return outcome
    if not hooks:
        outcome.todo = project_trust_todo(project_dir)
        return outcome
    untrusted = [hook for hook in hooks if not hook.trusted]
    outcome.already = [hook.key for hook in hooks if hook.trusted]
    if not untrusted:
        return outcome
    if not record:
        outcome.todo, outcome.untrusted = TrustTodo.NOT_RECORDED, [hook.key for hook in untrusted]
        return outcome
    try:
        trust([(hook.key, hook.current_hash) for hook in untrusted])
    except CodexAppServerError as error:
        outcome.todo, outcome.error = TrustTodo.RECORD_FAILED, str(error)
        return outcome
    outcome.trusted = [hook.key for hook in untrusted]
    return outcome


def project_trust_todo(project_dir: Path) -> TrustTodo:
    """What to do when Codex lists none of hookman's hooks: it reads the project's .codex/
    only for a project it trusts (`[projects."DIR"] trust_level = "trusted"` in
    $CODEX_HOME/config.toml, measured on 0.150.0 and 0.171.0)."""
    if _trusted_in_config(project_dir):
        return TrustTodo.NONE_LISTED
    return TrustTodo.PROJECT_NOT_TRUSTED


def _trusted_in_config(project_dir: Path) -> bool:
    """Whether CODEX_HOME/config.toml (default ~/.codex) trusts the project or a directory
    above it (unreadable: no)."""
    from hookman.paths import codex_home
    from hookman.toml_data import read_toml_file

    projects = (read_toml_file(codex_home() / "config.toml") or {}).get("projects")
    if not isinstance(projects, dict):
        return False
    for directory in (project_dir, *project_dir.parents):
        entry = projects.get(str(directory))
        if isinstance(entry, dict) and entry.get("trust_level") == "trusted":
            return True
    return False
