"""Findings about the target client version itself."""

from __future__ import annotations

from hookman.catalog import event_catalog
from hookman.doctor.context import Context
from hookman.doctor.model import Finding


def check_version(ctx: Context) -> None:
    newest = event_catalog.newest_checked_client()
    if ctx.version is None:
        ctx.add(
            Finding(
                "target-version-unknown",
                "info",
                None,
                "the Claude Code version is unknown (`claude --version` did not answer and "
                "nothing names a target); doctor assumes the "
                f"facts of {newest}, the newest client hookman has checked.",
                "pass --claude-version V, or set claude_version in .claude/hookman.toml.",
            )
        )
    elif ctx.version > newest:
        ctx.add(
            Finding(
                "target-newer-than-facts",
                "info",
                None,
                f"Claude Code {ctx.version} is newer than any version hookman has facts for "
                f"({newest}); "
                f"doctor assumes it behaves like {newest} (event names, matcher syntax, which "
                "invalid "
                "entries silence a file, output channels).",
                "update hookman when a newer release is available.",
            )
        )
