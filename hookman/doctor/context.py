"""What every family of findings reads and adds to."""

from __future__ import annotations

from pathlib import Path

from hookman.catalog.client_version import ClientVersion
from hookman.doctor.handlers import InvalidEntry
from hookman.doctor.model import SEVERITIES, Finding, Handler, Probed
from hookman.doctor.record import Record
from hookman.doctor.sources import SourceSet

# A handler under an event the client does not run is reported once, by the event's finding.
EVENT_CODES = ("unknown-event", "event-too-new")


class Context(Record):
    _fields = ("project_dir", "version", "sources", "handlers", "invalid", "findings", "probed")

    def __init__(
        self,
        project_dir: Path,
        version: ClientVersion | None,
        sources: SourceSet,
        handlers: list[Handler] | None = None,
        invalid: dict[str, list[InvalidEntry]] | None = None,
        findings: list[Finding] | None = None,
        probed: list[Probed] | None = None,
    ) -> None:
        self.project_dir = project_dir
        self.version = version
        self.sources = sources
        self.handlers: list[Handler] = [] if handlers is None else handlers
        # by source path
        self.invalid: dict[str, list[InvalidEntry]] = {} if invalid is None else invalid
        self.findings: list[Finding] = [] if findings is None else findings
        self.probed = probed  # what --probe ran (None: no probe asked for)

    def add(self, finding: Finding) -> None:
        """One problem is one finding: the same finding at the same place (a group's matcher
        seen from each of its handlers) is added once."""
        same = self.find(finding.code, finding.file, finding.path)
        if same is not None and finding.path is not None and same.message == finding.message:
            return
        self.findings.append(finding)

    def find(self, code: str, file: str | None, path: str | None) -> Finding | None:
        return next(
            (f for f in self.findings if (f.code, f.file, f.path) == (code, file, path)), None
        )

    def confirm(self, finding: Finding) -> None:
        """A finding a run confirmed replaces the one read from the hook's text (same code,
        same place), keeping the graver severity."""
        earlier = self.find(finding.code, finding.file, finding.path)
        if earlier is None:
            self.findings.append(finding)
            return
        if SEVERITIES.index(earlier.severity) < SEVERITIES.index(finding.severity):
            finding.severity = earlier.severity
        self.findings[self.findings.index(earlier)] = finding

    def handlers_of(self, path: str) -> list[Handler]:
        return [handler for handler in self.handlers if handler.source.path == path]
