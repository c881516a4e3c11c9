"""Start-up cost of hookman's management commands, as ratios to `python -c pass`, in one run.

Each variant is a whole process; its cost is the CPU time (user + system) of the process and
the children it waited for (os.wait4), so `claude --version` and git count, and time spent
waiting on a loaded machine does not. Rounds are interleaved after a warm-up so noise hits
every variant alike; medians are compared.

    python bench/management_overhead.py [--rounds N] [--label NAME] [--no-write]

Runs `hookman` as users do: the `hookman` script next to the interpreter when it is installed
there (pip install), else the same entry point through `python -c`. A real `claude` is put
first on PATH (HOOKMAN_BENCH_CLAUDE, default the pinned E2E client) since version detection
runs it. Targets: every management command <= 8x `python -c pass`; `hookman statusline`
<= 1.5x a Python status line that only does `json.load(sys.stdin)`.
"""

from __future__ import annotations

import argparse
import compileall
import json
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
TARGET_MANAGEMENT = 8.0
TARGET_STATUSLINE = 1.5
FLOOR = "python -c pass"
JSON_FLOOR = "python status line (json.load)"
# Removing a hook that is not listed changes nothing: refused (exit 1) with a did-you-mean.
REMOVE_UNLISTED = "hookman remove gaurd (not listed)"
# Variants doing real work (tomlkit edits hookman.toml in memory): reported, not judged.
REAL_WORK = (
    "hookman install guard (unchanged)",
    "hookman remove --dry-run guard",
    "hookman install repo-guard (unchanged)",
)
# The same guard from a hook repository (warm store, pinned): install costs what a path hook's
# costs, within the noise of one run (TARGET_REPO_VS_PATH, a ratio of the two medians).
PATH_INSTALL = "hookman install (nothing to change)"
REPO_INSTALL = "hookman install (nothing to change, repo hook)"
PATH_RELEARN = "hookman install guard (unchanged)"
REPO_RELEARN = "hookman install repo-guard (unchanged)"
TARGET_REPO_VS_PATH = 1.10
REPO_MANIFEST = '[[hooks]]\nname = "repo-guard"\npath = "guard.py"\ndescription = "Guard."\n'


def main() -> int:
    options = _options()
    compileall.compile_dir(Path(hookman.__file__).parent, quiet=1)  # as pip leaves it
    claude = Path(os.environ.get("HOOKMAN_BENCH_CLAUDE", DEFAULT_CLAUDE))
    if not claude.exists():
        raise SystemExit(f"no claude client at {claude} (set HOOKMAN_BENCH_CLAUDE)")
    with tempfile.TemporaryDirectory(prefix="hookman-mbench-") as scratch:
        env = _environment(Path(scratch), claude)
        project = _project(Path(scratch), env)
        variants = _variants(project)
        for _ in range(2):  # warm up: bytecode, page cache, the version cache
            for variant in variants.values():
                _cpu_time(variant, project, env)
        samples = _measure(variants, project, env, options.rounds)
    medians = {name: statistics.median(times) for name, times in samples.items()}
    print(_report(medians, options.rounds))
    if not options.no_write:
        _write_section(REPO / "BENCHMARKS.md", options.label, _section(options, medians))
        print(f"\nwritten to {REPO / 'BENCHMARKS.md'}")
    return 0 if all(ok for _, _, _, ok in _verdicts(medians)) else 1


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="interleaved rounds (default 30)")
    parser.add_argument("--no-write", action="store_true", help="do not rewrite BENCHMARKS.md")
    parser.add_argument("--label", default="default interpreter", help="BENCHMARKS.md section")
    return parser.parse_args()


def hookman_command() -> list[str]:
    script = Path(sys.executable).with_name("hookman")
    if script.is_file():
        return [str(script)]
    entry = "import sys; from hookman.__main__ import main; sys.exit(main())"
    return [sys.executable, "-c", entry]


def _environment(scratch: Path, claude: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["HOOKMAN_HOME"] = str(scratch / "home")
    env["PATH"] = f"{claude.parent}{os.pathsep}{env['PATH']}"
    env.pop("NO_COLOR", None)
    env["COLUMNS"] = "100"
    return env


def _project(scratch: Path, env: dict[str, str]) -> Path:
    """A git project with one installed guard hook, one registry entry, a few log lines."""
    project = scratch / "project"
    (project / ".claude").mkdir(parents=True)
    (project / "hooks").mkdir()
    (project / "hooks" / "guard.py").write_text(GUARD)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    for words in (["install", "hooks/guard.py"], ["registry", "add", "hooks/guard.py"]):
        _run([*hookman_command(), *words], project, env)
    _repo_project(scratch, env)
    payload = json.dumps({"session_id": "bench", "workspace": {"project_dir": str(project)}})
    (scratch / "status.json").write_text(payload)
    return project


def _repo_project(scratch: Path, env: dict[str, str]) -> Path:
    """A project whose one hook is the same guard from a hook repository, installed (so the
    store is warm and the rev pinned)."""
    repo = scratch / "agent-hooks"
    repo.mkdir()
    (repo / "guard.py").write_text(GUARD)
    (repo / "hookman-hooks.toml").write_text(REPO_MANIFEST)
    git = ["git", "-c", "user.name=b", "-c", "user.email=b@example.invalid"]
    for words in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "v1"], ["tag", "v1.0.0"]):
        subprocess.run([*git, *words], cwd=repo, check=True, capture_output=True)
    project = scratch / "repo-project"
    (project / ".claude").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    install = ["install", "repo-guard", "--repo", str(repo), "--rev", "v1.0.0"]
    _run([*hookman_command(), *install], project, env)
    return project


def _variants(project: Path) -> dict[str, tuple[list[str], str | None]]:
    hookman_cmd = hookman_command()
    repo_project = project.parent / "repo-project"
    status_input = str(project.parent / "status.json")
    return {
        FLOOR: ([sys.executable, "-c", "pass"], None),
        JSON_FLOOR: ([sys.executable, "-c", "import json,sys; json.load(sys.stdin)"], status_input),
        "hookman --version": ([*hookman_cmd, "--version"], None),
        "hookman --help": ([*hookman_cmd, "--help"], None),
        "hookman list": ([*hookman_cmd, "list"], None),
        "hookman log": ([*hookman_cmd, "log"], None),
        "hookman registry list": ([*hookman_cmd, "registry", "list"], None),
        "hookman install (nothing to change)": ([*hookman_cmd, "install"], None),
        "hookman install guard (unchanged)": ([*hookman_cmd, "install", "guard"], None),
        REPO_INSTALL: ([*hookman_cmd, "install", "--project", str(repo_project)], None),
        REPO_RELEARN: (
            [*hookman_cmd, "install", "repo-guard", "--project", str(repo_project)],
            None,
        ),
        "hookman remove --dry-run guard": ([*hookman_cmd, "remove", "--dry-run", "guard"], None),
        REMOVE_UNLISTED: ([*hookman_cmd, "remove", "gaurd"], None),
        "hookman __complete hooks (TAB)": ([*hookman_cmd, "__complete", "hooks"], None),
        "hookman statusline": ([*hookman_cmd, "statusline"], status_input),
    }


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout}{done.stderr}")


def _measure(
    variants: dict[str, tuple[list[str], str | None]], cwd: Path, env: dict[str, str], rounds: int
) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {name: [] for name in variants}
    for round_number in range(rounds):
        for name, variant in variants.items():
            samples[name].append(_cpu_time(variant, cwd, env))
        print(f"\rround {round_number + 1}/{rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return samples


def _cpu_time(variant: tuple[list[str], str | None], cwd: Path, env: dict[str, str]) -> float:
    """CPU seconds of one whole run: the process and every child it waited for."""
    argv, stdin_path = variant
    with open(stdin_path or os.devnull, "rb") as stdin, tempfile.TemporaryFile() as out:
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=stdin, stdout=out, stderr=out)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        expected = 1 if argv[-1] == "gaurd" else 0
        if process.returncode != expected:
            out.seek(0)
            raise SystemExit(f"{' '.join(argv)} failed:\n{out.read().decode()}")
    return usage.ru_utime + usage.ru_stime


def _ratio(name: str, medians: dict[str, float]) -> float:
    floor = JSON_FLOOR if name == "hookman statusline" else FLOOR
    return medians[name] / medians[floor]


def _verdicts(medians: dict[str, float]) -> list[tuple[str, str, str, bool]]:
    rows = []
    for name in medians:
        if name in (FLOOR, JSON_FLOOR):
            continue
        if name == "hookman statusline":
            target = f"statusline / json floor <= {TARGET_STATUSLINE}"
            limit = TARGET_STATUSLINE
        elif name in REAL_WORK:
            continue  # real work (an edit in memory, a diff): reported, not judged
        else:
            target = f"{name.removeprefix('hookman ')} / floor <= {TARGET_MANAGEMENT:g}"
            limit = TARGET_MANAGEMENT
        ratio = _ratio(name, medians)
        rows.append((target, f"{ratio:.2f}", "met" if ratio <= limit else "MISSED", ratio <= limit))
    for repo, path in ((REPO_INSTALL, PATH_INSTALL), (REPO_RELEARN, PATH_RELEARN)):
        ratio = medians[repo] / medians[path]
        target = f"{repo.removeprefix('hookman ')} / path hook's <= {TARGET_REPO_VS_PATH:g}"
        ok = ratio <= TARGET_REPO_VS_PATH
        rows.append((target, f"{ratio:.2f}", "met" if ok else "MISSED", ok))
    return rows


def _report(medians: dict[str, float], rounds: int) -> str:
    lines = [f"{'variant':40s} {'CPU ms':>8s} {'ratio':>7s}"]
    for name, median in medians.items():
        lines.append(f"{name:40s} {median * 1000:8.1f} {_ratio(name, medians):7.2f}")
    lines.append("")
    lines.extend(
        f"{target:48s} {value:>6s}  {status}" for target, value, status, _ in _verdicts(medians)
    )
    lines.append(f"({rounds} interleaved rounds, medians of CPU time)")
    return "\n".join(lines)


def _section(options: argparse.Namespace, medians: dict[str, float]) -> str:
    rows = "\n".join(
        f"| {name} | {median * 1000:.1f} | {_ratio(name, medians):.2f} |"
        for name, median in medians.items()
    )
    verdicts = "\n".join(f"| {t} | {v} | {s} |" for t, v, s, _ in _verdicts(medians))
    uname = platform.uname()
    typer_version = _package_version("typer")
    label = options.label
    return f"""<!-- management:{label} -->
### {label}

- date: {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}; {options.rounds} rounds
- machine: {uname.system} {uname.release} {uname.machine}, {os.cpu_count()} CPUs
- Python: {platform.python_implementation()} {platform.python_version()} (`{sys.executable}`), \
typer {typer_version}; hookman run as `{" ".join(Path(w).name for w in hookman_command()[:1])}`
- claude on PATH: `{shutil.which("claude") or DEFAULT_CLAUDE}`

| variant | CPU ms (median) | ratio |
| --- | ---: | ---: |
{rows}

Ratios are to `python -c pass`, the status line's to the Python status line.

| target | measured | |
| --- | ---: | --- |
{verdicts}
<!-- /management:{label} -->
"""


def _package_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


def _write_section(path: Path, label: str, section: str) -> None:
    """Replace this label's section (or add it) inside the "Management commands" part."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(
        rf"<!-- management:{re.escape(label)} -->\n.*?<!-- /management:{re.escape(label)} -->\n",
        re.S,
    )
    if pattern.search(text):
        text = pattern.sub(lambda _: section, text)
    else:
        marker = "<!-- /management-sections -->"
        text = text.replace(marker, section + "\n" + marker)
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
