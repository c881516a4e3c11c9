"""`hookman __complete KIND`: the words the shell completion scripts offer on TAB.

Runs on the lean path (routed in hookman/__main__.py before typer loads): it reads
hookman.toml with tomllib and the registry's names, never tomlkit, typer or rich, so a TAB
costs about one bare Python start. Prints one word per line; prints nothing for anything it
cannot read (a completion never shows an error).

KIND: `hooks` (the project's hook names), `installable` (those, the user registry's and the
templates'), `registry`, `templates`, `events`.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from hookman import user_dirs
from hookman.project.location import CLAUDE_DIR, CONFIG_NAME, project_root
from hookman.scaffold import template_files

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def main(argv: list[str]) -> int:
    kind = argv[0] if argv else ""
    producers = {
        "hooks": project_hook_names,
        "installable": installable_names,
        "registry": registry_names,
        "templates": template_names,
        "events": event_names,
    }
    producer = producers.get(kind)
    if producer is None:
        return 2
    try:
        words = producer()
    except Exception:  # a completion must never print a traceback into the user's prompt
        return 0
    if words:
        sys.stdout.write("\n".join(dict.fromkeys(words)) + "\n")
    return 0


def _read_toml(path: str) -> dict[str, Any]:
    from hookman.toml_data import read_toml_file

    return read_toml_file(path) or {}


def project_hook_names() -> list[str]:
    config = os.path.join(project_root(os.getcwd()), CLAUDE_DIR, CONFIG_NAME)
    hooks = _read_toml(config).get("hooks")
    if not isinstance(hooks, list):
        return []
    return [
        hook["name"]
        for hook in hooks
        if isinstance(hook, dict) and isinstance(hook.get("name"), str)
    ]


def registry_names() -> list[str]:
    registry = os.path.join(user_dirs.user_dir("config"), "registry.toml")
    hooks = _read_toml(registry).get("hooks")
    return [str(name) for name in hooks] if isinstance(hooks, dict) else []


def template_names() -> list[str]:
    return list(template_files.template_modules(template_files.templates_dir()))


def installable_names() -> list[str]:
    return project_hook_names() + registry_names() + template_names()


def event_names() -> list[str]:
    catalog = os.path.join(PACKAGE_DIR, "catalog", "claude_code_events.json")
    with open(catalog, encoding="utf-8") as handle:
        return sorted(json.load(handle)["events"])
