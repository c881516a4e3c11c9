"""`hookman plugin build OUT_DIR`: this project's hooks as a Claude Code plugin
(hookman/plugin/build.py), optionally listed in a local marketplace."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hookman.commands.options import JSON, PROJECT, Argument, Group, Option, cli_command
from hookman.output import console, escape, print_json
from hookman.project.location import find_project_dir

if TYPE_CHECKING:
    from hookman.json_shapes import PluginJson

GROUP = Group(
    "plugin",
    help="This project's hooks as a Claude Code plugin.",
    examples=("hookman plugin build ../team-hooks/guards --marketplace ../team-hooks",),
)


@cli_command(
    "plugin build",
    Argument("out_dir", "OUT_DIR", type="path", help="Directory to build the plugin in."),
    Option("--name", metavar="NAME", help="Plugin name, kebab-case (default: PROJECT-hooks)."),
    Option(
        "--version",
        metavar="V",
        help="Plugin version (default: 0.1.0; a rebuild that changes it bumps the patch).",
    ),
    Option(
        "--hooks",
        metavar="NAME",
        multiple=True,
        help="A hook to put in the plugin (repeat it; default: every enabled hook).",
    ),
    Option(
        "--marketplace",
        metavar="DIR",
        type="path",
        help="Also write or update a local marketplace in DIR listing the plugin.",
    ),
    PROJECT,
    Option(
        "--claude-version",
        metavar="V",
        help="Newest Claude Code version the plugin serves (default: claude_version in "
        "hookman.toml, else the newest hookman knows); older clients run it too.",
    ),
    JSON,
    help="Build a self-contained Claude Code plugin from the project's hooks.",
    examples=(
        "hookman plugin build ../team-hooks/guards --marketplace ../team-hooks",
        "hookman plugin build dist/guard-plugin --name team-guard --hooks guard",
    ),
)
def build(
    out_dir: Path,
    *,
    name: str | None = None,
    version: str | None = None,
    hooks: Sequence[str] = (),
    marketplace: Path | None = None,
    project: Path | None = None,
    claude_version: str | None = None,
    json_output: bool = False,
) -> int:
    """Build the plugin. Returns the exit code.

    `--json` prints a `PluginJson` (hookman/json_shapes.py).
    """
    from hookman.commands.plan_wording import held_back_sentences, plan_warnings, target_warnings
    from hookman.plugin.build import build_plugin
    from hookman.plugin.marketplace import list_plugin

    project_dir = find_project_dir(project)
    result = build_plugin(
        out_dir,
        project_dir,
        name=name,
        version=version,
        hook_names=hooks,
        claude_version=claude_version,
    )
    listed = None
    if marketplace is not None:
        description = f"Claude Code hooks ({', '.join(result.hooks)}) built with hookman"
        listed = list_plugin(marketplace, result.out_dir, result.name, result.version, description)
    plan, target = result.plan, result.target
    warnings = target_warnings(plan, target) + plan_warnings(plan) + result.warnings
    if json_output:
        data: PluginJson = {
            **result.to_json(),
            "warnings": warnings,
            "marketplace": None
            if listed is None
            else {"path": str(listed.path), "name": listed.name, "changed": listed.changed},
        }
        print_json(data)
        return 0
    out = console()
    verb = ("rebuilt" if result.changed else "unchanged") if result.rebuilt else "built"
    out.print(
        f"{verb} the plugin [bold]{escape(result.name)}[/] {escape(result.version)} in "
        f"{escape(str(result.out_dir))}: {escape(', '.join(result.hooks))} on "
        f"{escape(', '.join([*result.plan.entries, *result.plan.async_entries]))}",
        highlight=False,
    )
    for sentence in held_back_sentences(plan, target):
        out.print(escape(sentence), highlight=False)
    for warning in warnings:
        out.print(f"warning: {escape(warning)}", highlight=False)
    if listed is not None:
        state = "updated" if listed.changed else "already lists it"
        out.print(
            f"marketplace [bold]{escape(listed.name)}[/] ({escape(str(listed.path))}): {state}",
            highlight=False,
        )
        out.print(
            f"install it: claude plugin marketplace add {escape(str(listed.path.parent.parent))}"
            f" && claude plugin install {escape(result.name)}@{escape(listed.name)}",
            highlight=False,
        )
    else:
        out.print(
            "list it in a marketplace with --marketplace DIR, then `claude plugin marketplace "
            "add DIR` and `claude plugin install NAME@MARKETPLACE`",
            highlight=False,
        )
    return 0
