"""Tests for the output redaction hook: run with `python -m pytest .claude/hooks`."""

from pathlib import Path

from hookman.testing import load_hook

HOOK_FILE = Path(__file__).with_name("redact_output.py")


def test_secrets_are_replaced_and_the_rest_is_kept() -> None:
    output = "user=me\nAWS key AKIAABCDEFGHIJKLMNOP\nexport API_TOKEN=abc123\nok"

    result = load_hook(HOOK_FILE).tool_result("Bash", {"command": "env"}, output)

    [item] = result["content"]
    assert item["text"] == "user=me\nAWS key [REDACTED]\nexport API_TOKEN=[REDACTED]\nok"


def test_clean_output_is_left_alone() -> None:
    assert load_hook(HOOK_FILE).tool_result("Bash", {"command": "ls"}, "a.txt\nb.txt") is None


def test_a_failed_tool_is_left_alone() -> None:
    hook = load_hook(HOOK_FILE)
    assert hook.tool_result("Bash", {}, "sk-abcdefghijklmnopqrstu", is_error=True) is None
