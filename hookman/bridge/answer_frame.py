"""The answer line of launcher format 3, between ANSWER_START and ANSWER_END.

Normally the JSON answer itself, which the launcher prints on stdout (exit 0). But Claude
Code reads a stdout that does not start with the JSON as plain text: measured on 2.1.197,
2.1.328 and 2.1.332, a JSON deny after `junk\\n`, `junk ` or a lone `{` let the tool run. A
start-up file of the client's shell runs before the settings command and may print there:
bash's BASH_ENV (Codex CLI runs `/bin/bash -c`; Claude Code runs `/bin/sh -c`, which is the
user's shell), or ENV for a POSIX sh. When one of those is set
on a guarded event, an answer that must be heard (a deny, an ask, changed input, a block, a
stop) goes out as exit 2 with one line on stderr instead, which Claude Code honours whatever
stdout holds: the line is EXIT_TWO_MARK and the reason (a deny or block) or why hookman
cannot pass the answer on (the others, denied: failing closed). For an agent that reads a
stderr holding one JSON object as an exit 2's answer (Qwen Code, the catalog's
deny.exit_2_json) the line is EXIT_TWO_MARK and the agent's whole answer instead: its
`continue: false` then holds against another hook's allow there too."""

from __future__ import annotations

import os

from hookman.bridge import lean_json
from hookman.bridge.protocol import (
    CHANNEL_OUT,
    CHANNEL_SAME,
    CODEX_AGENT,
    EXIT_TWO_MARK,
    START_UP_FILE_VARIABLES,
)

CANNOT_PASS_ON = (
    "hookman blocked this call: a hook answered with {what}, which hookman cannot pass on "
    "because {why}"
)
START_UP_FILE = (
    "{variable} is set, and a start-up file of the client's shell may print before the "
    "answer (the client then reads it as plain text). Unset {variable} in the environment "
    "the client starts with."
)
TRACED = (
    "SHELLOPTS holds xtrace, so the client's shell may trace its commands on stdout before "
    "the answer. Unset SHELLOPTS in the environment the client starts with."
)
NO_STDOUT = (
    "the stdout of the client's shell is closed, /dev/null, /dev/full or one with its "
    "stderr, where the client cannot read an answer."
)


def start_up_file_variable(environ: dict[str, str] | None = None) -> str | None:
    """The first of BASH_ENV and ENV that is set and not empty (the client's shell reads it)."""
    environ = os.environ if environ is None else environ
    return next((name for name in START_UP_FILE_VARIABLES if environ.get(name)), None)


def exit_two_cause(
    channel: str | None,
    agent: str | None,
    environ: dict[str, str] | None = None,
    launcher_pid: int | None = None,
) -> str | None:
    """Why an answer that must be heard goes out as exit 2 with its reason on stderr (the
    end of CANNOT_PASS_ON); None when the JSON on stdout will be heard. `channel` is the
    launcher's CHANNEL_FLAG (None from a format-3 launcher: by the variables alone);
    `launcher_pid` the launcher's, to read its fds (CHANNEL_SAME under Codex)."""
    environ = os.environ if environ is None else environ
    variable = start_up_file_variable(environ)
    if channel == CHANNEL_OUT:
        return None
    if channel == CHANNEL_SAME and agent == CODEX_AGENT and launcher_pid is not None:
        from hookman.bridge.answer_channel import shared_pipe_is_stdout

        if shared_pipe_is_stdout(launcher_pid):
            return None
    if variable is not None:
        return START_UP_FILE.format(variable=variable)
    if channel is None:
        return None
    if "xtrace" in environ.get("SHELLOPTS", "").split(":"):
        return TRACED
    return NO_STDOUT


def framed_line(
    text: str,
    guarded: bool,
    environ: dict[str, str] | None = None,
    *,
    channel: str | None = None,
    agent: str | None = None,
    launcher_pid: int | None = None,
) -> str:
    """The line the launcher reads for the answer `text` (a JSON object and a newline)."""
    line = text.rstrip("\n")
    if not guarded:
        return line
    try:
        answer = lean_json.loads(line)
    except ValueError:
        return line  # not JSON: the launcher denies it anyway
    if not isinstance(answer, dict):
        return line
    heard = _must_be_heard(answer)
    if heard is None:
        return line
    cause = exit_two_cause(channel, agent, environ, launcher_pid)
    if cause is None:
        return line
    if agent is not None and _reads_exit_two_json(agent):
        return EXIT_TWO_MARK + line  # the agent's whole answer, its continue: false too
    reason, what = heard
    if not reason:
        reason = CANNOT_PASS_ON.format(what=what, why=cause)
    return EXIT_TWO_MARK + " ".join(reason.split())


def _reads_exit_two_json(agent: str) -> bool:
    """Whether `agent` reads a stderr that is one JSON object as the answer of an exit 2
    (Qwen Code: then its `continue: false` holds against another hook's allow, which
    replaces a deny given by exit 2 with a plain reason)."""
    from hookman.bridge.agent_facts import OTHER_AGENTS, reads_exit_two_json

    return agent in OTHER_AGENTS and reads_exit_two_json(agent)


def _must_be_heard(answer: dict[str, object]) -> tuple[str, str] | None:
    """(the reason to show, what the answer holds) for an answer that must reach the client;
    None for one that may be lost (nothing, or only texts for the user)."""
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    decision = specific.get("permissionDecision")
    if decision == "deny":
        return str(specific.get("permissionDecisionReason") or "hookman denied it"), "a deny"
    if answer.get("decision") == "block":
        return str(answer.get("reason") or "hookman blocked it"), "a block"
    if decision == "ask":
        return "", "a request to ask the user"
    if "updatedInput" in specific:
        return "", "changed input"
    if answer.get("continue") is False:
        return "", "a request to stop"
    if decision not in (None, "allow"):
        return "", f"the decision {decision!r}"
    return None
