"""What the launcher and the runner agree on: the runner's flags, the line that proves an
answer complete, and the deny a guarded event gets. Standard library only and import-free,
so the launcher's writer (install) need not load the runner to know them."""

from __future__ import annotations

PRE_TOOL_USE = "PreToolUse"
LAUNCHED_FLAG = "--launched"
# After the event: an observe-only entry; the runner answers at once and runs the hooks in a
# child (the launcher then answers nothing for a runner that did not answer).
ASYNC_FLAG = "--async"
MANIFEST_FLAG = "--manifest"  # the manifest the runner reads
# `--agent AGENT` after the event: the entry is another client's (Codex CLI: "codex"); the
# runner answers in its protocol. Claude Code's entries carry no such words.
AGENT_FLAG = "--agent"
CODEX_AGENT = "codex"  # AGENT_FLAG's value for Codex CLI's entries (docs/agents.md)
GUARDED_FLAG = "--guarded"
ANSWER_FILE_FLAG = "--answer-file"  # stdout is this file: unlink its name (the launcher reads it)
# After the answer, when run by the launcher: the proof that the answer is complete.
ANSWER_END = "hookman:answer-complete\n"  # on its own line
# Launcher format 3 asks for the answer framed: ANSWER_START, the answer line, ANSWER_END.
# Anything written to the runner's stdout before the runner's own answer (start-up code that
# prints `{` with no newline) spoils the first line, and the launcher denies.
FRAMED_FLAG = "--framed"
ANSWER_START = "hookman:answer-start\n"  # on its own line
# An answer line that starts with EXIT_TWO_MARK asks the launcher to exit 2 with the rest of
# the line on stderr: the one deny Claude Code honours when a start-up file of its shell
# (BASH_ENV) may have printed before the JSON, which then is read as plain text.
EXIT_TWO_MARK = "!"
EXIT_TWO_STATUS = 2
# How a launcher of format 3 ends a guarded event it answered on stdout; the settings command
# turns it into 0 (any other status but EXIT_TWO_STATUS means the launcher did not run to its
# end, and the command denies).
GUARDED_DONE_STATUS = 3
# Variables naming a start-up file the client's shell may read before the settings command
# runs (BASH_ENV: Codex CLI's `/bin/bash -c`; ENV: a POSIX sh; Claude Code's `/bin/sh -c`
# reads neither when measured, but /bin/sh is the user's): when one is set, stdout may hold
# its output.
START_UP_FILE_VARIABLES = ("BASH_ENV", "ENV")
# In a settings entry's command: the launcher's file name (the runner finds its own entries
# in settings.local.json by it, to learn a timeout changed by hand).
LAUNCHER_NAME = "hookman-run.sh"


def guarded_subject(event: str) -> str:
    """What a deny on the guarded `event` stops, as the model and the user read it."""
    return "tool call" if event == PRE_TOOL_USE else "shell command"


def deny_answer(event: str, reason: str) -> dict[str, object]:
    """The answer that blocks a guarded event: a JSON deny, which Claude Code honours on exit 0."""
    return {
        "hookSpecificOutput": {
            "hookEventName": event,
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }
