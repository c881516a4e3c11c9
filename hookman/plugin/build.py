"""`hookman plugin build`: the project's hooks as a self-contained Claude Code plugin.

    OUT_DIR/.claude-plugin/plugin.json        name, version, description (other keys kept)
    OUT_DIR/hooks/hooks.json                  one ordered runner per event, version-gated
    OUT_DIR/hookman-runner/run.sh             the launcher (hookman/plugin/launcher.py)
    OUT_DIR/hookman-runner/start.py           python3 check, then the carried runner
    OUT_DIR/hookman-runner/manifest.json      the runner's manifest, paths relative to it
    OUT_DIR/hookman-runner/hooks/NAME.py      the hook modules (of path, registry, template hooks)
    OUT_DIR/hookman-runner/repos/KEY/...      a hook repository's store copy (repo_trees.py)
    OUT_DIR/hookman-runner/lib/hookman/...    hookman's runner path (standard library only)
    OUT_DIR/hookman-runner/build.json         what hookman built: version, files and digests
    OUT_DIR/README.md                         written when absent

It plans entries exactly as install does (hookman/project/install_plan.py) for the target
client, and writes the manifest install would, with a "plugin" section the runner reads
(hookman/bridge/manifest_reader.py). An OUT_DIR holding anything else is refused, never
overwritten; one hookman built is rebuilt in place, unless a file hookman wrote there was
changed since (refused, naming it). The files are assembled in a staging directory beside
OUT_DIR, every hook is loaded from there as the plugin's runner will load it (load_check.py:
a hook that needs a module the plugin does not carry is refused), and then moved in, so a
failed build leaves OUT_DIR as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookman import __version__
from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion, TargetVersion, resolve_target
from hookman.catalog.plugin_facts import unknown_event_drops_file_before
from hookman.errors import HookmanError
from hookman.hooks.sources import module_path
from hookman.plugin.build_record import BUILT_BY, RECORD, read_build_record
from hookman.plugin.carry import carried_files, check_hook_imports
from hookman.plugin.launcher import (
    HOOKS_DIR,
    LAUNCHER_NAME,
    LIB_DIR,
    MANIFEST_NAME,
    RUNNER_DIR,
    START_NAME,
    hook_command,
    plugin_launcher_text,
    start_text,
)
from hookman.plugin.load_check import check_plugin_loads
from hookman.plugin.repo_trees import RepoCopies
from hookman.project.config import HookSpec, read_project_config
from hookman.project.install_plan import InstallPlan, plan_install
from hookman.project.manifest import build_manifest, manifest_text

if TYPE_CHECKING:
    from hookman.json_shapes import PluginBuildJson

PLUGIN_JSON = ".claude-plugin/plugin.json"
HOOKS_DIR_NAME = "hooks"
HOOKS_JSON = f"{HOOKS_DIR_NAME}/hooks.json"
README = "README.md"
DEFAULT_VERSION = "0.1.0"
# Claude Code plugin names: kebab-case (lower-case letters, digits, single hyphens).
NAME_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MAX_NAME_LENGTH = 64
VERSION_PATTERN = re.compile(r"(\d+)\.(\d+)\.(\d+)([-+][0-9A-Za-z.+-]*)?")


@dataclass
class BuildResult:
    out_dir: Path
    name: str
    version: str
    hooks: list[str]
    target: TargetVersion
    plan: InstallPlan
    rebuilt: bool
    changed: bool
    # what the hooks' modules import that a plugin cannot carry; the plan's warnings are the
    # commands' (commands/plan_wording.py), and `hookman plugin build` puts them first
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> PluginBuildJson:
        return {
            "plugin": str(self.out_dir),
            "name": self.name,
            "version": self.version,
            "hooks": list(self.hooks),
            "claude_version": None if self.target.version is None else str(self.target.version),
            "events": list(self.plan.entries),
            "async_events": list(self.plan.async_entries),
            "held_back": {event: {"since": s} for event, s in self.plan.held_back.items()},
            "rebuilt": self.rebuilt,
            "changed": self.changed,
            "warnings": list(self.warnings),
        }


def check_plugin_name(name: str) -> str:
    if len(name) > MAX_NAME_LENGTH or not NAME_PATTERN.fullmatch(name):
        raise HookmanError(
            f"{name!r} is not a valid plugin name: Claude Code plugin names are kebab-case "
            f"(lower-case letters, digits and single hyphens, at most {MAX_NAME_LENGTH}).",
            "pass one with --name, e.g. `hookman plugin build OUT_DIR --name team-guards`.",
            exit_code=2,
        )
    return name


def default_plugin_name(project_dir: Path) -> str:
    """`<project directory name>-hooks`, made kebab-case."""
    name = re.sub(r"[^a-z0-9]+", "-", project_dir.name.lower()).strip("-")[:58].strip("-")
    return f"{name or 'project'}-hooks"


def check_version(version: str) -> str:
    if not VERSION_PATTERN.fullmatch(version):
        raise HookmanError(
            f"{version!r} is not a plugin version: give a semantic version like 1.2.0.",
            "pass one with --version, e.g. `hookman plugin build OUT_DIR --version 1.2.0`.",
            exit_code=2,
        )
    return version


def build_plugin(
    out_dir: Path,
    project_dir: Path,
    *,
    name: str | None = None,
    version: str | None = None,
    hook_names: Sequence[str] = (),
    claude_version: str | None = None,
) -> BuildResult:
    """Build (or rebuild) the plugin in `out_dir` from the project's hookman.toml."""
    plugin_name = check_plugin_name(name if name is not None else default_plugin_name(project_dir))
    if version is not None:
        check_version(version)
    config = read_project_config(project_dir)
    hooks = _chosen_hooks(config.hooks, hook_names)
    target = plugin_target(claude_version, config.claude_version)
    modules: dict[str, str] = {}
    repos = RepoCopies()
    warnings: list[str] = []
    for hook in hooks:
        if hook.source.kind == "repo":
            repos.add(hook, project_dir)
            path = repos.store_paths[hook.name]
        else:
            path = module_path(hook, project_dir)
        text = _module_text(hook.name, path)
        warnings += check_hook_imports(hook.name, path, text)
        if hook.source.kind != "repo":
            modules[hook.name] = text
    plan = plan_install(hooks, target.version)
    if not plan.entries and not plan.async_entries:
        raise HookmanError(
            "none of the chosen hooks subscribes to an event this Claude Code target can "
            "send, so the plugin would have no hooks; nothing was built.",
            "check the hooks' events with `hookman list`.",
        )
    out_dir = Path(os.path.abspath(out_dir))
    previous = _previous_build(out_dir)
    files = _plugin_files(plugin_name, hooks, modules, repos, plan, target, project_dir)
    content = _content_digest(files)
    old_version = previous.get("version") if previous else None
    if version is None:
        if not isinstance(old_version, str) or not VERSION_PATTERN.fullmatch(old_version):
            version = DEFAULT_VERSION
        elif previous.get("content") == content:
            version = old_version
        else:
            version = _next_patch(old_version)
    plugin_json = _plugin_json(
        out_dir, plugin_name, version, [h.name for h in hooks], extra_hooks_files(files)
    )
    files[PLUGIN_JSON] = plugin_json
    if not (out_dir / README).exists() or (previous and README in previous.get("files", {})):
        files[README] = _readme(plugin_name, [h.name for h in hooks])
    record = {
        "built_by": BUILT_BY,
        "hookman_version": __version__,
        "plugin": plugin_name,
        "version": version,
        "claude_version": None if target.version is None else str(target.version),
        "hooks": [hook.name for hook in hooks],
        "content": content,
        # plugin.json's other keys are the user's: not checked, so not recorded
        "files": {p: _digest(text) for p, text in sorted(files.items()) if p != PLUGIN_JSON},
    }
    files[RECORD] = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
    changed = _write(out_dir, files, previous, project_dir)
    return BuildResult(
        out_dir,
        plugin_name,
        version,
        [hook.name for hook in hooks],
        target,
        plan,
        previous is not None,
        changed,
        warnings,
    )


def plugin_target(flag: str | None, config_value: str | None) -> TargetVersion:
    """The newest client the plugin serves: --claude-version, hookman.toml's claude_version,
    else the newest client hookman has facts for (not this machine's `claude`: a plugin runs
    on many machines). Older clients still run it: events they do not know are in files of
    their own (`hooks_files`)."""
    if flag is not None or config_value is not None:
        return resolve_target(flag, config_value)
    return TargetVersion(event_catalog.newest_checked_client(), "newest checked")


def _chosen_hooks(listed: Sequence[HookSpec], names: Sequence[str]) -> list[HookSpec]:
    if not names:
        chosen = [hook for hook in listed if hook.enabled]
        if not chosen:
            raise HookmanError(
                "this project has no enabled hook in .claude/hookman.toml, so there is "
                "nothing to build a plugin from.",
                "install one first: `hookman install PATH`.",
            )
    else:
        by_name = {hook.name: hook for hook in listed}
        unknown = [name for name in names if name not in by_name]
        if unknown:
            raise HookmanError(
                f"no hook named {unknown[0]!r} in .claude/hookman.toml.",
                "see the project's hooks with `hookman list`.",
                exit_code=2,
            )
        wanted = set(names)
        # dispatch order is hookman.toml's; a disabled hook named here is built enabled
        chosen = [_enabled(hook) for hook in listed if hook.name in wanted]
    for hook in chosen:
        if not hook.events:
            raise HookmanError(
                f"hookman does not know yet what the hook {hook.name!r} subscribes to.",
                f"run `hookman install {hook.name}` first, then build the plugin.",
            )
    return chosen


def _enabled(hook: HookSpec) -> HookSpec:
    from dataclasses import replace

    return hook if hook.enabled else replace(hook, enabled=True)


def _module_text(name: str, path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HookmanError(
            f"the module of the hook {name!r} ({path}) does not exist; no plugin was built.",
            "restore it, or leave the hook out with --hooks (`hookman list` names them).",
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise HookmanError(
            f"the module of the hook {name!r} ({path}) cannot be read as UTF-8 text "
            f"({error}); no plugin was built.",
            "fix the file, or leave the hook out with --hooks.",
        ) from None


def _plugin_files(
    name: str,
    hooks: Sequence[HookSpec],
    modules: dict[str, str],
    repos: RepoCopies,
    plan: InstallPlan,
    target: TargetVersion,
    project_dir: Path,
) -> dict[str, str | bytes]:
    guarded = event_catalog.guarded_events()
    files: dict[str, str | bytes] = {}
    for relative, source in carried_files():
        files[f"{RUNNER_DIR}/{LIB_DIR}/{relative}"] = source.read_text(encoding="utf-8")
    for hook_name, text in modules.items():
        files[f"{RUNNER_DIR}/{HOOKS_DIR}/{hook_name}.py"] = text
    for tree, contents in repos.trees.items():
        for relative, data in contents.items():
            files[f"{RUNNER_DIR}/{tree}/{relative}"] = data
    paths = {hook: Path(f"{HOOKS_DIR}/{hook}.py") for hook in modules} | repos.paths
    manifest = build_manifest(
        project_dir, hooks, paths, plan, target.version, origins=repos.origins
    )
    manifest.update(
        project_dir="", config_path="", state_dir="", log_path="", claude_version_source=None
    )
    manifest["plugin"] = {"name": name}
    files[f"{RUNNER_DIR}/{MANIFEST_NAME}"] = manifest_text(manifest)
    timeouts = {event: entry.timeout for event, entry in plan.entries.items()}
    files[f"{RUNNER_DIR}/{LAUNCHER_NAME}"] = plugin_launcher_text(name, guarded, timeouts=timeouts)
    files[f"{RUNNER_DIR}/{START_NAME}"] = start_text(name, guarded)
    files.update(hooks_files(name, plan, guarded))
    return files


def hooks_files(name: str, plan: InstallPlan, guarded: Sequence[str]) -> dict[str, str]:
    """hooks/hooks.json with the events every supported client knows, and one
    hooks/since-V.json per newer version boundary (named in plugin.json): a client that does
    not know an event drops the file naming it (2.1.197) or the entry (2.1.328+), so each
    client loads every file it can and the older events always run. Each event is in one
    file: one ordered runner per event."""
    floor = event_catalog.oldest_supported_client()
    tolerant = unknown_event_drops_file_before()
    buckets: dict[str, list[str]] = {}  # file -> its events
    for event in [*plan.entries, *plan.async_entries]:
        buckets.setdefault(_hooks_file_key(event, floor, tolerant), []).append(event)
    file_of = {
        event: HOOKS_JSON
        if key == HOOKS_JSON
        else f"{HOOKS_DIR_NAME}/since-{min(event_catalog.since(e) for e in events)}.json"
        for key, events in buckets.items()
        for event in events
    }
    files: dict[str, dict[str, list[dict[str, Any]]]] = {HOOKS_JSON: {}}
    for is_async, entries in ((False, plan.entries), (True, plan.async_entries)):
        for event, entry in entries.items():
            handler: dict[str, Any] = {
                "type": "command",
                "command": hook_command(
                    name, event, guarded=event in guarded and not is_async, run_async=is_async
                ),
                "timeout": entry.timeout,
            }
            if is_async:
                handler["async"] = True
            group: dict[str, Any] = {} if entry.matcher is None else {"matcher": entry.matcher}
            group["hooks"] = [handler]
            files.setdefault(file_of[event], {}).setdefault(event, []).append(group)
    order = event_catalog.claude_events()
    return {
        file: json.dumps(
            {"hooks": {event: events[event] for event in order if event in events}},
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
        for file, events in sorted(files.items(), key=lambda item: _file_order(item[0]))
    }


def _hooks_file_key(event: str, floor: ClientVersion, tolerant: ClientVersion) -> str:
    """Events every supported client knows share hooks/hooks.json; an event clients that
    drop a whole file could miss gets a file per version it needs; the events only clients
    that drop just the entry can know share one file."""
    since = event_catalog.since(event)
    if since <= floor:
        return HOOKS_JSON
    return str(since) if since < tolerant else "tolerant"


def _file_order(file: str) -> tuple[int, ...]:
    return () if file == HOOKS_JSON else _numbers(file)


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(number) for number in re.findall(r"\d+", text))


def extra_hooks_files(files: Mapping[str, object]) -> list[str]:
    """The hooks files beside hooks/hooks.json, as plugin.json names them."""
    extra = [f for f in files if f.startswith(HOOKS_DIR_NAME + "/since-") and f.endswith(".json")]
    return [f"./{file}" for file in sorted(extra, key=_file_order)]


def _plugin_json(
    out_dir: Path, name: str, version: str, hooks: Sequence[str], extra_files: Sequence[str]
) -> str:
    data: dict[str, Any] = {}
    try:
        existing = json.loads((out_dir / PLUGIN_JSON).read_text(encoding="utf-8"))
        if isinstance(existing, dict):
            data = existing
    except (OSError, ValueError):
        pass
    data["name"] = name
    data["version"] = version
    # hooks/hooks.json loads without being named (naming it too is not needed); the newer
    # files are named here (2.1.197, 2.1.328, 2.1.332 load a list of paths).
    if extra_files:
        data["hooks"] = list(extra_files)
    else:
        data.pop("hooks", None)
    data.setdefault(
        "description",
        f"Claude Code hooks ({', '.join(hooks)}) built with hookman; they need python3 "
        "(3.10 or newer) on PATH.",
    )
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _readme(name: str, hooks: Sequence[str]) -> str:
    listed = "\n".join(f"- `{hook}`" for hook in hooks)
    return f"""\
# {name}

Claude Code hooks built with hookman (`hookman plugin build`). The plugin carries the hook
modules (a repository hook's whole repository) and hookman's runner, so it needs nothing
installed but Python 3.10 or newer as `python3` on PATH; without it, guarded tool calls are
denied with a message saying so. If a guard of the plugin cannot decide, it denies: update
or reinstall the plugin (`claude plugin update {name}@MARKETPLACE`), or tell its author.

Hooks, in the order they run:

{listed}

Install it from a marketplace that lists it:

    claude plugin marketplace add PATH_OR_REPOSITORY
    claude plugin install {name}@MARKETPLACE

Rebuild it from the project with `hookman plugin build`; do not edit `hookman-runner/`.
"""


def _content_digest(files: Mapping[str, str | bytes]) -> str:
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode("utf-8") + b"\0" + _bytes(files[path]) + b"\0")
    return digest.hexdigest()


def _digest(content: str | bytes) -> str:
    return hashlib.sha256(_bytes(content)).hexdigest()


def _bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content


def _next_patch(version: str) -> str:
    match = VERSION_PATTERN.fullmatch(version)
    assert match is not None
    return f"{match[1]}.{match[2]}.{int(match[3]) + 1}"


def _previous_build(out_dir: Path) -> dict[str, Any] | None:
    """The record of the plugin hookman built in `out_dir`; None for a new or empty one;
    a HookmanError for a directory that holds anything else."""
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise _not_ours(out_dir, "it is not a directory")
    if not out_dir.exists():
        return None
    try:
        entries = list(out_dir.iterdir())
    except OSError as error:
        raise _not_ours(out_dir, f"it cannot be read ({error.strerror or error})") from None
    if not entries:
        return None
    record = read_build_record(out_dir)
    if record is None:
        raise _not_ours(out_dir, "it holds files that are not a plugin hookman built")
    files: dict[str, Any] = record["files"]
    for relative, digest in files.items():
        current = out_dir / relative
        if not current.is_file() or current.is_symlink():
            continue  # gone: written again
        try:
            changed = _digest(current.read_bytes()) != digest
        except OSError:
            changed = True
        if changed:
            raise HookmanError(
                f"{current} was changed since hookman built the plugin there, so rebuilding "
                "would overwrite that change; nothing was written.",
                "move your change out of the file (or delete the file), then run "
                "`hookman plugin build` again.",
            )
    runner = out_dir / RUNNER_DIR
    for path in runner.rglob("*") if runner.is_dir() else ():
        relative = path.relative_to(out_dir).as_posix()
        if (path.is_file() or path.is_symlink()) and relative not in files and relative != RECORD:
            raise HookmanError(
                f"{path} is not a file hookman wrote, and rebuilding replaces "
                f"{out_dir / RUNNER_DIR} whole; nothing was written.",
                "move the file out of the plugin's hookman-runner/ directory, then run "
                "`hookman plugin build` again.",
            )
    return record


def _not_ours(out_dir: Path, why: str) -> HookmanError:
    return HookmanError(
        f"hookman will not build a plugin in {out_dir}: {why}, and hookman never overwrites "
        "what it did not write.",
        "give an empty or new directory: `hookman plugin build NEW_DIR`.",
    )


def _write(
    out_dir: Path,
    files: dict[str, str | bytes],
    previous: dict[str, Any] | None,
    project_dir: Path,
) -> bool:
    """Put `files` into `out_dir` once their hooks load from them; True when anything
    changed."""
    if previous is not None and all(
        _same(out_dir / relative, text) for relative, text in files.items()
    ):
        return False
    parent = out_dir.parent
    made = [d for d in (parent, *parent.parents) if not d.exists()]  # removed if it fails
    written = False
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.hookman-build-", dir=parent))
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write into {parent}: {error.strerror or error}; nothing was written.",
            "choose a directory you can write: `hookman plugin build OUT_DIR`.",
        ) from None
    try:
        for relative, text in files.items():
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_bytes(text))
        check_plugin_loads(staging / RUNNER_DIR, MANIFEST_NAME, LIB_DIR, project_dir)
        if previous is None:
            if out_dir.exists():
                out_dir.rmdir()  # empty: checked
            os.replace(staging, out_dir)
        else:
            _swap_in(out_dir, staging, files, previous)
        written = True
    except OSError as error:
        raise HookmanError(
            f"hookman could not write the plugin in {out_dir}: {error.strerror or error}.",
            "check the directory's permissions and free space, then run "
            "`hookman plugin build` again.",
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        for directory in made if not written else ():
            with suppress(OSError):
                directory.rmdir()
    return True


def _swap_in(
    out_dir: Path, staging: Path, files: Mapping[str, object], previous: dict[str, Any]
) -> None:
    """Replace hookman-runner/ whole, and each other file hookman writes, from `staging`;
    remove the files of the last build this one no longer writes (unchanged: checked)."""
    old_runner = out_dir / RUNNER_DIR
    trash = staging / ".old-runner"
    if old_runner.exists():
        os.replace(old_runner, trash)
    os.replace(staging / RUNNER_DIR, old_runner)
    for relative in files:
        if relative.startswith(RUNNER_DIR + "/"):
            continue
        target = out_dir / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / relative, target)
    for relative in previous["files"]:
        if relative not in files and not relative.startswith(RUNNER_DIR + "/"):
            with suppress(FileNotFoundError):
                (out_dir / relative).unlink()


def _same(path: Path, content: str | bytes) -> bool:
    try:
        return path.read_bytes() == _bytes(content)
    except OSError:
        return False
