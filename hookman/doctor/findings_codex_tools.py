"""`codex-tool-never-sent`: a hookman hook asking for Claude Code tools Codex never names in
a hook payload (`Write`, `Edit`: catalog codex_events.json "hook_tools", measured on 0.150.0
and 0.171.0). Codex's entry may match them, yet no Codex call reaches the hook by those
names: under Codex it never runs for them (install and list say the same sentence). A
warning: the hook still runs under Claude Code, and nothing in the files can fix it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookman.bridge.protocol import CODEX_AGENT
from hookman.doctor.context import Context
from hookman.doctor.model import Finding

if TYPE_CHECKING:
    from hookman.agents.codex_sync import CodexPlan
    from hookman.project.config import ProjectConfigView

CODE = "codex-tool-never-sent"
FIX = (
    "to act on what Codex does, ask for 'Bash' (Codex's shell tool) and 'apply_patch' (the name "
    "of its file-edit tool in hook payloads upstream, where the model has that tool; not "
    "measured here) in the hook, then `hookman install`; the hook still runs under Claude Code."
)


def check_tools_never_sent(
    ctx: Context, config: ProjectConfigView, codex: CodexPlan | None
) -> None:
    """`codex`: the plan install would write for Codex now (findings_codex makes it once)."""
    from hookman.agents.codex_files import codex_hooks_path

    if codex is None or CODEX_AGENT not in config.agents:
        return
    where = str(codex_hooks_path(ctx.project_dir))
    own = {hook.name for hook in config.hooks}  # (not a trial hook's)
    for name, found in codex.never_sent.items():
        if name not in own:
            continue
        for unsent in found:
            said = unsent.sentence(name, name in codex.never_run)
            ctx.add(Finding(CODE, "warning", where, said[0].upper() + said[1:], FIX))
