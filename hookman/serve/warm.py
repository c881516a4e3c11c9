"""What the server imports before it forks its first child: the runner's modules a run
loads (most of them lazily, on its first hook), so each child starts with them in memory
and pays only for the project's own hooks. Hooks themselves are never imported here: each
child loads the project's code as it is now (edits are picked up by construction)."""

from __future__ import annotations

import gc
import importlib

# The modules a run of the runner imports (a guarded event, a context-giving event, a
# project gate), measured with `python -X importtime`.
RUNNER_MODULES = (
    "hookman.bridge.run_command",
    "hookman.bridge.serve_child",
    "hookman.bridge.dispatch",
    "hookman.bridge.hook_set",
    "hookman.bridge.session_state",
    "hookman.bridge.guard_drift",
    "hookman.bridge.guard_results",
    "hookman.bridge.output_schema",
    "hookman.bridge.json_ready",
    "hookman.bridge.answer",
    "hookman.bridge.runtime_events",
    "hookman.bridge.tool_output",
    "hookman.bridge.site_start",
    "hookman.bridge.private_dir",
    "hookman.bridge.firing_log",
    "hookman.runtime.loader",
    "hookman.runtime.runner",
    "hookman.runtime.tool_wrapper",
    "hookman.runtime.hook_api",
    "hookman.runtime.context",
    "hookman.runtime.no_ui",
    "hookman.runtime.awaiting",
    "hookman.runtime.exec_command",
    "faulthandler",
    "fcntl",
    "traceback",
)


def warm_up() -> None:
    for name in RUNNER_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
    try:  # the answers' schema and the digest's constructor, found once here, not per event
        from hookman.bridge.output_schema import output_schema
        from hookman.bridge.project_moved import sha256_hex

        output_schema()
        sha256_hex(b"")
    except (ImportError, OSError, ValueError):
        pass
    from hookman.bridge import server_death

    server_death.prepare()  # each child ends with the server (Linux), however it dies
    gc.collect()
    gc.freeze()  # the children's collections leave these objects' pages unwritten


def read_site() -> None:
    """The site the hooks of the server's children import from (site-packages with their
    .pth files, sitecustomize, the user site), read once the server's own modules are in:
    the server starts isolated and without it (bridge/serve_gate.DAEMON_FLAGS), as the runner
    does, which reads it per event. PYTHONPATH is not read: the server answers every project,
    whichever session's environment started it."""
    from hookman.bridge.serve_gate import own_root
    from hookman.bridge.site_start import start_site

    start_site(own_root(), read_pythonpath=False)
