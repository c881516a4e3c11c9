"""What the mock APIs share (mock_anthropic.py, mock_openai.py): an HTTP server on 127.0.0.1
(a free port) and, optionally, on a Unix socket, which a client inside a private network
namespace reaches through netns_relay.py; and the handler's quiet, JSON-answering base."""

from __future__ import annotations

import contextlib
import json
import socketserver
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


class QuietHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def address_string(self) -> str:
        return "mock-client"

    def _read_json_body(self) -> Any:
        """The request's JSON body ({"unparsed": text} when it is not JSON)."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return {"unparsed": raw.decode("utf-8", "replace")}

    def _send_json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True


class _UnixHTTPServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


class MockServer:
    """Serves `handler` (a QuietHandler subclass given `api = self`) on both listeners."""

    def __init__(self, handler: type[QuietHandler], unix_socket: Path | None = None) -> None:
        bound = type(handler.__name__, (handler,), {"api": self})
        self._tcp = ThreadingHTTPServer(("127.0.0.1", 0), bound)
        self._tcp.daemon_threads = True
        self._unix: _UnixHTTPServer | None = None
        self.unix_socket = unix_socket
        if unix_socket is not None:
            with contextlib.suppress(FileNotFoundError):
                unix_socket.unlink()
            self._unix = _UnixHTTPServer(str(unix_socket), bound)

    @property
    def port(self) -> int:
        return int(self._tcp.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Any:
        for server in (self._tcp, self._unix):
            if server is not None:
                threading.Thread(
                    target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
                ).start()
        return self

    def stop(self) -> None:
        for server in (self._tcp, self._unix):
            if server is not None:
                server.shutdown()
                server.server_close()
        if self.unix_socket is not None:
            with contextlib.suppress(FileNotFoundError):
                self.unix_socket.unlink()
