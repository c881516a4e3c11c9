"""What installing hooks costs as their number grows, and a repeated install that changes
nothing, against typer's own import, in one run (issue 26, items 4 and 5).

    python bench/install_linear.py [--rounds N] [--no-write]

Variants, interleaved round by round after a warm-up (medians compared):

- `hookman install h1.py ... hN.py` for N = 10 and N = 300 hooks, each run in a new
  project (a fresh copy of the hooks: nothing learned, nothing written yet);
- `hookman install` in a project whose one guard is installed and unchanged (the repeated
  install of every day), and `python -c "import typer"`, the floor of any typer CLI.

Each run is a whole process; its cost is the CPU time (user + system) of the process and
the children it waited for (os.wait4: the child that learns the hooks counts), plus the
wall time. Targets: 300 hooks <= 25x the cost of 10; the unchanged install <= 1.15x typer's
import. A real `claude` is put first on PATH (HOOKMAN_BENCH_CLAUDE, default the pinned E2E
client), as version detection runs it. The section is written at the end of BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hookman

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CLAUDE = Path.home() / ".cache/hookman-e2e/claude-2.1.328/node_modules/.bin/claude"
GUARD = (
    "def hook(pi):\n"
    '    @pi.on("tool_call", tools=["Bash"])\n'
    "    def guard(event, ctx):\n"
    '        if "rm -rf" in event["input"].get("command", ""):\n'
    '            return {"block": True, "reason": "no"}\n'
)
OBSERVER = 'def hook(pi):\n    pi.on("tool_result", lambda event, ctx: None)\n'
SMALL, LARGE = 10, 300
INSTALL_SMALL = f"hookman install ({SMALL} hooks)"
INSTALL_LARGE = f"hookman install ({LARGE} hooks)"
UNCHANGED = "hookman install (nothing changed)"
TYPER = 'python -c "import typer"'
TARGET_LINEAR = 25.0
TARGET_UNCHANGED = 1.15
MARK = "install-linear"


def main() -> int:
    options = _options()
    compileall.compile_dir(Path(hookman.__file__).parent, quiet=1)  # as pip leaves it
    with tempfile.TemporaryDirectory(prefix="hookman-ibench-") as scratch_text:
        scratch = Path(scratch_text)
        env = _environment(scratch)
        hooks = {count: _hook_files(scratch, count) for count in (SMALL, LARGE)}
        unchanged = _unchanged_project(scratch, env)
        runs = {
            INSTALL_SMALL: lambda: _fresh_install(scratch, hooks[SMALL], env),
            INSTALL_LARGE: lambda: _fresh_install(scratch, hooks[LARGE], env),
            UNCHANGED: lambda: _measure([*hookman_command(), "install"], unchanged, env),
            TYPER: lambda: _measure([sys.executable, "-c", "import typer"], unchanged, env),
        }
        for _ in range(2):  # warm up: bytecode, page cache, the version cache
            for run in runs.values():
                run()
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
        for round_number in range(options.rounds):
            for name, run in runs.items():
                samples[name].append(run())
            print(f"\rround {round_number + 1}/{options.rounds}", end="", file=sys.stderr)
        print(file=sys.stderr)
    cpu = {name: statistics.median(s[0] for s in runs_) for name, runs_ in samples.items()}
    wall = {name: statistics.median(s[1] for s in runs_) for name, runs_ in samples.items()}
    verdicts = _verdicts(cpu, wall)
    print(_report(cpu, wall, verdicts, options.rounds))
    if not options.no_write:
        _write_section(REPO / "BENCHMARKS.md", _section(options, cpu, wall, verdicts))
        print(f"\nwritten to {REPO / 'BENCHMARKS.md'}")
    return 0 if all(ok for *_, ok in verdicts) else 1


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds (default 15)")
    parser.add_argument("--no-write", action="store_true", help="do not rewrite BENCHMARKS.md")
    return parser.parse_args()


def hookman_command() -> list[str]:
    """`hookman` as users run it: the script pip installed next to the interpreter."""
    script = Path(sys.executable).with_name("hookman")
    if script.is_file():
        return [str(script)]
    entry = "import sys; from hookman.__main__ import main; sys.exit(main())"
    return [sys.executable, "-c", entry]


def _environment(scratch: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["HOOKMAN_HOME"] = str(scratch / "home")
    claude = Path(os.environ.get("HOOKMAN_BENCH_CLAUDE", DEFAULT_CLAUDE))
    if claude.exists():
        env["PATH"] = f"{claude.parent}{os.pathsep}{env['PATH']}"
    env.pop("NO_COLOR", None)
    env["COLUMNS"] = "100"
    return env


def _hook_files(scratch: Path, count: int) -> Path:
    """`count` hooks, half guards narrowed to Bash and half observers, in one folder."""
    folder = scratch / f"hooks-{count}"
    folder.mkdir()
    for index in range(count):
        (folder / f"h{index:03d}.py").write_text(GUARD if index % 2 else OBSERVER)
    return folder


def _fresh_install(scratch: Path, hooks: Path, env: dict[str, str]) -> tuple[float, float]:
    """One `hookman install` of every hook in `hooks`, in a new git project."""
    project = Path(tempfile.mkdtemp(prefix="project-", dir=scratch))
    (project / ".claude").mkdir()
    shutil.copytree(hooks, project / "hooks")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    names = sorted(f"hooks/{path.name}" for path in (project / "hooks").iterdir())
    try:
        return _measure([*hookman_command(), "install", *names], project, env)
    finally:
        shutil.rmtree(project, ignore_errors=True)


def _unchanged_project(scratch: Path, env: dict[str, str]) -> Path:
    """A git project with one guard installed, installed again once its files are older
    than a second (what a repeated install meets)."""
    project = scratch / "unchanged"
    (project / ".claude").mkdir(parents=True)
    (project / "hooks").mkdir()
    (project / "hooks" / "guard.py").write_text(GUARD)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    _measure([*hookman_command(), "install", "hooks/guard.py"], project, env)
    time.sleep(1.2)
    _measure([*hookman_command(), "install"], project, env)
    return project


def _measure(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one whole run and every child it waited for."""
    with tempfile.TemporaryFile() as out:
        began = time.perf_counter()
        process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - began
        if os.waitstatus_to_exitcode(status) != 0:
            out.seek(0)
            raise SystemExit(f"{' '.join(argv[:4])} ... failed:\n{out.read().decode()}")
    return usage.ru_utime + usage.ru_stime, wall


def _verdicts(cpu: dict[str, float], wall: dict[str, float]) -> list[tuple[str, str, bool]]:
    linear = cpu[INSTALL_LARGE] / cpu[INSTALL_SMALL]
    linear_wall = wall[INSTALL_LARGE] / wall[INSTALL_SMALL]
    floor = cpu[UNCHANGED] / cpu[TYPER]
    return [
        (
            f"{LARGE} hooks / {SMALL} hooks <= {TARGET_LINEAR:g} (CPU)",
            f"{linear:.2f}",
            linear <= 25,
        ),
        (f"{LARGE} hooks / {SMALL} hooks (wall)", f"{linear_wall:.2f}", True),
        (
            f"unchanged install / import typer <= {TARGET_UNCHANGED:g} (CPU)",
            f"{floor:.2f}",
            floor <= TARGET_UNCHANGED,
        ),
    ]


def _report(
    cpu: dict[str, float],
    wall: dict[str, float],
    verdicts: list[tuple[str, str, bool]],
    rounds: int,
) -> str:
    lines = [f"{'variant':40s} {'CPU ms':>9s} {'wall ms':>9s}"]
    lines += [f"{name:40s} {cpu[name] * 1000:9.1f} {wall[name] * 1000:9.1f}" for name in cpu]
    lines.append("")
    lines += [
        f"{target:52s} {value:>7s}  {_status(ok) if 'wall' not in target else ''}"
        for target, value, ok in verdicts
    ]
    lines.append(f"({rounds} interleaved rounds, medians)")
    return "\n".join(lines)


def _status(ok: bool) -> str:
    return "met" if ok else "MISSED"


def _section(
    options: argparse.Namespace,
    cpu: dict[str, float],
    wall: dict[str, float],
    verdicts: list[tuple[str, str, bool]],
) -> str:
    rows = "\n".join(
        f"| {name} | {cpu[name] * 1000:.1f} | {wall[name] * 1000:.1f} |" for name in cpu
    )
    judged = "\n".join(
        f"| {target} | {value} | {_status(ok) if 'wall' not in target else ''} |"
        for target, value, ok in verdicts
    )
    uname = platform.uname()
    return f"""<!-- bench:{MARK} -->
## Installing many hooks, and a repeated install (bench/install_linear.py)

`hookman install` of {SMALL} and of {LARGE} hooks in one command (each run in a new git
project: every hook learned, in one child, and every file written), and a repeated bare
`hookman install` in a project whose one guard is installed and unchanged, against
`python -c "import typer"`. Interleaved rounds after a warm-up, output piped; CPU time is
user + system of the process and the children it waited for.

Before issue 26 (main at d33bd3d, this machine, single runs): 300 hooks took 39.3 s of
CPU against 0.46 s for 10 (85x; hookman.toml re-parsed and re-validated after every hook
added, twice per command), and the unchanged install 2.6-2.9x typer's import (typer, the
config, a sync and a `git check-ignore` on every run). Now hookman.toml gets all the new
hooks in one parse and one validation (`put_hooks`), the hooks are learned in one child as
before, and a repeated bare install answers from a stamp of its inputs' stats without
typer (install/unchanged.py); a changed input, e.g. a hook's code, takes the full install.

- date: {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}; {options.rounds} rounds
- machine: {uname.system} {uname.release} {uname.machine}, {os.cpu_count()} CPUs (shared)
- Python: {platform.python_implementation()} {platform.python_version()} (`{sys.executable}`); \
hookman run as `{Path(hookman_command()[0]).name}`

| variant | median CPU ms | median wall ms |
| --- | ---: | ---: |
{rows}

| target | measured | |
| --- | ---: | --- |
{judged}
<!-- /bench:{MARK} -->
"""


def _write_section(path: Path, section: str) -> None:
    """Replace this benchmark's section, or add it at the end of the file."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(rf"<!-- bench:{MARK} -->\n.*?<!-- /bench:{MARK} -->\n", re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: section, text)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
