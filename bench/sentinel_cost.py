"""What the PreToolUse sentinel (hookman/project/sentinel.py) costs a tool call it reaches
while nothing changed, against `sh -c true` (the floor of any command hook) and hookman's
blocking entry (the runner), in one run.

A fresh project in a temporary HOOKMAN_HOME, one installed Bash guard; each variant is the
settings command as Claude Code runs it (`/bin/sh -c COMMAND`, the payload of a Read call on
stdin). Rounds are interleaved; medians of wall time and the CPU time of the child
(os.wait4's user + system) are compared.

    python bench/sentinel_cost.py [--rounds N]

Target: the sentinel costs no more than 1.5x `sh -c true` (no process but the shell), far
below the runner.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "rm -rf" in str(event["input"]):
            return {"block": True, "reason": "no rm -rf"}
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as scratch:
        commands, env, payload = _project(Path(scratch))
        cpu = {name: [] for name in commands}
        wall = {name: [] for name in commands}
        for _ in range(rounds):
            for name, command in commands.items():
                took, used = _run(command, env, payload)
                wall[name].append(took)
                cpu[name].append(used)
    floor = statistics.median(cpu["sh -c true"])
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    print(f"rounds: {rounds} interleaved; /bin/sh is {os.path.realpath('/bin/sh')}")
    for name in commands:
        used = statistics.median(cpu[name])
        print(
            f"{name:28s} p50 {statistics.median(wall[name]) * 1000:7.2f} ms   "
            f"CPU {used * 1000:6.2f} ms   {used / floor:5.2f}x sh -c true"
        )
    return 0


def _project(scratch: Path) -> tuple[dict[str, str], dict[str, str], bytes]:
    project = scratch / "project"
    (project / "hooks").mkdir(parents=True)
    (project / "hooks" / "guard.py").write_text(GUARD, encoding="utf-8")
    env = {**os.environ, "HOOKMAN_HOME": str(scratch / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    subprocess.run(
        [sys.executable, "-m", "hookman", "install", "hooks/guard.py",
         "--claude-version", "2.1.332"],
        cwd=project, env=env, check=True, capture_output=True,
    )  # fmt: skip
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    groups = settings["hooks"]["PreToolUse"]
    [sentinel] = [
        g["hooks"][0]["command"] for g in groups if "sentinel" in g["hooks"][0]["command"]
    ]
    [blocking] = [g["hooks"][0]["command"] for g in groups if g["hooks"][0]["command"] != sentinel]
    payload = {
        "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": "x"},
        "session_id": "bench", "cwd": str(project), "transcript_path": str(scratch / "t.jsonl"),
    }  # fmt: skip
    time.sleep(max(0.0, _stamp_mtime(sentinel) - time.time()) + 0.01)
    commands = {
        "sh -c true": "true",
        "sentinel (nothing changed)": sentinel,
        "blocking entry (runner)": blocking,
    }
    return commands, env, json.dumps(payload).encode()


def _stamp_mtime(command: str) -> float:
    [stamp] = {word for word in shlex.split(command) if word.endswith("hookman-sentinel.stamp")}
    return os.stat(stamp).st_mtime


def _run(command: str, env: dict[str, str], payload: bytes) -> tuple[float, float]:
    started = time.perf_counter()
    process = subprocess.Popen(
        ["/bin/sh", "-c", command], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    assert process.stdin is not None
    try:  # `true` and the sentinel's fast path leave without reading it, as a client allows
        process.stdin.write(payload)
        process.stdin.close()
    except BrokenPipeError:
        pass
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0, command
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    raise SystemExit(main())
