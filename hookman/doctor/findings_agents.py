"""What Qwen Code, Factory droid and GitHub Copilot CLI have in common in doctor: their files
as sources of the merged view, the per-machine quiet when the agent is not installed, files
that do not parse, events the agent does not know, an off switch, hookman's entries that do
not say which agent runs them, and answers the agent fails open on. The facts are data
(doctor_facts.json, "agents"); findings_qwen, findings_droid and findings_copilot call these
with their own agent.

Codes are the agent's name and the problem (`qwen-unknown-event`, `droid-exit-1-not-2`),
as Codex's are (findings_codex.py).
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

from hookman.agents import agent_facts
from hookman.bridge.protocol import AGENT_FLAG
from hookman.catalog import agent_catalog
from hookman.doctor.agent_files import AgentFile, doctor_facts_of, pattern_facts
from hookman.doctor.agent_files import holds_hooks as holds_hooks
from hookman.doctor.agent_files import named_in_agents as named_in_agents
from hookman.doctor.context import Context
from hookman.doctor.findings_commands import script_path
from hookman.doctor.handlers import key_path
from hookman.doctor.locate import json_line
from hookman.doctor.model import Finding, Handler, Source
from hookman.doctor.names import slip_of
from hookman.doctor.script_text import HookText, has_guard_words, hook_text
from hookman.errors import HookmanError
from hookman.project.settings_entries import is_hookman_command, shell_words


def agent_name(agent: str) -> str:
    return agent_catalog.display_name(agent)


def agent_events(agent: str) -> list[str]:
    """Every event the agent runs hooks for (its own among them: the runner's catalog)."""
    return agent_catalog.agent_events(agent)


def installed(agent: str) -> bool:
    """Whether the agent's program is on PATH (per machine: docs/agents.md), as install
    decides it."""
    return agent_facts.agent_installed(agent)


def add_sources(
    ctx: Context, agent: str, files: list[AgentFile], invalid_code: str
) -> list[Handler]:
    """The agent's files as sources of the merged view, and their handlers (`invalid_code`:
    the finding that explains a file the agent cannot parse)."""
    found: list[Handler] = []
    for file in files:
        source = Source(
            agent,  # type: ignore[arg-type]
            str(file.path),
            exists=file.exists,
            readable=file.error is None or file.data is not None,
            data=None if file.hooks is None else {"hooks": file.hooks},
            error=file.error,
            loaded=file.error is None,
            silenced_by=None if file.error is None else invalid_code,
            label=file.label,
        )
        ctx.sources.sources.append(source)
        found.extend(file_handlers(source, file.hooks or {}, file.hooks_key))
    ctx.handlers.extend(found)
    return found


def file_handlers(source: Source, hooks: dict[str, Any], hooks_key: str | None) -> list[Handler]:
    found = []
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for index, group in enumerate(groups):
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list):
                continue
            matcher = group.get("matcher")
            for position, raw in enumerate(entries):
                if isinstance(raw, dict):
                    at = f"{key_path(hooks_key or '', event)}[{index}]"
                    found.append(_handler(source, f"{at}.hooks[{position}]", event, matcher, raw))
    return found


def _handler(source: Source, path: str, event: str, matcher: Any, raw: dict[str, Any]) -> Handler:
    command = raw.get("command")
    text = command if isinstance(command, str) else None
    timeout = raw.get("timeout")
    return Handler(
        source,
        path,
        event,
        matcher if isinstance(matcher, str) else None,
        raw.get("type") if isinstance(raw.get("type"), str) else None,
        text,
        float(timeout) if isinstance(timeout, int | float) else None,
        raw,
        hookman=text is not None and is_hookman_command(text),
    )


def add(ctx: Context, finding: Finding) -> None:
    """Add a finding, with its line where it is about a place in a JSON file."""
    path = Path(finding.file) if finding.file else None
    if finding.path is not None and path is not None and path.suffix == ".json":
        with contextlib.suppress(OSError, UnicodeDecodeError):
            finding.line = json_line(path.read_text(encoding="utf-8-sig"), finding.path)
    ctx.add(finding)


# --- per machine -----------------------------------------------------------------------


def not_installed(ctx: Context, agent: str, handlers: list[Handler], code: str) -> None:
    """The agent is not installed here: one info finding, no other check of its files."""
    from hookman.project.location import config_path

    for handler in handlers:
        handler.silence(code)
    name, program = agent_name(agent), agent_catalog.binary_name(agent)
    held = f" ({len(handlers)} hook(s) in its files are not run here)" if handlers else ""
    ctx.add(
        Finding(
            code,
            "info",
            str(config_path(ctx.project_dir)),
            f"{name} is not installed here (no `{program}` on PATH), so nothing on this "
            f"machine runs its hooks{held} and doctor did not check them.",
            f"once {name} is installed, run `hookman install` to wire it, then `hookman doctor`.",
        )
    )


# --- files and events ------------------------------------------------------------------


def check_invalid(ctx: Context, agent: str, file: AgentFile, code: str) -> None:
    effect = doctor_facts_of(agent)["invalid_file"][file.layer]
    add(
        ctx,
        Finding(
            code,
            "error",
            str(file.path),
            f"{agent_name(agent)}'s {file.label} {file.error}: {effect}. doctor left it untouched.",
            "fix the file by hand at the place named (hookman never rewrites a file it "
            "cannot parse).",
        ),
    )


def check_event(
    ctx: Context, agent: str, handler: Handler, hooks_key: str | None, code: str
) -> None:
    events = agent_events(agent)
    event = handler.event
    if event in events:
        return
    handler.silence(code)
    meant = slip_of(event, events)
    why = f" (did you mean {meant!r}?)" if meant else ""
    path = key_path(hooks_key or "", event)
    finding = Finding(
        code,
        "error",
        handler.source.path,
        f"{event!r} is not an event {agent_name(agent)} knows{why}: "
        f"{doctor_facts_of(agent)['unknown_event']}.",
        f"rename the key to {meant!r}." if meant else f"use one of: {', '.join(events)}.",
        event=event,
        path=path,
    )
    if meant:
        finding.edit = {"op": "rename", "file": handler.source.path, "path": path, "value": meant}
    add(ctx, finding)


def switch_owner(agent: str, files: list[AgentFile]) -> AgentFile | None:
    """The file whose off switch (`disableAllHooks`, `hooksDisabled`) turns every hook of the
    agent off (None: hooks run): the project's file wins over the user's, as the agents
    merge their settings. install and list say it too (commands/agent_wording.py)."""
    key = agent_catalog.disable_key(agent)
    setting: AgentFile | None = None
    value = False
    for file in files:  # user first, then project: the last one that sets it wins
        for holder in (file.data, file.hooks):
            if isinstance(holder, dict) and isinstance(holder.get(key), bool):
                setting, value = file, holder[key]
    return setting if value is True else None


def check_switched_off(
    ctx: Context,
    agent: str,
    files: list[AgentFile],
    handlers: list[Handler],
    code: str,
) -> None:
    """The agent's off switch (`disableAllHooks`, `hooksDisabled`): the project's file wins
    over the user's, as the agents merge their settings."""
    key = agent_catalog.disable_key(agent)
    setting = switch_owner(agent, files)
    if setting is None:
        return
    for handler in handlers:
        handler.silence(code)
    own = any(h.hookman for h in handlers)
    add(
        ctx,
        Finding(
            code,
            "error" if own else "warning",
            str(setting.path),
            f'`"{key}": true` in {setting.path}: {agent_name(agent)} runs none of its hooks'
            + (", hookman's included (its guards guard nothing there)." if own else "."),
            f"remove `{key}` from {setting.path} (or set it to false).",
            path=key,
        ),
    )


# --- hookman's entries --------------------------------------------------------------------


def command_agent(command: str) -> str | None:
    """The agent a hookman command names with `--agent` (None: a Claude Code entry)."""
    try:
        words = shell_words(command)
    except ValueError:
        return None
    for index, word in enumerate(words[:-1]):
        if word == AGENT_FLAG:
            return words[index + 1]
    return None


def check_agent_flag(ctx: Context, agent: str, handler: Handler, code: str) -> None:
    """hookman's entry in this agent's file that does not carry `--agent AGENT` (copied from
    settings.local.json by hand): the runner then answers as for Claude Code and does not
    map the agent's tool names, so a guard for `Bash` lets the agent's shell tool run."""
    if not handler.hookman or handler.command is None:
        return
    named = command_agent(handler.command)
    if named == agent:
        return
    handler.silence(code)
    whose = "Claude Code's" if named is None else f"{named}'s"
    add(
        ctx,
        Finding.about(
            handler,
            code,
            "error",
            f"hookman's {handler.event} entry here is {whose} (its command has no "
            f"`{AGENT_FLAG} {agent}`): hookman then does not map {agent_name(agent)}'s tool "
            "names, so its guards never see a `Bash` call and let the shell tool run.",
            f"remove the entry and run `hookman install --agent {agent}` (it writes "
            f"{agent_name(agent)}'s own entries).",
        ),
    )


# --- answers the agent fails open on -----------------------------------------------------


def check_answers(
    ctx: Context,
    agent: str,
    handler: Handler,
    memo: dict[Path, str | None],
    codes: dict[str, str],
) -> None:
    """What the agent fails open on, read in a foreign command and its script (`codes`: the
    finding code of each check the agent's facts name)."""
    facts = doctor_facts_of(agent)
    if handler.hookman or handler.command is None:
        return
    if handler.event not in facts["fails_open_events"]:
        return
    text = hook_text(handler.command, script_path(ctx, handler), memo)
    checks = {
        "exits_1": _exit_1,
        "top_level_decision": _top_level_decision,
        "block_on_pre_tool_use": _block,
    }
    for name in facts["fails_open"]:
        if name in checks and name in codes:
            checks[name](ctx, agent, handler, text, codes[name])


def _exit_1(ctx: Context, agent: str, handler: Handler, text: HookText, code: str) -> None:
    pattern = first(text, pattern_facts_of("codex", "exits_1"))
    if pattern is None or not has_guard_words(text.all):
        return
    add(
        ctx,
        Finding.about(
            handler,
            code,
            "error",
            f"the {handler.event} hook blocks with `exit 1` ({text.where(pattern)}): "
            f"{agent_name(agent)} reads exit 1 as a non-blocking error, so the call goes "
            "ahead (it fails open).",
            "exit 2 with the reason on stderr, or print a JSON deny inside "
            '`hookSpecificOutput` (`{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
            '"permissionDecision": "deny", "permissionDecisionReason": "..."}}`).',
        ),
    )


def _top_level_decision(
    ctx: Context, agent: str, handler: Handler, text: HookText, code: str
) -> None:
    """A deny written at the top level only (no hookSpecificOutput anywhere in the text)."""
    ignored = list(doctor_facts_of(agent)["top_level_ignored"])
    patterns = pattern_facts("top_level_decision")
    if "decision" in ignored:
        patterns += list(doctor_facts_of("copilot")["blocks"])
    pattern = first(text, patterns)
    if pattern is None or first(text, pattern_facts("specific_output")) is not None:
        return
    fields = " and ".join(f"`{name}`" for name in ignored)
    add(
        ctx,
        Finding.about(
            handler,
            code,
            "error",
            f"the {handler.event} hook answers with a top-level decision "
            f"({text.where(pattern)}) and no `hookSpecificOutput`: {agent_name(agent)} "
            f"ignores a top-level {fields}, so the call goes ahead (it fails open).",
            'put the deny inside `hookSpecificOutput` (`permissionDecision`: "deny", with '
            "`permissionDecisionReason`), or exit 2 with the reason on stderr.",
        ),
    )


def _block(ctx: Context, agent: str, handler: Handler, text: HookText, code: str) -> None:
    pattern = first(text, list(doctor_facts_of(agent)["blocks"]))
    if pattern is None or first(text, pattern_facts("top_level_decision")) is not None:
        return
    add(
        ctx,
        Finding.about(
            handler,
            code,
            "error",
            f'the {handler.event} hook answers `decision: "block"` ({text.where(pattern)}): '
            f"{agent_name(agent)} ignores it on {handler.event}, so the call goes ahead (it "
            "fails open), though Claude Code denies.",
            'answer `permissionDecision: "deny"` inside `hookSpecificOutput` (both agents '
            "honour it), or exit 2.",
        ),
    )


def pattern_facts_of(section: str, name: str) -> list[str]:
    from hookman.doctor.facts import doctor_facts

    return list(doctor_facts()[section][name])


def first(text: HookText, patterns: list[str]) -> re.Pattern[str] | None:
    for pattern in patterns:
        compiled = re.compile(pattern)
        if compiled.search(text.all):
            return compiled
    return None


# --- hookman's entries install would now write differently ------------------------------------


def check_stale(ctx: Context, agent: str, file: AgentFile | None, code: str) -> None:
    """hookman's entries in the agent's project file against what `hookman install` writes
    now (install's own plan, agents/agent_sync.py), or present while `agents` leaves the
    agent out."""
    from hookman.agents import agent_files
    from hookman.project.config import read_project_config

    if file is None or file.error is not None:
        return  # reported; install refuses such a file too
    try:
        config = read_project_config(ctx.project_dir)
    except HookmanError:
        return  # findings_hookman reports it
    written = agent_files.written_events(ctx.project_dir, agent)
    if agent not in config.agents:
        if written:
            add(ctx, _left_over(agent, file, written, code))
        return
    wanted = _wanted_entries(ctx, config, agent)
    if wanted is None:
        return
    try:
        change = agent_files.update_agent_hooks(ctx.project_dir, agent, wanted, dry_run=True)
    except HookmanError:
        return  # a file git tracks, or one install cannot walk: install says so
    if not change.changed:
        return
    wanted_events = list(dict.fromkeys(entry.event for entry in wanted))
    parts = []
    if missing := [e for e in wanted_events if e not in written]:
        parts.append(f"missing: {', '.join(missing)}")
    if extra := [e for e in written if e not in wanted_events]:
        parts.append(f"no enabled hook needs: {', '.join(extra)}")
    if behind := _behind_another(agent, file):
        parts.append(
            f"another hook's {', '.join(behind)} group stands before hookman's, and "
            f"{agent_name(agent)} takes the first hook's permissionDecision, so an allow "
            "there undoes hookman's deny"
        )
    if not parts:
        parts.append("matchers, commands or timeouts differ")
    add(
        ctx,
        Finding(
            code,
            "error",
            str(file.path),
            f"hookman's {agent_name(agent)} entries differ from what `hookman install` "
            f"writes now (edited by hand, a pull, or another {agent_name(agent)} version): "
            f"{'; '.join(parts)}. {agent_name(agent)} runs the old ones, or none.",
            "run `hookman install`.",
        ),
    )


def _behind_another(agent: str, file: AgentFile) -> list[str]:
    """The events (catalog/agent_hook_merge.json "hookman_first": droid's PreToolUse) where
    a group of another hook comes before one of hookman's in the file; install puts
    hookman's first there."""
    from hookman.catalog.agent_catalog import hookman_first_events
    from hookman.project.settings_entries import is_hookman_handler

    found = []
    for event in hookman_first_events(agent):
        groups = (file.hooks or {}).get(event)
        owners = [
            all(is_hookman_handler(h) for h in g["hooks"]) and bool(g["hooks"])
            for g in groups or []
            if isinstance(g, dict) and isinstance(g.get("hooks"), list)
        ]
        if False in owners and True in owners[owners.index(False) + 1 :]:
            found.append(event)
    return found


def _left_over(agent: str, file: AgentFile, written: list[str], code: str) -> Finding:
    return Finding(
        code,
        "warning",
        str(file.path),
        f"hookman's {agent_name(agent)} entries ({', '.join(written)}) are in the file, but "
        f"`agents` in hookman.toml does not name {agent}: the next `hookman install` removes "
        "them.",
        f"`hookman install --agent {agent}` to keep them (it adds {agent} to `agents`), or "
        "`hookman install` to remove them.",
    )


def _wanted_entries(ctx: Context, config: Any, agent: str) -> list[Any] | None:
    """The entries `hookman install` would write for the agent now."""
    from hookman.agents.agent_sync import plan_agent
    from hookman.install.report import installed_trial_hooks
    from hookman.project.install_plan import plan_install
    from hookman.project.launcher import launcher_path

    hooks = config.hooks + installed_trial_hooks(ctx.project_dir)
    try:
        plan = plan_install(hooks, ctx.version)
        version = agent_facts.detect_agent_version(agent)
        return plan_agent(agent, hooks, plan, launcher_path(ctx.project_dir), version).entries
    except HookmanError:
        return None


def check_unguarded(ctx: Context, agent: str, code: str) -> None:
    """A hookman hook (`agents` names the agent) asking for tools the agent also reaches
    under another name or shape that no rename hands hooks as Claude Code's (catalog
    "unguarded_tools": Copilot's write_bash and apply_patch, droid's ApplyPatch): install
    and list say the same sentence. A warning: nothing in the files can fix it."""
    from hookman.agents.agent_sync import unguarded_by, unguarded_sentence
    from hookman.project.config import read_project_config

    try:
        config = read_project_config(ctx.project_dir)
    except HookmanError:
        return  # findings_hookman reports it
    if agent not in config.agents:
        return
    where = str(ctx.project_dir / agent_catalog.config_file(agent))
    fix = (
        f"nothing hookman writes can hand such a call to the hook in Claude Code's shape: ask "
        f"for the name {agent_name(agent)} gives it too and read its input, or keep the "
        f"model from it in {agent_name(agent)}'s own settings."
    )
    for hook, tools in unguarded_by(agent, config.hooks).items():
        for tool in tools:
            said = unguarded_sentence(agent, hook, tool)
            add(ctx, Finding(code, "warning", where, said[0].upper() + said[1:], fix))
