"""CPU and latency per hook event: the warm server (`hookman serve`) against the command path
(the settings command `hookman install` writes, through its launcher), at 1, 16 and 64
concurrent agents, in one run with interleaved rounds.

One project installed by the real `hookman install` (one trivial tool_call guard on Bash),
the PreToolUse payload of an allowed `ls`. The command path runs the installed settings
command with `/bin/sh -c`, the payload on stdin, as Claude Code does; its CPU is each
command's own rusage (the shell, the launcher, the runner and everything they waited for),
from wait4. The server path POSTs what an http entry sends; its CPU is the server's and its
live workers' (/proc/PID/task/*/schedstat, in nanoseconds) and its reaped children's
(cutime+cstime), read once it stops growing after the batch. Neither counts
the client's own side (Claude Code's spawn or its request).
Latency: from the spawn (the request) to the exit (the whole response).

    python bench/serve_bench.py [--rounds N] [--no-write]

Goal (issue 26): the server's CPU <= 1/20 of the command path's, its p50 latency <= 2 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
import hookman  # noqa: E402
from hookman.serve import wire  # noqa: E402

PAYLOAD_SAMPLE = REPO / "hookman" / "catalog" / "payloads" / "PreToolUse.json"
GUARD = (
    "def hook(pi):\n"
    "    def check(event, ctx):\n"
    "        if 'rm -rf' in event['input'].get('command', ''):\n"
    "            return {'block': True, 'reason': 'no'}\n"
    "    pi.on('tool_call', check, tools=['Bash'])\n"
)
CONCURRENCY = (1, 16, 64)
EVENTS = {1: 20, 16: 32, 64: 64}  # back to back: events per batch at each concurrency
# Paced: each agent's events THINK_S apart on average (an agent between tool calls; 14,400
# events an hour, 13 times the busy agent of 360 tool calls of 3 events an hour).
THINK_S = 0.25
PACED_EVENTS = {1: 12, 16: 4, 64: 3}  # events per agent in a batch
NOTES = (
    "The server runs each event in a warm worker of the project (docs/serve.md): a process "
    "forked from the server's warm image that runs events one after the other in process, "
    "each by a fresh `_Run` of the runner, then checks what the event left behind "
    '("runner, in process" is that run without the check and the server\'s HTTP). A worker '
    "is forked once per project and reused; an event that comes while the project's worker "
    "only logs the run it answered waits for it rather than start a second one (two workers "
    "taking turns ran each event colder: about 0.3 ms more a event). Beyond the workers an "
    'event gets a child forked for it ("fork + runner": the copy-on-write faults of the warm '
    "image are what a fork per event costs). What is left per event beyond the runner's own "
    "work: the worker's leftover check, its socket and pipe to the server, and the server's "
    "HTTP, token and answer. The server wakes about twice per event: for the request (read "
    "with its accept) and for the worker's answer; the end of the worker's run (it logs after "
    "answering) is collected at the project's next request or the server's one-second tick, "
    "not by a wakeup of its own (before: four wakeups, with about 0.2-0.4 ms more CPU per "
    "event back to back).\n\n"
    "Back to back: each agent sends its next event as soon as the last is answered (batches "
    "of a few dozen events between the other batches). Paced: each agent waits a random "
    f"think time between events (mean {THINK_S * 1000:.0f} ms), as agents do between tool "
    "calls; each event then finds the server's processes idle. On this machine a short task "
    "after an idle pause costs more CPU than the same task back to back (a 0.5 ms "
    "pure-Python loop took 0.8 ms after a 5-20 ms sleep): the command path's 30 ms start "
    "hides it, the server's 1-2 ms does not, which is why the paced ratio is lower. "
    "Latencies back to back at 16 and 64 agents are queueing: that many requests at once "
    "on 2 CPUs."
)
TARGET_CPU_RATIO = 20.0
SETTLED_S = 0.0001
TARGET_P50_MS = 2.0
START = "<!-- bench:serve -->"
END = "<!-- /bench:serve -->"


class Setup:
    def __init__(self, scratch: Path) -> None:
        self.home = scratch / "home"
        self.root = scratch / "project"
        (self.root / ".claude").mkdir(parents=True)
        (self.root / "guard.py").write_text(GUARD)
        self.environment = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_")}
        self.environment["HOOKMAN_HOME"] = str(self.home)
        self.environment["CLAUDE_PROJECT_DIR"] = str(self.root)
        self._hookman("install", "./guard.py", "--claude-version", "2.1.332")
        settings = json.loads((self.root / ".claude" / "settings.local.json").read_text())
        self.command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        self.manifest = str(next((self.home / "state" / "projects").glob("*/manifest.json")))
        text = PAYLOAD_SAMPLE.read_text().replace("<WORK>/proj", str(self.root))
        payload = {**json.loads(text), "tool_input": {"command": "ls"}, "cwd": str(self.root)}
        self.payload = json.dumps(payload).encode()
        self.payload_file = scratch / "payload.json"
        self.payload_file.write_bytes(self.payload)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self._hookman("serve", "enable", "--port", str(self.port))
        self._hookman("serve", "start")
        self.server_pid = int((self.home / "state" / "serve" / "pid").read_text())
        secret = (self.home / "state" / "serve" / "secret").read_bytes()
        headers = wire.entry_headers(secret, self.manifest)
        head = f"POST {wire.HOOK_PATH_PREFIX}PreToolUse HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        head += f"Content-Type: application/json\r\nContent-Length: {len(self.payload)}\r\n\r\n"
        self.request = head.encode() + self.payload

    def _hookman(self, *words: str) -> None:
        subprocess.run(
            [sys.executable, "-m", "hookman", *words],
            cwd=self.root,
            env=self.environment,
            check=True,
            capture_output=True,
        )

    def stop(self) -> None:
        self._hookman("serve", "stop")


def command_batch(setup: Setup, concurrency: int, events: int) -> tuple[float, list[float]]:
    """(CPU seconds, latencies) of `events` runs of the settings command, `concurrency` at
    a time."""
    cpu = 0.0
    latencies: list[float] = []
    started: dict[int, float] = {}
    pending = events
    argv = ["/bin/sh", "-c", setup.command]
    actions = [(os.POSIX_SPAWN_OPEN, 0, str(setup.payload_file), os.O_RDONLY, 0)]
    actions += [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
    actions += [(os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    while pending or started:
        while pending and len(started) < concurrency:
            pid = os.posix_spawn(argv[0], argv, setup.environment, file_actions=actions)
            started[pid] = time.perf_counter()
            pending -= 1
        pid, _status, usage = os.wait4(-1, 0)
        latencies.append(time.perf_counter() - started.pop(pid))
        cpu += usage.ru_utime + usage.ru_stime
    return cpu, latencies


def _clock_ticks_cpu(pid: int, first: int, last: int) -> float:
    """Fields first..last (0-based, after the name) of /proc/PID/stat, in seconds (0 when
    the process is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[first : last + 1]) / os.sysconf("SC_CLK_TCK")


def _run_time(pid: int) -> float:
    """The CPU time of `pid`'s threads, to the nanosecond (/proc/PID/task/*/schedstat); its
    utime+stime in clock ticks where schedstat is missing; 0 when it is gone."""
    total, found = 0, False
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as handle:
                total += int(handle.read().split()[0])
                found = True
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9 if found else _clock_ticks_cpu(pid, 11, 12)


def server_children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(word) for word in handle.read().split()]
    except OSError:
        return []


def server_cpu(pid: int) -> float:
    """The server's CPU and its live children's, to the nanosecond, and its reaped
    children's (cutime+cstime: clock ticks). The warm workers live on from batch to batch;
    a worker or child that ends moves its CPU to the server's reaped share, so nothing is
    counted twice or lost."""
    live = _run_time(pid) + sum(_run_time(child) for child in server_children(pid))
    return live + _clock_ticks_cpu(pid, 13, 14)


def server_batch(setup: Setup, concurrency: int, events: int) -> tuple[float, list[float]]:
    return _settled_cpu(setup, lambda: asyncio.run(_clients(setup, concurrency, events)))


def _settled_cpu(setup: Setup, batch: Callable[[], list[float]]) -> tuple[float, list[float]]:
    """(the server's CPU for `batch`, its latencies)."""
    before = server_cpu(setup.server_pid)
    latencies = batch()
    # Answered early: the runs still log (and children end). Settled once the CPU stops
    # growing (less than SETTLED_S in a pause of 50 ms: the idle loop's own wakeups).
    deadline = time.monotonic() + 10
    last = server_cpu(setup.server_pid)
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = server_cpu(setup.server_pid)
        if now - last < SETTLED_S:
            break
        last = now
    return last - before, latencies


async def _clients(setup: Setup, concurrency: int, events: int) -> list[float]:
    latencies: list[float] = []
    remaining = [events]

    async def client() -> None:
        while remaining[0] > 0:
            remaining[0] -= 1
            start = time.perf_counter()
            reader, writer = await asyncio.open_connection("127.0.0.1", setup.port)
            writer.write(setup.request)
            response = await reader.read()
            writer.close()
            latencies.append(time.perf_counter() - start)
            if not response.endswith(b"{}"):
                raise SystemExit(f"unexpected answer: {response[-200:]!r}")

    await asyncio.gather(*(client() for _ in range(concurrency)))
    return latencies


def _paced(agents: int, events_each: int, one_event: Callable[[], float]) -> list[float]:
    """Latencies of `agents` threads that each run `events_each` events, one after the
    other with a think time between them (exponential, mean THINK_S; the same seeded draws
    for both paths), as agents between tool calls do."""
    latencies: list[float] = []

    def agent(seed: int) -> None:
        draws = random.Random(seed)
        time.sleep(draws.expovariate(1 / THINK_S))
        for _ in range(events_each):
            latencies.append(one_event())
            time.sleep(draws.expovariate(1 / THINK_S))

    threads = [threading.Thread(target=agent, args=(seed,)) for seed in range(agents)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies


def paced_command_batch(setup: Setup, agents: int, events_each: int) -> tuple[float, list[float]]:
    cpu = [0.0]
    lock = threading.Lock()
    argv = ["/bin/sh", "-c", setup.command]
    actions = [(os.POSIX_SPAWN_OPEN, 0, str(setup.payload_file), os.O_RDONLY, 0)]
    actions += [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
    actions += [(os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]

    def one_event() -> float:
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, setup.environment, file_actions=actions)
        _pid, _status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
        with lock:
            cpu[0] += usage.ru_utime + usage.ru_stime
        return elapsed

    latencies = _paced(agents, events_each, one_event)
    return cpu[0], latencies


def paced_server_batch(setup: Setup, agents: int, events_each: int) -> tuple[float, list[float]]:
    def one_event() -> float:
        start = time.perf_counter()
        with socket.create_connection((wire.HOST, setup.port)) as connection:
            connection.sendall(setup.request)
            response = b""
            while chunk := connection.recv(65536):
                response += chunk
        if not response.endswith(b"{}"):
            raise SystemExit(f"unexpected answer: {response[-200:]!r}")
        return time.perf_counter() - start

    return _settled_cpu(setup, lambda: _paced(agents, events_each, one_event))


BREAKDOWN = REPO / "bench" / "serve_breakdown.py"
BREAKDOWN_EVENTS = 40


def breakdown(setup: Setup) -> dict[str, list[float]]:
    """bench/serve_breakdown.py's measures, in a process of its own (the server's image)."""
    words = [str(BREAKDOWN), setup.manifest, str(setup.payload_file), str(BREAKDOWN_EVENTS)]
    done = subprocess.run(
        [sys.executable, *words],
        cwd=setup.root,
        env=setup.environment,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


Samples = dict[tuple[str, str, int], tuple[float, list[float], int]]
BACK_TO_BACK, PACED = "back to back", "paced"


def measure(setup: Setup, rounds: int) -> tuple[Samples, Samples]:
    """(samples by (mode, path, agents): CPU seconds, latencies, events; the breakdown's)."""
    samples: Samples = {}
    parts: Samples = {}
    modes = {
        BACK_TO_BACK: ({"command": command_batch, "server": server_batch}, EVENTS),
        PACED: ({"command": paced_command_batch, "server": paced_server_batch}, PACED_EVENTS),
    }
    for concurrency in CONCURRENCY:  # warm-up: bytecode caches, page cache
        for batch in modes[BACK_TO_BACK][0].values():
            batch(setup, concurrency, concurrency)
    for _ in range(rounds):
        for mode, (paths, events) in modes.items():
            for concurrency in CONCURRENCY:
                for name, batch in paths.items():
                    cpu, latencies = batch(setup, concurrency, events[concurrency])
                    _add(samples, (mode, name, concurrency), cpu, latencies, len(latencies))
        for name, (cpu, count, faults) in breakdown(setup).items():
            _add(parts, ("", name, 0), cpu, [faults], int(count))
    return samples, parts


def _add(
    samples: Samples, key: tuple[str, str, int], cpu: float, seen: list[float], count: int
) -> None:
    total, before, events = samples.get(key, (0.0, [], 0))
    samples[key] = (total + cpu, before + seen, events + count)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(samples: Samples, parts: Samples, rounds: int) -> str:
    load = os.getloadavg()
    lines = [
        START,
        "## The warm server against the command path (bench/serve_bench.py)",
        "",
        (__doc__ or "").split("\n\n", 1)[1].split("\n    python", 1)[0].strip(),
        "",
        f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {rounds} interleaved "
        f"rounds; load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}",
        f"- machine: {platform.system()} {platform.release()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs",
        f"- Python: {platform.python_implementation()} {platform.python_version()} "
        f"(`{sys.executable}`)",
        "",
        "| agents | events | path | CPU ms / event | p50 ms | p95 ms | events run |",
        "| ---: | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    targets = [
        "",
        "| agents | events | command CPU / server CPU | server p50 ms | goal | |",
        "| ---: | --- | ---: | ---: | --- | --- |",
    ]
    for mode in (BACK_TO_BACK, PACED):
        for concurrency in CONCURRENCY:
            per_event = {}
            for name in ("command", "server"):
                cpu, latencies, count = samples[(mode, name, concurrency)]
                per_event[name] = cpu / count * 1000
                lines.append(
                    f"| {concurrency} | {mode} | {name} | {per_event[name]:.2f} | "
                    f"{percentile(latencies, 0.5) * 1000:.1f} | "
                    f"{percentile(latencies, 0.95) * 1000:.1f} | {count} |"
                )
            ratio = per_event["command"] / per_event["server"]
            p50 = percentile(samples[(mode, "server", concurrency)][1], 0.5) * 1000
            met = ratio >= TARGET_CPU_RATIO and p50 <= TARGET_P50_MS
            targets.append(
                f"| {concurrency} | {mode} | {ratio:.1f}x | {p50:.1f} | >= {TARGET_CPU_RATIO:g}x,"
                f" <= {TARGET_P50_MS:g} ms | {'met' if met else 'not met'} |"
            )
    breakdown_lines = [
        "",
        "Where the server's CPU goes (bench/serve_breakdown.py, in the same rounds: one process "
        "with the server's warm imports):",
        "",
        "| per event | CPU ms | minor faults |",
        "| --- | ---: | ---: |",
    ]
    for (_, name, _), (cpu, faults, count) in parts.items():
        breakdown_lines.append(f"| {name} | {cpu / count * 1000:.2f} | {sum(faults) / count:.0f} |")
    return "\n".join([*lines, *targets, *breakdown_lines, "", NOTES, END])


def _write_section(path: Path, section: str) -> None:
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    if START in text and END in text:
        before, rest = text.split(START, 1)
        _, after = rest.split(END, 1)
        text = before + section + after
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    options = parser.parse_args()
    # As pip leaves an installed package: compiled (an editable checkout run with
    # PYTHONDONTWRITEBYTECODE would recompile hookman in every command's runner).
    compileall.compile_dir(Path(hookman.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory(prefix="hookman-serve-bench-") as scratch:
        setup = Setup(Path(scratch))
        try:
            samples, parts = measure(setup, options.rounds)
        finally:
            setup.stop()
    section = report(samples, parts, options.rounds)
    print(section)
    if not options.no_write:
        _write_section(REPO / "BENCHMARKS.md", section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
