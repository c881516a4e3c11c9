"""What every family of findings reads and adds to."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hookman.catalog.client_version import ClientVersion
from hookman.doctor.handlers import InvalidEntry
from hookman.doctor.model import Finding, Handler
from hookman.doctor.sources import SourceSet


@dataclass
class Context:
    project_dir: Path
    version: ClientVersion | None
    version_description: str
    sources: SourceSet
    handlers: list[Handler] = field(default_factory=list)
    invalid: dict[str, list[InvalidEntry]] = field(default_factory=dict)  # by source path
    findings: list[Finding] = field(default_factory=list)

    def add(self, finding: Finding) -> None:
        self.findings.append(finding)

    def handlers_of(self, path: str) -> list[Handler]:
        return [handler for handler in self.handlers if handler.source.path == path]
