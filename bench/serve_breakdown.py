"""Where the server's CPU per event goes, for bench/serve_bench.py: run in a process of its
own with the server's warm imports (hookman/serve/warm.py), it measures, per event,

- "runner, in process": the runner's `_Run` on the payload, in this process, no fork (the
  hook modules and everything the run imported dropped after each run, as a fresh child
  would have them);
- "fork + exit": a child forked from this warm image that ends at once;
- "fork + runner": a child that runs the same `_Run` and ends (what the server's child does).

Prints one JSON object: {name: [CPU seconds, events, minor faults]}.

    python bench/serve_breakdown.py MANIFEST PAYLOAD_FILE EVENTS
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time


def main(argv: list[str]) -> int:
    manifest, payload_file, events = argv[0], argv[1], int(argv[2])
    payload = open(payload_file, "rb").read()  # noqa: SIM115
    from hookman.bridge.run_command import _Run
    from hookman.serve.warm import warm_up

    warm_up()
    null = os.open(os.devnull, os.O_WRONLY)
    saved = os.dup(1)

    def run() -> None:
        before = set(sys.modules)
        os.dup2(null, 1)
        runner = _Run("PreToolUse", manifest)
        runner.raw_payload = payload
        runner.received_at = time.monotonic()
        runner.execute()
        if runner.deadline is not None:
            runner.deadline.cancel()
        for name in set(sys.modules) - before:
            del sys.modules[name]

    def forked(work: bool) -> None:
        pid = os.fork()
        if pid == 0:
            if work:
                run()
            os._exit(0)
        os.waitpid(pid, 0)

    run()
    results: dict[str, list[float]] = {}
    for name, step in (
        ("runner, in process", run),
        ("fork + exit", lambda: forked(False)),
        ("fork + runner", lambda: forked(True)),
    ):
        own0, kids0 = (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
        for _ in range(events):
            step()
        own1, kids1 = (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
        cpu = sum(
            (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            for before, after in ((own0, own1), (kids0, kids1))
        )
        faults = (own1.ru_minflt - own0.ru_minflt) + (kids1.ru_minflt - kids0.ru_minflt)
        results[name] = [cpu, events, faults]
    os.dup2(saved, 1)
    sys.stdout.write(json.dumps(results) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
