from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.doctor.command_words import invocation
from hookman.doctor.model import Handler, Source


def handler(command: str, **raw: Any) -> Handler:
    source = Source("project", "/p/.claude/settings.json")
    entry = {"type": "command", "command": command, **raw}
    return Handler(
        source, "hooks.X[0].hooks[0]", "PostToolUse", None, "command", command, None, entry
    )


@pytest.mark.parametrize(
    ("command", "program", "script", "itself"),
    [
        ("./fmt.sh", "./fmt.sh", None, True),
        ("bash x.sh", "bash", "x.sh", False),
        ("/bin/bash .claude/hooks/x.sh", "/bin/bash", ".claude/hooks/x.sh", False),
        ("/usr/bin/env -S python3 -u hooks/x.py", "/usr/bin/env", "hooks/x.py", False),
        ("FOO=1 python3.12 hooks/x.py && echo ok", "python3.12", "hooks/x.py", False),
        ("uv run --with requests hooks/x.py", "uv", "hooks/x.py", False),
        ("uv run python hooks/x.py", "uv", "hooks/x.py", False),
        ("npx -y tsx hooks/x.ts", "npx", "hooks/x.ts", False),
        ("npx prettier --write src/", "npx", None, False),
        ("bunx @scope/tool run", "bunx", None, False),
        ("python3 -c 'print(1)'", "python3", None, False),
    ],
)
def test_what_a_command_runs(command: str, program: str, script: str | None, itself: bool) -> None:
    found = invocation(handler(command))
    assert found is not None
    assert (found.program, found.script, found.runs_script_itself) == (program, script, itself)


def test_exec_form_takes_command_and_args_as_they_are() -> None:
    found = invocation(handler("/bin/bash", args=["${CLAUDE_PROJECT_DIR}/my hooks/x.sh"]))
    assert found is not None and found.exec_form
    assert found.script == "${CLAUDE_PROJECT_DIR}/my hooks/x.sh"


@pytest.mark.parametrize("command", ["", "echo hi", "cd /tmp && ls", "'unterminated"])
def test_commands_doctor_cannot_judge_give_nothing(command: str) -> None:
    assert invocation(handler(command)) is None


@given(st.text(max_size=60), st.one_of(st.none(), st.lists(st.text(max_size=10), max_size=3)))
def test_any_command_is_read_without_raising(command: str, args: list[str] | None) -> None:
    raw = {} if args is None else {"args": args}
    found = invocation(handler(command, **raw))
    assert found is None or (
        isinstance(found.program, str) and found.exec_form == (args is not None)
    )


@given(
    st.lists(
        st.text(alphabet='ab/$_. "', min_size=1, max_size=8).filter(lambda w: w.strip()),
        max_size=5,
    )
)
def test_the_quick_split_agrees_with_shlex(parts: list[str]) -> None:
    import shlex

    from hookman.doctor.command_words import _double_quoted_words

    command = " ".join(parts)
    quick = _double_quoted_words(command)
    if quick is not None:
        assert quick == shlex.split(command, comments=True)
