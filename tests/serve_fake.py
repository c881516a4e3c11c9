"""A stand-in for the warm hook server where a test needs only "something on the port": it
answers hookman's identity request (GET /v1/identity?nonce=HEX) with the right proof, a
wrong one, or not at all. Standard library only; a thread of the test process."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from hookman.bridge.serve_proof import KEPT_LABEL
from hookman.serve import wire

HOOKMAN = "hookman"  # proves the user's secret
WRONG_PROOF = "wrong-proof"  # answers the shape with another secret's proof
NOT_HOOKMAN = "not-hookman"  # answers {} to everything, as a careless impostor would
KEEPER = "keeper"  # proves the user's secret, saying it is hookman's port keeper (no server)


def opt_in(port: int | None = None) -> None:
    """`hookman serve enable` as its files say it (and the port, when given, recorded)."""
    directory = wire.serve_dir()
    os.makedirs(directory, mode=0o700, exist_ok=True)
    os.chmod(directory, 0o700)
    with open(os.path.join(directory, wire.USE_NAME), "w", encoding="utf-8"):
        pass
    if port is not None:
        record_port(port)


def opt_out() -> None:
    os.unlink(os.path.join(wire.serve_dir(), wire.USE_NAME))


def record_port(port: int) -> None:
    directory = wire.serve_dir()
    os.makedirs(directory, mode=0o700, exist_ok=True)
    with open(os.path.join(directory, wire.PORT_NAME), "w", encoding="utf-8") as handle:
        handle.write(f"{port}\n")


def free_port() -> int:
    """A port nothing listens on now (bound and released)."""
    with socket.socket() as probe:
        probe.bind((wire.HOST, 0))
        return int(probe.getsockname()[1])


@contextmanager
def fake_server(mode: str = HOOKMAN) -> Iterator[int]:
    """A server on a free loopback port (yielded) answering as `mode` says."""
    secret = wire.ensure_secret() if mode in (HOOKMAN, KEEPER) else b"0" * 64

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body: dict[str, object] = {}
            parts = urlsplit(self.path)
            if mode != NOT_HOOKMAN and parts.path == wire.IDENTITY_PATH:
                nonce = parse_qs(parts.query).get("nonce", [""])[0]
                body = {
                    "hookman": "0.0.0",
                    "proof": wire.identity_proof(secret, nonce, self.server.server_address[1]),
                }
                if mode == KEEPER:
                    body[KEPT_LABEL] = True
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer((wire.HOST, 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
