"""Who answers on the warm hook server's port: hookman's server (it proves the per-user secret),
nothing, or another process, in doctor's and install's words. The question is the prompt
gate's own (hookman/bridge/serve_proof.py `check_identity`: one request, short timeouts);
nothing here starts anything."""

from __future__ import annotations

from typing import NamedTuple

RUNNING = "running"  # hookman's server answered with the identity proof
NOT_RUNNING = "not running"  # nothing listens on the port, or hookman's keeper holds it
OTHER = "another process"  # something listens and cannot prove it is hookman's server
# hookman's own server or keeper holds the port (its pid file names it) and did not prove
# itself in time: stopped, or too busy; `holder` names it.
UNRESPONSIVE = "not answering"
TIMEOUT_S = 0.5


class ServerState(NamedTuple):
    state: str  # RUNNING, NOT_RUNNING, OTHER or UNRESPONSIVE
    port: int
    detail: str = ""  # what was wrong with an OTHER answer; the version for RUNNING
    kept: bool = False  # NOT_RUNNING, and hookman's port keeper answers (serve/keeper.py)
    holder: str = ""  # UNRESPONSIVE: "hookman's server (pid N)"


def probe(port: int) -> ServerState:
    """What answers on 127.0.0.1:`port` (GET /v1/identity?nonce=HEX, the proof checked)."""
    from hookman.bridge.serve_proof import (
        KEPT,
        NOTHING,
        OURS,
        check_identity,
        own_holder,
        read_secret,
    )

    found = check_identity(port, read_secret(), timeout=TIMEOUT_S)
    if found.state == OURS:
        return ServerState(RUNNING, port, found.version or "")
    if found.state in (NOTHING, KEPT):  # KEPT: hookman's keeper holds the port, no server
        return ServerState(NOT_RUNNING, port, kept=found.state == KEPT)
    own = own_holder(port)
    if own is not None:
        return ServerState(UNRESPONSIVE, port, found.detail, holder=own)
    return ServerState(OTHER, port, found.detail)


def unresponsive_sentence(state: ServerState) -> str:
    """The problem an UNRESPONSIVE state is, in one sentence's words."""
    from hookman.bridge.serve_proof import unresponsive_problem

    return unresponsive_problem(state.holder, state.port)
