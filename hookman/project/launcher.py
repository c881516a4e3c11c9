"""The launcher: a small POSIX `sh` script in the project's state dir, next to the manifest,
that every hookman settings entry runs (settings_entries.py builds the commands).

It runs the runner under the interpreter recorded at install and passes its answer on. A
process can only answer while it lives, so this outer layer answers for a runner that could
not: when the runner's output is not a complete answer (its interpreter or hookman gone, the
process killed, stopped until its watchdog killed it, or ended by a hook, a broken answer
channel), the launcher prints a deny on the guarded events (the catalog's guarded events) and
a notice for the user elsewhere. On a guarded event it ends with `exit 3`
(GUARDED_DONE_STATUS), which the settings command turns into 0, the only exit code whose JSON
Claude Code reads; any other status but 2 means the launcher did not run to its end (gone,
emptied, cut, not a regular file), and the command denies itself. Elsewhere it exits 0, and
the command is the launcher alone. The body is one function called on the last line, so `sh`
has read it whole before it runs (bash reads a script as it runs it).

The shell is the user's: the first line of the function turns off errexit, nounset and
noclobber that SHELLOPTS may bring (a bash run as `sh`), and sets IFS. When a start-up file may
have printed before the answer (BASH_ENV or ENV set: the client's `bash -c` reads BASH_ENV,
and Claude Code reads a stdout that does not start with the JSON as plain text, deny and all),
a deny goes out as exit 2 with its reason on stderr, which Claude Code honours whatever stdout
holds; the runner marks such an answer line with EXIT_TWO_MARK.

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
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import hookman
from hookman import paths
from hookman.bridge.protocol import (
    ANSWER_END,
    ANSWER_FILE_FLAG,
    ANSWER_START,
    EXIT_TWO_MARK,
    EXIT_TWO_STATUS,
    FRAMED_FLAG,
    GUARDED_DONE_STATUS,
    GUARDED_FLAG,
    LAUNCHED_FLAG,
    LAUNCHER_NAME,
    START_UP_FILE_VARIABLES,
    deny_answer,
    guarded_subject,
)

__all__ = ["LAUNCHER_NAME"]

LAUNCHER_FORMAT = 3
# How a launcher that ran to its end exits on a guarded event: the settings command turns it
# into 0 and answers for any other status but 2 (a launcher emptied, cut or gone exits 0, 2
# or 127; `sh` exits 2 on a syntax error, and then nothing was printed: the command's own
# deny covers it, see settings_entries.build_command).
DONE_STATUS = GUARDED_DONE_STATUS
FUNCTION_NAME = "hookman_launch"
# sys.argv[1] is hookman's own directory (the runner starts with -S: no site, no .pth).
RUNNER_ENTRY = (
    "import sys; sys.path.append(sys.argv.pop(1)); "
    "from hookman.bridge.run_command import launched; launched()"
)
PYTHON_VARIABLE = "python"
ROOT_VARIABLE = "root"
MANIFEST_VARIABLE = "manifest"
ANSWERS_VARIABLE = "answers"
ANSWER_NAME_TRIES = 4  # names per directory: $$-0 .. $$-3
_STATUS = "\x00status\x00"
_EVENT_NAME = re.compile(r"[A-Za-z0-9_]+")
# What the settings command of a guarded event says (on stderr, exit 2) when the launcher did
# not run to its end. Short: the client shows the model the whole command beside it.
MISSING_LAUNCHER_TEXT = "hookman: its launcher did not run to its end; run hookman install"


def launcher_path(project_dir: Path) -> Path:
    return paths.project_state_dir(project_dir) / LAUNCHER_NAME


def hookman_root() -> str:
    """The directory hookman is imported from (what the launcher puts on sys.path)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(hookman.__file__)))


def missing_launcher_answer(event: str) -> str:
    """The deny the settings command of launcher format 2 printed when the launcher did not
    run to its end (kept to recognise and test the old form)."""
    reason = (
        f"hookman blocked this {guarded_subject(event)} because the launcher hookman installed "
        f"for this project is missing or broken (the hookman state directory was deleted or "
        f"moved, or the file was emptied or cut), so the guards of the project could not run. "
        f"Run `hookman install` in the project to write it again."
    )
    return json.dumps(deny_answer(event, reason), ensure_ascii=False)


def missing_launcher_notice() -> str:
    """What the settings command of format 2 printed on an event that is not guarded."""
    notice = (
        "hookman: no hook ran, because the launcher hookman installed for this project is "
        "missing or broken. Run `hookman install` in the project to write it again."
    )
    return json.dumps({"systemMessage": notice}, ensure_ascii=False)


class LauncherVariant(NamedTuple):
    """What a launcher that is not a project's differs in (a plugin's: hookman/plugin/).

    `header` the comment block; `values` raw shell words for the python, manifest and answers
    variables; `runner` the words that start the runner (before `run "$@"`); `no_answer` an
    event's no-answer reason (STATUS_PLACEHOLDER where the exit status goes); `notice` the
    JSON notice elsewhere; `prelude` shell lines run once `guarded` and `finish` are set."""

    header: str
    values: tuple[str, str, str]
    runner: tuple[str, ...]
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
    variant: LauncherVariant | None = None,
) -> str:
    """The launcher script for this interpreter, manifest and set of guarded events; `root`
    is hookman's own directory (default: where this hookman is imported from)."""
    for event in guarded_events:
        if not _EVENT_NAME.fullmatch(event):
            raise ValueError(f"not an event name: {event!r}")
    if variant is None:
        runner = [f'"${PYTHON_VARIABLE}"', "-I", "-S", "-c", shlex.quote(RUNNER_ENTRY)]
        runner += [f'"${ROOT_VARIABLE}"']
    else:
        runner = list(variant.runner)
    runner += ["run", '"$@"', "--manifest", f'"${MANIFEST_VARIABLE}"']
    runner += [LAUNCHED_FLAG, "$guarded", FRAMED_FLAG]
    no_answer = variant.no_answer if variant else (lambda e: _no_answer_text(e, python))
    start_up = "".join(f"${{{name}-}}" for name in START_UP_FILE_VARIABLES)
    guarded_arms = "".join(
        f"\t{event})\n"
        f'\t\tif [ -n "{start_up}" ]; then\n'
        f"\t\t\tprintf '%s%s%s\\n' {_answer_parts(no_answer(event))} >&2\n"
        f"\t\t\texit {EXIT_TWO_STATUS}\n"
        f"\t\tfi\n"
        f"\t\tprintf '%s%s%s\\n' {_answer_parts(_deny_json(event, no_answer(event)))}\n"
        f"\t\texit {DONE_STATUS} ;;\n"
        for event in guarded_events
    )
    notice = (
        variant.notice
        if variant
        else json.dumps(
            {
                "systemMessage": f"hookman: no hook ran, because the hookman runner gave no answer "
                f"(exit status {_STATUS}): its Python ({python}) or hookman may be gone, or a hook "
                f"ended it. See `hookman log`; run `hookman install` in the project to repair it."
            },
            ensure_ascii=False,
        )
    )
    guarded_pattern = "|".join(guarded_events) or "-"
    runner_words = " ".join(runner)
    frame = f"0:{ANSWER_START.strip()}:{ANSWER_END.strip()}"
    tries = ANSWER_NAME_TRIES
    root = hookman_root() if root is None else root
    if variant is None:
        header = _PROJECT_HEADER
        values = f"""\
{PYTHON_VARIABLE}={shlex.quote(python)}
{ROOT_VARIABLE}={shlex.quote(root)}
{MANIFEST_VARIABLE}={shlex.quote(str(manifest))}
{ANSWERS_VARIABLE}={shlex.quote(str(manifest.parent))}
"""
    else:
        header = variant.header
        values = "".join(
            f"{name}={value}\n"
            for name, value in zip(
                (PYTHON_VARIABLE, MANIFEST_VARIABLE, ANSWERS_VARIABLE), variant.values, strict=True
            )
        )
    prelude = variant.prelude if variant else ""
    return f"""\
{header.format(format=LAUNCHER_FORMAT, done=DONE_STATUS, two=EXIT_TWO_STATUS)}{FUNCTION_NAME}() {{
set +euC
IFS=' \t
'
{values}case $1 in
{guarded_pattern}) guarded={GUARDED_FLAG} finish={DONE_STATUS} ;;
*) guarded= finish=0 ;;
esac
[ "$2" = --async ] && guarded= finish=0
{prelude}# The runner answers into a file of this invocation alone (it unlinks the name at once): no
# process a hook leaves behind can make anyone wait for a pipe. Made exclusively, at a name
# where nothing is (a planted file, or another launcher with this pid, takes the next name);
# in the state dir, else ${{TMPDIR:-/tmp}}; where no file can be made at all, a pipe.
umask 077
file=
for dir in "${ANSWERS_VARIABLE}" "${{TMPDIR:-/tmp}}"; do
	n=0
	while [ "$n" -lt {tries} ]; do
		try="$dir/.hookman-answer-$$-$n"
		if [ ! -e "$try" ] && [ ! -h "$try" ] && {{ set -C; true >"$try"; }} 2>/dev/null; then
			file=$try
			break 2
		fi
		n=$((n + 1))
	done
done
set +C
if [ -n "$file" ]; then
	{{
		{runner_words} {ANSWER_FILE_FLAG} "$file" <&4 4<&- >"$file" 2>/dev/null
		status=$?
		IFS= read -r start
		IFS= read -r answer
		IFS= read -r complete
	}} 4<&0 <"$file"
else
	nl='
'
	answer=$({runner_words} 2>/dev/null)
	status=$?
	start=${{answer%%"$nl"*}}
	answer=${{answer#*"$nl"}}
	complete=${{answer#*"$nl"}}
	answer=${{answer%%"$nl"*}}
fi
if [ "$status:$start:$complete" = "{frame}" ]; then
	case $answer in
	"{{"*"}}")
		printf '%s\\n' "$answer"
		exit $finish ;;
	"{EXIT_TWO_MARK}"?*)
		[ -n "$guarded" ] && printf '%s\\n' "${{answer#?}}" >&2 && exit {EXIT_TWO_STATUS} ;;
	esac
fi
[ -n "$file" ] && rm -f "$file" 2>/dev/null
[ "$2" = --async ] && exit 0
case $1 in
{guarded_arms}\t*) printf '%s%s%s\\n' {_answer_parts(notice)} ;;
esac
exit 0
}}
{FUNCTION_NAME} "$@"
"""


_PROJECT_HEADER = """\
# hookman launcher (format {format}), written by `hookman install`; rewritten at every
# install, so do not edit. Claude Code runs: sh THIS_FILE EVENT [--async] (on a guarded
# event, inside a status test). It runs hookman's runner and passes on its answer. When the
# runner gives no complete answer (its Python or hookman gone, the process killed or ended
# by a hook), it answers itself: a deny on guarded events, a notice elsewhere. On a guarded
# event it exits {done} (or {two} with a deny on stderr), which the settings
# command passes on as 0 (or {two}); any other status (this file emptied, cut or gone)
# makes the command deny itself. The body is one function, read whole before it runs.
"""


def _deny_json(event: str, reason: str) -> str:
    return json.dumps(deny_answer(event, reason), ensure_ascii=False)


def _no_answer_text(event: str, python: str) -> str:
    return (
        f"hookman blocked this {guarded_subject(event)} because its runner gave no answer "
        f"(exit status {_STATUS}), so the guards of the project could not decide: its Python "
        f"({python}) or hookman may be gone since `hookman install`, or a hook ended the "
        f"runner. Run `hookman install` in the project (after reinstalling hookman if it is "
        f"gone); `hookman log` shows what ran."
    )


def _no_answer_deny(event: str, python: str) -> str:
    return json.dumps(deny_answer(event, _no_answer_text(event, python)), ensure_ascii=False)


def _answer_parts(answer: str) -> str:
    """`'before' "$status" 'after'`: the answer with the runner's exit status in place."""
    mark = _STATUS if _STATUS in answer else json.dumps(_STATUS)[1:-1]
    before, _, after = answer.partition(mark)
    return f'{shlex.quote(before)} "$status" {shlex.quote(after)}'


def read_launcher_words(path: Path) -> dict[str, str]:
    """The interpreter and manifest a launcher names ({} when it cannot be read)."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as handle:
            text = handle.read()  # newline="": a "\r" in a path stays one
    except OSError:
        return {}
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
