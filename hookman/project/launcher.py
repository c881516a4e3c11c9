"""The launcher: a small POSIX `sh` script in the project's state dir, next to the manifest,
that every hookman settings entry runs (`sh '<state>/hookman-run.sh' EVENT; [ $? = 3 ] || ...`).

It runs the runner under the interpreter recorded at install and passes its answer on. A
process can only answer while it lives, so this outer layer answers for a runner that could
not: when the runner's output is not a complete answer (its interpreter or hookman gone, the
process killed, stopped until its watchdog killed it, or ended by a hook, a broken answer
channel), the launcher prints a deny on the guarded events (the manifest's client facts) and
a notice for the user elsewhere. It always ends with `exit 3` (DONE_STATUS), which the
settings command turns into 0, the only exit code whose JSON Claude Code reads; any other
status means the launcher did not run to its end (gone, emptied, cut), and the command
prints the deny itself. The body is one function called on the last line, so `sh` has read
it whole before it runs (bash reads a script as it runs it).

A complete answer is the runner's exit status 0 and its output being one line holding a JSON
object, then the line ANSWER_END: checked with shell built-ins only (no process beyond the
runner in the common path). The runner's stdout is a file in the state dir (or a new one in
${TMPDIR:-/tmp}, made with noclobber), whose name the runner unlinks at once
(`--answer-file`), and its stderr /dev/null: Claude Code's pipes reach no process but the
launcher, so no process a hook leaves behind can make the client or the launcher wait. Only
where no file can be made at all is it a pipe. The runner (run_command.py, `--launched`)
leads its own process group on guarded events and ends with os._exit right after answering.

Install and every sync rewrite the launcher (atomically, only when its bytes change) together
with the settings commands, so it always names the interpreter and the guarded events of the
last install, and its format matches the commands that run it. A command is recognised by
the launcher's file name (settings_entries.py), whatever launcher format wrote it.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from hookman import paths
from hookman.bridge.protocol import (
    ANSWER_END,
    ANSWER_FILE_FLAG,
    GUARDED_FLAG,
    LAUNCHED_FLAG,
    deny_answer,
    guarded_subject,
)

LAUNCHER_NAME = "hookman-run.sh"
LAUNCHER_FORMAT = 2
# How a launcher that ran to its end exits: the settings command turns it into 0 and answers
# for any other status (a launcher emptied, cut or gone exits 0, 2 or 127).
DONE_STATUS = 3
FUNCTION_NAME = "hookman_launch"
RUNNER_ENTRY = "from hookman.bridge.run_command import launched; launched()"
PYTHON_VARIABLE = "python"
MANIFEST_VARIABLE = "manifest"
ANSWERS_VARIABLE = "answers"
_STATUS = "\x00status\x00"
_EVENT_NAME = re.compile(r"[A-Za-z0-9_]+")


def launcher_path(project_dir: Path) -> Path:
    return paths.project_state_dir(project_dir) / LAUNCHER_NAME


def missing_launcher_answer(event: str) -> str:
    """The deny the settings command prints when the launcher did not run to its end (`sh`
    cannot read it, or it was emptied or cut since install)."""
    reason = (
        f"hookman blocked this {guarded_subject(event)} because the launcher hookman installed "
        f"for this project is missing or broken (the hookman state directory was deleted or "
        f"moved, or the file was emptied or cut), so the guards of the project could not run. "
        f"Run `hookman install` in the project to write it again."
    )
    return json.dumps(deny_answer(event, reason), ensure_ascii=False)


def missing_launcher_notice() -> str:
    """What the settings command of an event that is not guarded prints in that case."""
    notice = (
        "hookman: no hook ran, because the launcher hookman installed for this project is "
        "missing or broken. Run `hookman install` in the project to write it again."
    )
    return json.dumps({"systemMessage": notice}, ensure_ascii=False)


class LauncherVariant(NamedTuple):
    """What a launcher that is not a project's differs in (a plugin's: hookman/plugin/).

    `values` are raw shell words for the python, manifest and answers variables; `runner`
    the words that start the runner (before `run "$@"`); `deny` an event's no-answer deny
    (JSON, STATUS_PLACEHOLDER where the exit status goes); `prelude` shell lines run first.
    """

    header: str
    values: tuple[str, str, str]
    runner: tuple[str, ...]
    deny: Callable[[str], str]
    notice: str
    prelude: str = ""


STATUS_PLACEHOLDER = _STATUS


def launcher_text(
    python: str,
    safe_path: bool,
    manifest: Path,
    guarded_events: Sequence[str],
    *,
    variant: LauncherVariant | None = None,
) -> str:
    """The launcher script for this interpreter, manifest and set of guarded events."""
    for event in guarded_events:
        if not _EVENT_NAME.fullmatch(event):
            raise ValueError(f"not an event name: {event!r}")
    if variant is None:
        runner = [f'"${PYTHON_VARIABLE}"'] + (["-P"] if safe_path else [])
        runner += ["-c", shlex.quote(RUNNER_ENTRY)]
    else:
        runner = list(variant.runner)
    runner += ["run", '"$@"']
    runner += ["--manifest", f'"${MANIFEST_VARIABLE}"', LAUNCHED_FLAG, "$guarded"]
    deny = variant.deny if variant else (lambda event: _no_answer_deny(event, python))
    guarded_arms = "".join(
        f"\t{event}) printf '%s%s%s\\n' {_answer_parts(deny(event))} ;;\n"
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
    done = f"exit {DONE_STATUS}"
    header = variant.header if variant else _PROJECT_HEADER
    values = (
        variant.values
        if variant
        else (shlex.quote(python), shlex.quote(str(manifest)), shlex.quote(str(manifest.parent)))
    )
    prelude = variant.prelude if variant else ""
    return f"""\
{header.format(format=LAUNCHER_FORMAT, done=DONE_STATUS)}{FUNCTION_NAME}() {{
{prelude}{PYTHON_VARIABLE}={values[0]}
{MANIFEST_VARIABLE}={values[1]}
{ANSWERS_VARIABLE}={values[2]}
case $1 in
{guarded_pattern}) guarded={GUARDED_FLAG} ;;
*) guarded= ;;
esac
# The runner answers into a file (it unlinks the name at once): no process a hook leaves
# behind can make anyone wait for a pipe. A new file in ${{TMPDIR:-/tmp}} where the state
# dir takes none; where no file can be made at all, a pipe.
file="${ANSWERS_VARIABLE}/.answer-$$"
if ! {{ true >"$file"; }} 2>/dev/null; then
	file="${{TMPDIR:-/tmp}}/.hookman-answer-$$"
	set -C
	{{ true >"$file"; }} 2>/dev/null || file=
	set +C
fi
if [ -n "$file" ]; then
	{{
		{runner_words} {ANSWER_FILE_FLAG} "$file" <&4 4<&- >"$file" 2>/dev/null
		status=$?
		IFS= read -r answer
		IFS= read -r complete
	}} 4<&0 <"$file"
else
	nl='
'
	answer=$({runner_words} 2>/dev/null)
	status=$?
	complete=${{answer#*"$nl"}}
	answer=${{answer%%"$nl"*}}
fi
if [ "$status:$complete" = "0:{ANSWER_END.strip()}" ]; then
	case $answer in
	"{{"*"}}")
		printf '%s\\n' "$answer"
		{done} ;;
	esac
fi
[ -n "$file" ] && rm -f "$file" 2>/dev/null
[ "$2" = --async ] && {done}
case $1 in
{guarded_arms}\t*) printf '%s%s%s\\n' {_answer_parts(notice)} ;;
esac
{done}
}}
{FUNCTION_NAME} "$@"
"""


_PROJECT_HEADER = """\
# hookman launcher (format {format}), written by `hookman install`; rewritten at every
# install, so do not edit. Claude Code runs: sh THIS_FILE EVENT [--async]; then a status test.
# It runs hookman's runner and passes on its answer. When the runner gives no complete
# answer (its Python or hookman gone, the process killed or ended by a hook), it answers
# itself: a deny on guarded events, a notice elsewhere. It always exits {done}, which the
# settings command turns into 0; any other status (this file emptied, cut or gone) makes
# the command answer a deny itself. The body is one function, read whole before it runs.
"""


def _no_answer_deny(event: str, python: str) -> str:
    reason = (
        f"hookman blocked this {guarded_subject(event)} because its runner gave no answer "
        f"(exit status {_STATUS}), so the guards of the project could not decide: its Python "
        f"({python}) or hookman may be gone since `hookman install`, or a hook ended the "
        f"runner. Run `hookman install` in the project (after reinstalling hookman if it is "
        f"gone); `hookman log` shows what ran."
    )
    return json.dumps(deny_answer(event, reason), ensure_ascii=False)


def answer_parts(answer: str) -> str:
    """A printf's arguments for `answer` with the runner's exit status in place."""
    return _answer_parts(answer)


def _answer_parts(answer: str) -> str:
    """`'before' "$status" 'after'`: the answer with the runner's exit status in place."""
    before, _, after = answer.partition(json.dumps(_STATUS)[1:-1])
    return f'{shlex.quote(before)} "$status" {shlex.quote(after)}'


def read_launcher_words(path: Path) -> dict[str, str]:
    """The interpreter and manifest a launcher names ({} when it cannot be read)."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as handle:
            text = handle.read()  # newline="": a "\r" in a path stays one
    except OSError:
        return {}
    found: dict[str, str] = {}
    for name in (PYTHON_VARIABLE, MANIFEST_VARIABLE):
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
