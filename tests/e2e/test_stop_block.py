"""A Stop block in the real clients: what the model reads when the `stop_gate` template
refuses to let Claude stop, and that `hookman fire Stop` predicts exactly that text."""

from __future__ import annotations

import json
import re

import pytest

from .harness import E2EProject
from .mock_anthropic import say

pytestmark = pytest.mark.e2e


def test_a_stop_gate_block_shows_the_model_only_true_short_text(e2e: E2EProject) -> None:
    e2e.hookman("new", "gate", "--template", "stop_gate", "--install")
    e2e.write(".claude/done-checklist.md", "- [ ] write the CHANGELOG entry\n")
    command = e2e.settings()["hooks"]["Stop"][0]["hooks"][0]["command"]

    run = e2e.run_claude("go", turns=[say("done"), say("still done")])

    text = run.all_message_text()
    reason = (
        "Before stopping, finish these items from .claude/done-checklist.md "
        "(tick each with [x] when done):\n- write the CHANGELOG entry"
    )
    assert re.fullmatch(r"sh \S+/hookman-run\.sh Stop", command), command
    assert f"Stop hook feedback:\n{reason}" in text
    if e2e.version != "2.1.197":  # from 2.1.328 the client names the whole command too
        assert f'Stop hook blocking error from command: "{command}": {reason}' in text
    else:
        assert "blocking error from command" not in text
    # nothing false: no fallback text of an earlier command form reaches the model
    assert "no hook ran" not in text and "missing or broken" not in text
    # `hookman fire Stop` shows exactly the texts the model read
    fired = json.loads(e2e.hookman("fire", "Stop", "--json").stdout)
    assert fired["model_sees"], fired
    for predicted in fired["model_sees"]:
        assert predicted in text, (predicted, text[-2000:])
