"""Findings about the warm hook server's entries (`hookman serve`): entries that do not match
the user's opt-in or the client's version, a server that is not running or not hookman's, and
entries posting to another port than the recorded one. Doctor only looks: it asks the port
who answers (hookman/doctor/serve_probe.py), and starts nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookman.doctor.context import Context
from hookman.doctor.model import Finding, Handler
from hookman.errors import HookmanError
from hookman.project.location import local_settings_path
from hookman.project.settings_entries import (
    HTTP_TYPE,
    ON_FAILURE_KEY,
    hookman_handler_is_async,
    hookman_handler_is_sentinel,
    hookman_http_port,
)

if TYPE_CHECKING:
    from hookman.project.serve_paths import ServePlan

INSTALL_FIX = "run `hookman install` in the project."
START_FIX = "run `hookman serve start` (or turn the server off: `hookman serve disable`, then "
START_FIX += "`hookman install`)."
# The user turned the server off, and this project's entries still reach it: install makes
# them command entries (starting the server would only keep it in use).
OPTED_OUT_FIX = "run `hookman install` in the project (the hook server is turned off)."
BLOCK = "block"


def check_serve(ctx: Context) -> None:
    from hookman.project.serve_paths import opted_in as user_opted_in

    local = str(local_settings_path(ctx.project_dir))
    ours = [
        h
        for h in ctx.handlers
        if h.hookman and h.source.path == local and not hookman_handler_is_sentinel(h.raw)
    ]  # (a sentinel is always a command entry: project/sentinel.py)
    http = [h for h in ours if h.type == HTTP_TYPE]
    opted_in = user_opted_in()
    if not http and not opted_in:
        return  # the common case: no server in this project's story, nothing to ask
    from hookman.serve import wire

    expected = _expected_paths(ctx) if opted_in else None
    _check_paths(ctx, ours, expected, opted_in, local)
    if not http:
        return
    recorded = wire.read_port() or wire.default_port()
    _check_ports(ctx, http, recorded, local)
    _check_headers(ctx, http, local)
    for port in sorted({p for h in http if (p := hookman_http_port(h.raw)) is not None}):
        chosen = [h for h in http if hookman_http_port(h.raw) == port]
        _check_server(ctx, chosen, port, local, opted_in=opted_in)


def _expected_paths(ctx: Context) -> ServePlan | None:
    """The paths `hookman install` would choose now (None when hookman.toml cannot be read:
    findings_hookman says so)."""
    from hookman.install.report import installed_trial_hooks
    from hookman.project.config import read_project_config
    from hookman.project.install_plan import plan_install
    from hookman.project.serve_paths import plan_paths
    from hookman.serve import wire

    try:
        config = read_project_config(ctx.project_dir)
    except HookmanError:
        return None
    hooks = config.hooks + installed_trial_hooks(ctx.project_dir)
    plan = plan_install(hooks, ctx.version, prompt_gate=True)
    port = wire.read_port() or wire.default_port()
    from hookman import paths

    return plan_paths(
        plan.entries,
        ctx.version,
        port,
        agents=config.agents,
        async_events=plan.async_entries,
        manifest_path=str(paths.manifest_path(ctx.project_dir)),
    )


def _check_paths(
    ctx: Context,
    ours: list[Handler],
    expected: ServePlan | None,
    opted_in: bool,
    local: str,
) -> None:
    """Entries whose path (server or command) is not the one install chooses now."""
    to_server: list[str] = []  # command entries install would send to the server
    to_command: list[str] = []  # http entries install would make command entries
    fails_open: list[Handler] = []  # a guarded http entry a failing server lets through
    guarded = _guarded_events()
    for handler in ours:
        is_http = handler.type == HTTP_TYPE
        is_async = hookman_handler_is_async(handler.raw)
        path = None
        if expected is not None:
            path = (expected.async_paths if is_async else expected.paths).get(handler.event)
        wants_server = opted_in and path is not None and path.server
        blocks = handler.raw.get(ON_FAILURE_KEY) == BLOCK and _client_blocks_on_failure(ctx)
        if is_http and handler.event in guarded and not blocks:
            fails_open.append(handler)
        if expected is None and opted_in:
            continue
        label = handler.event + (" (async)" if is_async else "")
        if is_http and not wants_server:
            to_command.append(label)
        elif not is_http and wants_server:
            to_server.append(label)
    for handler in fails_open:
        ctx.add(
            Finding.about(
                handler,
                "hookman-serve-guard-fails-open",
                "error",
                f"hookman's {handler.event} entry reaches the warm hook server without a "
                'failure that blocks (`onFailure: "block"`, which the target client must '
                "read): when the server is down, killed or hung, Claude Code runs the tool "
                "unguarded.",
                INSTALL_FIX,
            )
        )
    if to_server:
        ctx.add(
            Finding(
                "hookman-serve-path-stale",
                "warning",
                local,
                "the warm hook server is turned on (`hookman serve enable`), but "
                f"{', '.join(to_server)} still run as command entries (a process per event).",
                INSTALL_FIX,
            )
        )
    if to_command:
        why = (
            "the warm hook server is turned off (`hookman serve disable`)"
            if not opted_in
            else "`hookman install` keeps them command entries now (the client's version)"
        )
        ctx.add(
            Finding(
                "hookman-serve-path-stale",
                "warning",
                local,
                f"{', '.join(to_command)} {'reaches' if len(to_command) == 1 else 'reach'} "
                f"the warm hook server, but {why}.",
                INSTALL_FIX,
            )
        )


def _guarded_events() -> frozenset[str]:
    from hookman.catalog import event_catalog

    return frozenset(event_catalog.guarded_events())


def _client_blocks_on_failure(ctx: Context) -> bool:
    """Whether the target client reads `onFailure` (unknown version: it may not)."""
    from hookman.catalog.client_version import parse_version
    from hookman.project.serve_paths import on_failure_since

    since = on_failure_since()
    return ctx.version is not None and since is not None and parse_version(since) <= ctx.version


def _check_ports(ctx: Context, http: list[Handler], recorded: int, local: str) -> None:
    other = sorted(
        {
            f"{h.event} -> {port}"
            for h in http
            if (port := hookman_http_port(h.raw)) is not None and port != recorded
        }
    )
    if other:
        ctx.add(
            Finding(
                "hookman-serve-port-mismatch",
                "error",
                local,
                f"hookman's entries post to another port than the server's ({recorded}): "
                f"{', '.join(other)}; the server does not answer there.",
                INSTALL_FIX,
            )
        )


def _check_headers(ctx: Context, http: list[Handler], local: str) -> None:
    """Entries whose headers the server refuses (401): another manifest than this project's
    (settings copied from elsewhere), or a token that is not this user's secret's (the secret
    made again, or another user's settings)."""
    from hookman import paths
    from hookman.serve import wire

    secret = wire.read_secret()
    manifest = str(paths.manifest_path(ctx.project_dir))
    wanted = None if secret is None else wire.entry_headers(secret, manifest)
    stale = list(dict.fromkeys(h.event for h in http if wanted is None or _headers_of(h) != wanted))
    if stale:
        ctx.add(
            Finding(
                "hookman-serve-token-stale",
                "error",
                local,
                f"hookman's {', '.join(stale)} entries carry another manifest or token than "
                "this project's with this user's secret: the warm hook server refuses them, so "
                "their guarded calls are denied and their observe-only hooks do not run.",
                INSTALL_FIX,
            )
        )


def _headers_of(handler: Handler) -> dict[str, object] | None:
    from hookman.serve import wire

    headers = handler.raw.get("headers")
    if not isinstance(headers, dict):
        return None
    keys = (wire.MANIFEST_HEADER, wire.TOKEN_HEADER)
    return {key: headers.get(key) for key in keys}


def _check_server(
    ctx: Context, http: list[Handler], port: int, local: str, *, opted_in: bool
) -> None:
    from hookman.doctor.serve_probe import (
        NOT_RUNNING,
        OTHER,
        UNRESPONSIVE,
        probe,
        unresponsive_sentence,
    )

    state = probe(port)
    guarded = _guarded_events()
    denied = [h.event for h in http if h.event in guarded]
    lost = list(dict.fromkeys(h.event for h in http if h.event not in guarded))
    effects = []
    if denied:
        effects.append(f"{', '.join(denied)} calls are denied")
    if lost:
        effects.append(f"{', '.join(lost)} hooks do not run")
    effect = " and ".join(effects)
    if state.state == NOT_RUNNING:
        ctx.add(
            Finding(
                "hookman-serve-not-running",
                "warning",
                local,
                f"hookman's entries reach the warm hook server on port {port}, which is not "
                f"running: until it runs, {effect}.",
                START_FIX if opted_in else OPTED_OUT_FIX,
            )
        )
    elif state.state == UNRESPONSIVE:
        from hookman.bridge.serve_proof import UNRESPONSIVE_FIX

        ctx.add(
            Finding(
                "hookman-serve-unresponsive",
                "error",
                local,
                f"{unresponsive_sentence(state)}. Until it answers, {effect}.",
                f"{UNRESPONSIVE_FIX}.",
            )
        )
    elif state.state == OTHER:
        from hookman.bridge.port_holder import port_holder

        answered = ", ".join(dict.fromkeys(h.event for h in http))
        holder = port_holder(port)
        who = f"another process ({holder})" if holder else "another process"
        ctx.add(
            Finding(
                "hookman-serve-impostor",
                "error",
                local,
                f"{who} holds port {port}, where hookman's entries post "
                f"({state.detail}): it is not hookman's server, yet Claude Code takes its answers "
                f"for {answered} (a guard it answers with {{}} lets the tool run; hookman's "
                "prompt gate stops prompts while it holds the port), and it reads every payload.",
                f"stop that process (`ss -ltnp 'sport = :{port}'` or `lsof -i :{port}` names it), "
                + ("then `hookman serve start`." if opted_in else f"then {OPTED_OUT_FIX}"),
            )
        )
