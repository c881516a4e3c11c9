"""A PreToolUse hook that is not hookman's and runs for a tool a hookman guard covers, under
an agent that lets a malformed answer of such a hook undo hookman's deny (catalog
agent_hook_merge.json "foreign_fail_open": Qwen Code and Factory droid, measured). No order
of the hooks helps and nothing hookman answers can: the agent drops every answer, hookman's
deny among them, when merging that one throws.

doctor (`qwen-foreign-pre-tool-use`, `droid-foreign-pre-tool-use`), install, list and
`fire --agent` say the same sentence (foreign_sentence). doctor passes the handlers it has
marked (a file droid skips, settings.json hooks hooks.json shadows, an off switch);
`loaded_foreign_hooks` reads the files and marks them the same way for the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from hookman.bridge.agent_facts import merge_facts
from hookman.catalog.agent_catalog import display_name, tool_map
from hookman.doctor.agent_files import AgentFile, events_file_beside, read_agent_files
from hookman.doctor.model import Handler, Source
from hookman.doctor.quote import shown

EVENT = "PreToolUse"


class ForeignHook(NamedTuple):
    handler: Handler  # the foreign hook
    tools: list[str]  # the agent's tools both it and one of hookman's guards run for


def fail_open_facts(agent: str) -> dict[str, Any] | None:
    """What the agent was measured to do with a foreign hook's malformed answer (None: no
    such fail-open is known for it)."""
    facts = merge_facts().get(agent)
    found = facts.get("foreign_fail_open") if isinstance(facts, dict) else None
    return found if isinstance(found, dict) else None


def foreign_hooks(agent: str, handlers: list[Handler]) -> list[ForeignHook]:
    """The loaded foreign PreToolUse command hooks that run for a tool one of hookman's loaded
    PreToolUse entries covers, in any file and in any order (the agent's own file order)."""
    if fail_open_facts(agent) is None:
        return []
    ours = [h for h in handlers if h.hookman and h.event == EVENT and h.loaded]
    if not ours:
        return []
    guarded = [tool for tool in tool_map(agent) if covers(agent, ours, tool)]
    found = []
    for handler in handlers:
        if handler.hookman or handler.event != EVENT or not handler.loaded:
            continue
        if handler.command is None:
            continue
        tools = [tool for tool in guarded if covers(agent, [handler], tool)]
        if tools:
            found.append(ForeignHook(handler, tools))
    return found


def covers(agent: str, handlers: list[Handler], native: str) -> bool:
    """Whether a matcher of `handlers` covers the agent's tool `native`: by its own name,
    and where the agent's matchers read them (Qwen Code), by its Claude Code alias, as list
    and fire judge an entry (agents/agent_facts.alias_reaches)."""
    from hookman.agents.agent_facts import alias_reaches
    from hookman.project.install_plan import matcher_matches

    return any(
        matcher_matches(h.matcher, native) or alias_reaches(agent, h.matcher, native)
        for h in handlers
    )


def foreign_sentence(agent: str, hook: ForeignHook) -> str:
    """What doctor's finding says of one (without its fix)."""
    facts = fail_open_facts(agent)
    assert facts is not None
    name = display_name(agent)
    handler = hook.handler
    tools = ", ".join(hook.tools)
    assert handler.command is not None
    return (
        f"the PreToolUse hook {shown(handler.command)} in {handler.source.path} is not "
        f"hookman's and runs for {tools} too: {name} lets a malformed answer from it "
        f"({facts['answers']}) undo hookman's deny and run the call (measured with {name} "
        f"{facts['version']}), so hookman cannot vouch for its guards on "
        f"{'that tool' if len(hook.tools) == 1 else 'those tools'} while the hook is there."
    )


def foreign_fix(hook: ForeignHook) -> str:
    return (
        "move that hook's check into a hookman hook (`hookman new`) and remove it from "
        f"{hook.handler.source.path}, or just remove it: no order of the hooks helps."
    )


def foreign_warning(agent: str, hook: ForeignHook) -> str:
    """The one line install and list warn with: doctor's sentence and its fix."""
    fix = foreign_fix(hook)
    return f"{foreign_sentence(agent, hook)} Fix: {fix}"


def loaded_foreign_hooks(agent: str, project_dir: Path) -> list[ForeignHook]:
    """foreign_hooks of the agent's files as it reads them here, for install, list and
    fire: a file it cannot parse or (droid) whose schema it refuses is skipped, droid's
    settings.json hooks for an event its hooks.json beside them has too never run, and an off
    switch runs nothing (doctor marks the same handlers with its findings)."""
    from hookman.doctor.findings_agents import file_handlers, switch_owner

    if fail_open_facts(agent) is None:
        return []
    files = read_agent_files(agent, project_dir)
    if switch_owner(agent, files) is not None:
        return []
    handlers: list[Handler] = []
    for file in files:
        if file.error is not None or not file.hooks or _skipped(agent, file):
            continue
        source = Source(agent, str(file.path), label=file.label)  # type: ignore[arg-type]
        for handler in file_handlers(source, file.hooks, file.hooks_key):
            if not _shadowed(file, files, handler.event):
                handlers.append(handler)
    return foreign_hooks(agent, handlers)


def _skipped(agent: str, file: AgentFile) -> bool:
    """A droid file whose schema droid refuses (findings_droid: droid-file-ignored)."""
    from hookman.catalog.agent_catalog import DROID_AGENT
    from hookman.doctor.droid_schema import schema_problem

    return agent == DROID_AGENT and schema_problem(file.hooks or {}, file.hooks_key) is not None


def _shadowed(file: AgentFile, files: list[AgentFile], event: str) -> bool:
    """A settings.json event whose hooks.json beside it has it too (findings_droid:
    droid-settings-hooks-shadowed)."""
    if file.hooks_key is None:
        return False
    beside = events_file_beside(file, files)
    return beside is not None and event in (beside.hooks or {})


def check_foreign(ctx: Any, agent: str, handlers: list[Handler], code: str) -> None:
    """doctor's finding for each (`code`: `qwen-foreign-pre-tool-use`, ...). A warning, not
    an error: the hook may be the user's own and answer well-formed JSON every time; the
    point is that hookman cannot vouch for its guard on that tool while it is there, and that
    nothing in hookman's files can change that."""
    from hookman.doctor import findings_agents as agents
    from hookman.doctor.model import Finding

    for hook in foreign_hooks(agent, handlers):
        agents.add(
            ctx,
            Finding.about(
                hook.handler,
                code,
                "warning",
                foreign_sentence(agent, hook),
                foreign_fix(hook),
            ),
        )
