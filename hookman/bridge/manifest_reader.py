"""Reads the compact JSON manifest that `install` writes (ARCHITECTURE.md, "The manifest").

Hot path: plain classes (no dataclasses/typing imports, which cost milliseconds at start-up).
"""

from __future__ import annotations

import os

from hookman.bridge import lean_json
from hookman.bridge.client_facts import ClientFacts
from hookman.bridge.private_dir import plugin_state_base
from hookman.bridge.project_moved import INSTALLED_FROM
from hookman.bridge.protocol import CLIENT_SECTION
from hookman.bridge.protocol import MANIFEST_SENTINELS_KEY as SENTINELS_KEY
from hookman.bridge.protocol import MANIFEST_SERVE_KEY as SERVE_KEY
from hookman.bridge.state_file import read_regular

TOOL_CALL = "tool_call"
# A plugin's manifest (hookman plugin build) has a "plugin" section: its hook paths are
# relative to the manifest (the plugin root moves into the client's cache), the project is
# the session's, and state goes to the data dir the client gives the plugin (else to
# hookman's per-user state directory: plugin_state_dir).
PLUGIN_SECTION = "plugin"
PLUGIN_DATA_VARIABLE = "CLAUDE_PLUGIN_DATA"
PROJECT_DIR_VARIABLE = "CLAUDE_PROJECT_DIR"
PLUGIN_LOG_NAME = "firing.jsonl"
PLUGINS_DIR = "plugins"  # under hookman's state directory, when the client gives no data dir
CODEX_SECTION = "codex"  # Codex CLI's facts, when the project's agents include it


class ManifestError(Exception):
    """The manifest is missing, unreadable or not the expected shape."""


class ManifestHook:
    __slots__ = (
        "claude_events",
        "digests",
        "events",
        "is_async",
        "name",
        "package_root",
        "path",
        "repo",
        "tools",
    )

    def __init__(
        self,
        name: str,
        path: str,
        events: tuple[str, ...],
        claude_events: tuple[str, ...],
        tools: dict[str, list[str]],
        is_async: bool = False,
        package_root: str | None = None,
        repo: str | None = None,
        digests: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.path = path
        # A hook from a repository: the store tree its sibling imports resolve against,
        # "URL at REV" for the deny when the store entry is gone, and the sha256 of each of
        # its modules as fetched (the runner imports only those bytes; {} when install
        # recorded none, so none is imported).
        self.package_root = package_root
        self.repo = repo
        self.digests = digests
        self.events = events
        self.claude_events = claude_events
        self.tools = tools
        self.is_async = is_async

    def handles_tool(self, event: str, tool_name: str | None) -> bool:
        """Whether this hook's handlers for `event` asked for `tool_name` (no list: all).

        An empty list counts as no list: install writes an every-tool entry for it (and
        refuses to write one), so a guard never silently guards nothing."""
        wanted = self.tools.get(event)
        if not wanted or tool_name is None:
            return True
        return tool_name in wanted or "*" in wanted

    def guards(self, event: str, tool_name: str | None) -> bool:
        """Whether this hook takes part in deciding whether `tool_name` may run on the
        guarded Claude Code `event` (a tool_call handler, or a raw handler of `event`)."""
        return any(
            subscription in self.events and self.handles_tool(subscription, tool_name)
            for subscription in (TOOL_CALL, event)
        )


class Manifest:
    __slots__ = (
        "async_entries",
        "claude_version",
        "client",
        "codex_answer_fields",
        "config_path",
        "entries",
        "hooks",
        "installed_from",
        "log_path",
        "path",
        "plugin_name",
        "project_dir",
        "sentinels",
        "serve_port",
        "state_dir",
    )

    def __init__(
        self,
        *,
        path: str,
        project_dir: str,
        state_dir: str,
        log_path: str | None,
        claude_version: str | None,
        hooks: tuple[ManifestHook, ...],
        entries: dict[str, dict[str, object]],
        client: ClientFacts,
        async_entries: dict[str, dict[str, object]] | None = None,
        codex_answer_fields: dict[str, dict[str, list[str]]] | None = None,
        plugin_name: str | None = None,
        config_path: str | None = None,
        installed_from: dict[str, object] | None = None,
        serve_port: int | None = None,
        sentinels: dict[str, dict[str, object]] | None = None,
    ) -> None:
        self.path = path
        # guarded event -> {"matcher": ...} of its sentinel entry (project/sentinel.py): the
        # tools no blocking entry reaches, whose calls come to hookman once the project changed
        self.sentinels = sentinels or {}
        # The warm server's port when the project's entries reach it (the manifest's
        # "serve": {"port": PORT}; hookman/serve/wire.py): the prompt gate checks it.
        self.serve_port = serve_port
        # a built plugin's manifest: its name (what its users' messages name); else None
        self.plugin_name = plugin_name
        self.project_dir = project_dir
        self.state_dir = state_dir
        self.log_path = log_path
        self.claude_version = claude_version
        self.hooks = hooks
        self.entries = entries
        self.client = client
        self.async_entries = async_entries or {}
        # The "codex" section's answer fields Codex honours, per event (None: no section).
        self.codex_answer_fields = codex_answer_fields
        # A project's hookman.toml and what install recorded of it and of the pins
        # (bridge/project_moved.py); None for a plugin's manifest or an older install.
        self.config_path = config_path
        self.installed_from = installed_from

    def knows_event(self, event: str) -> bool:
        """Whether `event` is a Claude Code event: one the catalog knew at install time, or
        one this manifest serves (so an older manifest still runs its own events)."""
        return (
            event in self.client.known_events
            or event in self.entries
            or event in self.async_entries
            or any(event in hook.claude_events for hook in self.hooks)
        )

    def hooks_for(self, event: str, run_async: bool = False) -> list[ManifestHook]:
        """The hooks serving a Claude Code event, in dispatch order: the async ones when
        `run_async`, else the blocking ones. On a guarded event every hook is a blocking
        one: install keeps an async hook's guarded events in the blocking entry."""
        blocking = self.client.is_guarded(event)
        return [
            hook
            for hook in self.hooks
            if event in hook.claude_events and (hook.is_async and not blocking) == run_async
        ]

    def deadline_for(self, event: str, run_async: bool = False) -> float | None:
        """Seconds the runner may spend on `event` (below the entry's Claude Code timeout)."""
        entry = (self.async_entries if run_async else self.entries).get(event) or {}
        deadline = entry.get("deadline")
        if isinstance(deadline, (int, float)) and deadline > 0:
            return float(deadline)
        timeout = entry.get("timeout")
        if isinstance(timeout, (int, float)) and timeout > 1:
            return float(timeout) * 0.9
        return None

    def timeout_for(self, event: str, run_async: bool = False) -> float | None:
        """The entry's Claude Code timeout as install wrote it (None when unknown)."""
        entry = (self.async_entries if run_async else self.entries).get(event) or {}
        timeout = entry.get("timeout")
        return float(timeout) if isinstance(timeout, (int, float)) and timeout > 0 else None

    def hard_stop_for(self, event: str, run_async: bool = False) -> float | None:
        """Seconds after which the runner process ends whatever runs in it: halfway between
        its deadline and the entry's Claude Code timeout (None when either is unknown)."""
        timeout = self.timeout_for(event, run_async)
        deadline = self.deadline_for(event, run_async)
        if timeout is None or deadline is None or timeout <= deadline:
            return None
        return deadline + (timeout - deadline) / 2


def read_manifest(path: str) -> Manifest:
    try:  # a FIFO or symlink planted at the name must not stall or redirect the runner
        data = lean_json.loads(read_regular(path))
    except FileNotFoundError:
        raise ManifestError(f"the manifest {path} does not exist") from None
    except (OSError, ValueError) as error:
        raise ManifestError(f"the manifest {path} cannot be read ({error})") from None
    return parse_manifest(data, path)


def parse_manifest(data: object, path: str = "<manifest>") -> Manifest:
    if not isinstance(data, dict) or not isinstance(data.get("project_dir"), str):
        raise ManifestError(f"the manifest {path} is not a hookman manifest")
    hooks_data = data.get("hooks", [])
    entries = data.get("entries", {})
    async_entries = data.get("async_entries", {})
    if (
        not isinstance(hooks_data, list)
        or not isinstance(entries, dict)
        or not isinstance(async_entries, dict)
    ):
        raise ManifestError(f"the manifest {path} is not a hookman manifest")
    try:
        hooks = tuple(_parse_hook(item) for item in hooks_data)
    except (TypeError, KeyError, AttributeError, ValueError) as error:
        raise ManifestError(f"the manifest {path} has a malformed hook ({error})") from None
    project_dir = data["project_dir"]
    state_dir = str(data.get("state_dir") or "")
    log_path = data.get("log_path") or None
    plugin_name = None
    config_path = _text_or_none(data.get("config_path"))
    installed = data.get(INSTALLED_FROM)
    plugin = data.get(PLUGIN_SECTION)
    if plugin is not None:
        if not isinstance(plugin, dict) or not isinstance(plugin.get("name"), str):
            raise ManifestError(f"the manifest {path} has a malformed plugin section")
        base = os.path.dirname(os.path.abspath(path))
        hooks = tuple(_relative_to(hook, base) for hook in hooks)
        project_dir = os.environ.get(PROJECT_DIR_VARIABLE) or os.getcwd()
        state_dir = plugin_state_dir(plugin["name"])
        log_path = os.path.join(state_dir, PLUGIN_LOG_NAME)
        plugin_name = plugin["name"]
        config_path = installed = None  # a plugin has no project files of its own
    return Manifest(
        path=path,
        project_dir=project_dir,
        state_dir=state_dir,
        log_path=log_path,
        claude_version=data.get("claude_version") or None,
        hooks=hooks,
        entries={key: value for key, value in entries.items() if isinstance(value, dict)},
        client=ClientFacts(data.get(CLIENT_SECTION)),
        async_entries={
            key: value for key, value in async_entries.items() if isinstance(value, dict)
        },
        codex_answer_fields=_codex_answer_fields(data.get(CODEX_SECTION)),
        plugin_name=plugin_name,
        config_path=config_path,
        installed_from=installed if isinstance(installed, dict) else None,
        serve_port=None if plugin is not None else _serve_port(data.get(SERVE_KEY)),
        sentinels=_dict_values(data.get(SENTINELS_KEY)),
    )


def _dict_values(section: object) -> dict[str, dict[str, object]]:
    if not isinstance(section, dict):
        return {}
    return {key: value for key, value in section.items() if isinstance(value, dict)}


def _serve_port(section: object) -> int | None:
    """The "serve" section's port, or None when absent or malformed."""
    port = section.get("port") if isinstance(section, dict) else None
    if isinstance(port, int) and not isinstance(port, bool) and 0 < port < 65536:
        return port
    return None


def _codex_answer_fields(section: object) -> dict[str, dict[str, list[str]]] | None:
    """The answer fields of the manifest's "codex" section (install writes it when the
    project's agents include Codex); None when absent or malformed."""
    if not isinstance(section, dict) or not isinstance(section.get("answers"), dict):
        return None
    fields: dict[str, dict[str, list[str]]] = {}
    for event, value in section["answers"].items():
        if isinstance(value, dict):
            fields[event] = {
                key: [str(item) for item in value.get(key) or () if isinstance(item, str)]
                for key in ("top", "specific")
                if isinstance(value.get(key), list)
            }
    return fields


def plugin_state_dir(name: str) -> str:
    """The plugin's writable state: the client's data dir for it, else hookman's per-user
    state directory's `plugins/NAME` (private_dir.plugin_state_base). Never the plugin's own
    directory (it may be a team's checkout), never a shared temporary directory (another
    user could make it first); the runner checks it before use (private_dir.py)."""
    data = os.environ.get(PLUGIN_DATA_VARIABLE)
    if data and os.path.isabs(data):
        return data
    return os.path.join(plugin_state_base(), PLUGINS_DIR, _file_name(name))


def _file_name(name: str) -> str:
    """The plugin's name as one path component (a name is checked at build; this keeps a
    hand-edited manifest from reaching outside `plugins/`)."""
    cleaned = name.replace("/", "_").replace(os.sep, "_")
    return cleaned if cleaned.strip(".") else "_"


def _relative_to(hook: ManifestHook, base: str) -> ManifestHook:
    hook.path = os.path.join(base, hook.path)  # an absolute path stays as it is
    if hook.package_root is not None:  # a repository's copy the plugin carries
        hook.package_root = os.path.join(base, hook.package_root)
    return hook


def _parse_hook(item: dict[str, object]) -> ManifestHook:
    tools = item.get("tools") or {}
    if not isinstance(tools, dict):
        raise TypeError("'tools' must be an object")
    return ManifestHook(
        name=str(item["name"]),
        path=str(item["path"]),
        events=tuple(item.get("events") or ()),
        claude_events=tuple(item.get("claude_events") or ()),
        tools={str(key): list(value) for key, value in tools.items()},
        is_async=item.get("async") is True,
        package_root=_text_or_none(item.get("package_root")),
        repo=_repo_text(item),
        digests=_digests(item),
    )


def _digests(item: dict[str, object]) -> dict[str, str] | None:
    """A repository hook's module digests: {} when the manifest has none (an older
    install): nothing of the store is then imported unchecked. None for other hooks."""
    if _text_or_none(item.get("package_root")) is None or _repo_text(item) is None:
        return None
    digests = item.get("digests")
    if not isinstance(digests, dict):
        return {}
    return {key: value for key, value in digests.items() if isinstance(value, str)}


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _repo_text(item: dict[str, object]) -> str | None:
    repo = _text_or_none(item.get("repo"))
    if repo is None:
        return None
    rev = _text_or_none(item.get("rev"))
    return repo if rev is None else f"{repo} at {rev}"
