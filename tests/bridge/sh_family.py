"""Run the exact command hookman wrote the way each client runs it, under each shell that may
be `/bin/sh`, with a hostile condition, and say what the client does with the result.

Claude Code runs a hook's command with `/bin/sh -c` (measured on 2.1.197, 2.1.328, 2.1.332):
the user's `/bin/sh`, which is dash, bash in POSIX mode, busybox ash, mksh, ksh93, zsh, yash or
posh. Here each of them plays `sh` without touching the machine's /bin/sh: it runs as the
outer shell with argv[0] "sh", and a directory holding a symlink `sh` to it comes first on
PATH (the command runs `sh LAUNCHER`). Codex runs `/bin/bash -c` (reads BASH_ENV), and its
`sh LAUNCHER` is again whatever `sh` is.

A condition is what the client's side brings before hookman's first word runs: words the
outer shell runs first (`ulimit -n 4;`, `exec >/dev/full;`), variables (SHELLOPTS,
BASH_XTRACEFD, PS4) or a start-up file (BASH_ENV). The verdict is the client's reading
(attack_support.claude_verdict, test_attack_codex.codex_verdict).

`python -m tests.bridge.sh_family` prints the whole table (every shell, target, scenario and
condition); test_sh_family.py runs the rows that matter by default."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .attack_support import DENY, Verdict, claude_verdict

# The shells that may be /bin/sh (Debian packages: dash, bash, busybox, mksh, ksh, zsh, yash,
# posh), each run as `sh`.
FAMILY = ("dash", "bash", "busybox", "mksh", "ksh93", "zsh", "yash", "posh")
SCENARIOS = ("guard", "runner-gone", "emptied", "cut")
CODEX_SHELL = shutil.which("bash") or "/bin/bash"
HOOK_TIMEOUT = 20.0  # seconds: far above any answer here; a hang is a failure, not a wait
GUARD = """
def guard(event, ctx):
    if "rm -rf" in event["input"].get("command", ""):
        return {"block": True, "reason": "GUARD: no rm -rf"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""
PAYLOAD = {
    "session_id": "s1",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf /tmp/x"},
    "permission_mode": "default",
    "transcript_path": "/nonexistent/t.jsonl",
}


def shell_path(name: str) -> str | None:
    return shutil.which(name)


@dataclass(frozen=True)
class Condition:
    """What the client's side brings: `prelude` words the outer shell runs before the
    command, `env` variables, `start_up` the body of a BASH_ENV file (Codex's bash reads it)."""

    name: str
    prelude: str = ""
    env: dict[str, str] = field(default_factory=dict)
    start_up: str | None = None


def descriptor_limits(low: int = 3, high: int = 12) -> list[Condition]:
    return [Condition(f"ulimit-n-{n}", prelude=f"ulimit -n {n}; ") for n in range(low, high + 1)]


# Class 1: descriptors. The outer shell's fds 1 or 2 broken before the command runs.
BROKEN_STREAMS = [
    Condition("fd1-dev-full", prelude="exec >/dev/full; "),
    Condition("fd1-closed", prelude="exec >&-; "),
    Condition("fd2-dev-full", prelude="exec 2>/dev/full; "),
    Condition("fd2-closed", prelude="exec 2>&-; "),
]
# Class 3: tracing. bash as `sh` reads SHELLOPTS and BASH_XTRACEFD; the outer shell's own
# trace lines go out before hookman's first word runs.
TRACING = [
    Condition("xtrace-fd1", env={"SHELLOPTS": "xtrace", "BASH_XTRACEFD": "1"}),
    Condition("xtrace-fd2", env={"SHELLOPTS": "xtrace", "BASH_XTRACEFD": "2"}),
    Condition(
        "xtrace-fd1-ps4-json", env={"SHELLOPTS": "xtrace", "BASH_XTRACEFD": "1", "PS4": "{}"}
    ),
    Condition("xtrace-ps4-subst", env={"SHELLOPTS": "xtrace", "PS4": "$(echo junk)+ "}),
    Condition("set-x-outer", prelude="set -x; "),
]
# Class 3 and 4 under Codex: a start-up file (BASH_ENV) its bash reads before the command.
START_UP_FILES = [
    Condition("bash-env-set-x", start_up="set -x"),
    Condition("bash-env-xtracefd-1", start_up="BASH_XTRACEFD=1; set -x"),
    Condition("bash-env-2-null", start_up="exec 2>/dev/null"),
    Condition("bash-env-2-to-1", start_up="exec 2>&1"),
    Condition("bash-env-1-to-2", start_up="exec 1>&2"),
    Condition("bash-env-1-null", start_up="exec >/dev/null"),
    Condition("bash-env-2-closed", start_up="exec 2>&-"),
    Condition("bash-env-1-closed", start_up="exec 1>&-"),
    Condition("bash-env-junk", start_up="echo junk; echo more junk >&2"),
]
# Round 4 (test_attack_hostile_round4.py; xfail until fixed). Class 3: the outer shell
# traces and the launcher cannot tell (allexport exports POSIXLY_CORRECT, and a bash that
# finds it in its environment ignores SHELLOPTS).
HIDDEN_TRACING = [
    Condition("xtrace-allexport-fd1", env={"SHELLOPTS": "xtrace:allexport", "BASH_XTRACEFD": "1"}),
]
CODEX_HIDDEN_TRACING = [
    Condition(
        "xtrace-allexport-posix-fd1",
        env={"SHELLOPTS": "xtrace:allexport:posix", "BASH_XTRACEFD": "1"},
    ),
]
# Class 4: a start-up file that spoils stdout and then hides that it ran (BASH_ENV unset).
HIDING_START_UP = [
    Condition("bash-env-echo-then-unset", start_up="echo junk; unset BASH_ENV"),
    Condition("bash-env-trace-fd1-then-unset", start_up="BASH_XTRACEFD=1; set -x; unset BASH_ENV"),
    Condition("bash-env-echo-then-empty", start_up="echo junk; BASH_ENV="),
    Condition("bash-env-2-to-1-echo-then-unset", start_up="exec 2>&1; echo hi; unset BASH_ENV"),
]
# A function named like a builtin the launcher answers with, reaching bash as `sh`.
PRINTF_FUNCTION = Condition("exported-printf", env={"BASH_FUNC_printf%%": "() { :; }"})
START_UP_PRINTF = Condition(
    "bash-env-export-f-printf", start_up="printf() { :; }; export -f printf"
)
PLAIN = Condition("plain")
CLAUDE_CONDITIONS = [
    PLAIN,
    *descriptor_limits(),
    *BROKEN_STREAMS,
    *TRACING,
    *HIDDEN_TRACING,
    PRINTF_FUNCTION,
]
CODEX_CONDITIONS = [
    PLAIN,
    *descriptor_limits(3, 8),
    *TRACING[:2],
    *START_UP_FILES,
    *CODEX_HIDDEN_TRACING,
    *HIDING_START_UP,
    PRINTF_FUNCTION,
    START_UP_PRINTF,
]


@dataclass(frozen=True)
class Target:
    """One command hookman wrote, and how its client runs it."""

    name: str  # settings, codex, plugin
    client: str  # claude, codex
    command: str
    cwd: Path
    env: dict[str, str]


def hookman(home: Path, cwd: Path, *args: str) -> None:
    env = {**os.environ, "HOOKMAN_HOME": str(home), "PATH": os.environ.get("PATH", "")}
    done = subprocess.run(
        [sys.executable, "-m", "hookman", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done


def _pre_tool_use(hooks_file: Path) -> str:
    groups = json.loads(hooks_file.read_text(encoding="utf-8"))["hooks"]["PreToolUse"]
    return str(groups[0]["hooks"][0]["command"])


def make_targets(root: Path) -> dict[str, Target]:
    """A project with a guard that denies `rm -rf`, installed for Claude Code and Codex, and
    a plugin built from it: the three PreToolUse commands hookman wrote."""
    project, home = root / "project", root / "home"
    (project / ".claude").mkdir(parents=True)
    (project / "hooks").mkdir()
    (project / "hooks" / "guard.py").write_text(GUARD, encoding="utf-8")
    hookman(home, project, "install", "hooks/guard.py", "--claude-version", "2.1.332")
    # --codex-version: no `codex` need be on PATH (without one, `--agent codex` is refused);
    # 0.150.0 is what install assumed before when `codex --version` gave no answer
    hookman(
        home, project, "install", "hooks/guard.py", "--agent", "codex", "--codex-version", "0.150.0"
    )
    plugin = root / "plugin"
    hookman(home, project, "plugin", "build", str(plugin), "--project", ".")
    base = {"HOOKMAN_HOME": str(home)}
    plugin_env = {"CLAUDE_PLUGIN_ROOT": str(plugin), "CLAUDE_PLUGIN_DATA": str(root / "data")}
    return {
        "settings": Target(
            "settings",
            "claude",
            _pre_tool_use(project / ".claude" / "settings.local.json"),
            project,
            base,
        ),
        "codex": Target(
            "codex", "codex", _pre_tool_use(project / ".codex" / "hooks.json"), project, base
        ),
        "plugin": Target(
            "plugin",
            "claude",
            _pre_tool_use(plugin / "hooks" / "hooks.json"),
            project,
            {**base, **plugin_env},
        ),
    }


def launcher_of(target: Target) -> Path:
    """The launcher file the target's command runs."""
    if target.name == "plugin":
        return Path(target.env["CLAUDE_PLUGIN_ROOT"]) / "hookman-runner" / "run.sh"
    words = shlex.split(target.command)
    return Path(next(word for word in words if word.endswith("/hookman-run.sh")))


def break_target(target: Target, scenario: str) -> None:
    """`runner-gone`: the launcher's Python cannot run hookman; `emptied`: the launcher is
    an empty file; `cut`: the launcher ends inside its function (a syntax error: ksh93 exits
    3 on it, the others 1 or 2). (`guard`: as installed.)"""
    launcher = launcher_of(target)
    if scenario == "emptied":
        launcher.write_text("", encoding="utf-8")
    elif scenario == "cut":
        text = launcher.read_text(encoding="utf-8")  # targets may share one launcher
        launcher.write_text(text.split("umask 077")[0], encoding="utf-8")
    elif scenario == "runner-gone" and target.name == "plugin":
        (launcher.parent / "start.py").unlink()
    elif scenario == "runner-gone":
        text = launcher.read_text(encoding="utf-8")
        lines = [
            "python=/nonexistent/python3" if line.startswith("python=") else line
            for line in text.split("\n")
        ]
        launcher.write_text("\n".join(lines), encoding="utf-8")


def run(target: Target, shell: str, condition: Condition, scratch: Path) -> Verdict:
    """Run the target's command as its client does, `shell` as `sh`, under `condition`."""
    path = shell_path(shell)
    assert path is not None, f"{shell} is not installed"
    bin_dir = scratch / f"sh-is-{shell}"
    if not bin_dir.exists():
        bin_dir.mkdir(parents=True)
        (bin_dir / "sh").symlink_to(path)
    # The plugin runs `python3` from PATH: the interpreter under test comes first, not a
    # version manager's shim (a pyenv shim is a bash script that loops forever under
    # SHELLOPTS=xtrace BASH_XTRACEFD=1; the launcher's timer then denies at 29.3 s, after
    # HOOK_TIMEOUT here: measured, docs/claude-code-facts.md).
    search = os.pathsep.join((str(bin_dir), str(Path(sys.executable).parent), os.environ["PATH"]))
    env = {**os.environ, **target.env, "PATH": search}
    for name in ("BASH_ENV", "ENV", "SHELLOPTS", "BASH_XTRACEFD", "PS4", "CI_SHELL"):
        env.pop(name, None)
    env.update(condition.env)
    if condition.start_up is not None:
        start_up = scratch / f"start-up-{condition.name}.sh"
        start_up.write_text(condition.start_up + "\n", encoding="utf-8")
        env["BASH_ENV"] = str(start_up)
    if target.client == "codex":
        argv, executable = [CODEX_SHELL, "-c"], CODEX_SHELL
    else:
        argv, executable = ["sh", "-c"], path
    returncode, out, err = _spawn(
        [*argv, condition.prelude + target.command], executable, env, target.cwd
    )
    if returncode is None:
        return Verdict("tool runs", "killed at the entry's timeout", None, err)
    if target.client == "codex":
        from .test_attack_codex import codex_verdict

        return codex_verdict(returncode, out, err)
    return claude_verdict(returncode, out, err, "PreToolUse")


def _spawn(
    argv: list[str], executable: str, env: dict[str, str], cwd: Path
) -> tuple[int | None, bytes, bytes]:
    if argv[0] == CODEX_SHELL:
        return spawn_as_codex(argv, env, cwd)
    process = subprocess.Popen(
        argv,
        executable=executable,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,  # as both clients spawn hooks
    )
    try:
        out, err = process.communicate(json.dumps(PAYLOAD).encode(), timeout=HOOK_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _, err = process.communicate()
        return None, b"", err
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, out, err


def codex_pipes(between: bool = False) -> tuple[tuple[int, int], ...]:
    """A hook's stdin, stdout and stderr pipes as Codex makes them: one after the other, so
    Linux numbers them in turn (hookman/bridge/answer_channel.py reads that order). On a busy
    machine another process's pipe or socket, or a move to another CPU (Linux hands out
    inode numbers in per-CPU batches), can fall between two of them: that is the class-4
    limit test_attack_hostile_round4 keeps (`between=True` makes one pipe between stdin's and
    stdout's on purpose). Otherwise the pipes are made again until they follow each other,
    so a run on a loaded CI machine tests the order Codex's pipes have, not the load."""
    for _ in range(200):
        stdin = os.pipe()
        made = [stdin, *([os.pipe()] if between else []), os.pipe(), os.pipe()]
        inodes = [os.fstat(pair[0]).st_ino for pair in made]
        if between or inodes[1:] == [inodes[0] + 1, inodes[0] + 2]:
            break
        for pair in made:
            for fd in pair:
                os.close(fd)
    else:
        raise AssertionError("no three pipes in a row after 200 tries")
    if between:
        for fd in made.pop(1):
            os.close(fd)
    return tuple(made)


def spawn_as_codex(
    argv: list[str], env: dict[str, str], cwd: Path, between: bool = False
) -> tuple[int | None, bytes, bytes]:
    """Run `argv` with the three pipes Codex gives a hook (codex_pipes), the payload on stdin;
    the exit code (None: killed at the entry's timeout), stdout and stderr."""
    (stdin_r, stdin_w), (out_r, out_w), (err_r, err_w) = codex_pipes(between)
    try:
        process = subprocess.Popen(
            argv,
            stdin=stdin_r,
            stdout=out_w,
            stderr=err_w,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
    finally:
        for fd in (stdin_r, out_w, err_w):
            os.close(fd)
    with (
        os.fdopen(stdin_w, "wb") as stdin,
        os.fdopen(out_r, "rb") as out,
        os.fdopen(err_r, "rb") as err,
    ):
        with contextlib.suppress(BrokenPipeError):
            stdin.write(json.dumps(PAYLOAD).encode())
            stdin.close()
        try:
            returncode: int | None = process.wait(timeout=HOOK_TIMEOUT)
        except subprocess.TimeoutExpired:
            returncode = None
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return returncode, (out.read() if returncode is not None else b""), err.read()


def conditions_for(target: Target) -> list[Condition]:
    return CODEX_CONDITIONS if target.client == "codex" else CLAUDE_CONDITIONS


@contextlib.contextmanager
def scenario_targets(scenario: str) -> Iterator[dict[str, Target]]:
    with tempfile.TemporaryDirectory(prefix="hookman-sh-family-") as directory:
        targets = make_targets(Path(directory))
        for target in targets.values():
            break_target(target, scenario)
        yield targets


def table() -> list[tuple[str, str, str, str, str]]:
    """(shell, target, scenario, condition, verdict) for every row that is not a deny."""
    rows = []
    for scenario in SCENARIOS:
        with scenario_targets(scenario) as targets:
            scratch = Path(targets["settings"].cwd).parent / "scratch"
            for target in targets.values():
                for shell in FAMILY:
                    if shell_path(shell) is None:
                        continue
                    for condition in conditions_for(target):
                        verdict = run(target, shell, condition, scratch)
                        if verdict.decision != DENY:
                            rows.append(
                                (shell, target.name, scenario, condition.name, str(verdict)[:90])
                            )
    return rows


if __name__ == "__main__":
    failures = table()
    for row in failures:
        print(" | ".join(row))
    print(f"{len(failures)} rows end in something else than a deny")
