"""The server's listening socket wakes its loop for a connection only once the request's
first bytes came (Linux, TCP_DEFER_ACCEPT). Node's fetch, as Claude Code's http entries ask,
connects first and writes in a later turn of its event loop: without the option every
request woke the loop twice (measured: 10 of 10 connections accepted before their data)."""

from __future__ import annotations

import json
import socket
import time

import pytest

from hookman.serve import wire
from hookman.serve.server import DEFER_ACCEPT_S, Server, bind_listener

from .served import Served

pytestmark = pytest.mark.skipif(
    not hasattr(socket, "TCP_DEFER_ACCEPT"), reason="TCP_DEFER_ACCEPT is Linux's"
)


def _deferred(listener: socket.socket) -> int:
    return listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT)


def test_the_server_defers_accept_on_a_socket_it_bound() -> None:
    listener = bind_listener(0)
    try:
        Server(listener, b"0" * 64)
        assert _deferred(listener) >= DEFER_ACCEPT_S
    finally:
        listener.close()


def test_a_listener_handed_over_without_the_option_gets_it() -> None:
    """A port keeper of an older hookman hands over a socket bound without it."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.bind((wire.HOST, 0))
        listener.listen(8)
        assert _deferred(listener) == 0
        Server(listener, b"0" * 64)
        assert _deferred(listener) >= DEFER_ACCEPT_S
    finally:
        listener.close()


def test_a_connection_is_not_taken_before_its_first_bytes() -> None:
    listener = bind_listener(0)
    try:
        Server(listener, b"0" * 64)
        listener.setblocking(False)
        with socket.create_connection(listener.getsockname(), timeout=5) as client:
            time.sleep(0.2)  # connected (the client sees it so) but nothing sent yet
            with pytest.raises(BlockingIOError):
                listener.accept()
            client.sendall(b"GET / HTTP/1.1\r\n\r\n")
            deadline = time.monotonic() + 5
            while True:
                try:
                    taken, _ = listener.accept()
                    break
                except BlockingIOError:
                    assert time.monotonic() < deadline, "the connection was never taken"
                    time.sleep(0.01)
            with taken:
                assert taken.recv(64).startswith(b"GET / ")
    finally:
        listener.close()


def test_a_client_that_connects_then_writes_later_is_answered(served: Served) -> None:
    body = json.dumps(served.bash("PreToolUse", "rm -rf /")).encode()
    head = (
        f"POST {wire.HOOK_PATH_PREFIX}PreToolUse HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"{wire.MANIFEST_HEADER}: {served.manifest}\r\n"
        f"{wire.TOKEN_HEADER}: {wire.TOKEN_SCHEME}{served.token()}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as client:
        time.sleep(0.3)
        client.sendall(head.encode() + body)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    decision = json.loads(answer.split(b"\r\n\r\n", 1)[1])["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny", decision
