"""`--probe`: run hooks on sample payloads and classify what the client does with what they
print and how they exit.

hookman's hooks go through `fire` (the runner's own dispatch, throwaway state). Foreign
command hooks run only with `--probe-commands`: through bash, in a throwaway working
directory, on the bundled sample payload (never the user's real tool input), with a
timeout; `CLAUDE_PROJECT_DIR` is the real project so their scripts are found.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hookman.catalog import event_catalog
from hookman.doctor.context import Context
from hookman.doctor.facts import doctor_facts
from hookman.doctor.model import Finding, Handler, Probed
from hookman.doctor.probe_classify import CommandRun, blocks, classify
from hookman.doctor.probe_outcome import command_outcome, hookman_outcome, sample_label
from hookman.errors import HookmanError

STOP_EVENTS = ("Stop", "SubagentStop")
SESSION_END = "SessionEnd"
SAMPLE_PROJECT = "<WORK>/proj"
KILL_GRACE_S = 2.0


class Progress:
    """A rich progress bar on a terminal; doctor passes None elsewhere."""

    def __init__(self) -> None:
        from rich.progress import Progress as RichProgress

        from hookman.output import error_console

        self._bar = RichProgress(console=error_console(), transient=True)
        self._task: Any = None

    def start(self, total: int) -> None:
        self._bar.start()
        self._task = self._bar.add_task("probing hooks", total=total)

    def step(self, label: str) -> None:
        self._bar.update(self._task, advance=1, description=f"probing {label}")

    def stop(self) -> None:
        self._bar.stop()


def terminal_progress() -> Progress | None:
    from hookman.output import error_console

    return Progress() if error_console().is_terminal else None


def probe(ctx: Context, *, foreign: bool, progress: Progress | None = None) -> None:
    ctx.probed = []
    commands = [
        h for h in ctx.handlers if h.loaded and h.type == "command" and not h.hookman and h.command
    ]
    foreign_handlers = commands if foreign else []
    with tempfile.TemporaryDirectory(prefix="hookman-doctor-") as scratch:
        manifest = _manifest(ctx)
        events = _hookman_events(manifest) if manifest is not None else []
        if progress is not None:
            progress.start(len(events) + len(foreign_handlers))
        try:
            for event in events:
                _probe_hookman(ctx, manifest, event, scratch)
                if progress is not None:
                    progress.step(f"hookman {event}")
            for handler in foreign_handlers:
                _probe_command(ctx, handler, scratch)
                if progress is not None:
                    progress.step(f"{handler.event} {handler.path}")
        finally:
            if progress is not None:
                progress.stop()
    if not foreign:
        for handler in commands:
            ctx.probed.append(
                _command_record(
                    handler, "-", "not_run", "not run (--probe-commands runs command hooks)"
                )
            )


def _command_record(
    handler: Handler, sample: str, result: str, summary: str, codes: list[str] | None = None
) -> Probed:
    return Probed(
        "command",
        handler.event,
        [],
        sample,
        result,
        summary,
        command=handler.command,
        file=handler.source.path,
        path=handler.path,
        findings=codes or [],
    )


def _manifest(ctx: Context) -> Any:
    from hookman.rehearsal.rehearse import load_installed_manifest

    try:
        return load_installed_manifest(ctx.project_dir)
    except HookmanError:
        return None


def _hookman_events(manifest: Any) -> list[str]:
    events = list(manifest.entries) + [
        e for e in manifest.async_entries if e not in manifest.entries
    ]
    return [event for event in events if event_catalog.is_claude_event(event)]


def _probe_hookman(ctx: Context, manifest: Any, event: str, scratch: str) -> None:
    from hookman.rehearsal.rehearse import rehearse, sample_payload

    payload = sample_payload(event, ctx.project_dir, scratch)
    names = [hook.name for hook in manifest.hooks_for(event)]
    names += [h.name for h in manifest.hooks_for(event, run_async=True) if h.name not in names]
    if payload is None:
        summary = f"not run: hookman has no sample {event} payload"
        ctx.probed.append(Probed("hookman", event, names, "-", "not_run", summary))
        return
    for sample in _hookman_samples(event, payload):
        report = rehearse(manifest, event, sample, scratch)
        codes = _hookman_findings(ctx, manifest, event, report)
        result, summary = hookman_outcome(event, report)
        label = sample_label(event, sample)
        ctx.probed.append(Probed("hookman", event, names, label, result, summary, findings=codes))


def _hookman_samples(event: str, payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The bundled payload; on a guarded event, once per sample command input of its tool
    (inputs that name no file), so that a guard's blocking path runs too."""
    if event not in event_catalog.guarded_events() or "tool_input" not in payload:
        return [payload]
    inputs = doctor_facts()["probe"]["tool_inputs"].get(payload.get("tool_name"), [])
    commands = [given for given in inputs if set(given) <= {"command", "description"}]
    return [{**payload, "tool_input": given} for given in commands] or [payload]


def _hookman_findings(
    ctx: Context, manifest: Any, event: str, report: Mapping[str, Any]
) -> list[str]:
    """Adds the findings of one rehearsal (each once); returns the codes this run gave."""
    runs = [report] + ([report["async"]] if report.get("async") else [])
    codes: list[str] = []
    for run in runs:
        for hook in run["hooks"]:
            if hook["load_error"]:
                codes.append("hookman-hook-does-not-load")
                _add_load_error(ctx, manifest, hook["name"], event, hook["load_error"])
            for call in hook["calls"]:
                if call["error"] is not None:
                    codes.append("hookman-handler-raises")
                    guarded = event in event_catalog.guarded_events()
                    _add_once(
                        ctx,
                        Finding(
                            "hookman-handler-raises",
                            "error" if guarded else "warning",
                            _module_of(manifest, hook["name"]),
                            f"the hook {hook['name']!r} raises in its {call['event']} handler on "
                            f"the sample {event} payload: {call['error']}"
                            + (" (so hookman denies the tool call)." if guarded else "."),
                            f"fix the handler; `hookman fire {event}` reproduces it.",
                            event=event,
                        ),
                    )
    return list(dict.fromkeys(codes))


def _add_once(ctx: Context, finding: Finding) -> None:
    """A finding each sample run would repeat is added once."""
    key = (finding.code, finding.file, finding.message)
    if all((f.code, f.file, f.message) != key for f in ctx.findings):
        ctx.add(finding)


def _add_load_error(ctx: Context, manifest: Any, name: str, event: str, error: str) -> None:
    """One finding per hook that does not load, whatever the number of events it serves,
    and none when plain doctor already reported its module."""
    module = _module_of(manifest, name)
    for finding in ctx.findings:
        if finding.code == "hookman-hook-does-not-load" and finding.file == module:
            return
    from hookman.runtime.loader import LOAD_FAILED_PREFIX

    ctx.add(
        Finding(
            "hookman-hook-does-not-load",
            "error",
            module,
            f"the hook {name!r} fails to load: {error.removeprefix(LOAD_FAILED_PREFIX)}.",
            f"fix the module; `hookman fire {event}` shows the error.",
            event=event,
        )
    )


def _module_of(manifest: Any, name: str) -> str:
    return next((hook.path for hook in manifest.hooks if hook.name == name), str(manifest.path))


FAILED_CLOSED_CODE = "hookman-hook-does-not-load"


def _failed_closed_finding(handler: Handler, label: str, summary: str) -> Finding:
    """A hookman guard run as its command (a built plugin's) that could not decide: it
    denies every call it guards, whatever the call."""
    return Finding.about(
        handler,
        FAILED_CLOSED_CODE,
        "error",
        f"this guard could not decide on the sample {label}, so it denies every call it "
        f"guards: {summary}.",
        "for a plugin hookman built: rebuild it with `hookman plugin build` (which refuses "
        "a hook that does not load from the plugin's own files), then publish and `claude "
        "plugin update` it.",
    )


def run_command(
    command: str, payload: dict[str, Any], cwd: Path, env: dict[str, str], timeout: float
) -> CommandRun:
    shell = doctor_facts()["probe"]["shell"]
    started = time.monotonic()
    process = subprocess.Popen(
        [*shell, command],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(json.dumps(payload).encode(), timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill(process)
        try:
            out, err = process.communicate(timeout=KILL_GRACE_S)
        except subprocess.TimeoutExpired:  # a detached grandchild still holds the pipes
            out, err = b"", b""
        timed_out = True
    return CommandRun(
        None if timed_out else process.returncode,
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace"),
        time.monotonic() - started,
        timed_out,
    )


def _kill(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        process.kill()


def budget_s(handler: Handler, ctx: Context) -> float:
    """How long the client waits for this handler."""
    if handler.event == SESSION_END:
        budget = event_catalog.claude_code_catalog()["session_end_budget"]
        largest = max((h.timeout or 0 for h in ctx.handlers if h.event == SESSION_END), default=0)
        return max(
            budget["default_ms"] / 1000,
            min(largest, budget["raised_by_largest_timeout_up_to_ms"] / 1000),
        )
    if handler.timeout is not None:
        return handler.timeout
    return float(event_catalog.claude_code_catalog()["default_command_timeout_s"])


def _probe_command(ctx: Context, handler: Handler, scratch: str) -> None:
    from hookman.rehearsal.rehearse import sample_payload

    workdir = _throwaway_project(scratch)
    payload = sample_payload(handler.event, workdir, scratch)
    if payload is None:
        payload = {
            "session_id": "doctor-probe",
            "cwd": str(workdir),
            "hook_event_name": handler.event,
        }
    if handler.matches and payload.get("tool_name") not in handler.matches:
        payload["tool_name"] = handler.matches[0]
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(ctx.project_dir), CLAUDECODE="1")
    root = ctx.sources.plugin_roots.get(handler.source.path)
    if root is not None:
        env["CLAUDE_PLUGIN_ROOT"] = root
    budget = budget_s(handler, ctx)
    cap = float(doctor_facts()["probe"]["timeout_cap_s"])
    reported: set[str] = set()
    limit = min(budget, cap) + 0.5
    for sample in _samples(payload, workdir):
        run = run_command(handler.command or "", sample, workdir, env, limit)
        classified = classify(handler, run, budget, cap)
        codes = [code for code, *_ in classified]
        result, summary = command_outcome(handler.event, run, codes)
        label = sample_label(handler.event, sample)
        ctx.probed.append(_command_record(handler, label, result, summary, codes))
        if result == "failed_closed" and FAILED_CLOSED_CODE not in reported:
            reported.add(FAILED_CLOSED_CODE)
            ctx.confirm(_failed_closed_finding(handler, label, summary))
        for code, severity, message, fix in classified:
            if code not in reported:
                reported.add(code)
                ctx.confirm(
                    Finding.about(
                        handler,
                        code,
                        severity,
                        message,
                        fix,
                    )
                )
        if handler.event in STOP_EVENTS and blocks(run):
            for code, extra, message, fix in _STOP_CHECKS:
                if code in reported or (
                    code == "stop-ignores-agent-id" and handler.event != "Stop"
                ):
                    continue
                again = run_command(handler.command or "", {**sample, **extra}, workdir, env, limit)
                if blocks(again):
                    reported.add(code)
                    ctx.confirm(
                        Finding.about(
                            handler,
                            code,
                            "warning",
                            message.format(event=handler.event),
                            fix,
                        )
                    )


# A Stop hook that blocks should stop blocking when it already made the agent continue, and
# should not treat a subagent finishing (a payload with agent_id) as the session's end.
_STOP_CHECKS = (
    (
        "stop-ignores-stop-hook-active",
        {"stop_hook_active": True},
        "this {event} hook blocks again when stop_hook_active is true: the agent can loop forever.",
        "exit 0 without blocking when the payload's stop_hook_active is true.",
    ),
    (
        "stop-ignores-agent-id",
        {"agent_id": "doctor-probe-agent", "agent_type": "general-purpose"},
        "this Stop hook also blocks when the payload carries agent_id, i.e. when a subagent "
        "finishes, not the session.",
        "return early (exit 0) when the payload has agent_id, unless subagents are meant.",
    ),
)


def _samples(payload: dict[str, Any], workdir: Path) -> list[dict[str, Any]]:
    """The payload once per sample input of its tool (the bundled one when there are none),
    with file paths inside the throwaway project `workdir`."""
    inputs = doctor_facts()["probe"]["tool_inputs"].get(payload.get("tool_name"))
    if not inputs or "tool_input" not in payload:
        return [payload]
    return [{**payload, "tool_input": _in_workdir(tool_input, workdir)} for tool_input in inputs]


def _in_workdir(value: Any, workdir: Path) -> Any:
    if isinstance(value, str):
        return value.replace(SAMPLE_PROJECT, str(workdir))
    if isinstance(value, dict):
        return {key: _in_workdir(item, workdir) for key, item in value.items()}
    if isinstance(value, list):
        return [_in_workdir(item, workdir) for item in value]
    return value


def _throwaway_project(scratch: str) -> Path:
    workdir = Path(scratch) / "proj"
    sample = doctor_facts()["probe"]["sample_file"]
    target = workdir / sample["path"]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(sample["content"], encoding="utf-8")
    return workdir
