"""Run a command inside a fresh network namespace that can reach only the mock API.

Invoked as `unshare -n python netns_relay.py PORT SOCKET -- COMMAND...`: brings `lo` up, serves
127.0.0.1:PORT by forwarding each connection to the mock's Unix socket (a filesystem path,
which network namespaces do not separate), runs COMMAND and exits with its exit code.
Standard library only: it runs as a script, outside the test package.
"""

from __future__ import annotations

import contextlib
import fcntl
import socket
import struct
import subprocess
import sys
import threading

SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1


def bring_loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as control:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(control, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(control, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
        source.close()


def _forward(client: socket.socket, unix_path: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(unix_path)
    except OSError:
        client.close()
        upstream.close()
        return
    threading.Thread(target=_pump, args=(upstream, client), daemon=True).start()
    _pump(client, upstream)


def serve_relay(port: int, unix_path: str) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)

    def accept_forever() -> None:
        while True:
            client, _ = listener.accept()
            threading.Thread(target=_forward, args=(client, unix_path), daemon=True).start()

    threading.Thread(target=accept_forever, daemon=True).start()


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        print("usage: netns_relay.py PORT SOCKET -- COMMAND...", file=sys.stderr)
        return 2
    port, unix_path, command = int(argv[0]), argv[1], argv[3:]
    bring_loopback_up()
    serve_relay(port, unix_path)
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
