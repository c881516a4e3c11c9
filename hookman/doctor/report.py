"""Runs doctor: read the sources, build the merged view, apply every family of findings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hookman import paths
from hookman.catalog.agent_catalog import COPILOT_AGENT, DROID_AGENT, QWEN_AGENT
from hookman.catalog.client_version import TargetVersion
from hookman.doctor.codex_sources import wants_codex
from hookman.doctor.context import Context
from hookman.doctor.findings_code import check_code
from hookman.doctor.findings_commands import check_commands
from hookman.doctor.findings_files import check_files
from hookman.doctor.findings_hookman import check_hookman
from hookman.doctor.findings_keys import check_keys
from hookman.doctor.findings_matchers import check_matchers
from hookman.doctor.findings_moved_on import check_moved_on
from hookman.doctor.findings_plugins import check_plugins
from hookman.doctor.findings_repos import check_repositories
from hookman.doctor.findings_serve import check_serve
from hookman.doctor.findings_skills import check_inline_shell
from hookman.doctor.findings_status_line import check_status_line
from hookman.doctor.findings_subscriptions import check_subscriptions
from hookman.doctor.findings_switches import check_switches
from hookman.doctor.findings_version import check_version
from hookman.doctor.handlers import walk_hooks
from hookman.doctor.locate import json_line
from hookman.doctor.model import SEVERITIES, Finding, Source
from hookman.doctor.record import Record
from hookman.doctor.sources import collect_sources
from hookman.errors import HookmanError
from hookman.project.location import config_path

if TYPE_CHECKING:
    from hookman.doctor.probe import Progress
    from hookman.json_shapes import DoctorJson

JSON_KINDS = ("managed", "user", "project", "local", "plugin")


class DoctorOptions(Record):
    _fields = ("project_dir", "claude_version", "managed_settings", "probe", "probe_commands")

    def __init__(
        self,
        project_dir: Path,
        claude_version: str | None = None,
        managed_settings: Path | None = None,
        probe: bool = False,
        probe_commands: bool = False,
    ) -> None:
        self.project_dir = project_dir
        self.claude_version = claude_version
        self.managed_settings = managed_settings
        self.probe = probe
        self.probe_commands = probe_commands


def run_doctor(options: DoctorOptions, progress: Progress | None = None) -> Context:
    target, version_finding = _target(options)
    sources = collect_sources(options.project_dir, options.managed_settings)
    sources.sources.extend(_hookman_sources(options.project_dir))
    ctx = Context(options.project_dir, target.version, sources)
    if version_finding is not None:
        ctx.add(version_finding)
    for source in sources.hook_sources():
        handlers, invalid = walk_hooks(source, target.version)
        ctx.handlers.extend(handlers)
        if invalid:
            ctx.invalid[source.path] = invalid
    check_version(ctx)
    check_files(ctx)
    check_switches(ctx)
    check_keys(ctx)
    check_matchers(ctx)
    check_commands(ctx)
    check_code(ctx)
    check_hookman(ctx)
    check_serve(ctx)
    check_subscriptions(ctx)
    check_plugins(ctx)
    check_repositories(ctx)
    check_moved_on(ctx)
    check_inline_shell(ctx)
    check_status_line(ctx, run=options.probe or options.probe_commands)
    if options.probe or options.probe_commands:
        from hookman.doctor.probe import probe

        probe(ctx, foreign=options.probe_commands, progress=progress)
    if wants_codex(options.project_dir):  # file reads only: no Codex, nothing else runs
        from hookman.doctor.findings_codex import check_codex

        check_codex(ctx)  # after Claude Code's families: Codex's handlers are not theirs
    _check_other_agents(ctx)
    ctx.findings.sort(key=lambda f: SEVERITIES.index(f.severity))
    _add_lines(ctx)
    return ctx


def _check_other_agents(ctx: Context) -> None:
    """Copilot CLI, Qwen Code and droid, each only when `agents` names it or its own files
    hold hooks (file reads only until then)."""
    from hookman.doctor.agent_files import wants_agent

    # each family is imported only for an agent doctor looks at (most projects: none)
    if wants_agent(COPILOT_AGENT, ctx.project_dir):
        from hookman.doctor.findings_copilot import check_copilot

        check_copilot(ctx)
    if wants_agent(QWEN_AGENT, ctx.project_dir):
        from hookman.doctor.findings_qwen import check_qwen

        check_qwen(ctx)
    if wants_agent(DROID_AGENT, ctx.project_dir):
        from hookman.doctor.findings_droid import check_droid

        check_droid(ctx)


def _add_lines(ctx: Context) -> None:
    """file:line for findings with a JSON location in a JSON source."""
    json_files = {
        s.path for s in ctx.sources.sources if s.kind in JSON_KINDS and s.data is not None
    }
    texts: dict[str, str | None] = {}
    for finding in ctx.findings:
        if finding.file not in json_files or finding.path is None:
            continue
        if finding.file not in texts:
            try:
                texts[finding.file] = Path(finding.file).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                texts[finding.file] = None
        text = texts[finding.file]
        if text is not None:
            finding.line = json_line(text, finding.path)


def _target(options: DoctorOptions) -> tuple[TargetVersion, Finding | None]:
    """The target client, resolved as install and `hookman list` resolve it (one rule:
    install/report.py `version_target`); a bad claude_version in hookman.toml is a finding,
    not a stop."""
    from hookman.install.report import version_target

    configured = _configured_version(options.project_dir)
    flag = options.claude_version
    try:
        return version_target(options.project_dir, flag, configured), None
    except HookmanError as error:
        if options.claude_version is not None:
            raise
        finding = Finding(
            "hookman-config-invalid",
            "error",
            str(config_path(options.project_dir)),
            error.message,
            error.hint or "",
        )
        return version_target(options.project_dir, None, None), finding


def _configured_version(project_dir: Path) -> str | None:
    from hookman.project.config import read_config_values

    data = read_config_values(project_dir) or {}  # install's kept parse: no TOML parser
    value = data.get("claude_version")
    return value if isinstance(value, str) else None


def _hookman_sources(project_dir: Path) -> list[Source]:
    toml, manifest, registry = (
        config_path(project_dir),
        paths.manifest_path(project_dir),
        paths.registry_path(),
    )
    return [
        Source("hookman.toml", str(toml), exists=toml.exists()),
        Source("manifest", str(manifest), exists=manifest.exists()),
        Source("registry", str(registry), exists=registry.exists()),
    ]


def report_json(ctx: Context) -> DoctorJson:
    """What `doctor --json` prints (hookman/json_shapes.py)."""
    report: DoctorJson = {
        "project": str(ctx.project_dir),
        "claude_version": None if ctx.version is None else str(ctx.version),
        "sources": [source.json() for source in ctx.sources.sources],
        "handlers": [handler.json() for handler in ctx.handlers],
        "findings": [finding.json() for finding in ctx.findings],
    }
    if ctx.probed is not None:  # with --probe / --probe-commands: what ran, classified
        report["probed"] = [record.json() for record in ctx.probed]
    return report


def exit_code(ctx: Context) -> int:
    return 1 if any(finding.severity == "error" for finding in ctx.findings) else 0
