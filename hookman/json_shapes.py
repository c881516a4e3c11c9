"""What each command prints with `--json`: the contract scripts read, declared once.

Every `--json` object is one of the TypedDicts below; the command's docstring names it. A key
is always present (its value null where the type says `| None`) unless its class is declared
`total=False`: Python 3.10 has no `NotRequired`, so the keys that may be absent sit in a
`total=False` subclass of the always-present ones. A key that is not a Python name (`async`)
needs the functional `TypedDict("Name", {...})` form.

The code that builds each object is annotated with its type, so a type checker sees a drift
between the two; tests/commands/test_json_output.py runs every command with `--json` and
checks what it really printed against these types, key by key (no key more, none missing).

Nothing imports this module at run time: the builders import it under TYPE_CHECKING only,
so it costs no command (and never the runner) anything.
"""

from typing import Any, Literal, TypeAlias, TypedDict

JsonValue: TypeAlias = Any  # any JSON value: a client's answer, a hook's result, a payload

# --- enumerations -------------------------------------------------------------------------

# Where the Claude Code target came from ("earlier flag": the last write's --claude-version;
# "last install": no client answered, so the version the last write was for).
# "newest checked" (the newest version hookman's facts cover) is `plugin build`'s target, so
# install and list never print it; it is here because their target has the same type.
ClaudeVersionSource: TypeAlias = Literal[
    "flag",
    "hookman.toml",
    "earlier flag",
    "claude --version",
    "last install",
    "newest checked",
    "unknown",
]
# What one run of the runner came to (the firing log's `outcome`, `fire`'s "outcome").
Outcome: TypeAlias = Literal[
    "ok",
    "denied",  # a guarded event (PreToolUse, ...) was denied
    "blocked",  # a blocking event (Stop, UserPromptSubmit, ...) was blocked
    "failed-closed",  # a guard failed, so hookman denied
    "errors",  # a hook failed where failing does not deny
    "timeout",
    "bad-payload",
    "unknown-event",
    "no-manifest",
    "internal-error",
]
HookSourceKind: TypeAlias = Literal["path", "registry", "template"]  # "repo": RepoSourceJson
Shadowed: TypeAlias = Literal["registry", "template"]  # a place losing to the project's hook
# The files doctor reads hooks from (doctor/model.py's SourceKind).
DoctorSourceKind: TypeAlias = Literal[
    "managed",
    "user",
    "project",
    "local",
    "plugin",
    "skill",
    "agent",
    "command",
    "hookman.toml",
    "manifest",
    "registry",
    "codex",
    "qwen",  # Qwen Code's settings.json files (user, .qwen/)
    "droid",  # Factory droid's hooks.json and settings.json (~/.factory, .factory/)
    "copilot",  # Copilot CLI's own hook files (.github/hooks/*.json, ~/.copilot/...)
]
Severity: TypeAlias = Literal["error", "warning", "info"]

# --- parts shared by several commands -------------------------------------------------------


class HeldBackJson(TypedDict):
    """An event the target Claude Code lacks: no entry is written for it."""

    since: str  # the first Claude Code version that has it


class EntryJson(TypedDict):
    """One settings entry hookman wrote (or would write) for an event."""

    matcher: str | None
    timeout: float


class ProblemJson(TypedDict):
    """A hook whose module is missing on this machine, or does not compile."""

    name: str
    problem: str
    fix: str  # "" when hookman knows no fix


class PathSourceJson(TypedDict):
    kind: HookSourceKind
    value: str  # the project-relative path, or the registry or template name


class RepoSourceJson(TypedDict):
    kind: Literal["repo"]
    value: str  # the repository's URL (or local path)
    rev: str
    hook: str  # the name the repository gives the hook


class ListedRepoSourceJson(RepoSourceJson):
    commit: str | None  # the pinned commit (`list` only); null when not pinned yet


HookJson = TypedDict(
    "HookJson",
    {
        "name": str,
        "source": PathSourceJson | RepoSourceJson,
        "enabled": bool,
        "events": list[str],
        "tools": dict[str, list[str]],  # event -> the tools it is limited to
        "timeout": float | None,
        "async": bool,  # observe-only: Claude Code does not wait for it
        "claude_events": list[str],  # the Claude Code events it is served by
    },
)


# --- install, remove, enable, disable, try-repo, autoupdate ---------------------------------


class CodexTrustJson(TypedDict):
    trusted: list[str]  # the keys trusted now
    already_trusted: list[str]
    todo: str | None  # what the user must do when hookman could not record the trust


class CodexSyncJson(TypedDict):
    """What install wrote for Codex CLI in .codex/hooks.json."""

    path: str
    version: str | None
    written: list[str]  # the Claude Code events written for Codex
    not_in_codex: list[str]  # events this Codex version runs no hook for
    without_counterpart: dict[str, list[str]]  # hook -> its subscriptions Codex lacks
    changed: bool
    diff: str
    git: str | None  # what was done to keep .codex/hooks.json out of git
    trust: CodexTrustJson | None


class AgentSyncJson(TypedDict):
    """What install wrote for Qwen Code (.qwen/settings.json) or Factory droid
    (.factory/hooks.json)."""

    path: str
    installed_here: bool  # false: the agents name it, this machine lacks it; nothing written
    version: str | None
    written: list[str]  # the Claude Code events written for the agent
    not_in_agent: list[str]  # events this version of the agent runs no hook for
    without_counterpart: dict[str, list[str]]  # hook -> its subscriptions the agent lacks
    changed: bool
    diff: str
    git: str | None  # what was done to keep the file out of git


class CopilotSyncJson(TypedDict):
    """GitHub Copilot CLI: nothing of its own written (it runs settings.local.json's)."""

    trust: str  # what Copilot needs before it runs any hook (a trusted folder)


class _SyncJsonKeys(TypedDict):
    project: str
    claude_version: str | None
    claude_version_source: ClaudeVersionSource
    hooks: list[HookJson]  # every listed hook, dispatch order
    written: dict[str, EntryJson]  # event -> its blocking entry
    written_async: dict[str, EntryJson]  # event -> its `async: true` entry
    # guarded event -> its sentinel (project/sentinel.py; matcher null: every tool)
    written_sentinel: dict[str, EntryJson]
    held_back: dict[str, HeldBackJson]
    settings_changed: bool
    dry_run: bool
    diff: str  # unified diff of settings.local.json ("" when unchanged)
    config_diff: str  # unified diff of hookman.toml
    git: str | None  # what was done to keep settings.local.json out of git
    # incl. what the target means (held-back guard events, a version newer than hookman's
    # facts, a remembered target `claude --version` disagrees with)
    warnings: list[str]
    missing: list[ProblemJson]  # enabled hooks whose module is not here
    broken: list[ProblemJson]  # enabled hooks whose module does not compile


class ToolsChangeJson(TypedDict):
    """The tools a tool event covers, before and now (None: every tool)."""

    before: list[str] | None
    after: list[str] | None


class SubscriptionChangeJson(TypedDict):
    """A hook whose code subscribes to other events or tools than hookman.toml recorded."""

    hook: str
    gained: list[str]  # events the code subscribes to now
    lost: list[str]  # events the code no longer subscribes to
    tools: dict[str, ToolsChangeJson]  # events kept whose tools changed


class SyncJson(_SyncJsonKeys, total=False):
    """What an install, remove, enable or disable wrote (or, dry run, would write)."""

    # only when the project's agents include Codex CLI, or .codex/hooks.json holds hookman
    # entries (then `install` removes them)
    codex: CodexSyncJson
    # only when the project's agents include Qwen Code / Factory droid, or its file holds
    # hookman entries (then they are removed)
    qwen: AgentSyncJson
    droid: AgentSyncJson
    # only when the project's agents include GitHub Copilot CLI
    copilot: CopilotSyncJson
    # only when the sync fetched a repository commit into the store: {"repo", "rev", "commit"}
    fetched: list[dict[str, str]]
    # only when .claude/hookman-pins.json changes: {"repo", "rev", "old", "new"} (commits;
    # old None: a new pin, new None: a pin no hook uses any more)
    pins_changed: list[dict[str, str | None]]
    # only when a hook's code subscribes to other events or tools than hookman.toml recorded
    # (the record was rewritten to what the code says)
    subscriptions_changed: list[SubscriptionChangeJson]


class _ServePathKeys(TypedDict):
    path: Literal["server", "command"]
    # observe-only, guard-blocks (server); prompt-gate, no-on-failure, no-http, no-http-event,
    # version-unknown, copilot, dollar-in-path (command): hookman/project/serve_paths.py
    reason: str


class ServePathJson(_ServePathKeys, total=False):
    onFailure: Literal["block"]  # a guarded event that reaches the server


class ServePlanJson(TypedDict):
    """Where the user opted in to the warm hook server: each blocking entry's path."""

    port: int
    events: dict[str, ServePathJson]
    async_events: dict[str, ServePathJson]  # the async entries' paths
    # what answers on the port (null: not asked, a dry run or no entry reaching it)
    server: Literal["running", "not running", "another process"] | None


class _InstallJsonKeys(SyncJson):
    installed: list[str]  # the names given on this command line


class InstallJson(_InstallJsonKeys, total=False):
    """`hookman install --json`."""

    serve: ServePlanJson  # only where the user opted in to the warm hook server


class RemoveJson(SyncJson):
    """`hookman remove --json` ("hooks": the hooks that remain)."""

    removed: list[str]


class UninstalledFileJson(TypedDict):
    """hookman's part of one settings-shaped file, taken out by `hookman uninstall`."""

    path: str
    entries: int  # hookman's hook entries in it
    status_line: bool  # its statusLine was hookman's (`hookman statusline --install`)
    file_removed: bool  # nothing else was in it: the file went
    diff: str  # unified diff of the file (empty when it is removed)


class UninstallJson(TypedDict):
    """`hookman uninstall --json` (a null or empty value: nothing of that kind was there)."""

    project: str
    dry_run: bool
    settings: UninstalledFileJson | None  # .claude/settings.local.json
    codex_hooks: UninstalledFileJson | None  # .codex/hooks.json
    # agent ("qwen", "droid") -> hookman's part of its hooks file; only those holding some
    agent_hooks: dict[str, UninstalledFileJson | None]
    codex_trust: dict[str, Any] | None  # {"config": PATH, "keys": [KEY, ...]}
    git_exclude: dict[str, Any] | None  # {"file": PATH, "patterns": [PATTERN, ...]}
    state_dir: str | None  # hookman's state directory for the project (removed)
    kept: list[str]  # files of the project hookman leaves (committed: hookman.toml, ...)
    shared: dict[str, str]  # what every project shares and stays: {"store", "log", "cache"}


class EnableJson(SyncJson):
    """`hookman enable NAME --json` when the hook was disabled."""

    enabled: list[str]  # [NAME]
    unchanged: list[str]  # []


class DisableJson(SyncJson):
    """`hookman disable NAME --json` when the hook was enabled."""

    disabled: list[str]  # [NAME]
    unchanged: list[str]  # []


class EnableUnchangedJson(TypedDict):
    """`hookman enable NAME --json` when the hook already was enabled: nothing is written."""

    project: str
    enabled: list[str]  # []
    unchanged: list[str]  # [NAME]


class DisableUnchangedJson(TypedDict):
    """`hookman disable NAME --json` when the hook already was disabled."""

    project: str
    disabled: list[str]  # []
    unchanged: list[str]  # [NAME]


class TrialJson(TypedDict):
    repo: str
    rev: str  # the rev given, or the HEAD commit
    commit: str
    hooks: list[str]  # the hooks tried


class TryRepoJson(SyncJson):
    """`hookman try-repo --json`."""

    trial: TrialJson


class UpdateJson(TypedDict):
    repo: str
    old: str  # as shown: the rev, with its frozen tag when it has one
    new: str
    commit: str
    changed: bool


class AutoupdateUnchangedJson(TypedDict):
    """`hookman autoupdate --json` when nothing was written."""

    updates: list[UpdateJson]


class AutoupdateJson(SyncJson):
    """`hookman autoupdate --json` when a repository moved: what the rewrite wrote."""

    updates: list[UpdateJson]


# --- list -----------------------------------------------------------------------------------


class _ClaudeEventKeys(TypedDict):
    # "not_installed": hookman.toml asks for it, but this machine's settings.local.json has
    # no hookman entry for it (install never ran here, the file lost it) or hookman.toml
    # changed since `hookman install` ran here (after a pull): install writes it
    status: Literal["written", "held_back", "disabled", "not_installed"]
    matcher: str | None
    since: str | None  # held back: the version that has it


class ClaudeEventJson(_ClaudeEventKeys, total=False):
    # Only where the user opted in to the warm hook server (`hookman serve enable`): the path
    # the installed entry serving this hook's event takes, the server (an http entry) or the
    # command; null when no entry of hookman's serves it (status other than "written", or
    # settings.local.json lacks it).
    via: Literal["server", "command"] | None


class CodexInstalledJson(TypedDict):
    not_installed: list[str]  # of `events`: those .codex/hooks.json lacks here
    installed_for: dict[str, list[str]]  # event -> the tools its narrower installed entry names


class _CodexHookKeys(CodexInstalledJson):
    events: list[str]  # written for Codex
    no_counterpart: list[str]  # subscriptions Codex lacks


class CodexHookJson(_CodexHookKeys, total=False):
    # Codex's view only: the tools the hook asks for that Codex never names in a hook
    # payload (Write, Edit: catalog codex_events.json "hook_tools")
    never_sent: list[str]


class ListCodexJson(TypedDict):
    version: str | None
    path: str
    events: list[str]
    hooks: dict[str, CodexHookJson]


class ListAgentJson(TypedDict):
    """What hookman writes for one more agent (Copilot CLI, Qwen Code, droid), per hook."""

    version: str | None
    path: str | None  # its hooks file (Copilot CLI: null, it runs settings.local.json's)
    events: list[str]
    hooks: dict[str, CodexHookJson]  # hook -> its events for the agent, those it lacks


class LearnedJson(TypedDict):
    """What a hook's code subscribes to, as loaded now (or cached while it is unchanged)."""

    events: list[str]
    tools: dict[str, list[str]]


class SubscriptionGapJson(TypedDict):
    """How hookman.toml's record and the installed entries differ from the code (null: they
    agree, or nothing is installed)."""

    hookman_toml: SubscriptionChangeJson | None
    installed: SubscriptionChangeJson | None


ListedHookJson = TypedDict(
    "ListedHookJson",
    {
        "order": int,  # 1 = runs first
        "name": str,
        "source": PathSourceJson | ListedRepoSourceJson,
        "enabled": bool,
        "events": list[str],
        "tools": dict[str, list[str]],
        "timeout": float | None,
        "async": bool,
        "claude_events": dict[str, ClaudeEventJson],
        "last_fired": str | None,  # time of the last firing-log line naming it
        "shadows": list[Shadowed],  # same name there, losing to this hook
        "trial": bool,  # a `hookman try-repo` hook (not in hookman.toml)
        "problem": str | None,  # why it does not load here (missing, syntax error)
        "fix": str | None,
        # what its code subscribes to (null: disabled, a trial, or it does not load here)
        "learned": LearnedJson | None,
        # null when the code, hookman.toml and the installed entries agree
        "subscription_gap": SubscriptionGapJson | None,
    },
)


class ListJson(TypedDict):
    """`hookman list --json`."""

    project: str
    claude_version: str | None
    claude_version_source: ClaudeVersionSource
    hooks: list[ListedHookJson]  # dispatch order
    held_back: dict[str, HeldBackJson]
    agents: list[str]  # the clients hookman writes hooks for (hookman.toml `agents`)
    # null unless the agents include Codex CLI and it is installed here (`codex` on PATH)
    codex: ListCodexJson | None
    # null unless the agents include the agent and it is installed here (its program on PATH)
    copilot: ListAgentJson | None
    qwen: ListAgentJson | None
    droid: ListAgentJson | None
    warnings: list[str]  # what the target client means for the hooks (as install)


# --- new --list, registry list, commands, plugin build --------------------------------------


class TemplateJson(TypedDict):
    """One element of `hookman new --list --json` (a list, in name order)."""

    name: str
    description: str


class RegistryHookJson(TypedDict):
    name: str
    path: str
    exists: bool
    shadows: list[Literal["template"]]


class RegistryRepoJson(TypedDict):
    name: str
    repo: str
    rev: str
    hook: str


class RegistryJson(TypedDict):
    """`hookman registry list --json`, in file order (broken entries are not in it)."""

    registry: str  # the file
    hooks: list[RegistryHookJson]
    repositories: list[RegistryRepoJson]


class HookCommandJson(TypedDict):
    name: str
    description: str | None
    hook: str
    shadowed_by: str | None  # the earlier hook whose command of this name runs instead


class LoadErrorJson(TypedDict):
    hook: str
    error: str


class HookCommandsJson(TypedDict):
    """`hookman commands --json`."""

    commands: list[HookCommandJson]
    load_errors: list[LoadErrorJson]


class PluginBuildJson(TypedDict):
    """What `hookman plugin build` built."""

    plugin: str  # the plugin's directory
    name: str
    version: str
    hooks: list[str]  # dispatch order
    claude_version: str | None
    events: list[str]
    async_events: list[str]
    held_back: dict[str, HeldBackJson]
    rebuilt: bool
    changed: bool
    warnings: list[str]


class MarketplaceJson(TypedDict):
    path: str
    name: str
    changed: bool


class PluginJson(PluginBuildJson):
    """`hookman plugin build --json`."""

    marketplace: MarketplaceJson | None


# --- doctor ---------------------------------------------------------------------------------


class DoctorSourceJson(TypedDict):
    kind: DoctorSourceKind
    path: str
    exists: bool
    readable: bool
    loaded: bool  # False when the client applies none of its hooks
    silenced_by: str | None  # the finding code that explains `loaded` false
    label: str | None  # e.g. the plugin id
    error: str | None


HandlerJson = TypedDict(
    "HandlerJson",
    {
        "file": str,
        "source": DoctorSourceKind,
        "path": str,  # JSON location, e.g. hooks.PreToolUse[0].hooks[1]
        "event": str,
        "matcher": str | None,
        "type": str | None,
        "command": str | None,
        "timeout": float | None,
        "async": bool,
        "hookman": bool,
        "loaded": bool,
        "not_loaded_because": str | None,  # a finding code
        "matches": Literal["*"] | list[str] | None,  # tools matched; null: not a tool matcher
    },
)


class ValueEditJson(TypedDict):
    """A machine-applicable fix: set the value at `path`, or rename the key there."""

    op: Literal["set", "rename"]
    file: str
    path: str
    value: JsonValue  # rename: the new key


class DeleteEditJson(TypedDict):
    op: Literal["delete"]
    file: str
    path: str


EditJson: TypeAlias = ValueEditJson | DeleteEditJson


class FindingJson(TypedDict):
    code: str
    severity: Severity
    file: str | None
    event: str | None
    path: str | None
    line: int | None  # where `path` starts in `file`, when doctor can tell
    message: str
    fix: str
    edit: EditJson | None  # null where doctor knows no machine-applicable fix
    silences: list[str]  # JSON paths of the handlers it silences


class ProbedJson(TypedDict):
    """One run `doctor --probe` made, and how its result was classified."""

    kind: Literal["hookman", "command"]
    event: str
    hooks: list[str]  # hookman: the hooks that ran; command: []
    command: str | None
    file: str | None
    path: str | None  # the handler's JSON location (command hooks)
    sample: str  # what the run was given, e.g. "Bash `rm -rf ./build`"
    result: str  # the classification: denied, blocked, answered, no-answer, ...
    summary: str
    findings: list[str]  # codes this run gave


class _DoctorJsonKeys(TypedDict):
    project: str
    claude_version: str | None
    sources: list[DoctorSourceJson]
    handlers: list[HandlerJson]
    findings: list[FindingJson]


class DoctorJson(_DoctorJsonKeys, total=False):
    """`hookman doctor --json`."""

    probed: list[ProbedJson]  # with --probe or --probe-commands: what ran, classified


# --- fire -----------------------------------------------------------------------------------


class HookErrorJson(TypedDict):
    hook: str
    event: str  # the event, or "load" when the hook failed to load
    error: str


class HandlerCallJson(TypedDict):
    event: str
    result: JsonValue  # what the handler returned
    error: str | None  # what it raised


class FiredHookJson(TypedDict):
    name: str
    load_error: str | None
    calls: list[HandlerCallJson]


class AppendedEntryJson(TypedDict):
    custom_type: JsonValue
    data: JsonValue


class SandboxJson(TypedDict):
    directory: str  # the scratch copy of the project the hooks ran in
    note: str


class AsyncRunJson(TypedDict):
    """The run of the event's async hooks: their answer is always {} and does not count."""

    hooks: list[FiredHookJson]
    answer: dict[str, JsonValue]
    ignored_answer: dict[str, JsonValue]  # what they would have answered
    outcome: Outcome
    queued_for_next_event: list[str]
    errors: list[HookErrorJson]
    notices: list[str]
    output: str


class CodexFireJson(TypedDict):
    answer: dict[str, JsonValue]  # what the runner gives Codex
    model_sees: list[str]
    effects: list[str]


class AgentFireJson(TypedDict):
    answer: dict[str, JsonValue]  # what the runner gives the agent (Copilot, Qwen Code, droid)
    model_sees: list[str]
    effects: list[str]


# null when no async hook serves the event
_RehearsalAsync = TypedDict("_RehearsalAsync", {"async": AsyncRunJson | None})


class BlockingRunJson(TypedDict):
    """The run of the event's blocking hooks, the one Claude Code waits for."""

    event: str
    project: str
    hooks: list[FiredHookJson]
    answer: dict[str, JsonValue]  # the answer Claude Code gets
    exit_code: int
    outcome: Outcome
    model_sees: list[str]
    user_sees: list[str]
    effects: list[str]
    queued_for_next_event: list[str]
    errors: list[HookErrorJson]
    notices: list[str]
    output: str  # the hooks' captured output


class RehearsalJson(BlockingRunJson, _RehearsalAsync):
    """One rehearsed event (hookman.rehearsal.rehearse): the blocking run, then the async
    one, in a scratch copy of the project."""

    sandbox: SandboxJson
    entries: list[AppendedEntryJson]  # what the hooks appended with pi.append_entry
    statuses: dict[str, str]  # what they set with ctx.ui.set_status


class _FireJsonKeys(RehearsalJson):
    payload_source: str
    installed: bool  # False: fired from hookman.toml before the first install
    not_installed: list[str]  # enabled hooks hookman.toml lists that are not installed


class FireEntryJson(TypedDict):
    """The installed blocking entry for the event (hookman/rehearsal/entry_path.py)."""

    path: Literal["server", "command", "none"]  # the warm hook server, the command, no entry
    port: int | None  # the server's port (path "server")
    on_failure: str | None  # the http entry's onFailure ("block" on a guarded event)


class FireJson(_FireJsonKeys, total=False):
    """`hookman fire EVENT --json`."""

    entry: FireEntryJson  # once installed: which path the installed entry takes
    # with --agent: why that agent's own entries here do not reach this call (it runs the
    # call without hookman); the view's effects are then what it gets once they do
    agent_entry: str
    # with --agent codex: the payload names a tool Codex never names in a hook payload
    # (Write, Edit): no Codex call is this one; the view's effects are what would follow
    agent_tool: str

    codex: CodexFireJson  # with --agent codex
    copilot: AgentFireJson  # with --agent copilot
    qwen: AgentFireJson  # with --agent qwen
    droid: AgentFireJson  # with --agent droid


# --- log ------------------------------------------------------------------------------------


class _FiringRecordKeys(TypedDict):
    time: str
    project: str | None
    session: JsonValue  # the payload's session_id (null when it has none)
    agent_id: JsonValue  # the payload's agent_id: a subagent's id; null: the main agent
    event: str
    hooks: list[str]
    outcome: Outcome
    duration_ms: float
    errors: list[HookErrorJson]
    output: str
    notices: list[str]


_FiringRecordOptional = TypedDict(
    "_FiringRecordOptional",
    {
        "async": Literal[True],  # an async run
        "agent": str,  # the client the entry is for; absent: Claude Code
        "reason": str,  # what a deny or block told the agent
    },
    total=False,
)


class FiringRecordJson(_FiringRecordKeys, _FiringRecordOptional):
    """One line of the firing log: `hookman log --json` prints a list of them (with
    --follow, one per line)."""
