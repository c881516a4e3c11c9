"""Running a project's hooks outside Claude Code, as the runner would: the dispatch is the
runner's own (hookman.bridge.dispatch) on a throwaway state directory, so a rehearsal never
consumes a real session's message queue or touches its statuses. `hookman fire` shows what it
reports; `hookman doctor --probe` classifies it. What the model sees is rendered for the
manifest's target client (its `client` facts).

The event's async hooks (observe-only, `async: true` entry) run after the blocking ones, as a
separate async run: their answer does not count, since Claude Code does not wait for them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookman import paths
from hookman.bridge.capture import OutputCapture
from hookman.bridge.deadline import Deadline, DeadlineInterrupt
from hookman.bridge.dispatch import DispatchResult, dispatch_event
from hookman.bridge.hook_set import CallTracker
from hookman.bridge.json_ready import json_ready
from hookman.bridge.manifest_reader import Manifest, ManifestError, parse_manifest, read_manifest
from hookman.bridge.model_view import ModelView, model_view
from hookman.bridge.session_state import SessionState
from hookman.errors import HookmanError
from hookman.rehearsal.project_changed import answer_as_changed
from hookman.rehearsal.sandbox import ESCAPES, sandbox_project, sandboxed

if TYPE_CHECKING:
    from hookman.json_shapes import (
        AppendedEntryJson,
        AsyncRunJson,
        BlockingRunJson,
        FiredHookJson,
        RehearsalJson,
    )

# Whether this process ran a project's hooks (their modules, finalizers and atexit jobs
# are in it): the command then ends as the runner does (hookman/__main__.py).
_ran_hooks = [False]


def hooks_ran_here() -> bool:
    return _ran_hooks[0]


SAMPLE_DIR = Path(__file__).resolve().parent.parent / "catalog" / "payloads"
SAMPLE_PROJECT = "<WORK>/proj"
SAMPLE_WORK = "<WORK>"
UNKNOWN_VERSION_EFFECT = (
    "the target Claude Code version is unknown, so these are the texts of the newest client "
    "hookman measured; set claude_version in hookman.toml and reinstall for exact ones"
)


class _FireTimeout(DeadlineInterrupt):
    """Raised into a hook that outlives the deadline."""


def load_installed_manifest(project_dir: Path) -> Manifest:
    """The project's manifest, or a HookmanError telling the user to install."""
    path = paths.manifest_path(project_dir)
    try:
        return read_manifest(str(path))
    except ManifestError as error:
        missing = not path.exists()
        raise HookmanError(
            f"the project {project_dir} has no hooks installed by hookman."
            if missing
            else f"{error}.",
            "run `hookman install` in the project first.",
        ) from None


def sample_payload(event: str, project_dir: Path, scratch: str) -> dict[str, Any] | None:
    """The bundled sample payload for `event` with its placeholders filled, or None."""
    sample = SAMPLE_DIR / f"{event}.json"
    if not sample.is_file():
        return None
    data = json.loads(sample.read_text(encoding="utf-8"))
    return fill_placeholders(data, str(project_dir), scratch)


def fill_placeholders(value: Any, project_dir: str, scratch: str) -> Any:
    if isinstance(value, str):
        return value.replace(SAMPLE_PROJECT, project_dir).replace(SAMPLE_WORK, scratch)
    if isinstance(value, list):
        return [fill_placeholders(item, project_dir, scratch) for item in value]
    if isinstance(value, dict):
        return {key: fill_placeholders(item, project_dir, scratch) for key, item in value.items()}
    return value


def rehearse(
    manifest: Manifest, event: str, payload: dict[str, Any], scratch: str
) -> RehearsalJson:
    """What `fire` reports for one event (the runner's dispatch on a throwaway state dir, in
    a scratch copy of the project: rehearsal/sandbox.py)."""
    project = sandbox_project(Path(manifest.project_dir), scratch)
    if isinstance(payload.get("cwd"), str):
        payload = {**payload, "cwd": _moved(payload["cwd"], manifest.project_dir, str(project))}
    rehearsal = Manifest(
        path=manifest.path,
        project_dir=str(project),
        state_dir=str(Path(scratch) / "state"),
        log_path=None,
        claude_version=manifest.claude_version,
        hooks=manifest.hooks,
        entries=manifest.entries,
        client=manifest.client,
        async_entries=manifest.async_entries,
    )
    with sandboxed(project):
        result, tracker, output = _dispatch_once(
            rehearsal, event, payload, scratch, run_async=False
        )
    # the runner's answer when the project moved on
    changed = answer_as_changed(manifest, event, result, payload)
    stdout = json.dumps(result.answer, ensure_ascii=False)
    view = model_view(
        event,
        payload,
        client=manifest.client,
        stdout=stdout,
        exit_code=result.exit_code,
        command=installed_command(Path(manifest.project_dir), event, manifest),
    )
    if changed is not None:
        view.effects.insert(0, changed)
    if manifest.claude_version is None:
        view.effects.append(UNKNOWN_VERSION_EFFECT)
    if _held_back(manifest, event):
        view.effects.append(
            f"settings.local.json has no hookman entry for {event} (held back: the target "
            f"Claude Code {manifest.claude_version or 'version'} does not know it), so Claude "
            "Code never runs these hooks for it"
        )
    async_run = None
    if manifest.hooks_for(event, run_async=True):
        with sandboxed(project):
            async_run = _dispatch_once(rehearsal, event, payload, scratch, run_async=True)
    # The state directory is this firing's own, so all it holds came from these hooks.
    state = SessionState(rehearsal.state_dir, payload.get("session_id"))
    report: RehearsalJson = {
        **_report(manifest, event, result, tracker, view, output),
        "sandbox": {"directory": str(project), "note": ESCAPES},
        "async": None if async_run is None else _async_report(*async_run),
        "entries": _appended_entries(state.entries_path),
        "statuses": state.read_statuses(),
    }
    return report


def _moved(path: str, project_dir: str, sandbox: str) -> str:
    """The payload's cwd moved into the sandbox when it is in the project. Tool inputs keep
    their paths: a hook reads the files the tool call names (a linter, a checklist)."""
    if path == project_dir or path.startswith(project_dir + "/"):
        return sandbox + path[len(project_dir) :]
    return path


def _appended_entries(path: str) -> list[AppendedEntryJson]:
    """The `append_entry` records of this firing: custom_type and data, in order."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    entries: list[AppendedEntryJson] = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            entries.append({"custom_type": record.get("custom_type"), "data": record.get("data")})
    return entries


def _held_back(manifest: Manifest, event: str) -> bool:
    """Whether hooks serve `event` but install wrote no entry for it (the target lacks it)."""
    served = manifest.hooks_for(event) or manifest.hooks_for(event, run_async=True)
    return bool(served) and event not in manifest.entries and event not in manifest.async_entries


def _dispatch_once(
    manifest: Manifest, event: str, payload: dict[str, Any], scratch: str, *, run_async: bool
) -> tuple[DispatchResult, CallTracker, str]:
    """One run of the event's blocking (or async) hooks, as `hookman run` would do it."""
    tracker = CallTracker()
    # Raising only works from a signal handler in this thread, so no timer-thread fallback.
    deadline = Deadline(
        manifest.deadline_for(event, run_async), _raise_timeout, thread_fallback=False
    )
    capture = OutputCapture(scratch)
    result: DispatchResult | None = None
    _ran_hooks[0] = True
    capture.start()
    try:
        deadline.start()
        try:
            result = dispatch_event(
                manifest,
                event,
                payload,
                state=SessionState(manifest.state_dir, payload.get("session_id")),
                tracker=tracker,
                run_async=run_async,
            )
        except _FireTimeout:
            pass  # no result: cut at the deadline, while the tracker's hook loaded or ran
        finally:
            deadline.cancel()
        output = capture.captured_text()
    finally:
        capture.stop()
    if result is None:
        result = _timeout_result(
            manifest, event, tracker.current_hook, deadline.seconds or 0, run_async
        )
    return result, tracker, output


def _raise_timeout() -> None:
    raise _FireTimeout


def _timeout_result(
    manifest: Manifest, event: str, hook: str | None, seconds: float, run_async: bool
) -> DispatchResult:
    """The run cut at the deadline while `hook` loaded or ran (None: outside any hook)."""
    from hookman.bridge.answer import deadline_outside_hooks, deadline_problem, deadline_reason
    from hookman.bridge.protocol import deny_answer

    result = DispatchResult()
    result.hooks = [h.name for h in manifest.hooks_for(event, run_async)]
    result.outcome = "timeout"
    if hook is None:
        problem = deadline_outside_hooks(seconds, hooks_started=True)
        notice = f"hookman: {problem} on {event}."
    else:
        problem = deadline_problem(seconds)
        notice = f"hookman: hook {hook!r} {problem} on {event}."
    result.errors = [{"hook": hook or "hookman", "event": event, "error": problem}]
    if run_async:
        pass  # an async run always answers {}
    elif manifest.client.is_guarded(event):
        result.answer = deny_answer(event, deadline_reason(hook, seconds, event))
    else:
        result.answer = {"systemMessage": notice}
    return result


def _async_report(result: DispatchResult, tracker: CallTracker, output: str) -> AsyncRunJson:
    """The async run: what its hooks did; its answer is always {} and does not count."""
    return {
        "hooks": _hook_calls(result, tracker),
        "answer": result.answer,
        "ignored_answer": result.ignored_answer,
        "outcome": result.outcome,
        "queued_for_next_event": result.queued,
        "errors": result.errors,
        "notices": result.notices,
        "output": output,
    }


def _hook_calls(result: DispatchResult, tracker: CallTracker) -> list[FiredHookJson]:
    load_errors = {e["hook"]: e["error"] for e in result.errors if e["event"] == "load"}
    return [
        {
            "name": name,
            "load_error": load_errors.get(name),
            "calls": [
                {"event": call.event, "result": call.result, "error": call.error}
                for call in tracker.calls
                if call.hook == name
            ],
        }
        for name in result.hooks
    ]


def _report(
    manifest: Manifest,
    event: str,
    result: DispatchResult,
    tracker: CallTracker,
    view: ModelView,
    output: str,
) -> BlockingRunJson:
    hooks = _hook_calls(result, tracker)
    return {
        "event": event,
        "project": manifest.project_dir,
        "hooks": hooks,
        "answer": result.answer,
        "exit_code": result.exit_code,
        "outcome": result.outcome,
        "model_sees": view.model_texts,
        "user_sees": view.user_messages,
        "effects": view.effects,
        "queued_for_next_event": result.queued,
        "errors": result.errors,
        "notices": result.notices,
        "output": output,
    }


def json_safe(value: Any) -> Any:
    return json_ready(value)[0]


def rehearsal_manifest(project_dir: Path) -> Manifest:
    """Before the first `hookman install`: the manifest install would write, from
    hookman.toml, so a hook made with `hookman new` can be fired at once."""
    from hookman.install.report import project_target
    from hookman.install.sync import preview_manifest
    from hookman.project.config import load_project_config

    config = load_project_config(project_dir)
    if not any(hook.enabled for hook in config.hooks):
        return load_installed_manifest(project_dir)  # the "nothing installed" error
    target = project_target(project_dir, None, config)
    return parse_manifest(
        preview_manifest(project_dir, config, target), str(paths.manifest_path(project_dir))
    )


def installed_command(project_dir: Path, event: str, manifest: Manifest) -> str:
    """The settings command Claude Code runs for `event` (the client shows the model the
    whole of it on some blocks): hookman's entry in settings.local.json as written, else the
    one install writes."""
    from hookman.project.launcher import launcher_path
    from hookman.project.location import local_settings_path
    from hookman.project.settings_entries import (
        build_command,
        find_hookman_entries,
        hookman_command_is_async,
        hookman_command_is_sentinel,
    )
    from hookman.project.settings_file import read_settings

    try:
        settings = read_settings(local_settings_path(project_dir))
    except (HookmanError, OSError, ValueError):
        settings = {}
    for entry_event, handler in find_hookman_entries(settings):
        command = handler.get("command")  # none in an http entry (the warm hook server's)
        if (
            entry_event == event
            and isinstance(command, str)
            and not hookman_command_is_async(command)
            and not hookman_command_is_sentinel(command)
        ):
            return command
    guarded = manifest.client.is_guarded(event)
    return build_command(event, launcher_path(project_dir), guarded=guarded)
