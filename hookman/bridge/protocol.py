"""What install (the launcher, the settings commands, the manifest) and the runner agree on:
the runner's flags, the line that proves an answer complete, the statuses, the keys of the
manifest's "client" section, and the deny a guarded event gets. Standard library only and
import-free, so the writers need not load the runner to know them, and the runner's start
pays nothing for them. One home: writer and reader both import these."""

from __future__ import annotations

PRE_TOOL_USE = "PreToolUse"
# The directory under .claude/ of the placeholder path install records for a hook it could
# not find (install/resolution.py): loading it fails, and the runner says why (hook_set.py).
MISSING_HOOKS_DIR = "missing-hooks"
LAUNCHED_FLAG = "--launched"
# After the event: an observe-only entry; the runner answers at once and runs the hooks in a
# child (the launcher then answers nothing for a runner that did not answer).
ASYNC_FLAG = "--async"
MANIFEST_FLAG = "--manifest"  # the manifest the runner reads
# `--agent AGENT` after the event: the entry is another client's (Codex CLI: "codex"); the
# runner answers in its protocol. Claude Code's entries carry no such words.
AGENT_FLAG = "--agent"
CODEX_AGENT = "codex"  # AGENT_FLAG's value for Codex CLI's entries (docs/agents.md)
# The other agents (their facts: hookman/catalog/<agent>_events.json). Qwen Code's and
# Factory droid's entries carry AGENT_FLAG with these; GitHub Copilot CLI runs Claude Code's
# own entries, so the runner knows it from its hook environment (catalog/agent_catalog.py).
COPILOT_AGENT = "copilot"
QWEN_AGENT = "qwen"
DROID_AGENT = "droid"
GUARDED_FLAG = "--guarded"
# The event on which a project's runner stops the prompt when the project moved on since
# install (project/install_plan.py writes it for every installed project; ARCHITECTURE.md,
# "The prompt gate"): a guard a pull added may have no entry that reaches it.
PROMPT_GATE_EVENT = "UserPromptSubmit"
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
# How a launcher (format 5) ends a guarded event it answered on stdout; the settings command
# turns it into 0 (any other status but GUARDED_DENIED_STATUS means the launcher did not run
# to its end, and the command denies). Neither status is one a shell uses for its own
# failures: 1, 2 (a syntax error, a fatal error), 3 (ksh93's syntax error: formats 3 and 4
# used 3, so a launcher cut inside its function under ksh93 as `sh` passed as answered),
# 126, 127, 128+n (a signal), 254 (bash after a failed fork); nor the runner's own (71, 72).
GUARDED_DONE_STATUS = 73
# How it ends a guarded event it denied by its reason on stderr; the settings command exits
# EXIT_TWO_STATUS. Not 2 itself: a shell that dies of an error (a redirection it could not
# make, with its stderr elsewhere) exits 2 and may have said nothing, and then the command
# says its own line (Codex honours exit 2 only with one).
GUARDED_DENIED_STATUS = 74
# `--channel CHANNEL` (launcher format 4): where the launcher can make a guarded answer
# heard, seen from its fds 1 and 2 (the launcher's channel test): CHANNEL_OUT, the JSON on
# stdout; CHANNEL_ERR, exit 2 with the reason on stderr (stdout closed, /dev/null or
# /dev/full, or spoiled: a start-up file or an xtrace of the client's shell may print
# there); CHANNEL_SAME, fds 1 and 2 are one pipe (a start-up file ran `exec 2>&1` or
# `exec 1>&2`), the runner tells which (bridge/answer_channel.py).
CHANNEL_FLAG = "--channel"
CHANNEL_OUT = "out"
CHANNEL_ERR = "err"
CHANNEL_SAME = "same"
# The runner's status when its answer could not be written for want of space (ENOSPC,
# EDQUOT): the launcher then names a full disk as the cause instead of a runner gone.
NO_SPACE_STATUS = 72
# The runner's status when its answer file lies where another user could swap it (a
# directory another user can write: run_command.EXIT_UNSAFE_ANSWER_FILE): the launcher names
# that cause and its fix (TMPDIR) instead of a runner gone.
UNSAFE_ANSWER_FILE_STATUS = 71
# Variables naming a start-up file the client's shell may read before the settings command
# runs (BASH_ENV: Codex CLI's `/bin/bash -c`; ENV: a POSIX sh; Claude Code's `/bin/sh -c`
# reads neither when measured, but /bin/sh is the user's): when one is set, stdout may hold
# its output.
START_UP_FILE_VARIABLES = ("BASH_ENV", "ENV")
# The manifest's "client" section: the target client's facts, written by install
# (project/manifest.py `client_facts`) and read by the runner and `fire`
# (bridge/client_facts.py). Each fact is a list of event names unless noted.
CLIENT_SECTION = "client"
KNOWN_EVENTS = "known_events"
TOOL_EVENTS = "tool_events"
MESSAGE_CHANNELS = "message_channels"
TURN_CHANNELS = "turn_channels"
PLAIN_STDOUT_EVENTS = "plain_stdout_events"
EXIT2_BLOCKING_EVENTS = "exit2_blocking_events"
GUARDED_EVENTS = "guarded_events"
UPDATED_INPUT_BLOCKS_EVENTS = "updated_input_blocks_events"
UPDATED_TOOL_OUTPUT = "updated_tool_output"  # true, false or null (unknown)
MODEL_TEXT = "model_text"  # what the model reads, as templates, under these keys:
DENY_TEXT = "deny"
DENY_EVENTS_TEXT = "deny_events"  # per guarded event, where its deny reads differently
CONTEXT_TEXT = "additionalContext"  # per event, ANY_EVENT for the rest
BLOCK_TEXTS = "block"  # per event: the texts a decision: block shows the model, in order
ANY_EVENT = "*"
# The manifest's {"port": PORT} of a project whose entries reach the warm server
# (hookman/serve/wire.py): the runner's prompt gate checks that server.
MANIFEST_SERVE_KEY = "serve"
MANIFEST_SENTINELS_KEY = "sentinels"  # event -> {"matcher": ...}: project/sentinel.py
# The file in the project's state dir a sentinel's command tests files against; its name in
# a command is what makes a hookman entry a sentinel (project/settings_entries.py).
SENTINEL_STAMP_NAME = "hookman-sentinel.stamp"
# In a settings entry's command: the launcher's file name (the runner finds its own entries
# in settings.local.json by it, to learn a timeout changed by hand).
LAUNCHER_NAME = "hookman-run.sh"


def guarded_subject(event: str) -> str:
    """What a deny on the guarded `event` stops, as the model and the user read it."""
    if event == PROMPT_GATE_EVENT:
        return "prompt"
    return "tool call" if event == PRE_TOOL_USE else "shell command"


def stop_answer(reason: str) -> dict[str, object]:
    """The answer that stops a prompt at the gate: Claude Code sends the model nothing and
    shows the user `Operation stopped by hook: REASON`; 2.1.332 keeps the prompt for the user
    to send again (measured on 2.1.197 and 2.1.332: docs/claude-code-facts.md)."""
    return {"continue": False, "stopReason": reason}


def deny_answer(event: str, reason: str) -> dict[str, object]:
    """The answer that blocks a guarded event: a JSON deny, which Claude Code honours on exit 0."""
    return {
        "hookSpecificOutput": {
            "hookEventName": event,
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }
