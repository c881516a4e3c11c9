"""A plugin's launcher, start script and hooks.json commands.

The launcher is the project launcher (hookman/project/launcher.py) in its plugin variant:
same body (launcher format 3: the user's shell options turned off, one exclusively made
answer file, the framed answer, exit 2 past a start-up file), but it runs `python3` from
PATH on the plugin's own copy of the runner (`start.py`, `-I -S`: no PYTHON* variable, site
or `.pth` code runs before the runner's clock), finds the manifest beside itself (`${0%/*}`: the
plugin root moves into the client's cache), and answers into `${CLAUDE_PLUGIN_DATA}`. Where
no `python3` is on PATH it denies a guarded event saying what to install, before anything
runs; `start.py` does the same for a python3 older than 3.10 (its text parses in Python 2).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from hookman.bridge.protocol import (
    ANSWER_END,
    ANSWER_FILE_FLAG,
    ANSWER_START,
    ASYNC_FLAG,
    CHANNEL_OUT,
    GUARDED_DENIED_STATUS,
    GUARDED_DONE_STATUS,
    deny_answer,
    guarded_subject,
)
from hookman.project.launcher import (
    STATUS_PLACEHOLDER,
    LauncherVariant,
    header_values,
    render_launcher,
)
from hookman.project.settings_entries import async_command, guarded_command
from hookman.project.shell_template import render, render_words

RUNNER_DIR = "hookman-runner"
LAUNCHER_NAME = "run.sh"
START_NAME = "start.py"
MANIFEST_NAME = "manifest.json"
LIB_DIR = "lib"
HOOKS_DIR = "hooks"
PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}"
PYTHON = "python3"
MIN_PYTHON = (3, 10)
INSTALL_PYTHON = "install Python 3.10 or newer as `python3` on PATH"
# The plugin's parts of the launcher, as files beside this module (the body is
# hookman/project/launcher.sh).
SHELL_DIR = Path(__file__).parent


def launcher_variant(plugin: str, guarded_events: Sequence[str]) -> LauncherVariant:
    notice = (
        f"hookman: no hook of the plugin {plugin} ran, because its runner gave no answer "
        f"(exit status {STATUS_PLACEHOLDER}): python3 may be missing or broken, or a hook "
        f"ended it. It needs Python 3.10 or newer as `python3` on PATH; reinstall the plugin "
        f"if its files were changed."
    )
    header = {"plugin": plugin, "runner_dir": RUNNER_DIR, "launcher_name": LAUNCHER_NAME}
    return LauncherVariant(
        header=render(SHELL_DIR / "launcher-header.sh", {**header_values(), **header}),
        values=render(
            SHELL_DIR / "launcher-values.sh", {"python": PYTHON, "manifest": MANIFEST_NAME}
        ),
        runner=render_words(SHELL_DIR / "launcher-runner.sh", {"start": START_NAME}),
        no_answer=lambda event: _no_answer_text(plugin, event),
        notice=json.dumps({"systemMessage": notice}, ensure_ascii=False),
        prelude=_missing_python_prelude(plugin, guarded_events),
    )


def plugin_launcher_text(
    plugin: str,
    guarded_events: Sequence[str],
    *,
    timeouts: Mapping[str, float] | None = None,
    timer: str | None = None,
) -> str:
    """The launcher of the plugin `plugin` (hookman/project/launcher.sh, plugin variant);
    `timeouts` the build's entry timeouts per guarded event, `timer` timeout(1)'s path
    (project/launcher.py launcher_text)."""
    variant = launcher_variant(plugin, guarded_events)
    return render_launcher(variant, guarded_events, timeouts=timeouts, timer=timer)


def _no_answer_text(plugin: str, event: str) -> str:
    return (
        f"hookman blocked this {guarded_subject(event)} because the runner of the plugin "
        f"{plugin} gave no answer (exit status {STATUS_PLACEHOLDER}), so its guards could not "
        f"decide: python3 may be broken, the plugin's files changed, or a hook ended the "
        f"runner. The plugin needs Python 3.10 or newer as `python3` on PATH; reinstall the "
        f"plugin if its files were changed."
    )


def missing_python_reason(plugin: str, event: str) -> str:
    return (
        f"hookman blocked this {guarded_subject(event)} because the plugin {plugin} needs "
        f"python3 to run its guards and there is no `python3` on PATH: {INSTALL_PYTHON}."
    )


def missing_python_deny(plugin: str, event: str) -> str:
    reason = missing_python_reason(plugin, event)
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
        render(
            SHELL_DIR / "launcher-python-arm.sh",
            {
                "event": event,
                "deny": shlex.quote(missing_python_deny(plugin, event)),
                "reason": shlex.quote(missing_python_reason(plugin, event)),
                "channel_out": CHANNEL_OUT,
                "done": GUARDED_DONE_STATUS,
                "denied": GUARDED_DENIED_STATUS,
            },
        )
        for event in guarded_events
    )
    notice = _python_notice(plugin, "there is no `python3` on PATH")
    return render(
        SHELL_DIR / "launcher-prelude.sh",
        {
            "python": PYTHON,
            "python_arms": arms,
            "async_flag": ASYNC_FLAG,
            "notice": shlex.quote(notice),
        },
    )


def start_text(plugin: str, guarded_events: Sequence[str]) -> str:
    """`start.py`: checks the interpreter, then runs the carried runner. Its text parses in
    Python 2 and 3.0+, so an old python3 (or a python3 that is Python 2) gets a deny."""
    denies = {event: too_old_python_deny(plugin, event) for event in guarded_events}
    notice = _python_notice(plugin, "`python3` on PATH is older than Python 3.10")
    answer_file = json.dumps(ANSWER_FILE_FLAG)  # the runner's flags: bridge/protocol.py
    return f'''\
# The entry of the plugin {plugin}'s runner, written by `hookman plugin build`; do not edit.
# Parses in Python 2: an interpreter too old for the runner still gets an answer.
import os
import sys

DENIES = {json.dumps(denies, ensure_ascii=True)}
NOTICE = {json.dumps(notice, ensure_ascii=True)}
ANSWER_START = {json.dumps(ANSWER_START, ensure_ascii=True)}
ANSWER_END = {json.dumps(ANSWER_END, ensure_ascii=True)}


def answer_for_old_python():
    words = sys.argv[1:]
    if {answer_file} in words and words.index({answer_file}) + 1 < len(words):
        try:
            os.unlink(words[words.index({answer_file}) + 1])
        except OSError:
            pass
    event = words[1] if len(words) > 1 else ""
    if {json.dumps(ASYNC_FLAG)} in words:
        answer = "{{}}"
    else:
        answer = DENIES.get(event, NOTICE)
    sys.stdout.write(ANSWER_START + answer + "\\n" + ANSWER_END)
    sys.stdout.flush()
    sys.exit(0)


if sys.version_info < {MIN_PYTHON!r}:
    answer_for_old_python()
_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_here, "{LIB_DIR}"))
# Bytecode goes to CLAUDE_PLUGIN_DATA only once it is checked as the runner checks its
# state (only the user can write it): never into the plugin, never where another user
# could plant what the runner then loads.
sys.dont_write_bytecode = True
from hookman.bridge.private_dir import private_dir_problem  # noqa: E402

_data = os.environ.get("CLAUDE_PLUGIN_DATA")
if _data and os.path.isabs(_data) and private_dir_problem(_data) is None:
    sys.pycache_prefix = os.path.join(_data, "pycache")
    sys.dont_write_bytecode = False
from hookman.bridge.run_command import launched  # noqa: E402

launched()
'''


def hook_command(plugin: str, event: str, *, guarded: bool, run_async: bool = False) -> str:
    """The hooks.json command for `event`, in the settings command's forms
    (hookman/project/settings_entries.py): on a guarded event a launcher that did not run to
    its end (gone, emptied, not a regular file) makes the command block by exit 2 with one
    short line on stderr."""
    launcher = f'"{PLUGIN_ROOT}/{RUNNER_DIR}/{LAUNCHER_NAME}"'
    command = f"sh {launcher} {event}" + (f" {ASYNC_FLAG}" if run_async else "")
    if run_async:
        return async_command(command)
    if guarded:
        return guarded_command(launcher, command, missing_launcher_text(plugin))
    return command


def missing_launcher_text(plugin: str) -> str:
    """What blocks a guarded call when the plugin's launcher did not run to its end (short:
    the client shows the model the command beside it)."""
    return f"hookman: the launcher of the plugin {plugin} is missing or broken; reinstall it"
