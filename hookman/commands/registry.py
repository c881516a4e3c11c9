"""`hookman registry add/remove/list`: named hooks any project can install by name."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING

from hookman.commands.options import JSON, Argument, Group, Option, cli_command
from hookman.errors import HookmanError
from hookman.hooks.registry import (
    add_registry_entry,
    add_registry_repo_entry,
    registry_display_path,
    registry_entries,
    registry_problems,
    registry_repo_entries,
    remove_registry_entry,
)
from hookman.output import console, escape, print_json
from hookman.project.config import is_valid_hook_name
from hookman.scaffold.template_files import bundled_templates

if TYPE_CHECKING:
    from hookman.json_shapes import RegistryHookJson, RegistryJson, RegistryRepoJson

GROUP = Group(
    "registry",
    help="The user registry: named hooks any project can install.",
    examples=("hookman registry add ~/hooks/guard.py", "hookman registry list"),
)


@cli_command(
    "registry add",
    Argument(
        "path",
        "FILE",
        help="Path to a .py hook factory; with --rev and --hook, a hook repository.",
    ),
    Option(
        "--name",
        metavar="NAME",
        help="Registry name (default: the file's stem, or the --hook name).",
    ),
    Option("--rev", metavar="REV", help="The repository's tag or full SHA."),
    Option("--hook", metavar="NAME", help="The hook the repository offers."),
    help="Add a hook to the user registry.",
    examples=("hookman registry add ~/hooks/guard.py --name guard",),
)
def add(
    path: Path | str,
    *,
    name: str | None = None,
    rev: str | None = None,
    hook: str | None = None,
) -> int:
    """Register the hook module at `path` under `name` (default: the file's stem); with
    `rev` and `hook`, `path` is a hook repository and the entry names its hook `hook`."""
    if rev is not None or hook is not None:
        return _add_repo(str(path), rev, hook, name)
    module = Path(path).expanduser()
    if not module.is_file() or module.suffix != ".py":
        raise HookmanError(
            f"{str(Path(path))!r} is not a .py file.",  # as a path: `./x` is 'x'
            "give the path to a Python module that defines `def hook(pi): ...`.",
        )
    entry_name = name if name is not None else module.stem
    if not is_valid_hook_name(entry_name):
        raise HookmanError(
            f"{entry_name!r} cannot be a registry name: use letters, digits, '_', '.' or '-'.",
            "choose one with --name.",
            exit_code=2,
        )
    absolute = module.resolve()
    previous = add_registry_entry(entry_name, absolute)
    out = console()
    if previous is not None and previous != absolute:
        out.print(
            f"updated [bold]{escape(entry_name)}[/]: {escape(str(absolute))} "
            f"(was {escape(str(previous))})"
        )
    else:
        out.print(f"registered [bold]{escape(entry_name)}[/]: {escape(str(absolute))}")
    out.print(f"install it in a project with: hookman install {escape(entry_name)}")
    return 0


def _add_repo(repo: str, rev: str | None, hook: str | None, name: str | None) -> int:
    from hookman.hooks.repo_source import resolve_repo_hook
    from hookman.hooks.store import fetch_url
    from hookman.project.config import HookSource, HookSpec

    if rev is None or hook is None:
        raise HookmanError(
            "a registry entry for a hook repository needs both --rev and --hook.",
            "e.g. `hookman registry add https://example.org/acme/agent-hooks.git --rev v1.2.0 "
            "--hook no-rm-rf`.",
            exit_code=2,
        )
    entry_name = name if name is not None else hook
    for label, value in (("registry", entry_name), ("hook", hook)):
        if not is_valid_hook_name(value):
            raise HookmanError(
                f"{value!r} cannot be a {label} name: use letters, digits, '_', '.' or '-'.",
                "check --hook and --name.",
                exit_code=2,
            )
    url = fetch_url(repo, Path.cwd())  # a local path is kept absolute: no project here
    spec = HookSpec(name=entry_name, source=HookSource("repo", url, rev, hook))
    resolve_repo_hook(spec, Path.cwd(), {}, fetch=True)  # refuses a URL, rev or hook that fails
    add_registry_repo_entry(entry_name, url, rev, hook)
    out = console()
    out.print(
        f"registered [bold]{escape(entry_name)}[/]: {escape(hook)} from {escape(url)} at "
        f"{escape(rev)}",
        highlight=False,
    )
    out.print(f"install it in a project with: hookman install {escape(entry_name)}")
    return 0


@cli_command(
    "registry remove",
    Argument("name", "NAME", complete="registry", help="Registry name to remove."),
    help="Remove a hook from the user registry.",
    examples=("hookman registry remove guard",),
)
def remove(name: str) -> int:
    """Take `name` out of the user registry (projects listing it keep their entry)."""
    try:
        path = remove_registry_entry(name)
    except KeyError:
        close = difflib.get_close_matches(name, list(registry_entries()), n=1)
        guess = f"did you mean {close[0]!r}? " if close else ""
        raise HookmanError(
            f"the user registry has no hook named {name!r}.",
            f"{guess}`hookman registry list` shows the registry.",
        ) from None
    where = f" ({escape(str(path))})" if path is not None else ""
    console().print(f"removed [bold]{escape(name)}[/]{where} from the registry")
    return 0


@cli_command(
    "registry list",
    JSON,
    help="List the user registry.",
    examples=("hookman registry list --json",),
)
def list_entries(*, json_output: bool = False) -> int:
    """Show the user registry.

    `--json` prints a `RegistryJson` (hookman/json_shapes.py), in file order. Broken entries
    (no absolute path) block nothing else; they are shown on the terminal, not in the JSON.
    """
    entries = registry_entries()
    broken = registry_problems()
    templates = bundled_templates()
    rows: list[RegistryHookJson] = [
        {
            "name": name,
            "path": str(path),
            "exists": path.is_file(),
            "shadows": ["template"] if name in templates else [],
        }
        for name, path in entries.items()
    ]
    shared: list[RegistryRepoJson] = [
        {"name": name, "repo": repo, "rev": rev, "hook": hook}
        for name, (repo, rev, hook) in registry_repo_entries().items()
    ]
    if json_output:
        shown: RegistryJson = {
            "registry": registry_display_path(),
            "hooks": rows,
            "repositories": shared,
        }
        print_json(shown)
        return 0
    out = console()
    for name, problem in broken.items():
        out.print(
            f"[bold]{escape(name)}[/]  [red]broken: {escape(problem)}[/]  (fix it with "
            f"`hookman registry add PATH --name {escape(name)}`)",
            highlight=False,
        )
    for entry in shared:
        out.print(
            f"[bold]{escape(entry['name'])}[/]  {escape(entry['hook'])} from "
            f"{escape(entry['repo'])} at {escape(entry['rev'])}",
            highlight=False,
        )
    if not rows and not broken and not shared:
        out.print(f"the user registry is empty ({escape(registry_display_path())})")
        out.print("add a hook with: hookman registry add PATH [--name NAME]")
        return 0
    for row in rows:
        notes = [] if row["exists"] else ["[red]missing file[/]"]
        if row["shadows"]:
            notes.append("shadows the template of the same name")
        suffix = f"  ({', '.join(notes)})" if notes else ""
        out.print(f"[bold]{escape(row['name'])}[/]  {escape(row['path'])}{suffix}")
    return 0
