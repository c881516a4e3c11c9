"""Find and read every file Claude Code merges hooks from, plus hookman's own files.

Each file becomes a Source; one that cannot be read keeps its error (a finding later), never
an exception. Only the current platform's managed settings are read.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hookman.doctor import fs
from hookman.doctor.facts import doctor_facts
from hookman.doctor.frontmatter import FrontmatterError, parse_yaml_subset, split_frontmatter
from hookman.doctor.model import Source, SourceKind
from hookman.doctor.record import Record
from hookman.errors import HookmanError
from hookman.project.location import CLAUDE_DIR, LOCAL_SETTINGS_NAME
from hookman.project.settings_file import read_settings

MANAGED_FILE = "managed-settings.json"
MANAGED_DROP_INS = "managed-settings.d"
SETTINGS_NAME = "settings.json"
PLUGIN_MANIFEST = Path(".claude-plugin") / "plugin.json"
PLUGIN_HOOKS = Path("hooks") / "hooks.json"
INSTALLED_PLUGINS = Path("plugins") / "installed_plugins.json"
KNOWN_MARKETPLACES = Path("plugins") / "known_marketplaces.json"
MARKETPLACE_MANIFEST = Path(".claude-plugin") / "marketplace.json"
SETTINGS_KINDS: tuple[SourceKind, ...] = ("managed", "user", "project", "local")
# Later wins when settings files disagree on a plain key (local > project > user).
PRECEDENCE: tuple[SourceKind, ...] = ("user", "project", "local")


class SourceSet(Record):
    """Every source doctor read, in the order Claude Code's own docs list them."""

    _fields = ("project_dir", "user_dir", "sources", "plugin_roots")

    def __init__(
        self,
        project_dir: Path,
        user_dir: Path,
        sources: list[Source] | None = None,
        plugin_roots: dict[str, str] | None = None,
    ) -> None:
        self.project_dir = project_dir
        self.user_dir = user_dir
        self.sources: list[Source] = [] if sources is None else sources
        # source path -> plugin root
        self.plugin_roots: dict[str, str] = {} if plugin_roots is None else plugin_roots

    def settings(self) -> list[Source]:
        return [source for source in self.sources if source.kind in SETTINGS_KINDS]

    def hook_sources(self) -> list[Source]:
        """Sources whose `data` is a settings-shaped object holding `hooks`."""
        kinds = (*SETTINGS_KINDS, "plugin", "skill", "agent", "command")
        return [s for s in self.sources if s.kind in kinds and isinstance(s.data, dict)]

    def merged_setting(self, key: str) -> Any:
        """A plain key as the client merges it (managed wins, then local, project, user)."""
        value = None
        for kind in PRECEDENCE:
            for source in self.sources:
                if source.kind == kind and isinstance(source.data, dict) and key in source.data:
                    value = source.data[key]
        for source in self.sources:
            if source.kind == "managed" and isinstance(source.data, dict) and key in source.data:
                value = source.data[key]
        return value


def user_config_dir() -> Path:
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def managed_dir() -> Path | None:
    platform = "linux" if sys.platform.startswith("linux") else sys.platform
    directory = doctor_facts()["managed_settings_dirs"].get(platform)
    return None if directory is None else Path(directory)


def collect_sources(project_dir: Path, managed_settings: Path | None = None) -> SourceSet:
    user_dir = user_config_dir()
    found = SourceSet(project_dir, user_dir)
    found.sources.extend(_managed_sources(managed_settings))
    found.sources.append(read_settings_source("user", user_dir / SETTINGS_NAME))
    claude_dir = project_dir / CLAUDE_DIR
    if os.path.normpath(claude_dir) != os.path.normpath(user_dir) and not _same(
        claude_dir, user_dir
    ):
        found.sources.append(read_settings_source("project", claude_dir / SETTINGS_NAME))
        found.sources.append(read_settings_source("local", claude_dir / LOCAL_SETTINGS_NAME))
    for plugin_id, root in _enabled_plugins(found):
        for source in _plugin_sources(plugin_id, root):
            found.plugin_roots[source.path] = str(root)
            found.sources.append(source)
    for directory in dict.fromkeys((claude_dir, user_dir)):
        found.sources.extend(_markdown_sources(directory))
    return found


def _same(first: Path, second: Path) -> bool:
    if os.path.normpath(first) == os.path.normpath(second):
        return True
    try:
        return first.samefile(second)
    except OSError:
        return False


def _managed_sources(override: Path | None) -> Iterator[Source]:
    if override is not None:
        main = override / MANAGED_FILE if override.is_dir() else override
        drop_ins = main.parent / MANAGED_DROP_INS
        yield read_settings_source("managed", main)
    else:
        directory = managed_dir()
        if directory is None:
            return
        main = directory / MANAGED_FILE
        drop_ins = directory / MANAGED_DROP_INS
        if fs.exists(main) is not False:
            yield read_settings_source("managed", main)
    try:
        names = sorted(p for p in drop_ins.iterdir() if p.suffix == ".json")
    except OSError:
        return
    for path in names:
        yield read_settings_source("managed", path)


def read_settings_source(kind: SourceKind, path: Path) -> Source:
    present = fs.exists(path)
    if present is False:
        return Source(kind, str(path), exists=False, data=None)
    if present is None:
        return Source(kind, str(path), readable=False, error="cannot read it: permission denied")
    try:
        data = read_settings(path)
    except HookmanError as error:
        return Source(kind, str(path), readable=False, error=_sentence(error.message, path))
    return Source(kind, str(path), data=data)


def _sentence(message: str, path: Path) -> str:
    return message.replace(f"hookman cannot read {path}: ", "cannot read it: ").replace(
        f"{path} ", "it "
    )


def _enabled_plugins(found: SourceSet) -> Iterator[tuple[str, Path]]:
    enabled = found.merged_setting("enabledPlugins")
    enabled = enabled if isinstance(enabled, dict) else {}
    suffix = doctor_facts()["skills_dir_plugin_id_suffix"]
    skills = found.user_dir / "skills"
    try:
        skill_dirs = sorted(p for p in skills.iterdir() if (p / PLUGIN_MANIFEST).is_file())
    except OSError:
        skill_dirs = []
    for root in skill_dirs:
        plugin_id = root.name + suffix
        if enabled.get(plugin_id) is not False:
            yield plugin_id, root
    for plugin_id, root in _installed_plugins(found.user_dir):
        if enabled.get(plugin_id) is True:
            yield plugin_id, root


def _installed_plugins(user_dir: Path) -> Iterator[tuple[str, Path]]:
    try:
        data = json.loads((user_dir / INSTALLED_PLUGINS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, dict):
        return
    for plugin_id, installs in plugins.items():
        installs = installs if isinstance(installs, list) else [installs]
        for install in installs:
            if isinstance(install, dict) and isinstance(install.get("installPath"), str):
                source = _directory_marketplace_source(user_dir, plugin_id)
                yield plugin_id, source or Path(install["installPath"])
                break


def _directory_marketplace_source(user_dir: Path, plugin_id: str) -> Path | None:
    """The directory a plugin of a directory marketplace runs from: the client runs it from
    the marketplace's source directory, not from its cache copy (docs/claude-code-facts.md,
    "Plugins"; measured on 2.1.197, 2.1.328, 2.1.332). None for any other plugin."""
    name, _, marketplace = plugin_id.rpartition("@")
    try:
        known = json.loads((user_dir / KNOWN_MARKETPLACES).read_text(encoding="utf-8"))
        entry = known[marketplace]
        if entry["source"]["source"] != "directory":
            return None
        location = Path(entry.get("installLocation") or entry["source"]["path"])
        listing = json.loads((location / MARKETPLACE_MANIFEST).read_text(encoding="utf-8"))
        sources = [p["source"] for p in listing["plugins"] if p.get("name") == name]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not sources or not isinstance(sources[0], str):
        return None
    root = Path(os.path.normpath(location / sources[0]))
    return root if (root / PLUGIN_MANIFEST).is_file() else None


def _plugin_sources(plugin_id: str, root: Path) -> Iterator[Source]:
    """hooks/hooks.json, and each file plugin.json's `hooks` names (a path or a list of
    paths): measured on 2.1.197, 2.1.328 and 2.1.332, the client loads them all."""
    hooks_files = [root / PLUGIN_HOOKS]
    try:
        manifest = json.loads((root / PLUGIN_MANIFEST).read_text(encoding="utf-8"))
        declared = manifest.get("hooks") if isinstance(manifest, dict) else None
        named = [declared] if isinstance(declared, str) else declared
        if isinstance(named, list):
            hooks_files += [
                Path(os.path.normpath(root / name)) for name in named if isinstance(name, str)
            ]
    except (OSError, ValueError):
        pass
    for hooks_file in dict.fromkeys(hooks_files):
        if hooks_file != root / PLUGIN_HOOKS and not hooks_file.exists():
            continue  # a named file that is missing: not a hooks source
        source = read_settings_source("plugin", hooks_file)
        source.label = plugin_id
        yield source


def _markdown_sources(directory: Path) -> Iterator[Source]:
    """Skills (skills/*/SKILL.md), agents (agents/*.md) and slash commands (commands/**/*.md)."""
    patterns: tuple[tuple[SourceKind, str], ...] = (
        ("skill", "skills/*/SKILL.md"),
        ("agent", "agents/*.md"),
        ("command", "commands/**/*.md"),
    )
    for kind, pattern in patterns:
        try:
            paths = sorted(directory.glob(pattern))
        except OSError:
            continue
        for path in paths:
            yield read_markdown_source(kind, path)


def read_markdown_source(kind: SourceKind, path: Path) -> Source:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return Source(kind, str(path), readable=False, error=f"cannot read it: {error}")
    header, _ = split_frontmatter(text)
    source = Source(kind, str(path), text=text)
    if header is None or "hooks" not in header:
        return source
    try:
        parsed = parse_yaml_subset(header)
    except FrontmatterError as error:
        source.error = f"its frontmatter is YAML hookman cannot read ({error})"
        return source
    if isinstance(parsed, dict) and "hooks" in parsed:
        source.data = {"hooks": parsed["hooks"]}
    return source
