"""Who answers on the warm hook server's port: hookman's server (it proves the per-user secret,
hookman/serve/wire.py `identity_proof`), nothing, or another process. Asks once, with short
timeouts; never starts anything (doctor, install's hint and fire only look)."""

from __future__ import annotations

import json
import os
import socket
from typing import NamedTuple

RUNNING = "running"  # hookman's server answered with the identity proof
NOT_RUNNING = "not running"  # nothing listens on the port
OTHER = "another process"  # something listens and cannot prove it is hookman's server
CONNECT_TIMEOUT_S = 0.5
ANSWER_TIMEOUT_S = 1.0
MAX_ANSWER_BYTES = 65536


class ServerState(NamedTuple):
    state: str  # RUNNING, NOT_RUNNING or OTHER
    port: int
    detail: str = ""  # what was wrong with an OTHER answer; the version for RUNNING


def probe(port: int) -> ServerState:
    """What answers on 127.0.0.1:`port` (GET /v1/identity?nonce=HEX, the proof checked)."""
    from hookman.serve import wire

    nonce = os.urandom(16).hex()
    try:
        connection = socket.create_connection((wire.HOST, port), timeout=CONNECT_TIMEOUT_S)
    except ConnectionRefusedError:
        return ServerState(NOT_RUNNING, port)
    except OSError as error:
        return ServerState(OTHER, port, f"connecting failed ({error.strerror or error})")
    with connection:
        try:
            answer = _ask(connection, f"{wire.IDENTITY_PATH}?nonce={nonce}")
        except OSError as error:
            return ServerState(OTHER, port, f"it gave no answer ({error.strerror or error})")
    return _judge(answer, nonce, port)


def _ask(connection: socket.socket, target: str) -> bytes:
    connection.settimeout(ANSWER_TIMEOUT_S)
    request = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    connection.sendall(request.encode("ascii"))
    chunks: list[bytes] = []
    size = 0
    while size < MAX_ANSWER_BYTES:
        chunk = connection.recv(4096)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _judge(answer: bytes, nonce: str, port: int) -> ServerState:
    from hookman.serve import wire

    head, _, body = answer.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.") or b" 200 " not in head.split(b"\r\n", 1)[0] + b" ":
        return ServerState(OTHER, port, "it does not answer hookman's identity request")
    if b"transfer-encoding: chunked" in head.lower():
        body = _unchunked(body)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return ServerState(OTHER, port, "its identity answer is not JSON")
    secret = wire.read_secret()
    proof = data.get("proof") if isinstance(data, dict) else None
    if secret is None or not isinstance(proof, str):
        return ServerState(OTHER, port, "it cannot prove hookman's secret")
    import hmac

    if not hmac.compare_digest(proof, wire.identity_proof(secret, nonce)):
        return ServerState(OTHER, port, "its proof does not match this user's secret")
    version = data.get("hookman")
    return ServerState(RUNNING, port, version if isinstance(version, str) else "")


def _unchunked(body: bytes) -> bytes:
    """A chunked body's bytes (what could be read of it)."""
    out: list[bytes] = []
    while body:
        size_line, _, rest = body.partition(b"\r\n")
        try:
            size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
        except ValueError:
            break
        if size == 0:
            break
        out.append(rest[:size])
        body = rest[size + 2 :]
    return b"".join(out)
