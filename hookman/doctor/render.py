"""Doctor's terminal output: rich tables grouped by source on a terminal, plain lines when
piped or NO_COLOR. rich is imported only here, and only for a terminal."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hookman.doctor.context import Context
from hookman.doctor.model import SEVERITIES, Finding, Handler, Probed, Source
from hookman.doctor.quote import shown
from hookman.output import console, escape
from hookman.project.settings_entries import hookman_handler_is_sentinel

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
COMMAND_WIDTH = 60
NO_WRAP = frozenset({"path", "event", "matcher", "timeout"})


def shown_path(path: str | None, project_dir: Path) -> str:
    if path is None:
        return "-"
    candidate = Path(path)
    try:
        return str(candidate.relative_to(project_dir))
    except ValueError:
        pass
    try:
        return "~/" + str(candidate.relative_to(Path.home()))
    except (ValueError, RuntimeError):
        return path


def render(ctx: Context) -> None:
    out = console()
    rich = out.is_terminal
    version = str(ctx.version) if ctx.version else "unknown"
    _line(f"hookman doctor: project {ctx.project_dir}, Claude Code {version}", bold=rich)
    _sources(ctx, rich)
    _findings(ctx, rich)
    if ctx.probed is not None:
        _probed(ctx, rich)
    counts = Counter(finding.severity for finding in ctx.findings)
    summary = ", ".join(
        f"{counts[s]} {s}{'s' if counts[s] != 1 and s != 'info' else ''}" for s in SEVERITIES
    )
    loaded = sum(1 for h in ctx.handlers if h.loaded)
    handlers = f"{len(ctx.handlers)} handler{'s' if len(ctx.handlers) != 1 else ''}"
    _line(f"\n{handlers} ({loaded} loaded by the client); {summary}.", bold=rich)


def _line(text: str, *, bold: bool = False) -> None:
    out = console()
    if bold:
        out.print(f"[bold]{escape(text)}[/]", highlight=False)
    else:
        out.print(text, markup=False, highlight=False)


def _source_state(source: Source, handlers: list[Handler]) -> str:
    if not source.exists:
        return "not present"
    if source.error is not None and not source.readable:
        return "unreadable"
    if not source.loaded:
        return f"NOT LOADED ({source.silenced_by})"
    if source.kind in ("hookman.toml", "manifest", "registry"):
        return "present"
    return f"{len(handlers)} handler{'s' if len(handlers) != 1 else ''}"


def _sources(ctx: Context, rich: bool) -> None:
    out = console()
    shown = [source for source in ctx.sources.sources if _worth_showing(source)]
    if rich:
        from rich.table import Table

        table = Table(title="sources", title_justify="left")
        for header in ("source", "file", "state"):
            table.add_column(header, overflow="fold")
        for source in shown:
            kind = source.kind + (f" {source.label}" if source.label else "")
            table.add_row(
                escape(kind),
                escape(shown_path(source.path, ctx.project_dir)),
                escape(_source_state(source, ctx.handlers_of(source.path))),
            )
        out.print(table)
    else:
        _line("\nsources:")
        for source in shown:
            kind = source.kind + (f" {source.label}" if source.label else "")
            _line(
                f"  {kind}: {shown_path(source.path, ctx.project_dir)} "
                f"({_source_state(source, ctx.handlers_of(source.path))})"
            )
    for source in shown:
        handlers = ctx.handlers_of(source.path)
        if handlers:
            _handlers(ctx, source, handlers, rich)


def _worth_showing(source: Source) -> bool:
    """Settings files always (present or not); skills, agents and commands only when they
    hold hooks or could not be read; anything else when it exists."""
    if source.kind in ("user", "project", "local"):
        return True
    if source.kind in ("skill", "agent", "command"):
        return source.data is not None or source.error is not None
    return source.exists


def _matches(handler: Handler) -> str:
    if handler.matches_all:
        return "all"
    if handler.matches is None:
        return "?"
    return ", ".join(handler.matches) or "nothing"


def _cut(text: str | None, width: int = COMMAND_WIDTH) -> str:
    if text is None:
        return "-"
    return text if len(text) <= width else text[: width - 1] + "…"


def _handler_cells(handler: Handler) -> list[str]:
    loaded = "yes" if handler.loaded else f"NO ({handler.not_loaded_because})"
    timeout = "-" if handler.timeout is None else f"{handler.timeout:g}"
    what = _cut(handler.command) if handler.command is not None else f"({handler.type})"
    if handler.hookman:
        what = "hookman " + (handler.event or "")
    if handler.is_async:
        what += " [async]"
    if handler.hookman and handler.type == "http":
        what += " [server]"
    if handler.hookman and hookman_handler_is_sentinel(handler.raw):
        what += " [sentinel]"  # denies only once the project changed since install
    return [
        handler.path,
        handler.event,
        handler.matcher if handler.matcher is not None else "-",
        what,
        timeout,
        loaded,
        _matches(handler),
    ]


def _handlers(ctx: Context, source: Source, handlers: list[Handler], rich: bool) -> None:
    out = console()
    title = f"{shown_path(source.path, ctx.project_dir)} ({source.kind})"
    headers = ("path", "event", "matcher", "runs", "timeout", "loaded", "matches")
    if rich:
        from rich.table import Table

        table = Table(title=title, title_justify="left")
        for header in headers:
            # Locations and names read best unbroken; free text folds.
            table.add_column(header, no_wrap=header in NO_WRAP, overflow="fold")
        for handler in handlers:
            cells = _handler_cells(handler)
            cells[0] = cells[0].removeprefix("hooks.")
            if not handler.loaded:  # the reason, unless the sources table already says it
                same = handler.not_loaded_because == source.silenced_by
                cells[5] = "no (whole file)" if same else f"no\n({handler.not_loaded_because})"
            table.add_row(*(escape(cell) for cell in cells))
        out.print(table)
        return
    _line(f"\n{title}:")
    for handler in handlers:
        path, event, matcher, what, timeout, loaded, matches = _handler_cells(handler)
        _line(
            f"  {path}: {event} matcher={matcher} runs={what} timeout={timeout} loaded={loaded} "
            f"matches={matches}"
        )


def _findings(ctx: Context, rich: bool) -> None:
    out = console()
    if not ctx.findings:
        _line(
            "\nno findings: every hook Claude Code reads here runs and is heard as far as doctor "
            "can tell."
        )
        return
    for file, findings in _by_file(ctx):
        title = shown_path(file, ctx.project_dir) if file else "general"
        _line(f"\nfindings: {title}", bold=rich)
        for finding in findings:
            where = _where(finding)
            if rich:
                style = SEVERITY_STYLE[finding.severity]
                out.print(
                    f"[{style}]{finding.severity}[/] [bold]{escape(finding.code)}[/] "
                    f"{escape(where)}",
                    highlight=False,
                )
                out.print(f"  {escape(finding.message)}", highlight=False)
                out.print(f"  [green]fix:[/] {escape(finding.fix)}", highlight=False)
            else:
                _line(f"{finding.severity} {finding.code} {where}".rstrip())
                _line(f"  {finding.message}")
                _line(f"  fix: {finding.fix}")


def _probed(ctx: Context, rich: bool) -> None:
    """What --probe ran, on which sample, and how each result was classified."""
    _line("\nprobed (what ran, and how the client takes each result):", bold=rich)
    if not ctx.probed:
        _line("  nothing: no hookman hooks are installed and no command hooks are set.")
        return
    for record in ctx.probed:
        _line(f"  {probed_line(record, ctx.project_dir)}")


def probed_line(record: Probed, project_dir: Path) -> str:
    """`PreToolUse hookman (guard), Bash `rm -rf ./build`: denied (no): the guard works`."""
    if record.kind == "hookman":
        who = f"hookman ({', '.join(record.hooks) or 'no hooks'})"
    else:
        where = f"{shown_path(record.file, project_dir)} {record.path}"
        who = f"{shown(record.command or '')} ({where})"
    sample = "" if record.sample in ("-", record.event) else f", {record.sample}"
    return f"{record.event} {who}{sample}: {record.summary}"


def _by_file(ctx: Context) -> list[tuple[str | None, list[Finding]]]:
    """Findings grouped by file (findings are sorted by severity, so is each group); the
    group holding the worst finding comes first, ties in the order sources were read."""
    order = {source.path: index for index, source in enumerate(ctx.sources.sources)}
    groups: dict[str | None, list[Finding]] = {}
    for finding in ctx.findings:
        groups.setdefault(finding.file, []).append(finding)

    def rank(item: tuple[str | None, list[Finding]]) -> tuple[int, int]:
        file, findings = item
        worst = min(SEVERITIES.index(f.severity) for f in findings)
        return worst, order.get(file or "", len(order))

    return sorted(groups.items(), key=rank)


def _where(finding: Finding) -> str:
    """`line 12, hooks.PreToolUse[0].matcher`: where in its file."""
    parts = [] if finding.line is None else [f"line {finding.line}"]
    if finding.path:
        parts.append(finding.path)
    return ", ".join(parts)
