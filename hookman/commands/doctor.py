"""`hookman doctor`: why is my hook silent? (hookman/doctor/ does the work.)

`--json` prints a `DoctorJson` (hookman/json_shapes.py): the sources, handlers and
findings; each finding's `edit` is a machine-applicable fix where doctor knows one. With
--probe or --probe-commands it adds "probed", what ran and how each result was classified.
Exit 1 when a finding is an error, 0 otherwise; 2 when doctor cannot run.
"""

from __future__ import annotations

from pathlib import Path

from hookman.commands.options import CLAUDE_VERSION, JSON, PROJECT, Option, cli_command
from hookman.doctor.report import DoctorOptions, exit_code, report_json, run_doctor
from hookman.errors import HookmanError
from hookman.project.location import find_project_dir


@cli_command(
    "doctor",
    Option("--probe", flag=True, help="Also run hookman's hooks on sample payloads (via fire)."),
    Option(
        "--probe-commands",
        flag=True,
        help="Also run foreign command hooks on sample payloads, in a throwaway directory "
        "with a timeout, and classify what their exit code and output do.",
    ),
    Option(
        "--managed-settings",
        metavar="PATH",
        type="path",
        help="Managed settings file (or directory) to read instead of this platform's.",
    ),
    PROJECT,
    CLAUDE_VERSION,
    JSON,
    help="Explain every silent hook: read every source Claude Code merges and report findings.",
    examples=(
        "hookman doctor",
        "hookman doctor --probe --json",
        "hookman doctor --probe-commands",
    ),
)
def doctor(
    *,
    project: Path | None = None,
    claude_version: str | None = None,
    managed_settings: Path | None = None,
    probe: bool = False,
    probe_commands: bool = False,
    json_output: bool = False,
) -> int:
    if managed_settings is not None and not managed_settings.exists():
        raise HookmanError(
            f"the managed settings path {str(managed_settings)!r} does not exist.",
            "pass an existing managed-settings.json (or the directory holding it).",
            exit_code=2,
        )
    options = DoctorOptions(
        project_dir=find_project_dir(project),
        claude_version=claude_version,
        managed_settings=managed_settings,
        probe=probe,
        probe_commands=probe_commands,
    )
    if json_output:
        from hookman.output import print_json

        ctx = run_doctor(options)
        print_json(report_json(ctx))
        return exit_code(ctx)
    from hookman.doctor.render import render

    ctx = run_doctor(options, progress=_progress() if (probe or probe_commands) else None)
    render(ctx)
    return exit_code(ctx)


def _progress():  # type: ignore[no-untyped-def]
    from hookman.doctor.probe import terminal_progress

    return terminal_progress()
