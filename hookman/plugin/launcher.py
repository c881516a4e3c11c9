"""A plugin's launcher, start script and hooks.json commands.

The launcher is the project launcher (hookman/project/launcher.py) in its plugin variant:
same body (one function, the answer file, the complete-answer test, exit 3), but it runs
`python3` from PATH on the plugin's own copy of the runner (`start.py`, `-E -s`: no PYTHON*
variable and no user site reaches it), finds the manifest beside itself (`${0%/*}`: the
plugin root moves into the client's cache), and answers into `${CLAUDE_PLUGIN_DATA}`. Where
no `python3` is on PATH it denies a guarded event saying what to install, before anything
runs; `start.py` does the same for a python3 older than 3.10 (its text parses in Python 2).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Sequence
from typing import NamedTuple

from hookman.bridge.protocol import (
    ANSWER_END,
    ANSWER_FILE_FLAG,
    GUARDED_FLAG,
    LAUNCHED_FLAG,
    deny_answer,
    guarded_subject,
)
from hookman.project.launcher import DONE_STATUS, FUNCTION_NAME

RUNNER_DIR = "hookman-runner"
LAUNCHER_NAME = "run.sh"
START_NAME = "start.py"
MANIFEST_NAME = "manifest.json"
LIB_DIR = "lib"
HOOKS_DIR = "hooks"
PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}"
PYTHON = "python3"
MIN_PYTHON = (3, 10)
TOO_OLD_STATUS = 0  # start.py answers itself (a complete answer) when python3 is too old
INSTALL_PYTHON = "install Python 3.10 or newer as `python3` on PATH"


STATUS_PLACEHOLDER = "\x00status\x00"
LAUNCHER_FORMAT = 2


class LauncherVariant(NamedTuple):
    """What the plugin's launcher is made of: raw shell words for the python, manifest and
    answers variables (`values`), the words that start the runner (`runner`), an event's
    no-answer deny (`deny`, STATUS_PLACEHOLDER where the exit status goes), the notice
    elsewhere, and shell lines run first (`prelude`)."""

    header: str
    values: tuple[str, str, str]
    runner: tuple[str, ...]
    deny: Callable[[str], str]
    notice: str
    prelude: str = ""


def launcher_variant(plugin: str, guarded_events: Sequence[str]) -> LauncherVariant:
    header = f"""\
# hookman plugin launcher (format {{format}}) of the plugin {plugin}, written by
# `hookman plugin build`; rebuilt with the plugin, so do not edit. Claude Code runs:
# sh "${{{{CLAUDE_PLUGIN_ROOT}}}}/{RUNNER_DIR}/{LAUNCHER_NAME}" EVENT [--async]; then a
# status test. It runs the plugin's copy of hookman's runner on python3 and passes on its
# answer; when there is no complete answer it answers itself (a deny on guarded events, a
# notice elsewhere). It always exits {{done}}. The body is one function, read whole first.
"""
    return LauncherVariant(
        header=header,
        values=(
            PYTHON,
            f'"${{0%/*}}"/{MANIFEST_NAME}',
            # A directory that never exists when the client gives no data dir: the launcher
            # then makes a new file in ${TMPDIR:-/tmp} with noclobber.
            '"${CLAUDE_PLUGIN_DATA:-${0%/*}/.no-data-dir}"',
        ),
        runner=('"$python"', "-E", "-s", f'"${{0%/*}}"/{START_NAME}'),
        deny=lambda event: _no_answer_deny(plugin, event),
        notice=json.dumps(
            {
                "systemMessage": f"hookman: no hook of the plugin {plugin} ran, because its "
                f"runner gave no answer (exit status {STATUS_PLACEHOLDER}): python3 may be "
                f"missing or broken, or a hook ended it. It needs Python 3.10 or newer as "
                f"`python3` on PATH; reinstall the plugin if its files were changed."
            },
            ensure_ascii=False,
        ),
        prelude=_missing_python_prelude(plugin, guarded_events),
    )


def plugin_launcher_text(plugin: str, guarded_events: Sequence[str]) -> str:
    """The launcher of the plugin `plugin`."""
    return _launcher_text(launcher_variant(plugin, guarded_events), guarded_events)


def _no_answer_deny(plugin: str, event: str) -> str:
    reason = (
        f"hookman blocked this {guarded_subject(event)} because the runner of the plugin "
        f"{plugin} gave no answer (exit status {STATUS_PLACEHOLDER}), so its guards could not "
        f"decide: python3 may be broken, the plugin's files changed, or a hook ended the "
        f"runner. The plugin needs Python 3.10 or newer as `python3` on PATH; reinstall the "
        f"plugin if its files were changed."
    )
    return json.dumps(deny_answer(event, reason), ensure_ascii=False)


def missing_python_deny(plugin: str, event: str) -> str:
    reason = (
        f"hookman blocked this {guarded_subject(event)} because the plugin {plugin} needs "
        f"python3 to run its guards and there is no `python3` on PATH: {INSTALL_PYTHON}."
    )
    return json.dumps(deny_answer(event, reason), ensure_ascii=False)


def too_old_python_deny(plugin: str, event: str) -> str:
    reason = (
        f"hookman blocked this {guarded_subject(event)} because the plugin {plugin} needs "
        f"Python 3.10 or newer to run its guards and `python3` on PATH is older: "
        f"{INSTALL_PYTHON}."
    )
    return json.dumps(deny_answer(event, reason), ensure_ascii=True)


def _python_notice(plugin: str, what: str) -> str:
    return json.dumps(
        {
            "systemMessage": f"hookman: no hook of the plugin {plugin} ran, because {what}: "
            f"{INSTALL_PYTHON}."
        },
        ensure_ascii=True,
    )


def _missing_python_prelude(plugin: str, guarded_events: Sequence[str]) -> str:
    arms = "".join(
        f"\t{event}) printf '%s\\n' {shlex.quote(missing_python_deny(plugin, event))} ;;\n"
        for event in guarded_events
    )
    notice = _python_notice(plugin, "there is no `python3` on PATH")
    return (
        f"if ! command -v {PYTHON} >/dev/null 2>&1; then\n"
        f"\tcase $1 in\n{arms}"
        f"\t*) [ \"$2\" = --async ] || printf '%s\\n' {shlex.quote(notice)} ;;\n"
        f"\tesac\n\texit {DONE_STATUS}\nfi\n"
    )


def start_text(plugin: str, guarded_events: Sequence[str]) -> str:
    """`start.py`: checks the interpreter, then runs the carried runner. Its text parses in
    Python 2 and 3.0+, so an old python3 (or a python3 that is Python 2) gets a deny."""
    denies = {event: too_old_python_deny(plugin, event) for event in guarded_events}
    notice = _python_notice(plugin, "`python3` on PATH is older than Python 3.10")
    return f'''\
# The entry of the plugin {plugin}'s runner, written by `hookman plugin build`; do not edit.
# Parses in Python 2: an interpreter too old for the runner still gets an answer.
import os
import sys

DENIES = {json.dumps(denies, ensure_ascii=True)}
NOTICE = {json.dumps(notice, ensure_ascii=True)}
ANSWER_END = {json.dumps(ANSWER_END, ensure_ascii=True)}


def answer_for_old_python():
    words = sys.argv[1:]
    if "--answer-file" in words and words.index("--answer-file") + 1 < len(words):
        try:
            os.unlink(words[words.index("--answer-file") + 1])
        except OSError:
            pass
    event = words[1] if len(words) > 1 else ""
    if "--async" in words:
        answer = "{{}}"
    else:
        answer = DENIES.get(event, NOTICE)
    sys.stdout.write(answer + "\\n" + ANSWER_END)
    sys.stdout.flush()
    sys.exit(0)


if sys.version_info < {MIN_PYTHON!r}:
    answer_for_old_python()
_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_here, "{LIB_DIR}"))
_data = os.environ.get("CLAUDE_PLUGIN_DATA")
if _data and os.path.isabs(_data):
    sys.pycache_prefix = os.path.join(_data, "pycache")  # never written into the plugin
else:
    sys.dont_write_bytecode = True
from hookman.bridge.run_command import launched  # noqa: E402

launched()
'''


def hook_command(plugin: str, event: str, *, guarded: bool, run_async: bool = False) -> str:
    """The hooks.json command for `event`, in the settings command's forms: on a guarded
    event every test sits in an and-or list (errexit from SHELLOPTS or a start-up file cannot
    end it before it decides), and a launcher that did not run to its end (gone, emptied, not
    a regular file) makes the command block by exit 2 with one short line on stderr."""
    launcher = f'"{PLUGIN_ROOT}/{RUNNER_DIR}/{LAUNCHER_NAME}"'
    command = f"sh {launcher} {event}" + (" --async" if run_async else "")
    if run_async:
        return f"{command} || :"
    if guarded:
        why = shlex.quote(missing_launcher_text(plugin))
        return (
            f"[ -f {launcher} ] && {command} && false || case $? in {DONE_STATUS}) ;; "
            f"2) exit 2 ;; *) echo {why} >&2; exit 2 ;; esac"
        )
    notice = shlex.quote(missing_launcher_notice(plugin))
    return f"{command}; [ $? = {DONE_STATUS} ] || printf '%s\\n' {notice}"


def missing_launcher_text(plugin: str) -> str:
    """What blocks a guarded call when the plugin's launcher did not run to its end (short:
    the client shows the model the command beside it)."""
    return f"hookman: the launcher of the plugin {plugin} is missing or broken; reinstall it"


def missing_launcher_notice(plugin: str) -> str:
    notice = (
        f"hookman: no hook of the plugin {plugin} ran, because its launcher is missing or "
        f"broken. Reinstall the plugin, or rebuild it with `hookman plugin build`."
    )
    return json.dumps({"systemMessage": notice}, ensure_ascii=False)


def _answer_parts(answer: str) -> str:
    """`'before' "$status" 'after'`: the answer with the runner's exit status in place."""
    before, _, after = answer.partition(json.dumps(STATUS_PLACEHOLDER)[1:-1])
    return f'{shlex.quote(before)} "$status" {shlex.quote(after)}'


def _launcher_text(variant: LauncherVariant, guarded_events: Sequence[str]) -> str:
    """The plugin launcher: launcher format 2's body (the runner still answers its words)
    on the plugin's own values; it always exits DONE_STATUS, which hook_command's status
    test turns into 0."""
    runner = [*variant.runner, "run", '"$@"', "--manifest", '"$manifest"', LAUNCHED_FLAG]
    runner_words = " ".join([*runner, "$guarded"])
    guarded_arms = "".join(
        f"\t{event}) printf '%s%s%s\\n' {_answer_parts(variant.deny(event))} ;;\n"
        for event in guarded_events
    )
    guarded_pattern = "|".join(guarded_events) or "-"
    done = f"exit {DONE_STATUS}"
    python, manifest, answers = variant.values
    return f"""\
{variant.header.format(format=LAUNCHER_FORMAT, done=DONE_STATUS)}{FUNCTION_NAME}() {{
{variant.prelude}python={python}
manifest={manifest}
answers={answers}
case $1 in
{guarded_pattern}) guarded={GUARDED_FLAG} ;;
*) guarded= ;;
esac
# The runner answers into a file (it unlinks the name at once): no process a hook leaves
# behind can make anyone wait for a pipe. A new file in ${{TMPDIR:-/tmp}} where the data
# dir takes none; where no file can be made at all, a pipe.
file="$answers/.answer-$$"
if ! {{ true >"$file"; }} 2>/dev/null; then
\tfile="${{TMPDIR:-/tmp}}/.hookman-answer-$$"
\tset -C
\t{{ true >"$file"; }} 2>/dev/null || file=
\tset +C
fi
if [ -n "$file" ]; then
\t{{
\t\t{runner_words} {ANSWER_FILE_FLAG} "$file" <&4 4<&- >"$file" 2>/dev/null
\t\tstatus=$?
\t\tIFS= read -r answer
\t\tIFS= read -r complete
\t}} 4<&0 <"$file"
else
\tnl='
'
\tanswer=$({runner_words} 2>/dev/null)
\tstatus=$?
\tcomplete=${{answer#*"$nl"}}
\tanswer=${{answer%%"$nl"*}}
fi
if [ "$status:$complete" = "0:{ANSWER_END.strip()}" ]; then
\tcase $answer in
\t"{{"*"}}")
\t\tprintf '%s\\n' "$answer"
\t\t{done} ;;
\tesac
fi
[ -n "$file" ] && rm -f "$file" 2>/dev/null
[ "$2" = --async ] && {done}
case $1 in
{guarded_arms}\t*) printf '%s%s%s\\n' {_answer_parts(variant.notice)} ;;
esac
{done}
}}
{FUNCTION_NAME} "$@"
"""
