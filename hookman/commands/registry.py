"""`hookman registry add/remove/list`: named hooks any project can install by name."""

from __future__ import annotations

import difflib
from pathlib import Path

from hookman.errors import HookmanError
from hookman.hooks.registry import (
    add_registry_entry,
    registry_display_path,
    registry_entries,
    registry_problems,
    remove_registry_entry,
)
from hookman.output import console, escape, print_json
from hookman.project.config import is_valid_hook_name
from hookman.scaffold.template_files import bundled_templates


def add(path: Path, *, name: str | None = None) -> int:
    """Register the hook module at `path` under `name` (default: the file's stem)."""
    module = path.expanduser()
    if not module.is_file() or module.suffix != ".py":
        raise HookmanError(
            f"{str(path)!r} is not a .py file.",
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


def list_entries(*, json_output: bool = False) -> int:
    """Show the user registry.

    `--json` prints {"registry": str (the file), "hooks": [{"name": str, "path": str,
    "exists": bool, "shadows": ["template"] | []}]}, in file order. Broken entries (no
    absolute path) block nothing else; they are shown on the terminal, not in the JSON.
    """
    entries = registry_entries()
    broken = registry_problems()
    templates = bundled_templates()
    rows = [
        {
            "name": name,
            "path": str(path),
            "exists": path.is_file(),
            "shadows": ["template"] if name in templates else [],
        }
        for name, path in entries.items()
    ]
    if json_output:
        print_json({"registry": registry_display_path(), "hooks": rows})
        return 0
    out = console()
    for name, problem in broken.items():
        out.print(
            f"[bold]{escape(name)}[/]  [red]broken: {escape(problem)}[/]  (fix it with "
            f"`hookman registry add PATH --name {escape(name)}`)",
            highlight=False,
        )
    if not rows and not broken:
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
