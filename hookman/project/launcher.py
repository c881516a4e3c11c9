"""The launcher: a small POSIX `sh` script in the project's state dir, next to the manifest,
that every hookman settings entry runs (settings_entries.py builds the commands). Its shell
is launcher.sh and the launcher-*.sh parts beside this module, filled by shell_template.py;
the plugin launcher (hookman/plugin/launcher.py) fills the same body with its own parts.

It runs the runner under the interpreter recorded at install and passes its answer on. A
process can only answer while it lives, so this outer layer answers for a runner that could
not: when the runner's output is not a complete answer (its interpreter or hookman gone, the
process killed, stopped until its watchdog killed it, or ended by a hook, a broken answer
channel), the launcher prints a deny on the guarded events (the catalog's guarded events) and
a notice for the user elsewhere. On a guarded event it ends with `exit 73`
(GUARDED_DONE_STATUS), which the settings command turns into 0, the only exit code whose JSON
Claude Code reads, or `exit 74` (GUARDED_DENIED_STATUS) after its deny on stderr, which the
command turns into 2; any other status means the launcher did not run to its end (gone,
emptied, cut, not a regular file; no shell uses 73 or 74 for its own failures), and the
command denies itself. Elsewhere it exits 0, and
the command is the launcher alone. The body is one function called on the last line, so `sh`
has read it whole before it runs (bash reads a script as it runs it).

The shell is the user's: Claude Code runs the settings command with `/bin/sh -c` (dash, bash
in POSIX mode, busybox ash, mksh, ...), Codex CLI with `/bin/bash -c`, and the command runs
`sh` on the launcher. The first line of the function turns off errexit, nounset and noclobber
that SHELLOPTS may bring (a bash run as `sh`), and sets IFS. When a start-up file may have
printed before the answer (BASH_ENV or ENV set: Codex's `bash -c` reads BASH_ENV, and Claude
Code reads a stdout that does not start with the JSON as plain text, deny and all), a deny
goes out as exit 2 with its reason on stderr, which the client honours whatever stdout holds;
the runner marks such an answer line with EXIT_TWO_MARK.

The runner starts isolated (`-I -S`): no `.pth` file, `sitecustomize`, PYTHON* variable or
user site runs before its clock does; hookman's own directory is on the command line
(appended to sys.path), and the runner reads the site (PYTHONPATH, site-packages, their `.pth`
files, sitecustomize, the user site) once its deadline and watchdog are armed.

Format 3 frames the answer: the runner's exit status 0, then ANSWER_START, one line holding a
JSON object (or the exit-2 line), then ANSWER_END, each on its own line; anything written to
the runner's stdout before the answer spoils the frame and the launcher denies. Checked with
shell built-ins only (no process beyond the runner in the common path). The runner's stdout
is a file of this invocation alone: created exclusively (noclobber, after checking nothing of
any kind is at the name) in the state dir or ${TMPDIR:-/tmp}, under a name with the shell's
pid and a counter, so a launcher with the same pid in another PID namespace, or a file planted
at the name, takes the next name instead of becoming the answer. The runner unlinks the name
at once (`--answer-file`), and its stderr is /dev/null: Claude Code's pipes reach no process
but the launcher, so no process a hook leaves behind can make the client or the launcher wait.
Only where no file can be made at all is it a pipe. The runner (run_command.py, `--launched`)
leads its own process group on guarded events and ends with os._exit right after answering.

Install and every sync rewrite the launcher (atomically, only when its bytes change) together
with the settings commands, so it always names the interpreter and the guarded events of the
last install, and its format matches the commands that run it. A command is recognised by
the launcher's file name (settings_entries.py), whatever launcher format wrote it; the runner
still answers the words of a format-2 launcher (`-P -c ... run EVENT ... --launched`).
tests/project/launcher_golden/ holds the bytes every variant renders.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import hookman
from hookman import paths
from hookman.bridge.agent_facts import OTHER_AGENTS, deny_also_stops, reads_exit_two_json
from hookman.bridge.entry_timeout import DEADLINE_MARGIN_FRACTION, DEADLINE_MIN_MARGIN_S
from hookman.bridge.protocol import (
    AGENT_FLAG,
    ANSWER_END,
    ANSWER_FILE_FLAG,
    ANSWER_START,
    ASYNC_FLAG,
    CHANNEL_ERR,
    CHANNEL_FLAG,
    CHANNEL_OUT,
    CHANNEL_SAME,
    CODEX_AGENT,
    EXIT_TWO_MARK,
    EXIT_TWO_STATUS,
    FRAMED_FLAG,
    GUARDED_DENIED_STATUS,
    GUARDED_DONE_STATUS,
    GUARDED_FLAG,
    LAUNCHED_FLAG,
    LAUNCHER_NAME,
    MANIFEST_FLAG,
    NO_SPACE_STATUS,
    PRE_TOOL_USE,
    UNSAFE_ANSWER_FILE_STATUS,
    deny_answer,
    guarded_subject,
)
from hookman.catalog import event_catalog
from hookman.project.shell_template import render, render_words

if TYPE_CHECKING:
    from hookman.project.install_plan import InstallPlan

__all__ = ["LAUNCHER_NAME"]

LAUNCHER_FORMAT = 5
# How a launcher that ran to its end exits on a guarded event: the settings command turns it
# into 0 and answers for any other status but DENIED_STATUS (a launcher emptied, cut or gone
# exits 0, 1, 2, 3 or 127: `sh` exits 1, 2 or, ksh93, 3 on a syntax error, and then nothing
# was printed: the command's own deny covers it, see settings_entries.build_command).
DONE_STATUS = GUARDED_DONE_STATUS
# How it exits on a guarded event it denied by its reason on stderr (the command exits 2).
DENIED_STATUS = GUARDED_DENIED_STATUS
# sys.argv[1] is hookman's own directory (the runner starts with -S: no site, no .pth).
RUNNER_ENTRY = (
    "import sys; sys.path.append(sys.argv.pop(1)); "
    "from hookman.bridge.run_command import launched; launched()"
)
# The launcher's shell variables that read_launcher_words reads back (launcher-values.sh).
PYTHON_VARIABLE = "python"
ROOT_VARIABLE = "root"
MANIFEST_VARIABLE = "manifest"
# The shell of the launcher, as files beside this module (shell_template.py fills them).
SHELL_DIR = Path(__file__).parent
BODY = SHELL_DIR / "launcher.sh"
GUARDED_ARM = SHELL_DIR / "launcher-guarded-arm.sh"
STOP_DENY = SHELL_DIR / "launcher-stop-deny.sh"
STOP_DENY_STDERR = SHELL_DIR / "launcher-stop-deny-stderr.sh"
TIMER_ARM = SHELL_DIR / "launcher-timer-arm.sh"
# A path the launcher may put unquoted among the runner's words (field splitting, no glob).
_PLAIN_PATH = re.compile(r"/[A-Za-z0-9/._+-]*")
_STATUS = "\x00status\x00"
# Where launcher.sh names timeout(1): `if [ -n "$guarded" ] && [ -x @timeout@ ]; then`.
_TIMER_TEST = re.compile(r'^if \[ -n "\$guarded" \] && \[ -x (\S+) \]; then$', re.MULTILINE)
_EVENT_NAME = re.compile(r"[A-Za-z0-9_]+")
# What the settings command of a guarded event says (on stderr, exit 2) when the launcher did
# not run to its end. Short: the client shows the model the whole command beside it.
MISSING_LAUNCHER_TEXT = "hookman: its launcher did not run to its end; run hookman install"


def launcher_path(project_dir: Path) -> Path:
    return paths.project_state_dir(project_dir) / LAUNCHER_NAME


def hookman_root() -> str:
    """The directory hookman is imported from (what the launcher puts on sys.path)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(hookman.__file__)))


class LauncherVariant(NamedTuple):
    """What one kind of launcher fills into launcher.sh (a project's here, a plugin's in
    hookman/plugin/launcher.py).

    `header` its comment lines; `values` the lines setting python, manifest and answers
    (and root); `runner` the words that start the runner (before `run "$@"`); `no_answer`
    an event's no-answer reason (STATUS_PLACEHOLDER where the exit status goes); `notice`
    the JSON notice elsewhere; `prelude` lines run once `guarded` and `finish` are set."""

    header: str
    values: str
    runner: str
    no_answer: Callable[[str], str]
    notice: str
    prelude: str = ""


STATUS_PLACEHOLDER = _STATUS


def launcher_text(
    python: str,
    manifest: Path,
    guarded_events: Sequence[str],
    *,
    root: str | None = None,
    timeouts: Mapping[str, float] | None = None,
    timer: str | None = None,
) -> str:
    """The project launcher for this interpreter, manifest and set of guarded events; `root`
    is hookman's own directory (default: where this hookman is imported from); `timeouts`
    the entries' timeouts per guarded event (the launcher's own clock), `timer` the path of
    timeout(1) (default: found on PATH)."""
    root = hookman_root() if root is None else root
    variant = project_variant(python, manifest, root)
    return render_launcher(variant, guarded_events, timeouts=timeouts, timer=timer)


def plan_launcher_text(
    project_dir: Path,
    plan: InstallPlan,
    python: str,
    root: str | None = None,
    timer: str | None = None,
) -> str:
    """The launcher this hookman writes for a project's install `plan`: `python`, hookman's
    directory `root` and timeout(1) at `timer` (defaults: this hookman's, the one on PATH),
    the project's manifest, the catalog's guarded events and the timeouts of their entries
    (the launcher's own clock). Install passes its own interpreter; doctor the words the
    launcher on disk names."""
    timeouts = {event: entry.timeout for event, entry in plan.sentinels.items()}
    timeouts.update({event: entry.timeout for event, entry in plan.entries.items()})
    guarded = event_catalog.guarded_events()
    manifest = paths.manifest_path(project_dir)
    return launcher_text(python, manifest, guarded, root=root, timeouts=timeouts, timer=timer)


def timer_program() -> str:
    """timeout(1) (GNU coreutils or busybox) as found now, '' when there is none or its path
    is not one the launcher can put among the runner's words."""
    found = shutil.which("timeout")
    if found is None or not _PLAIN_PATH.fullmatch(found):
        return ""
    return found


def project_variant(python: str, manifest: Path, root: str) -> LauncherVariant:
    """What a project's launcher fills in: the interpreter of the install, hookman's own
    directory, the manifest and the state dir beside it, each quoted for sh."""
    values = {
        "python": shlex.quote(python),
        "root": shlex.quote(root),
        "manifest": shlex.quote(str(manifest)),
        "answers": shlex.quote(str(manifest.parent)),
    }
    notice = (
        f"hookman: no hook ran, because the hookman runner gave no answer (exit status "
        f"{_STATUS}): its Python ({python}) or hookman may be gone, or a hook ended it. See "
        f"`hookman log`; run `hookman install` in the project to repair it."
    )
    return LauncherVariant(
        header=render(SHELL_DIR / "launcher-header.sh", header_values()),
        values=render(SHELL_DIR / "launcher-values.sh", values),
        runner=render_words(SHELL_DIR / "launcher-runner.sh", {"entry": shlex.quote(RUNNER_ENTRY)}),
        no_answer=lambda event: _no_answer_text(event, python),
        notice=json.dumps({"systemMessage": notice}, ensure_ascii=False),
    )


def header_values() -> dict[str, object]:
    """The numbers a launcher's header names."""
    return {
        "format": LAUNCHER_FORMAT,
        "done": DONE_STATUS,
        "denied": DENIED_STATUS,
        "two": EXIT_TWO_STATUS,
    }


def render_launcher(
    variant: LauncherVariant,
    guarded_events: Sequence[str],
    *,
    timeouts: Mapping[str, float] | None = None,
    timer: str | None = None,
) -> str:
    """launcher.sh filled for `variant` and this set of guarded events (`timeouts` and
    `timer`: see launcher_text)."""
    for event in guarded_events:
        if not _EVENT_NAME.fullmatch(event):
            raise ValueError(f"not an event name: {event!r}")
    timer = timer_program() if timer is None else timer
    if timer and not _PLAIN_PATH.fullmatch(timer):
        raise ValueError(f"not a plain path: {timer!r}")
    timed = {event: timeouts[event] for event in guarded_events if timeouts and event in timeouts}
    return render(
        BODY,
        {
            "header": variant.header,
            "values": variant.values,
            "guarded_pattern": "|".join(guarded_events) or "-",
            "stop_agents": "|".join(f'*" {AGENT_FLAG} {agent} "*' for agent in stop_agents())
            or "-",
            "prelude": variant.prelude,
            "runner": variant.runner,
            "guarded_arms": "".join(_guarded_arm(event, variant) for event in guarded_events),
            "timer_arms": "".join(_timer_arm(event, seconds) for event, seconds in timed.items()),
            "timeout": timer or "''",
            "notice": _printf_words(variant.notice),
            "notice_no_space": shlex.quote(json.dumps({"systemMessage": NO_SPACE_NOTICE})),
            "no_space_status": NO_SPACE_STATUS,
            "notice_unsafe": shlex.quote(json.dumps({"systemMessage": UNSAFE_NOTICE})),
            "unsafe_status": UNSAFE_ANSWER_FILE_STATUS,
            # BASH_ENV, not ENV: ENV is read by interactive shells only, and ksh93 gives ENV
            # a value of its own (~/.kshrc) that no environment set. BASH_XTRACEFD: the
            # client's bash may trace onto stdout (even where the launcher's own shell, told
            # POSIXLY_CORRECT by an allexport, ignores SHELLOPTS).
            "spoiled": "${BASH_ENV-}${BASH_XTRACEFD-}",
            "channel_flag": CHANNEL_FLAG,
            "channel_out": CHANNEL_OUT,
            "channel_err": CHANNEL_ERR,
            "channel_same": CHANNEL_SAME,
            "guarded_flag": GUARDED_FLAG,
            "done": DONE_STATUS,
            "denied": DENIED_STATUS,
            "async_flag": ASYNC_FLAG,
            "manifest_flag": MANIFEST_FLAG,
            "launched_flag": LAUNCHED_FLAG,
            "framed_flag": FRAMED_FLAG,
            "answer_file_flag": ANSWER_FILE_FLAG,
            "agent_flag": AGENT_FLAG,
            "codex_agent": CODEX_AGENT,
            "answer_start": ANSWER_START.strip(),
            "answer_end": ANSWER_END.strip(),
            "exit_two_mark": EXIT_TWO_MARK,
        },
    )


def _timer_arm(event: str, timeout: float) -> str:
    """The clock of one guarded event: timeout(1) kills the runner a quarter of the
    runner's deadline margin before the client's timeout (bridge/entry_timeout.py)."""
    margin = max(DEADLINE_MIN_MARGIN_S, DEADLINE_MARGIN_FRACTION * timeout)
    kill_cs = max(1, round((timeout - margin / 4) * 100))
    return render(TIMER_ARM, {"event": event, "kill_cs": kill_cs, "limit_cs": round(timeout * 100)})


def stop_agents(*, on_stderr: bool = False) -> tuple[str, ...]:
    """The agents whose deny also says `continue: false` (the catalog's deny.stop): a later
    hook's permissionDecision would replace a deny that does not (Qwen Code). `on_stderr`:
    those of them that also read a stderr holding one JSON object as an exit 2's answer
    (deny.exit_2_json), where that deny can go by exit 2 too."""
    return tuple(
        agent
        for agent in OTHER_AGENTS
        if deny_also_stops(agent) and (not on_stderr or reads_exit_two_json(agent))
    )


def stop_deny_json(reason: str) -> str | None:
    """The PreToolUse deny with `reason` in the form of stop_agents() (one JSON line: `$stops`
    names no agent, so one form must fit them all); None when there is no such agent. The
    launcher's own deny and the settings command's say it (the runner's: agent_answer)."""
    from hookman.bridge.agent_answer import agent_deny  # what `hookman list` never needs

    forms = {json.dumps(agent_deny(agent, reason), ensure_ascii=False) for agent in stop_agents()}
    if len(forms) > 1:
        raise ValueError("the agents whose deny also stops answer it in different forms")
    return forms.pop() if forms else None


def _stop_deny(event: str, reason: str, indent: str) -> str:
    """launcher-stop-deny.sh's line for `event`'s arm, and launcher-stop-deny-stderr.sh's
    where those agents read an exit 2's JSON on stderr: stop_deny_json(reason) ('' but on
    PreToolUse, or with no such agent)."""
    answer = stop_deny_json(reason) if event == PRE_TOOL_USE else None
    if answer is None:
        return ""
    words = _printf_words(answer)
    lines = render(
        STOP_DENY,
        {"indent": indent, "answer": words, "channel_out": CHANNEL_OUT, "done": DONE_STATUS},
    )
    if stop_agents(on_stderr=True) == stop_agents():
        lines += render(
            STOP_DENY_STDERR, {"indent": indent, "answer": words, "denied": DENIED_STATUS}
        )
    return lines


def _guarded_arm(event: str, variant: LauncherVariant) -> str:
    reason = variant.no_answer(event)
    full = no_space_text(event)
    unsafe = unsafe_answer_file_text(event)
    return render(
        GUARDED_ARM,
        {
            "event": event,
            "stop_deny": _stop_deny(event, reason, "\t\t"),
            "stop_deny_no_space": _stop_deny(event, full, "\t\t\t"),
            "stop_deny_unsafe": _stop_deny(event, unsafe, "\t\t\t"),
            "no_answer": _printf_words(reason),
            "deny": _printf_words(json.dumps(deny_answer(event, reason), ensure_ascii=False)),
            "no_space": _printf_words(full),
            "deny_no_space": _printf_words(json.dumps(deny_answer(event, full))),
            "no_space_status": NO_SPACE_STATUS,
            "unsafe": _printf_words(unsafe),
            "deny_unsafe": _printf_words(json.dumps(deny_answer(event, unsafe))),
            "unsafe_status": UNSAFE_ANSWER_FILE_STATUS,
            "channel_out": CHANNEL_OUT,
            "channel_same": CHANNEL_SAME,
            "denied": DENIED_STATUS,
            "done": DONE_STATUS,
        },
    )


# Said when the runner could not write its answer for want of space (NO_SPACE_STATUS): the
# true cause, not a runner gone (the same for a project's launcher and a plugin's).
NO_SPACE_NOTICE = (
    "hookman: no hook ran, because the disk is full: hookman's runner could not write its "
    "answer (no space left on the device that holds its state dir or $TMPDIR). Free some "
    "space; the hooks run again then."
)


# Said when the runner's answer file would lie in a directory another user can write
# (UNSAFE_ANSWER_FILE_STATUS: another user could swap it for a link between the launcher's
# create and the runner's open).
UNSAFE_NOTICE = (
    "hookman: no hook ran, because hookman's runner would not answer into its answer file: "
    "it would lie in a directory another user can write. Set TMPDIR to a directory only you "
    "can write; the hooks run again then."
)


def unsafe_answer_file_text(event: str) -> str:
    return (
        f"hookman blocked this {guarded_subject(event)} because its runner would not answer "
        f"(exit status {_STATUS}): its answer file would lie in a directory another user can "
        f"write, so the guards' decision could not reach Claude Code safely. Set TMPDIR to a "
        f"directory only you can write; the guards decide again then."
    )


def no_space_text(event: str) -> str:
    return (
        f"hookman blocked this {guarded_subject(event)} because the disk is full: its runner "
        f"could not write its answer (exit status {_STATUS}: no space left on the device that "
        f"holds its state dir or $TMPDIR), so the guards' decision could not reach Claude "
        f"Code. Free some space; the guards decide again then."
    )


def _no_answer_text(event: str, python: str) -> str:
    return (
        f"hookman blocked this {guarded_subject(event)} because its runner gave no answer "
        f"(exit status {_STATUS}), so the guards of the project could not decide: its Python "
        f"({python}) or hookman may be gone since `hookman install`, or a hook ended the "
        f"runner. Run `hookman install` in the project (after reinstalling hookman if it is "
        f"gone); `hookman log` shows what ran."
    )


def _printf_words(answer: str) -> str:
    """printf's format and words that print `answer` with the runner's exit status in each
    place STATUS_PLACEHOLDER stands (`'%s%s%s\\n' 'before' "$status" 'after'`)."""
    mark = _STATUS if _STATUS in answer else json.dumps(_STATUS)[1:-1]
    parts = answer.split(mark)
    words = ' "$status" '.join(shlex.quote(part) for part in parts)
    return f"'{'%s' * (2 * len(parts) - 1)}\\n' {words}"


def read_launcher_timer(text: str) -> str | None:
    """The timeout(1) a launcher's text runs the runner under ('' for none; None when the
    text names none the way launcher.sh writes it)."""
    match = _TIMER_TEST.search(text)
    if match is None:
        return None
    word = match.group(1)
    return "" if word == "''" else word


def read_launcher_words(path: Path) -> dict[str, str]:
    """The interpreter and manifest a launcher names ({} when it cannot be read)."""
    text = read_launcher(path)
    return {} if text is None else launcher_words(text)


def read_launcher(path: Path) -> str | None:
    """A launcher's text as its words are read back (None when it cannot be read)."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as handle:
            return handle.read()  # newline="": a "\r" in a path stays one
    except OSError:
        return None


def launcher_words(text: str) -> dict[str, str]:
    """The interpreter, manifest and hookman directory a launcher's `text` names."""
    found: dict[str, str] = {}
    for name in (PYTHON_VARIABLE, MANIFEST_VARIABLE, ROOT_VARIABLE):
        match = re.search(rf"^{name}=", text, re.MULTILINE)
        if match is None:
            continue
        lexer = shlex.shlex(text[match.end() :], posix=True)  # the value may span lines
        lexer.whitespace_split = True
        lexer.commenters = ""
        try:
            value = lexer.get_token()
        except ValueError:
            continue
        if value:
            found[name] = value
    return found
