"""What doctor reports: sources, handlers and findings (their JSON shapes are a contract)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

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


@dataclass
class Source:
    """One file Claude Code (or hookman) reads hooks from."""

    kind: SourceKind
    path: str
    exists: bool = True
    readable: bool = True
    data: Any = None  # the parsed object (settings JSON, frontmatter hooks, ...)
    text: str | None = None
    error: str | None = None
    loaded: bool = True  # False when the client applies none of its hooks
    silenced_by: str | None = None  # the finding code that explains `loaded` False
    label: str | None = None  # e.g. the plugin id

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


@dataclass
class Handler:
    """One hook handler in one source, where the client may run it."""

    source: Source
    path: str  # JSON location, e.g. hooks.PreToolUse[0].hooks[1]
    event: str
    matcher: str | None
    type: str | None
    command: str | None
    timeout: float | None
    raw: dict[str, Any]
    is_async: bool = False
    hookman: bool = False
    loaded: bool = True
    not_loaded_because: str | None = None  # finding code
    matches: list[str] | None = None  # tools (or values) matched; None = not a tool matcher
    matches_all: bool = False

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


@dataclass
class Finding:
    code: str
    severity: Severity
    file: str | None
    message: str
    fix: str
    event: str | None = None
    path: str | None = None
    # A machine-applicable fix where doctor knows one: {"op": "set"|"rename"|"delete", ...}
    edit: EditJson | None = None
    silences: list[str] = field(default_factory=list)  # JSON paths of handlers it silences
    line: int | None = None  # where `path` starts in `file`, when doctor can tell

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


@dataclass
class Probed:
    """One run `--probe` made, and how its result was classified (the `probed` section)."""

    kind: Literal["hookman", "command"]
    event: str
    hooks: list[str]  # hookman: the hooks that ran; command: []
    sample: str  # what the run was given, e.g. "Bash `rm -rf ./build`"
    result: str  # the classification: denied, blocked, answered, no-answer, ...
    summary: str  # the same in words, for a person
    command: str | None = None
    file: str | None = None
    path: str | None = None  # the handler's JSON location (command hooks)
    findings: list[str] = field(default_factory=list)  # codes this run gave

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
