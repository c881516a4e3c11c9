"""Cost of `hookman doctor` (without --probe) against `hookman list`, measured in one run.

The project has 6 sources (managed, user, project and local settings, a skills-dir plugin's
hooks.json and a skill's frontmatter) holding 300 handlers, one of them hookman's guard
installed by `hookman install`. Both commands run as the user runs them (`python -m hookman
...`, output piped), rounds interleaved after a warm-up; CPU time (user + system of the
process and its children) is compared by median, wall time shown alongside.

    python bench/doctor_overhead.py [--rounds N] [--no-write]

Target (issue 9): doctor <= 1.5x `hookman list`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HANDLERS = 300
TARGET = 1.5
VERSION = "2.1.328"
GUARD = (
    "def hook(pi):\n"
    "    def check(event, ctx):\n"
    '        if "rm -rf" in event["input"].get("command", ""):\n'
    '            return {"block": True, "reason": "no"}\n'
    '    pi.on("tool_call", check, tools=["Bash"])\n'
)
EVENTS = ("PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit", "SessionStart", "Notification")
MATCHERS = ("Bash", "Edit|Write", "^Read$", None, "mcp__github__.*", "Glob,Grep")


def main() -> int:
    options = _options()
    with tempfile.TemporaryDirectory(prefix="hookman-doctor-bench-") as scratch:
        root = Path(scratch)
        env = _environment(root)
        project = _project(root, env)
        commands = {
            "hookman list": ["list", "--claude-version", VERSION],
            "hookman doctor": [
                "doctor",
                "--claude-version",
                VERSION,
                "--managed-settings",
                str(root / "managed"),
            ],
        }
        report = _doctor_report(project, env, commands["hookman doctor"])
        for args in commands.values():
            _run(args, project, env)
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(options.rounds):
            for name, args in commands.items():
                samples[name].append(_run(args, project, env))
    samples[
        "(the interpreter check, `python -c 'import hookman'`, when an entry names another Python)"
    ] = [_time([sys.executable, "-c", "import hookman"], Path("/")) for _ in range(options.rounds)]
    cpu = {name: statistics.median(c for c, _ in runs) for name, runs in samples.items()}
    wall = {name: statistics.median(w for _, w in runs) for name, runs in samples.items()}
    ratio = cpu["hookman doctor"] / cpu["hookman list"]  # the check is inside doctor's time
    text = _section(cpu, wall, ratio, options.rounds, report)
    print(text)
    if not options.no_write:
        _write_section(REPO / "BENCHMARKS.md", text)
        print(f"written to {REPO / 'BENCHMARKS.md'}")
    return 0 if ratio <= TARGET else 1


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds (default 15)")
    parser.add_argument("--no-write", action="store_true", help="do not rewrite BENCHMARKS.md")
    return parser.parse_args()


def _environment(root: Path) -> dict[str, str]:
    env = dict(os.environ, HOME=str(root / "home"), HOOKMAN_HOME=str(root / "hookman"))
    env.pop("CLAUDE_CONFIG_DIR", None)
    # An installed hookman has its bytecode compiled; with this set, every edited module would
    # be compiled again on every run and the ratio would measure the compiler.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["NO_COLOR"] = "1"
    return env


def _handler(index: int) -> dict[str, object]:
    return {
        "type": "command",
        "command": f'"$CLAUDE_PROJECT_DIR"/scripts/hook-{index % 10}.sh {index}',
        "timeout": 30,
    }


def _settings(start: int, count: int) -> dict[str, object]:
    hooks: dict[str, list[dict[str, object]]] = {}
    for index in range(start, start + count):
        event = EVENTS[index % len(EVENTS)]
        matcher = (
            MATCHERS[index % len(MATCHERS)] if event in ("PreToolUse", "PostToolUse") else None
        )
        group: dict[str, object] = {} if matcher is None else {"matcher": matcher}
        group["hooks"] = [_handler(index)]
        hooks.setdefault(event, []).append(group)
    return {"hooks": hooks}


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


def _project(root: Path, env: dict[str, str]) -> Path:
    project = root / "project"
    for index in range(10):
        script = project / "scripts" / f"hook-{index}.sh"
        script.parent.mkdir(parents=True, exist_ok=True)
        script.write_text("#!/bin/sh\nexit 0\n")
        script.chmod(0o755)
    (project / "hooks").mkdir()
    (project / "hooks" / "guard.py").write_text(GUARD)
    (project / ".claude").mkdir()
    subprocess.run(
        [sys.executable, "-m", "hookman", "install", "hooks/guard.py", "--claude-version", VERSION],
        cwd=project,
        env=env,
        check=True,
        capture_output=True,
    )
    # 299 foreign handlers over 5 more sources (the guard's entry is the 300th).
    per_source = (HANDLERS - 1) // 5
    _write(root / "managed" / "managed-settings.json", _settings(0, per_source))
    _write(root / "home" / ".claude" / "settings.json", _settings(100, per_source))
    _write(project / ".claude" / "settings.json", _settings(200, per_source))
    plugin = root / "home" / ".claude" / "skills" / "team"
    _write(plugin / ".claude-plugin" / "plugin.json", {"name": "team"})
    _write(plugin / "hooks" / "hooks.json", _settings(300, per_source))
    skill = project / ".claude" / "skills" / "deploy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    lines = ["---", "name: deploy", "hooks:", "  Stop:"]
    for index in range(HANDLERS - 1 - 4 * per_source):
        lines += ["    - hooks:", "        - type: command", f"          command: echo {index}"]
    skill.write_text("\n".join([*lines, "---", "Deploy.", ""]))
    return project


def _doctor_report(project: Path, env: dict[str, str], args: list[str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "hookman", *args, "--json"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    report = json.loads(done.stdout)
    sources = [
        s
        for s in report["sources"]
        if s["exists"] and s["kind"] not in ("hookman.toml", "manifest", "registry")
    ]
    assert len(sources) == 6 and len(report["handlers"]) == HANDLERS, (
        len(sources),
        len(report["handlers"]),
    )
    return {
        "sources": len(sources),
        "handlers": len(report["handlers"]),
        "findings": len(report["findings"]),
    }


def _run(args: list[str], project: Path, env: dict[str, str]) -> tuple[float, float]:
    return _time([sys.executable, "-m", "hookman", *args], project, env)


def _time(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu * 1000, wall * 1000


START = "<!-- bench:doctor -->"
END = "<!-- /bench:doctor -->"


def _section(
    cpu: dict[str, float],
    wall: dict[str, float],
    ratio: float,
    rounds: int,
    report: dict[str, object],
) -> str:
    lines = [
        START,
        "## `hookman doctor` cost (bench/doctor_overhead.py)",
        "",
        f"A project with {report['sources']} hook sources and {report['handlers']} handlers "
        f"({report['findings']} findings); both commands run as `python -m hookman ...` with "
        "output piped, "
        "interleaved after a warm-up; CPU time is user + system of the process and its children.",
        "",
        f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {rounds} rounds",
        f"- machine: {platform.system()} {platform.release()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs",
        f"- Python: {platform.python_implementation()} {platform.python_version()} "
        f"(`{sys.executable}`)",
        "",
        "| command | median CPU ms | median wall ms |",
        "| --- | ---: | ---: |",
        *(f"| {name} | {cpu[name]:.1f} | {wall[name]:.1f} |" for name in cpu),
        "",
        "| target | measured | |",
        "| --- | ---: | --- |",
        f"| doctor / list <= {TARGET} (CPU) | {ratio:.2f} | "
        f"{'met' if ratio <= TARGET else 'NOT met'} |",
        END,
    ]
    return "\n".join(lines)


def _write_section(path: Path, section: str) -> None:
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    if START in text and END in text:
        before, rest = text.split(START, 1)
        _, after = rest.split(END, 1)
        text = before + section + after
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)


if __name__ == "__main__":
    raise SystemExit(main())
