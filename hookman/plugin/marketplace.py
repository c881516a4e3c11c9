"""`hookman plugin build --marketplace DIR`: a local marketplace listing the plugin.

DIR/.claude-plugin/marketplace.json gets (or keeps) a name and an owner, and one entry per
plugin, `"source": "./RELATIVE"`: the plugin must lie inside DIR, so the directory (a git
repository a team publishes) is the whole marketplace, and `claude plugin marketplace add
DIR` accepts it offline (measured on 2.1.197, 2.1.328 and 2.1.332). Other entries and keys
are kept in their order; a file that cannot be read as a JSON object is left untouched.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookman.atomic_file import write_text_if_changed
from hookman.errors import HookmanError

MARKETPLACE_JSON = Path(".claude-plugin") / "marketplace.json"
_NAME_CHARS = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class MarketplaceResult:
    path: Path
    name: str
    changed: bool


def marketplace_name(directory: Path) -> str:
    name = _NAME_CHARS.sub("-", directory.name.lower()).strip("-")[:64].strip("-")
    return name or "hookman-plugins"


def list_plugin(
    directory: Path, plugin_dir: Path, plugin: str, version: str, description: str
) -> MarketplaceResult:
    """Write or update the marketplace in `directory` so it lists the plugin."""
    directory = Path(os.path.abspath(directory))
    plugin_dir = Path(os.path.abspath(plugin_dir))
    try:
        relative = plugin_dir.relative_to(directory)
    except ValueError:
        raise HookmanError(
            f"the plugin {plugin_dir} is not inside the marketplace directory {directory}, "
            "and a marketplace lists only plugins inside it.",
            f"build the plugin inside it: `hookman plugin build {directory}/{plugin} "
            f"--marketplace {directory}`.",
            exit_code=2,
        ) from None
    if relative == Path("."):
        raise HookmanError(
            "the marketplace directory cannot be the plugin directory itself.",
            f"build the plugin in a subdirectory: `hookman plugin build {directory}/{plugin} "
            f"--marketplace {directory}`.",
            exit_code=2,
        )
    path = directory / MARKETPLACE_JSON
    data = _read(path)
    data.setdefault("name", marketplace_name(directory))
    data.setdefault("owner", {"name": data["name"]})
    plugins = data.setdefault("plugins", [])
    if not isinstance(plugins, list):
        raise _unreadable(path, "its `plugins` is not a list")
    entry = {
        "name": plugin,
        "source": f"./{relative.as_posix()}",
        "description": description,
        "version": version,
    }
    for index, existing in enumerate(plugins):
        if isinstance(existing, dict) and existing.get("name") == plugin:
            plugins[index] = {**existing, **entry}
            break
    else:
        plugins.append(entry)
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        changed = write_text_if_changed(path, text)
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write {path}: {error.strerror or error}; the plugin was built, "
            "the marketplace was not changed.",
            "check the directory's permissions, then run the command again.",
        ) from None
    return MarketplaceResult(path, str(data["name"]), changed)


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise _unreadable(path, f"it cannot be read ({error})") from None
    try:
        data = json.loads(text)
    except ValueError as error:
        raise _unreadable(path, f"it is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise _unreadable(path, "it is not a JSON object")
    return data


def _unreadable(path: Path, why: str) -> HookmanError:
    return HookmanError(
        f"hookman cannot update the marketplace {path}: {why}; it was left untouched (the "
        "plugin was built).",
        "fix the file by hand (or move it away), then run the command again.",
    )
