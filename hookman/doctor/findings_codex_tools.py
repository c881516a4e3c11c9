"""`codex-tool-never-sent`: a hookman hook asking for Claude Code tools Codex never names in
a hook payload (`Write`, `Edit`: catalog codex_events.json "hook_tools", measured on 0.150.0
and 0.171.0). Codex's entry may match them, yet no Codex call reaches the hook by those
names: under Codex it never runs for them (install and list say the same sentence). A
warning: the hook still runs under Claude Code, and nothing in the files can fix it."""

from __future__ import annotations

from hookman.bridge.protocol import CODEX_AGENT
from hookman.catalog.client_version import ClientVersion
from hookman.doctor.context import Context
from hookman.doctor.model import Finding
from hookman.errors import HookmanError

CODE = "codex-tool-never-sent"
FIX = (
    "to act on what Codex does, ask for 'Bash' (Codex's shell tool) and 'apply_patch' (the name "
    "of its file-edit tool in hook payloads upstream, where the model has that tool; not "
    "measured here) in the hook, then `hookman install`; the hook still runs under Claude Code."
)


def check_tools_never_sent(ctx: Context, version: ClientVersion | None) -> None:
    from hookman.agents.codex_files import codex_hooks_path
    from hookman.agents.codex_sync import plan_codex
    from hookman.project.config import read_project_config
    from hookman.project.install_plan import plan_install
    from hookman.project.launcher import launcher_path

    try:
        config = read_project_config(ctx.project_dir)
        plan = plan_install(config.hooks, ctx.version)
        codex = plan_codex(config.hooks, plan, launcher_path(ctx.project_dir), version)
    except HookmanError:
        return  # findings_hookman reports it
    if CODEX_AGENT not in config.agents:
        return
    where = str(codex_hooks_path(ctx.project_dir))
    for name, found in codex.never_sent.items():
        for unsent in found:
            said = unsent.sentence(name, name in codex.never_run)
            ctx.add(Finding(CODE, "warning", where, said[0].upper() + said[1:], FIX))
