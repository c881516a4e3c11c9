"""Overhead of `hookman run` against the floor for any Python hook, measured in one run.

Every command goes through a shell, `bash -c "<command>"` (Claude Code runs hooks with
`/bin/sh -c`, Codex CLI with `/bin/bash -c`), with the PreToolUse payload on stdin. The hookman
commands are the exact strings `hookman install` writes
(hookman.project.settings_entries.build_command), through the launcher it writes
(hookman.project.launcher); "no launcher" runs the runner's own words directly, to show what the
launcher costs. Rounds are interleaved so that machine noise hits every variant alike;
medians are compared.

    python bench/run_overhead.py [--rounds N] [--no-write]

Targets (BENCHMARKS.md): one trivial hook <= 1.3x the floor; 20 trivial hooks on one event
<= 1.6x the floor and >= 10x faster than 20 separate floor processes.
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hookman
from hookman.catalog.client_version import parse_version
from hookman.catalog.event_catalog import guarded_events
from hookman.project.launcher import LAUNCHER_NAME, launcher_text
from hookman.project.manifest import client_facts
from hookman.project.settings_entries import build_command

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # tests/direct_command.py: the runner's words without a launcher
from tests.direct_command import build_direct_command  # noqa: E402

PAYLOAD_SAMPLE = REPO / "hookman" / "catalog" / "payloads" / "PreToolUse.json"
TRIVIAL_HOOK = 'def hook(pi):\n    pi.on("tool_call", lambda event, ctx: None)\n'
# A hook from a hook repository: it imports a sibling, and the runner checks the digest of
# both modules' bytes against the manifest's before compiling them.
REPO_HOOK = "from .words import NOTHING\n\n" + TRIVIAL_HOOK
MANY = 20
TARGET_ONE = 1.3
TARGET_MANY = 1.6
TARGET_SPEEDUP = 10.0


def main() -> int:
    options = _options()
    # As pip leaves an installed package: compiled. An editable checkout run with
    # PYTHONDONTWRITEBYTECODE would otherwise recompile hookman on every start.
    compileall.compile_dir(Path(hookman.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory(prefix="hookman-bench-") as scratch:
        workspace = Path(scratch)
        payload = PAYLOAD_SAMPLE.read_text().replace("<WORK>", scratch).encode()
        one = _manifest(workspace, 1)
        commands = {
            "floor": _floor_command(),
            "hookman, 1 hook": _installed_command(one),
            f"hookman, {MANY} hooks": _installed_command(_manifest(workspace, MANY)),
            "hookman, 1 hook, no launcher": build_direct_command("PreToolUse", one),
            "hookman, 1 repo hook": _installed_command(_manifest(workspace, 1, repo=True)),
            f"hookman, {MANY} repo hooks": _installed_command(
                _manifest(workspace, MANY, repo=True)
            ),
        }
        for command in commands.values():  # warm up: bytecode caches, page cache
            _time_shell(command, payload)
        samples = _measure(commands, payload, options.rounds)
    results = {name: statistics.median(times) for name, times in samples.items()}
    best = {name: min(times) for name, times in samples.items()}
    report = _report(results, best, options.rounds)
    print(report)
    if not options.no_write:
        section = _section(options.label, results, best, options.rounds)
        _write_section(REPO / "BENCHMARKS.md", options.label, section)
        print(f"\nwritten to {REPO / 'BENCHMARKS.md'}")
    return 0 if _targets_met(results) else 1


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=25, help="interleaved rounds (default 25)")
    parser.add_argument("--no-write", action="store_true", help="do not rewrite BENCHMARKS.md")
    parser.add_argument(
        "--label",
        default="default interpreter",
        help="the BENCHMARKS.md section these results replace (one per interpreter)",
    )
    return parser.parse_args()


def _floor_command() -> str:
    return f'{shlex.quote(sys.executable)} -c "import json,sys; json.load(sys.stdin)"'


def _manifest(workspace: Path, hook_count: int, *, repo: bool = False) -> Path:
    """A project with `hook_count` trivial tool_call hooks and the manifest install writes
    (with `repo`: hooks of one hook repository's store tree, each importing a sibling)."""
    kind = "repo" if repo else "path"
    project = workspace / f"project-{kind}-{hook_count}"
    (project / ".claude").mkdir(parents=True)
    tree = workspace / f"store-{hook_count}" / "tree"
    if repo:
        (tree / "hooks").mkdir(parents=True)
        (tree / "hooks" / "words.py").write_text("NOTHING = ()\n")
    hooks = []
    for number in range(hook_count):
        path = (tree if repo else project) / "hooks" / f"trivial_{number}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(REPO_HOOK if repo else TRIVIAL_HOOK)
        hooks.append(
            {
                "name": f"trivial-{number}",
                "path": str(path),
                "events": ["tool_call"],
                "claude_events": ["PreToolUse"],
                "tools": {},
                "timeout": None,
            }
        )
    if repo:
        digests = _digests(tree)
        for hook in hooks:
            hook.update(repo="bench", rev="v1", package_root=str(tree), digests=digests)
    state = workspace / f"state-{kind}-{hook_count}"
    state.mkdir()
    installed_from = _project_files(project, hooks, repo=repo)
    manifest = {
        "format": 1,
        "hookman_version": "bench",
        "project_dir": str(project),
        "config_path": str(project / ".claude" / "hookman.toml"),
        "state_dir": str(state),
        "log_path": str(state / "firing.jsonl"),
        "claude_version": "2.1.328",
        "hooks": hooks,
        "entries": {"PreToolUse": {"matcher": None, "timeout": 30, "deadline": 27.0}},
        "held_back": {},
        "client": client_facts(parse_version("2.1.328")),
        "installed_from": installed_from,
    }
    path = state / "manifest.json"
    path.write_text(json.dumps(manifest))
    return path


def _project_files(
    project: Path, hooks: list[dict[str, object]], *, repo: bool
) -> dict[str, str | None]:
    """hookman.toml (and, for repository hooks, the pins) as install leaves them, and what
    install records of them: the runner compares both with the files on every run."""
    claude = project / ".claude"
    lines = [
        f'[[hooks]]\nname = "{hook["name"]}"\npath = "hooks/{hook["name"]}.py"\n' for hook in hooks
    ]
    (claude / "hookman.toml").write_text("\n".join(lines))
    recorded: dict[str, str | None] = {"hookman.toml": _sha256(claude / "hookman.toml")}
    recorded["hookman-pins.json"] = None
    if repo:
        pin = {"repo": "bench", "rev": "v1", "commit": "0" * 40, "ref": "tag"}
        (claude / "hookman-pins.json").write_text(json.dumps({"format": 1, "pins": [pin]}))
        recorded["hookman-pins.json"] = _sha256(claude / "hookman-pins.json")
    return recorded


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _digests(tree: Path) -> dict[str, str]:
    return {
        path.relative_to(tree).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in tree.rglob("*.py")
    }


def _installed_command(manifest: Path) -> str:
    """The PreToolUse settings command install writes, with its launcher next to `manifest`."""
    launcher = manifest.parent / LAUNCHER_NAME
    python = sys.executable
    timeouts = dict.fromkeys(guarded_events(), 30)  # install's: the launcher's timer runs
    launcher.write_text(launcher_text(python, manifest, guarded_events(), timeouts=timeouts))
    return build_command("PreToolUse", launcher, guarded=True)


def _time_shell(command: str, payload: bytes) -> float:
    started = time.perf_counter()
    done = subprocess.run(["bash", "-c", command], input=payload, capture_output=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or done.stderr or b"permissionDecision" in done.stdout:
        raise SystemExit(f"benchmark command failed: {command}\n{done.stdout.decode()}")
    return elapsed


def _measure(commands: dict[str, str], payload: bytes, rounds: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {name: [] for name in commands}
    samples[f"{MANY} floor processes"] = []
    for round_number in range(rounds):
        for name, command in commands.items():
            samples[name].append(_time_shell(command, payload))
        samples[f"{MANY} floor processes"].append(
            sum(_time_shell(commands["floor"], payload) for _ in range(MANY))
        )
        print(f"\rround {round_number + 1}/{rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return samples


def _ratios(results: dict[str, float]) -> dict[str, float]:
    floor = results["floor"]
    return {
        "one": results["hookman, 1 hook"] / floor,
        "many": results[f"hookman, {MANY} hooks"] / floor,
        "speedup": results[f"{MANY} floor processes"] / results[f"hookman, {MANY} hooks"],
        "one_repo": results["hookman, 1 repo hook"] / floor,
        "many_repo": results[f"hookman, {MANY} repo hooks"] / floor,
    }


def _targets_met(results: dict[str, float]) -> bool:
    ratios = _ratios(results)
    return (
        ratios["one"] <= TARGET_ONE
        and ratios["many"] <= TARGET_MANY
        and ratios["speedup"] >= TARGET_SPEEDUP
        and ratios["one_repo"] <= TARGET_ONE
        and ratios["many_repo"] <= TARGET_MANY
    )


def _verdicts(results: dict[str, float]) -> list[tuple[str, str, str]]:
    ratios = _ratios(results)

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    return [
        (
            f"1 hook / floor <= {TARGET_ONE}",
            f"{ratios['one']:.2f}",
            verdict(ratios["one"] <= TARGET_ONE),
        ),
        (
            f"{MANY} hooks / floor <= {TARGET_MANY}",
            f"{ratios['many']:.2f}",
            verdict(ratios["many"] <= TARGET_MANY),
        ),
        (
            f"{MANY} processes / {MANY} hooks >= {TARGET_SPEEDUP:g}",
            f"{ratios['speedup']:.1f}",
            verdict(ratios["speedup"] >= TARGET_SPEEDUP),
        ),
        (
            f"1 repo hook / floor <= {TARGET_ONE}",
            f"{ratios['one_repo']:.2f}",
            verdict(ratios["one_repo"] <= TARGET_ONE),
        ),
        (
            f"{MANY} repo hooks / floor <= {TARGET_MANY}",
            f"{ratios['many_repo']:.2f}",
            verdict(ratios["many_repo"] <= TARGET_MANY),
        ),
    ]


def _report(results: dict[str, float], best: dict[str, float], rounds: int) -> str:
    floor = results["floor"]
    lines = [f"{'variant':28s} {'median ms':>10s} {'best ms':>9s} {'x floor':>8s}"]
    for name, median in results.items():
        milliseconds = f"{median * 1000:10.1f} {best[name] * 1000:9.1f}"
        lines.append(f"{name:28s} {milliseconds} {median / floor:8.2f}")
    lines.append("")
    for label, value, status in _verdicts(results):
        lines.append(f"{label:40s} {value:>6s}  {status}")
    lines.append(f"({rounds} interleaved rounds, medians)")
    return "\n".join(lines)


def _machine() -> str:
    uname = platform.uname()
    return f"{uname.system} {uname.release} {uname.machine}, {os.cpu_count()} CPUs"


PREAMBLE = """# Benchmarks

## `hookman run` overhead (bench/run_overhead.py)

Every command runs through `bash -c` with the PreToolUse sample payload on stdin, as Claude
Code runs hooks; the hookman commands are the exact strings `hookman install` writes. Rounds
are interleaved after a warm-up so machine noise hits every variant alike; medians are
compared. The floor is `python -c "import json,sys; json.load(sys.stdin)"` on the same
interpreter. "20 floor processes" runs the floor 20 times one after another (what 20
separate Python hooks cost; Claude Code would start them in parallel).

The machine is shared (2 CPUs, other work running), so single numbers are noisy; compare the
ratios within one section. One section per interpreter, rewritten by its own run:

- `python bench/run_overhead.py --label NAME` (`--rounds N`; `--no-write` leaves this file alone).
- Where start-up time goes: `python -X importtime -c 'from hookman.__main__ import main;
  raise SystemExit(main())' run PreToolUse --manifest M < payload` (imports made while hooks
  run are captured into the firing log's `output` with the hooks' own output).
"""


def _section(label: str, results: dict[str, float], best: dict[str, float], rounds: int) -> str:
    floor = results["floor"]
    rows = "\n".join(
        f"| {name} | {median * 1000:.1f} | {best[name] * 1000:.1f} | {median / floor:.2f} |"
        for name, median in results.items()
    )
    verdicts = "\n".join(
        f"| {target} | {value} | {status} |" for target, value, status in _verdicts(results)
    )
    return f"""<!-- bench:{label} -->
### {label}

- date: {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}; {rounds} rounds
- machine: {_machine()}
- Python: {platform.python_implementation()} {platform.python_version()} (`{sys.executable}`)

| variant | median ms | best ms | × floor |
| --- | ---: | ---: | ---: |
{rows}

| target | measured | |
| --- | ---: | --- |
{verdicts}
<!-- /bench:{label} -->
"""


def _write_section(path: Path, label: str, section: str) -> None:
    """Replace this label's section of BENCHMARKS.md (or add it), keeping the others."""
    text = path.read_text(encoding="utf-8") if path.exists() else PREAMBLE
    pattern = re.compile(r"<!-- bench:(.*?) -->\n.*?<!-- /bench:\1 -->\n", re.S)
    sections = {match.group(1): match.group(0) for match in pattern.finditer(text)}
    sections[label] = section
    head = text.split("<!-- bench:", 1)[0].rstrip("\n")
    path.write_text(head + "\n\n" + "\n".join(sections.values()), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
