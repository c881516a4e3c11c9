"""Qwen Code's hooks: `hooks` in the user's settings.json (QWEN_HOME, else ~/.qwen) and the
project's .qwen/settings.json, and `disableAllHooks`. Qwen Code speaks Claude Code's
protocol but names its tools its own way (`run_shell_command`), so hookman's entries there
carry `--agent qwen` for the runner to map them; exit 1 and a top-level
`permissionDecision` let the call run (docs/agents.md).

Nothing here runs for a project that neither names qwen in `agents` nor has a Qwen
settings file with hooks (wants_qwen reads files only).
"""

from __future__ import annotations

import os
from pathlib import Path

from hookman.catalog.agent_catalog import claude_tool_name, tool_map
from hookman.doctor import findings_agents as agents
from hookman.doctor.agent_files import AgentFile, doctor_facts_of, read_agent_files, wants_agent
from hookman.doctor.context import Context
from hookman.doctor.findings_commands import script_path
from hookman.doctor.foreign_hooks import check_foreign
from hookman.doctor.model import Finding, Handler
from hookman.doctor.qwen_sources import folder_trust_on, project_trusted, trust_file
from hookman.doctor.script_text import hook_text

AGENT = "qwen"


def wants_qwen(project_dir: Path) -> bool:
    return wants_agent(AGENT, project_dir)


ANSWER_CODES = {"exits_1": "qwen-exit-1-not-2", "top_level_decision": "qwen-top-level-decision"}


def check_qwen(ctx: Context) -> None:
    files = read_agent_files(AGENT, ctx.project_dir)
    handlers = agents.add_sources(ctx, AGENT, files, "qwen-source-invalid")
    if not agents.installed(AGENT):
        agents.not_installed(ctx, AGENT, handlers, "qwen-not-installed")
        return
    for file in files:
        if file.error is not None:
            agents.check_invalid(ctx, AGENT, file, "qwen-source-invalid")
    agents.check_switched_off(ctx, AGENT, files, handlers, "qwen-hooks-disabled")
    _check_off_env(ctx, handlers)
    _check_folder_trust(ctx, files, handlers)
    memo: dict[Path, str | None] = {}
    for handler in handlers:
        agents.check_event(ctx, AGENT, handler, "hooks", "qwen-unknown-event")
        agents.check_agent_flag(ctx, AGENT, handler, "qwen-hookman-wrong-agent")
        agents.check_answers(ctx, AGENT, handler, memo, ANSWER_CODES)
    _check_ask_after_hookman(ctx, handlers, memo)
    check_foreign(ctx, AGENT, handlers, "qwen-foreign-pre-tool-use")
    project = next((f for f in files if f.layer == "project"), None)
    agents.check_stale(ctx, AGENT, project, "qwen-hookman-stale")


def off_env_switches() -> list[dict[str, str]]:
    """The switches of Qwen Code set truthy in this environment (doctor_facts.json, qwen
    "off_env"): each turns off every hook of a Qwen Code started from it."""
    facts = doctor_facts_of(AGENT)
    truthy = set(facts["off_env_truthy"])
    return [
        switch
        for switch in facts["off_env"]
        if (os.environ.get(switch["variable"]) or "").strip().lower() in truthy
    ]


def _check_off_env(ctx: Context, handlers: list[Handler]) -> None:
    """As hooks-off-bare-mode for Claude Code (findings_switches): information about where
    doctor runs, since the agent may start elsewhere; an error-free report must not hide
    that a Qwen Code started here runs no hook at all."""
    ours = any(h.hookman for h in handlers)
    for switch in off_env_switches():
        name, flag = switch["variable"], switch["flag"]
        ctx.add(
            Finding(
                "qwen-hooks-off-env",
                "info",
                None,
                f"{name} is set in this environment: a Qwen Code started from it is in "
                f"{switch['effect']}" + (", hookman's guards included." if ours else "."),
                f"unset {name}, and start Qwen Code without {flag}, where hooks should run.",
            )
        )


def _check_ask_after_hookman(
    ctx: Context, handlers: list[Handler], memo: dict[Path, str | None]
) -> None:
    """A foreign PreToolUse hook that runs after one of hookman's for a tool both cover and
    answers `ask`: Qwen Code reads the last hook's permissionDecision before the
    `continue: false` hookman's deny adds, so its deny becomes a question (doctor_facts.json,
    qwen "ask_note"). An `allow` no longer undoes it; an `ask` before hookman's is read
    first and loses to the deny."""
    ours = [h for h in _in_run_order(handlers) if h.hookman and h.event == "PreToolUse"]
    if not ours:
        return
    order = _in_run_order(handlers)
    for handler in order[order.index(ours[0]) + 1 :]:
        if handler.hookman or handler.event != "PreToolUse" or handler.command is None:
            continue
        tools = [t for t in tool_map(AGENT) if _covers(ours, t) and _covers([handler], t)]
        if not tools or not handler.loaded:
            continue
        text = hook_text(handler.command, script_path(ctx, handler), memo)
        pattern = agents.first(text, list(doctor_facts_of(AGENT)["ask_patterns"]))
        if pattern is None:
            continue
        user = not _is_project(handler)
        where = "in the user's settings, which run after the project's" if user else "after it"
        agents.add(
            ctx,
            Finding.about(
                handler,
                "qwen-ask-after-hookman",
                "warning",
                f"this PreToolUse hook runs {where} for {', '.join(tools)} and answers "
                f'permissionDecision "ask" ({text.where(pattern)}): Qwen Code reads the last '
                "hook's permissionDecision first, so where it asks, an interactive session "
                "asks the user instead of hookman's guards denying (with -p the call is "
                "blocked with this hook's reason).",
                (
                    "move the hook into the project's .qwen/settings.json before hookman's "
                    "entry (a user hook always runs after the project's), or have it answer "
                    "nothing where it would ask."
                    if user
                    else "move its group before hookman's entry in .qwen/settings.json, "
                    "where hookman's deny, read last, wins; or have it answer nothing where "
                    "it would ask."
                ),
            ),
        )


def _is_project(handler: Handler) -> bool:
    return bool(handler.source.label and handler.source.label.startswith("project"))


def _in_run_order(handlers: list[Handler]) -> list[Handler]:
    """Qwen Code's order: the project's hooks, then the user's, each file in its own order
    (catalog/agent_hook_merge.json, qwen "order")."""
    return [h for h in handlers if _is_project(h)] + [h for h in handlers if not _is_project(h)]


def _covers(handlers: list[Handler], native: str) -> bool:
    """Whether a matcher of `handlers` covers Qwen's tool `native`, by its own name or its
    Claude Code alias (Qwen matches both: matcher_note)."""
    from hookman.project.install_plan import matcher_matches

    names = (native, claude_tool_name(AGENT, native))
    return any(matcher_matches(h.matcher, name) for h in handlers for name in names)


def _check_folder_trust(ctx: Context, files: list[AgentFile], handlers: list[Handler]) -> None:
    user = next((f for f in files if f.layer == "user"), None)
    if user is None or not folder_trust_on(user.data) or project_trusted(ctx.project_dir):
        return
    project = [h for h in handlers if h.source.label and h.source.label.startswith("project")]
    if not project:
        return
    for handler in project:
        handler.silence("qwen-folder-untrusted")
    own = any(h.hookman for h in project)
    config = trust_file()
    agents.add(
        ctx,
        Finding(
            "qwen-folder-untrusted",
            "error" if own else "warning",
            str(config),
            f"folder trust is on in Qwen Code ({user.path}) and {config} does not trust "
            f"{ctx.project_dir}: Qwen Code ignores the project's .qwen/settings.json, so none "
            f"of its {len(project)} hook(s) run" + (", hookman's included." if own else "."),
            f'trust the folder when Qwen Code asks, or add "{ctx.project_dir}": '
            f'"TRUST_FOLDER" to {config}.',
        ),
    )
