"""The warm server's CPU per event split between the server and its project's worker, paced
or back to back, beside the floor of a bare Python loop doing the same hop (BENCHMARKS.md,
"Why the paced goal is not met").

One project installed as bench/serve_bench.py installs it; EVENTS requests of its payload,
one at a time. Paced: a random pause of 50-450 ms before each (mean 250 ms, the bench's think
time). CPU is read from /proc/PID/task/*/schedstat of the server and of the worker (its
child) before and after, so each is its own. The floor: a listener that accepts, reads the
request, sends it to a child over a socket pair, reads the child's `{}` and answers, with
nothing else; its two processes read the same way. Linux only.

    python bench/serve_split.py [--paced] [--events N] [--rounds R]

With bench/serve_ceiling.patch applied (`git apply`), the variables it reads (set here,
the server inherits them) give the variants' rows in BENCHMARKS.md; its header says which.
"""

from __future__ import annotations

import argparse
import os
import random
import selectors
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import serve_bench  # bench/ beside this script (sys.path above)

PAUSE_S = (0.05, 0.45)
WARM_EVENTS = 5
FLOOR_ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"


def cpu_ns(pid: int) -> int:
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/schedstat") as handle:
            total += int(handle.read().split()[0])
    return total


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as handle:
            found += [int(word) for word in handle.read().split()]
    return found


def post(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def measure(
    send: Callable[[], bytes], server: int, events: int, paced: bool
) -> tuple[float, float, float]:
    """(server ms, worker ms, p50 ms) per event; the worker is the server's child(ren)."""
    for _ in range(WARM_EVENTS):
        send()
    workers = children(server)
    server_before = cpu_ns(server)
    workers_before = {pid: cpu_ns(pid) for pid in workers}
    latencies = []
    for _ in range(events):
        if paced:
            time.sleep(random.uniform(*PAUSE_S))
        started = time.perf_counter()
        send()
        latencies.append(time.perf_counter() - started)
    time.sleep(0.3)  # the worker logs after answering
    server_ms = (cpu_ns(server) - server_before) / events / 1e6
    alive = [pid for pid in workers if os.path.exists(f"/proc/{pid}")]
    worker_ms = sum(cpu_ns(pid) - workers_before[pid] for pid in alive) / events / 1e6
    return server_ms, worker_ms, sorted(latencies)[events // 2] * 1000


def hookman_run(events: int, paced: bool) -> tuple[float, float, float]:
    setup = serve_bench.Setup(Path(tempfile.mkdtemp(prefix="hookman-split-")))
    try:
        answer = post(setup.port, setup.request)
        assert answer.startswith(b"HTTP/1.1 200"), answer
        return measure(lambda: post(setup.port, setup.request), setup.server_pid, events, paced)
    finally:
        setup.stop()


def floor_run(events: int, paced: bool) -> tuple[float, float, float]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    server_end, worker_end = socket.socketpair()
    server = os.fork()
    if server == 0:
        if os.fork() == 0:  # the worker: a hop and a JSON parse
            import json

            listener.close()
            server_end.close()
            while data := worker_end.recv(65536):
                json.loads(data[data.index(b"\r\n\r\n") + 4 :])
                worker_end.send(b"{}")
            os._exit(0)
        worker_end.close()
        selector = selectors.DefaultSelector()
        selector.register(listener, selectors.EVENT_READ)
        while True:
            selector.select()
            connection, _ = listener.accept()
            server_end.send(connection.recv(65536))
            server_end.recv(65536)
            connection.sendall(FLOOR_ANSWER)
            connection.close()
    request = b"POST /v1/hook/PreToolUse HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\n"
    request += b'{"a": "bcd"}'
    try:
        return measure(lambda: post(port, request), server, events, paced)
    finally:
        for pid in [*children(server), server]:
            os.kill(pid, 9)
        os.waitpid(server, 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--paced", action="store_true")
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    print("| run | server ms / event | worker ms / event | total | p50 ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for _ in range(options.rounds):  # interleaved: the machine's noise hits both alike
        for name, run in (("hookman", hookman_run), ("floor", floor_run)):
            server_ms, worker_ms, p50 = run(options.events, options.paced)
            total = server_ms + worker_ms
            print(f"| {name} | {server_ms:.3f} | {worker_ms:.3f} | {total:.3f} | {p50:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
