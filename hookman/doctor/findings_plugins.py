"""Plugin hooks files a client loads none of (an event it does not know, before 2.1.328),
and plugins hookman built (`hookman plugin build`, docs/plugins.md) among the enabled
plugins doctor reads: one built by an older hookman (its carried runner is out of date), one
whose hooks are also the project's own hookman entries (they run twice: measured on 2.1.197,
2.1.328 and 2.1.332, Claude Code does not merge a plugin's hooks with settings hooks), and
managed `allowManagedHooksOnly` silencing its guards."""

from __future__ import annotations

from pathlib import Path

from hookman import __version__
from hookman.catalog import event_catalog
from hookman.catalog.client_version import ClientVersion, parse_version, version_numbers
from hookman.catalog.plugin_facts import unknown_event_drops_file_before
from hookman.doctor.context import Context
from hookman.doctor.model import Finding, Source
from hookman.project.config import read_project_config


def check_plugins(ctx: Context) -> None:
    for source in ctx.sources.sources:
        if source.kind != "plugin":
            continue
        newer = newer_client_file(ctx, source)
        if newer is not None:
            _for_newer_client(ctx, source, newer)
        else:
            _check_whole_file(ctx, source)
        root = ctx.sources.plugin_roots.get(source.path)
        record = _build_record(root) if root else None
        if record is None:
            continue
        label = source.label or root or source.path
        _check_version(ctx, source, label, record)
        _check_duplicates(ctx, source, label, record)
        _check_managed_only(ctx, source, label)


def built_by_hookman(ctx: Context, source: Source) -> bool:
    """Whether `source` is a hooks file `hookman plugin build` wrote, unchanged since: its
    commands run hookman's own launcher, which the foreign-command checks (findings_code)
    would misread (its `exit 2` is the guarded-event block, not a hook's)."""
    root = ctx.sources.plugin_roots.get(source.path)
    if source.kind != "plugin" or root is None:
        return False
    from hookman.plugin.build_record import unchanged_built_file

    record = _build_record(root)
    return (
        record is not None
        and unchanged_built_file(Path(root), record, Path(source.path)) is not None
    )


def newer_client_file(ctx: Context, source: Source) -> ClientVersion | None:
    """V, when `source` is a hooks file `hookman plugin build` wrote for clients V and newer
    (hooks/since-V.json, unchanged since the build) and the target is older than V: its
    events are meant not to run there, so it is no problem (one info finding, not
    event-too-new or plugin-hooks-file-not-loaded). None for every other file."""
    root = ctx.sources.plugin_roots.get(source.path)
    if source.kind != "plugin" or ctx.version is None or root is None:
        return None
    from hookman.plugin.build_record import built_for_newer_client

    record = _build_record(root)
    path = Path(source.path)
    since = None if record is None else built_for_newer_client(Path(root), record, path)
    if since is None or ctx.version >= parse_version(since):
        return None
    return parse_version(since)


def _build_record(root: str) -> dict[str, object] | None:
    """The plugin's build record (imported here: only a plugin source needs it)."""
    from hookman.plugin.build_record import read_build_record

    return read_build_record(Path(root))


def _for_newer_client(ctx: Context, source: Source, since: ClientVersion) -> None:
    silenced = ctx.handlers_of(source.path)
    for handler in silenced:
        handler.silence("plugin-hooks-for-newer-client")
    source.loaded = False
    source.silenced_by = "plugin-hooks-for-newer-client"
    hooks = source.data.get("hooks") if isinstance(source.data, dict) else None
    events = ", ".join(str(event) for event in hooks or {})
    drops = ctx.version is not None and ctx.version < unknown_event_drops_file_before()
    skipped = "skips this file" if drops else "does not run these events"
    ctx.add(
        Finding(
            "plugin-hooks-for-newer-client",
            "info",
            source.path,
            f"the plugin {source.label or source.path} keeps its {events} hooks in a file "
            f"of their own for Claude Code {since} and newer, as `hookman plugin build` made "
            f"it; Claude Code {ctx.version} {skipped}, and the plugin's other hooks run.",
            f"nothing to do; for these hooks to run too, update Claude Code to {since} or newer.",
            silences=[handler.path for handler in silenced],
        )
    )


def _check_whole_file(ctx: Context, source: Source) -> None:
    """A plugin hooks file naming an event the client does not know: before
    unknown_event_drops_file_before (plugin_facts.json) none of its hooks load."""
    hooks = source.data.get("hooks") if isinstance(source.data, dict) else None
    drops_before = unknown_event_drops_file_before()
    if not isinstance(hooks, dict) or ctx.version is None or ctx.version >= drops_before:
        return
    unknown = [
        str(event)
        for event in hooks
        if not event_catalog.is_claude_event(str(event))
        or event_catalog.since(str(event)) > ctx.version
    ]
    if not unknown:
        return
    silenced = ctx.handlers_of(source.path)
    for handler in silenced:
        handler.silence("plugin-hooks-file-not-loaded")
    source.loaded = False
    source.silenced_by = "plugin-hooks-file-not-loaded"
    ctx.add(
        Finding(
            "plugin-hooks-file-not-loaded",
            "error",
            source.path,
            f"this plugin hooks file names {', '.join(unknown)}, which Claude Code "
            f"{ctx.version} does not know; clients before {drops_before} then load none of "
            "the file's hooks (measured on 2.1.197), so every hook in it is silent.",
            "move the newer events into a hooks file of their own, named in plugin.json's "
            "`hooks` list (`hookman plugin build` does), or update Claude Code.",
            silences=[handler.path for handler in silenced],
        )
    )


def _version_key(version: object) -> tuple[int, ...]:
    return version_numbers(version) if isinstance(version, str) else ()


def _check_version(ctx: Context, source: Source, label: str, record: dict[str, object]) -> None:
    built = record.get("hookman_version")
    if _version_key(built) >= _version_key(__version__):
        return
    ctx.add(
        Finding(
            "plugin-runner-outdated",
            "warning",
            source.path,
            f"the plugin {label} was built by hookman {built}, older than this hookman "
            f"({__version__}): it runs the runner of {built}, without the fixes since.",
            "rebuild it in its project with `hookman plugin build OUT_DIR`, publish it, and "
            "run `claude plugin update` where it is installed.",
        )
    )


def _check_duplicates(ctx: Context, source: Source, label: str, record: dict[str, object]) -> None:
    """The fix never names `hookman remove`: that edits the committed hookman.toml for the
    whole team, takes the hooks from every other agent the project installs for (the plugin
    is Claude Code's alone), and leaves the plugin's copy of the build's day guarding."""
    built_hooks = record.get("hooks")
    if not isinstance(built_hooks, list):
        return
    try:
        config = read_project_config(ctx.project_dir)
    except Exception:  # doctor reports hookman.toml problems elsewhere
        return
    project_hooks = {hook.name for hook in config.hooks if hook.enabled}
    project_events = {
        handler.event
        for handler in ctx.handlers
        if handler.hookman and handler.source.kind != "plugin" and handler.loaded
    }
    plugin_events = {handler.event for handler in ctx.handlers_of(source.path)}
    both = [name for name in built_hooks if name in project_hooks]
    events = sorted(project_events & plugin_events)
    if not both or not events:
        return
    ctx.add(
        Finding(
            "plugin-duplicates-project",
            "warning",
            source.path,
            f"the plugin {label} carries the hooks {', '.join(both)}, which this project "
            f"also installs itself: on {', '.join(events)} they run twice, in parallel "
            "(Claude Code does not merge plugin hooks with settings hooks).",
            f"keep the project's copy: disable the plugin with `claude plugin disable {label}` "
            "(the project's hookman.toml keeps its hooks current for the team and every agent "
            "it installs for; the plugin is a copy made when it was built, maybe older).",
        )
    )


def _check_managed_only(ctx: Context, source: Source, label: str) -> None:
    managed = next(
        (
            s
            for s in ctx.sources.sources
            if s.kind == "managed"
            and isinstance(s.data, dict)
            and s.data.get("allowManagedHooksOnly") is True
        ),
        None,
    )
    if managed is None:
        return
    ctx.add(
        Finding(
            "plugin-silenced-managed-only",
            "error",
            managed.path,
            f"managed settings set allowManagedHooksOnly, so none of the hooks of the hookman "
            f"plugin {label} runs: its guards guard nothing.",
            "ask whoever manages this machine to ship the plugin's hooks in the managed "
            "settings, or to drop allowManagedHooksOnly.",
            path="allowManagedHooksOnly",
        )
    )
