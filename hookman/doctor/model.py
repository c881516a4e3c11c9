"""What doctor reports: sources, handlers and findings (their JSON shapes are a contract)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from hookman.doctor.record import Record

if TYPE_CHECKING:
    from hookman.json_shapes import (
        DoctorSourceJson,
        EditJson,
        FindingJson,
        HandlerJson,
        ProbedJson,
    )

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")

SourceKind = Literal[
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
    "codex",  # Codex CLI's hooks.json and config.toml (label: "user hooks.json", ...)
    "qwen",  # Qwen Code's settings.json files (user, .qwen/)
    "droid",  # Factory droid's hooks.json and settings.json (~/.factory, .factory/)
    "copilot",  # Copilot CLI's own hook files (.github/hooks/*.json, ~/.copilot/...)
]


class Source(Record):
    """One file Claude Code (or hookman) reads hooks from."""

    _fields = (
        "kind",
        "path",
        "exists",
        "readable",
        "data",
        "text",
        "error",
        "loaded",
        "silenced_by",
        "label",
    )

    def __init__(
        self,
        kind: SourceKind,
        path: str,
        exists: bool = True,
        readable: bool = True,
        data: Any = None,
        text: str | None = None,
        error: str | None = None,
        loaded: bool = True,
        silenced_by: str | None = None,
        label: str | None = None,
    ) -> None:
        self.kind = kind
        self.path = path
        self.exists = exists
        self.readable = readable
        self.data = data  # the parsed object (settings JSON, frontmatter hooks, ...)
        self.text = text
        self.error = error
        self.loaded = loaded  # False when the client applies none of its hooks
        self.silenced_by = silenced_by  # the finding code that explains `loaded` False
        self.label = label  # e.g. the plugin id

    def json(self) -> DoctorSourceJson:
        return {
            "kind": self.kind,
            "path": self.path,
            "exists": self.exists,
            "readable": self.readable and self.error is None,
            "loaded": self.loaded,
            "silenced_by": self.silenced_by,
            "label": self.label,
            "error": self.error,
        }


class Handler(Record):
    """One hook handler in one source, where the client may run it."""

    _fields = (
        "source",
        "path",
        "event",
        "matcher",
        "type",
        "command",
        "timeout",
        "raw",
        "is_async",
        "hookman",
        "loaded",
        "not_loaded_because",
        "matches",
        "matches_all",
    )

    def __init__(
        self,
        source: Source,
        path: str,
        event: str,
        matcher: str | None,
        type: str | None,
        command: str | None,
        timeout: float | None,
        raw: dict[str, Any],
        is_async: bool = False,
        hookman: bool = False,
        loaded: bool = True,
        not_loaded_because: str | None = None,
        matches: list[str] | None = None,
        matches_all: bool = False,
    ) -> None:
        self.source = source
        self.path = path  # JSON location, e.g. hooks.PreToolUse[0].hooks[1]
        self.event = event
        self.matcher = matcher
        self.type = type
        self.command = command
        self.timeout = timeout
        self.raw = raw
        self.is_async = is_async
        self.hookman = hookman
        self.loaded = loaded
        self.not_loaded_because = not_loaded_because  # finding code
        # tools (or values) matched; None = not a tool matcher
        self.matches = matches
        self.matches_all = matches_all

    def silence(self, code: str) -> None:
        if self.loaded:
            self.loaded = False
            self.not_loaded_because = code

    def json(self) -> HandlerJson:
        return {
            "file": self.source.path,
            "source": self.source.kind,
            "path": self.path,
            "event": self.event,
            "matcher": self.matcher,
            "type": self.type,
            "command": self.command,
            "timeout": self.timeout,
            "async": self.is_async,
            "hookman": self.hookman,
            "loaded": self.loaded,
            "not_loaded_because": self.not_loaded_because,
            "matches": "*" if self.matches_all else self.matches,
        }


class Finding(Record):
    _fields = (
        "code",
        "severity",
        "file",
        "message",
        "fix",
        "event",
        "path",
        "edit",
        "silences",
        "line",
    )

    def __init__(
        self,
        code: str,
        severity: Severity,
        file: str | None,
        message: str,
        fix: str,
        event: str | None = None,
        path: str | None = None,
        edit: EditJson | None = None,
        silences: list[str] | None = None,
        line: int | None = None,
    ) -> None:
        self.code = code
        self.severity = severity
        self.file = file
        self.message = message
        self.fix = fix
        self.event = event
        self.path = path
        # A machine-applicable fix where doctor knows one: {"op": "set"|"rename"|"delete", ...}
        self.edit = edit
        # JSON paths of handlers it silences
        self.silences: list[str] = [] if silences is None else silences
        self.line = line  # where `path` starts in `file`, when doctor can tell

    @classmethod
    def about(
        cls,
        handler: Handler,
        code: str,
        severity: Severity,
        message: str,
        fix: str,
        *,
        path: str | None = None,
    ) -> Finding:
        """A finding about one handler: its file and event, at `path` (default: the
        handler's own JSON path)."""
        return cls(
            code,
            severity,
            handler.source.path,
            message,
            fix,
            event=handler.event,
            path=handler.path if path is None else path,
        )

    def json(self) -> FindingJson:
        return {
            "code": self.code,
            "severity": self.severity,
            "file": self.file,
            "event": self.event,
            "path": self.path,
            "line": self.line,
            "message": self.message,
            "fix": self.fix,
            "edit": self.edit,
            "silences": self.silences,
        }


class Probed(Record):
    """One run `--probe` made, and how its result was classified (the `probed` section)."""

    _fields = (
        "kind",
        "event",
        "hooks",
        "sample",
        "result",
        "summary",
        "command",
        "file",
        "path",
        "findings",
    )

    def __init__(
        self,
        kind: Literal["hookman", "command"],
        event: str,
        hooks: list[str],
        sample: str,
        result: str,
        summary: str,
        command: str | None = None,
        file: str | None = None,
        path: str | None = None,
        findings: list[str] | None = None,
    ) -> None:
        self.kind = kind
        self.event = event
        self.hooks = hooks  # hookman: the hooks that ran; command: []
        self.sample = sample  # what the run was given, e.g. "Bash `rm -rf ./build`"
        self.result = result  # the classification: denied, blocked, answered, no-answer, ...
        self.summary = summary  # the same in words, for a person
        self.command = command
        self.file = file
        self.path = path  # the handler's JSON location (command hooks)
        self.findings: list[str] = [] if findings is None else findings  # codes this run gave

    def json(self) -> ProbedJson:
        return {
            "kind": self.kind,
            "event": self.event,
            "hooks": self.hooks,
            "command": self.command,
            "file": self.file,
            "path": self.path,
            "sample": self.sample,
            "result": self.result,
            "summary": self.summary,
            "findings": self.findings,
        }
