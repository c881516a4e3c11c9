from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.doctor.frontmatter import FrontmatterError, parse_yaml_subset, split_frontmatter

SKILL = """---
name: deploy
description: "Deploy the app"  # a comment
hooks:
  PreToolUse:
    - matcher: "Bash"
      hooks:
        - type: command
          command: "./scripts/check.sh"
          timeout: 10
  Stop:
    - hooks: [{"type": "command", "command": "echo done"}]
---
Body with !`git status`.
"""


def test_a_skill_hooks_block_is_read() -> None:
    header, body = split_frontmatter(SKILL)
    assert header is not None and "!`git status`" in body
    parsed = parse_yaml_subset(header)
    assert parsed["name"] == "deploy" and parsed["description"] == "Deploy the app"
    assert parsed["hooks"] == {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "./scripts/check.sh", "timeout": 10}],
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}],
    }


def test_no_fence_means_no_frontmatter() -> None:
    assert split_frontmatter("just text\n---\n") == (None, "just text\n---\n")
    assert split_frontmatter("---\nnever closed\n")[0] is None


@pytest.mark.parametrize(
    "text", ["key: |\n  block", "\tkey: 1", "key: 'open", "a:\n    b: 1\n  c: 2", "- x\nkey: 1"]
)
def test_yaml_it_cannot_read_is_refused_not_guessed(text: str) -> None:
    with pytest.raises(FrontmatterError):
        parse_yaml_subset(text)


@given(st.text(max_size=200))
def test_any_text_parses_or_raises_frontmatter_error(text: str) -> None:
    try:
        parsed = parse_yaml_subset(text)
    except FrontmatterError as error:
        assert str(error)  # a refusal says why
    else:
        assert parsed is None or isinstance(parsed, dict | list | str | int | float | bool)
