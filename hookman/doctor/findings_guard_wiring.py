"""`hookman-guard-not-wired`: a guard hookman.toml or a hook's code asks for that no
installed entry reaches (install/guard_wiring.py), e.g. after a pull without `hookman
install`. Claude Code calls hookman only for the entries it reads, so those calls run
without hookman: the runner cannot deny what it is never asked about. An error: a guard the
project counts on lets every call through."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from hookman.doctor.context import Context
from hookman.doctor.model import Finding
from hookman.project.location import local_settings_path

if TYPE_CHECKING:
    from hookman.hooks.subscriptions import Subscriptions
    from hookman.project.config import ProjectConfigView

CODE = "hookman-guard-not-wired"
FIX = "run `hookman install` in the project: it writes the entries the guards need."


def check_guard_wiring(
    ctx: Context, config: ProjectConfigView, code: Mapping[str, Subscriptions]
) -> None:
    from hookman.install.guard_wiring import unwired_guards

    where = str(local_settings_path(ctx.project_dir))
    for guard in unwired_guards(config, ctx.project_dir, code):
        ctx.add(Finding(CODE, "error", where, guard.sentence(), FIX))
