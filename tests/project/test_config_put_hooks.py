"""`put_hooks` (install of many hooks in one command) leaves hookman.toml byte for byte as
`put_hook` for each hook in turn does, and validates the file once, not once per hook."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookman.project import config as config_module
from hookman.project.config import HookSource, NewHook, load_project_config

names = st.text(string.ascii_lowercase + string.digits + "_-", min_size=1, max_size=6).filter(
    lambda name: name[0] != "-"
)
event_lists = st.lists(
    st.sampled_from(["tool_call", "tool_result", "Stop", "SessionStart", "PreToolUse"]),
    max_size=3,
    unique=True,
)
tool_maps = st.dictionaries(
    st.sampled_from(["tool_call", "tool_result"]),
    st.lists(st.sampled_from(["Bash", "Edit", "Write"]), min_size=1, max_size=2, unique=True),
    max_size=2,
)
comments = st.text(string.ascii_letters + " #=[].", max_size=20).map(lambda text: "# " + text)
endings = st.sampled_from(["", "\n", "\n\n", "  \n", "\n\n\n"])


@st.composite
def files(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A hookman.toml as users leave it: comments, blank lines, any ending, sometimes an
    inline `hooks = [...]` array or a table after the hooks."""
    listed = draw(st.lists(names, max_size=3, unique=True))
    shape = draw(st.sampled_from(["tables", "inline", "table after", "empty"]))
    if shape == "empty":
        return "", []
    parts = [draw(comments) + "\n"]
    if draw(st.booleans()):
        parts.append('claude_version = "2.1.332"\n')
    if shape == "inline":
        rows = [f'{{ name = "{name}", path = "hooks/{name}.py" }}' for name in listed]
        parts.append(f"hooks = [{', '.join(rows)}]\n")
    else:
        for name in listed:
            parts.append(f"\n{draw(comments)}\n[[hooks]]\n")
            parts.append(f'name = "{name}"\npath = "hooks/{name}.py"\n')
            events = ", ".join(f'"{event}"' for event in draw(event_lists))
            parts.append(f"events = [{events}]\n")
        if shape == "table after":
            parts.append("\n[extra]\nkept = true\n")
    return "".join(parts).rstrip("\n") + draw(endings), listed


def _hooks(draw: st.DrawFn, listed: list[str]) -> list[NewHook]:
    chosen = draw(st.lists(st.one_of(names, *map(st.just, listed or ["x"])), max_size=6))
    return [
        NewHook(name, HookSource("path", f"hooks/{name}.py"), draw(event_lists), draw(tool_maps))
        for name in chosen
    ]


FAST = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FAST
@given(files(), st.data(), st.sampled_from([None, True, False]))
def test_many_hooks_at_once_give_the_bytes_of_one_at_a_time(
    project: Path, drawn: tuple[str, list[str]], data: st.DataObject, run_async: bool | None
) -> None:
    text, listed = drawn
    hooks = _hooks(data.draw, listed)
    path = project / ".claude" / "hookman.toml"
    if text:
        path.write_text(text, encoding="utf-8")
    else:
        path.unlink(missing_ok=True)
    one_by_one = load_project_config(project)
    for hook in hooks:
        one_by_one.put_hook(*hook, run_async=run_async)
    at_once = load_project_config(project)
    at_once.put_hooks(hooks, run_async=run_async)
    assert at_once.text() == one_by_one.text()
    assert at_once.hooks == one_by_one.hooks


def test_three_hundred_hooks_are_validated_once(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    validate = config_module._validate

    def counted(document: object) -> object:
        calls.append(1)
        return validate(document)  # type: ignore[arg-type]

    config = load_project_config(project)
    monkeypatch.setattr(config_module, "_validate", counted)
    hooks = [
        NewHook(
            f"h{n}", HookSource("path", f"hooks/h{n}.py"), ["tool_call"], {"tool_call": ["Bash"]}
        )
        for n in range(300)
    ]
    config.put_hooks(hooks)
    assert calls == [1]
    assert [hook.name for hook in config.hooks] == [f"h{n}" for n in range(300)]
