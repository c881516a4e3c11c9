"""The facts about the target Claude Code client that `install` resolved from the catalog and
wrote into the manifest's `client` section (hookman/project/manifest.py, `client_facts`).

The runner never reads the catalog or compares versions: it asks these. A manifest without
the section (written by an older hookman) gets the conservative answer to every question:
no event delivers send_message texts (they wait in the queue), no context starts a turn,
and whether `updatedToolOutput` works is unknown.
Hot path: a plain class, no dataclasses/typing imports.
"""

from __future__ import annotations

from hookman.bridge.protocol import (
    ANY_EVENT,
    BLOCK_TEXTS,
    CONTEXT_TEXT,
    DENY_EVENTS_TEXT,
    DENY_TEXT,
    EXIT2_BLOCKING_EVENTS,
    GUARDED_EVENTS,
    KNOWN_EVENTS,
    MESSAGE_CHANNELS,
    MODEL_TEXT,
    PLAIN_STDOUT_EVENTS,
    PRE_TOOL_USE,
    TOOL_EVENTS,
    TURN_CHANNELS,
    UPDATED_INPUT_BLOCKS_EVENTS,
    UPDATED_TOOL_OUTPUT,
)

_PLACEHOLDER = r"\{(label|reason|text)\}"
STALE_MANIFEST_NOTICE = (
    "the manifest was written by an older hookman and lacks the client facts, so send_message "
    "texts wait in the queue; run `hookman install` in the project to rewrite it"
)
# Manifests written before `guarded_events` existed guarded this event only.
GUARDED_BEFORE_THE_FACT = frozenset({"PreToolUse"})
# What the runner fails closed on when it cannot read the manifest at all: hookman writes an
# entry under these only for guards.
GUARDED_WITHOUT_MANIFEST = frozenset({PRE_TOOL_USE, "PreSkillShellCommand"})


class ClientFacts:
    __slots__ = (
        "exit2_blocking_events",
        "guarded_events",
        "known_events",
        "message_channels",
        "model_text",
        "plain_stdout_events",
        "present",
        "tool_events",
        "turn_channels",
        "updated_input_blocks_events",
        "updated_tool_output",
    )

    def __init__(self, data: object) -> None:
        facts = data if isinstance(data, dict) else {}
        self.present = isinstance(data, dict)
        self.known_events = _names(facts, KNOWN_EVENTS)
        self.tool_events = _names(facts, TOOL_EVENTS)
        self.message_channels = _names(facts, MESSAGE_CHANNELS)
        self.turn_channels = _names(facts, TURN_CHANNELS)
        self.plain_stdout_events = _names(facts, PLAIN_STDOUT_EVENTS)
        self.exit2_blocking_events = _names(facts, EXIT2_BLOCKING_EVENTS)
        self.updated_input_blocks_events = _names(facts, UPDATED_INPUT_BLOCKS_EVENTS)
        self.guarded_events = (
            _names(facts, GUARDED_EVENTS)
            if isinstance(facts.get(GUARDED_EVENTS), list)
            else GUARDED_BEFORE_THE_FACT
        )
        updated = facts.get(UPDATED_TOOL_OUTPUT)
        self.updated_tool_output: bool | None = updated if isinstance(updated, bool) else None
        model_text = facts.get(MODEL_TEXT)
        self.model_text: dict[str, object] = model_text if isinstance(model_text, dict) else {}

    def is_guarded(self, event: str) -> bool:
        """Whether hookman fails closed on `event`: a deny unless every guard ran and allowed."""
        return event in self.guarded_events

    def delivers_messages(self, event: str) -> bool:
        """Whether send_message texts may be delivered as additionalContext on `event`."""
        return event in self.message_channels

    def context_starts_turn(self, event: str) -> bool:
        """Whether additionalContext on `event` reaches the model by giving it another turn."""
        return event in self.turn_channels

    def deny_text(self, label: str, reason: str, event: str = PRE_TOOL_USE) -> str:
        """What the model reads when a guarded event denies with `reason` (JSON, exit 0)."""
        per_event = self.model_text.get(DENY_EVENTS_TEXT)
        template = per_event.get(event) if isinstance(per_event, dict) else None
        if not isinstance(template, str):
            template = self.model_text.get(DENY_TEXT)
        return _fill(template if isinstance(template, str) else "{reason}", label, reason)

    def block_texts(self, event: str, reason: str, command: str) -> list[str] | None:
        """What the model reads, in order, when a hook blocks `event` with `reason` (JSON,
        exit 0) through the settings `command`; None where the catalog has not measured it."""
        per_event = self.model_text.get(BLOCK_TEXTS)
        texts = per_event.get(event) if isinstance(per_event, dict) else None
        if not isinstance(texts, list):
            return None
        return [
            text.replace("{command}", command).replace("{reason}", reason)
            for text in texts
            if isinstance(text, str)
        ]

    def context_text(self, event: str, label: str, text: str) -> str:
        """What the model reads for `text` sent as additionalContext on `event`."""
        forms = self.model_text.get(CONTEXT_TEXT)
        forms = forms if isinstance(forms, dict) else {}
        template = forms.get(event, forms.get(ANY_EVENT))
        if not isinstance(template, str):
            template = "{label} hook additional context: {text}"
        return _fill(template, label, text)


def _names(facts: dict, key: str) -> frozenset[str]:
    value = facts.get(key)
    if not isinstance(value, list):
        return frozenset()
    return frozenset(name for name in value if isinstance(name, str))


def _fill(template: str, label: str, value: str) -> str:
    """One pass, so braces inside the label or the hook's text are never expanded."""
    import re  # here: `re` costs milliseconds of the runner's start, and only fire shows texts

    values = {"label": label, "reason": value, "text": value}
    return re.sub(_PLACEHOLDER, lambda match: values[match.group(1)], template)
