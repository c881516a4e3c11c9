from __future__ import annotations

import json
import string
import time
from pathlib import Path

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookman import paths
from hookman.errors import HookmanError
from hookman.project.config import (
    HookSource,
    HookSpec,
    ProjectConfigDocument,
    ProjectConfigView,
    load_project_config,
    read_project_config,
    save_project_config,
    split_layout,
)

COMMENTED = """\
# team hooks: keep the guard first
claude_version = "2.1.328"   # CI has no claude binary

[[hooks]]   # the guard
name = "guard"
path = "hooks/guard.py"
enabled = true
events = [ "tool_call" ]     # spaced the team's way
tools = { tool_call = ["Bash"] }
timeout = 10

# notes go last
[[hooks]]
name = "notes"
registry = "notes"
enabled = false
events = ["session_start"]
"""


def _write(project: Path, text: str) -> Path:
    path = project / ".claude" / "hookman.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_reads_hooks_in_dispatch_order_with_their_options(project: Path) -> None:
    _write(project, COMMENTED)
    config = load_project_config(project)
    assert config.claude_version == "2.1.328"
    assert config.hooks == [
        HookSpec(
            "guard",
            HookSource("path", "hooks/guard.py"),
            True,
            ("tool_call",),
            {"tool_call": ("Bash",)},
            10,
        ),
        HookSpec("notes", HookSource("registry", "notes"), False, ("session_start",), {}, None),
    ]


def test_a_missing_file_is_an_empty_list_and_is_not_created_by_saving(project: Path) -> None:
    config = load_project_config(project)
    assert config.hooks == []
    assert not save_project_config(config)
    assert not (project / ".claude" / "hookman.toml").exists()


def test_relearning_with_the_same_subscriptions_changes_no_byte(project: Path) -> None:
    path = _write(project, COMMENTED)
    config = load_project_config(project)
    config.put_hook(
        "guard", HookSource("path", "hooks/guard.py"), ["tool_call"], {"tool_call": ["Bash"]}
    )
    assert not config.changed()
    assert not save_project_config(config)
    assert path.read_text() == COMMENTED


def test_updating_a_hook_keeps_comments_order_and_options(project: Path) -> None:
    _write(project, COMMENTED)
    config = load_project_config(project)
    config.put_hook("guard", HookSource("path", "hooks/guard.py"), ["tool_call", "tool_result"], {})
    save_project_config(config)
    text = (project / ".claude" / "hookman.toml").read_text()
    assert "# team hooks: keep the guard first" in text
    assert "# CI has no claude binary" in text
    assert "[[hooks]]   # the guard" in text
    assert "# notes go last" in text
    assert "tools" not in text
    reread = load_project_config(project)
    assert [hook.name for hook in reread.hooks] == ["guard", "notes"]
    assert reread.hooks[0].events == ("tool_call", "tool_result")
    assert reread.hooks[0].timeout == 10
    assert reread.hooks[1].enabled is False


def test_adding_and_removing_a_hook_leaves_the_rest_as_it_was(project: Path) -> None:
    _write(project, COMMENTED)
    config = load_project_config(project)
    config.put_hook("fmt", HookSource("template", "fmt"), ["PostToolBatch"], {})
    save_project_config(config)
    added = (project / ".claude" / "hookman.toml").read_text()
    assert added.startswith(COMMENTED)
    assert [hook.name for hook in load_project_config(project).hooks] == ["guard", "notes", "fmt"]
    config = load_project_config(project)
    config.remove_hook("fmt")
    save_project_config(config)
    assert (project / ".claude" / "hookman.toml").read_text().rstrip("\n") == COMMENTED.rstrip("\n")


def test_a_new_file_gets_a_header_and_array_of_tables(project: Path) -> None:
    config = load_project_config(project)
    config.put_hook(
        "guard", HookSource("path", "hooks/guard.py"), ["tool_call"], {"tool_call": ["Bash"]}
    )
    save_project_config(config)
    text = (project / ".claude" / "hookman.toml").read_text()
    assert text.startswith("# hookman:")
    assert "[[hooks]]" in text
    assert tomlkit.parse(text)["hooks"][0]["tools"] == {"tool_call": ["Bash"]}


def test_inline_array_of_hooks_is_edited_in_its_own_style(project: Path) -> None:
    _write(project, 'hooks = [{name = "a", path = "a.py", events = []}]\n')
    config = load_project_config(project)
    config.put_hook("b", HookSource("registry", "b"), ["Stop"], {})
    save_project_config(config)
    text = (project / ".claude" / "hookman.toml").read_text()
    assert "[[hooks]]" not in text
    assert [hook.name for hook in load_project_config(project).hooks] == ["a", "b"]


def test_malformed_toml_names_line_and_column_and_is_not_touched(project: Path) -> None:
    broken = '[[hooks]]\nname = "guard"\npath = hooks/guard.py\n'
    path = _write(project, broken)
    with pytest.raises(HookmanError) as error:
        load_project_config(project)
    assert "line 3" in error.value.message
    assert "column" in error.value.message
    assert error.value.hint
    assert path.read_text() == broken


@pytest.mark.parametrize(
    ("table", "fragment"),
    [
        ('name = "g"\nevents = []', "exactly one of"),
        ('name = "g"\npath = "a.py"\nregistry = "a"', "exactly one of"),
        ('name = "g"\npath = "a.py"\nenabled = "yes"', "`enabled`"),
        ('name = "g"\npath = "a.py"\nevents = "tool_call"', "`events`"),
        ('name = "g"\npath = "a.py"\ntimeout = -1', "`timeout`"),
        ('name = "g"\npath = "a.py"\ntimeout = nan', "`timeout`"),
        ('name = "g"\npath = "a.py"\ntools = ["Bash"]', "`tools`"),
        ('name = "g"\npath = "a.py"\ntools = { tool_call = [""] }', "`tools`"),
        ('name = "g"\npath = "a.py"\nenable = false', "unknown key 'enable'"),
        ('name = "g"\npath = "a.py"\nasync = "yes"', "`async`"),
        ('name = "g"\npath = "a.py"\nasync = 1', "`async`"),
    ],
)
def test_invalid_hook_tables_are_refused_naming_the_hook(
    project: Path, table: str, fragment: str
) -> None:
    _write(project, f"[[hooks]]\n{table}\n")
    with pytest.raises(HookmanError) as error:
        load_project_config(project)
    assert "'g'" in error.value.message
    assert fragment in error.value.message


@pytest.mark.parametrize(
    "path", ["/home/me/guard.py", "~/guard.py", "../elsewhere/guard.py", "C:\\\\hooks\\\\g.py"]
)
def test_paths_outside_the_project_are_refused(project: Path, path: str) -> None:
    _write(project, f'[[hooks]]\nname = "g"\npath = "{path}"\n')
    with pytest.raises(HookmanError) as error:
        load_project_config(project)
    assert "registry add" in (error.value.hint or "")


def test_duplicate_names_are_refused(project: Path) -> None:
    _write(project, '[[hooks]]\nname = "g"\npath = "a.py"\n[[hooks]]\nname = "g"\npath = "b.py"\n')
    with pytest.raises(HookmanError, match="twice"):
        load_project_config(project)


def test_claude_version_must_be_a_string(project: Path) -> None:
    _write(project, "claude_version = 2.1\n")
    with pytest.raises(HookmanError, match="claude_version"):
        load_project_config(project)


# --- property tests: edits keep what they do not touch -------------------------------------

names = st.text(string.ascii_lowercase + string.digits + "_-", min_size=1, max_size=8).filter(
    lambda name: name[0] not in "-"
)
event_names = st.lists(
    st.sampled_from(["tool_call", "tool_result", "Stop", "SessionStart"]), max_size=3, unique=True
)
comments = st.text(string.ascii_letters + string.digits + " #=[]\"'.,:;!?", max_size=30).map(
    lambda text: "# " + text
)


@st.composite
def config_texts(draw: st.DrawFn) -> tuple[str, list[str]]:
    hook_names = draw(st.lists(names, max_size=4, unique=True))
    parts = [draw(comments) + "\n"]
    if draw(st.booleans()):
        parts.append(f'claude_version = "2.1.{draw(st.integers(0, 400))}"  {draw(comments)}\n')
    for name in hook_names:
        parts.append(f"\n{draw(comments)}\n[[hooks]]\n")
        parts.append(f'name = "{name}"\n')
        parts.append(f'path = "hooks/{name}.py"  {draw(comments)}\n')
        if draw(st.booleans()):
            parts.append(f"enabled = {draw(st.sampled_from(['true', 'false']))}\n")
        events = draw(event_names)
        spacing = draw(st.sampled_from(["", " "]))
        listed = ", ".join(f'"{event}"' for event in events)
        parts.append(f"events = [{spacing}{listed}{spacing}]\n")
    return "".join(parts), hook_names


FAST = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FAST
@given(config_texts())
def test_reading_and_saving_unchanged_keeps_every_byte(
    project: Path, drawn: tuple[str, list[str]]
) -> None:
    text, _ = drawn
    path = _write(project, text)
    config = load_project_config(project)
    for hook in config.hooks:
        config.put_hook(hook.name, hook.source, hook.events, hook.tools)
    save_project_config(config)
    assert path.read_text() == text


@FAST
@given(config_texts(), names, event_names)
def test_add_then_remove_restores_the_file_up_to_trailing_whitespace(
    project: Path, drawn: tuple[str, list[str]], new_name: str, events: list[str]
) -> None:
    text, hook_names = drawn
    if new_name in hook_names:
        return
    _write(project, text)
    config = load_project_config(project)
    config.put_hook(new_name, HookSource("path", f"new/{new_name}.py"), events, {})
    save_project_config(config)
    added = load_project_config(project)
    assert [hook.name for hook in added.hooks] == [*hook_names, new_name]
    assert added.hooks[-1].events == tuple(events)
    added.remove_hook(new_name)
    save_project_config(added)
    after = (project / ".claude" / "hookman.toml").read_text()
    assert after.rstrip() == text.rstrip()


@FAST
@given(config_texts(), st.data())
def test_removing_a_hook_keeps_the_others_and_their_comments(
    project: Path, drawn: tuple[str, list[str]], data: st.DataObject
) -> None:
    text, hook_names = drawn
    if not hook_names:
        return
    victim = data.draw(st.sampled_from(hook_names))
    _write(project, text)
    config = load_project_config(project)
    before = {hook.name: hook for hook in config.hooks}
    config.remove_hook(victim)
    save_project_config(config)
    after_text = (project / ".claude" / "hookman.toml").read_text()
    after = load_project_config(project)
    assert [hook.name for hook in after.hooks] == [name for name in hook_names if name != victim]
    for hook in after.hooks:
        assert hook == before[hook.name]
    first_line = text.splitlines()[0]
    assert first_line in after_text


@FAST
@given(config_texts(), st.data())
def test_relearning_new_events_changes_only_that_hooks_events_line(
    project: Path, drawn: tuple[str, list[str]], data: st.DataObject
) -> None:
    text, hook_names = drawn
    if not hook_names:
        return
    target = data.draw(st.sampled_from(hook_names))
    events = data.draw(event_names)
    _write(project, text)
    config = load_project_config(project)
    config.put_hook(target, HookSource("path", f"hooks/{target}.py"), events, {})
    save_project_config(config)
    after_text = (project / ".claude" / "hookman.toml").read_text()
    removed = set(text.splitlines()) - set(after_text.splitlines())
    assert all(line.startswith("events =") for line in removed)
    assert load_project_config(project).find(target).events == tuple(events)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("bom", "newline"), [(True, "\n"), (False, "\r\n"), (True, "\r\n")], ids=["bom", "crlf", "both"]
)
def test_a_bom_and_crlf_line_endings_are_read_and_kept(
    project: Path, bom: bool, newline: str
) -> None:
    text = ("\ufeff" if bom else "") + COMMENTED.replace("\n", newline)
    path = project / ".claude" / "hookman.toml"
    path.write_bytes(text.encode("utf-8"))
    config = load_project_config(project)
    assert [hook.name for hook in config.hooks] == ["guard", "notes"]
    assert not save_project_config(config)
    config.put_hook("extra", HookSource("path", "hooks/extra.py"), ["Stop"], {})
    save_project_config(config)
    written = path.read_bytes().decode("utf-8")
    assert written.startswith(text)  # every original byte kept, the new hook appended
    assert written.startswith("\ufeff") == bom
    assert ("\n" in written.replace("\r\n", "")) == (newline == "\n")  # no mixed endings
    config = load_project_config(project)
    config.remove_hook("extra")
    save_project_config(config)
    assert path.read_bytes().decode("utf-8").rstrip() == text.rstrip()


def test_a_file_mixing_line_endings_keeps_each_lines_own(project: Path) -> None:
    text = '# team\r\n[[hooks]]\nname = "guard"\r\npath = "hooks/guard.py"\n'
    path = project / ".claude" / "hookman.toml"
    path.write_bytes(text.encode())
    config = load_project_config(project)
    config.put_hook("guard", HookSource("path", "hooks/guard.py"), ["tool_call"], {})
    save_project_config(config)
    assert path.read_bytes().decode().startswith(text)


def test_an_unwritable_file_is_a_clear_error(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_project_config(project)
    config.put_hook("guard", HookSource("path", "hooks/guard.py"), ["tool_call"], {})

    def refuse(*args: object, **kwargs: object) -> bool:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("hookman.project.config.write_text_if_changed", refuse)
    with pytest.raises(HookmanError) as error:
        save_project_config(config)
    assert "cannot write .claude/hookman.toml: Permission denied" in error.value.message
    assert not (project / ".claude" / "hookman.toml").exists()


def test_thousands_of_events_and_tool_names_are_written_quickly(project: Path) -> None:
    events = [f"custom_{index}" for index in range(4000)]
    tools = {"tool_call": [f"mcp__server__tool_{index}" for index in range(4000)]}
    started = time.process_time()  # CPU time: other processes on a busy machine do not count
    config = load_project_config(project)
    config.put_hook("many", HookSource("path", "hooks/many.py"), events, tools)
    config.put_hook("many", HookSource("path", "hooks/many.py"), events[::-1], tools)
    save_project_config(config)
    assert time.process_time() - started < 3  # tomlkit's one-by-one append took ~10 s
    hook = load_project_config(project).find("many")
    assert hook is not None
    assert hook.events == tuple(events[::-1])
    assert hook.tools == {"tool_call": tuple(tools["tool_call"])}


@given(st.text(alphabet=st.sampled_from(["a", "=", '"', "\n", "\r", "\ufeff", "é"])))
def test_splitting_off_the_layout_and_applying_it_gives_back_every_byte(raw: str) -> None:
    text, layout = split_layout(raw)
    assert layout.apply(text) == raw
    assert not text.startswith("\ufeff") or raw.startswith("\ufeff\ufeff")


def test_async_defaults_to_false_and_is_read_when_true(project: Path) -> None:
    _write(project, COMMENTED.replace("timeout = 10", "timeout = 10\nasync = true"))
    guard, notes = load_project_config(project).hooks
    assert (guard.is_async, notes.is_async) == (True, False)


def test_setting_async_edits_only_that_hook_and_unsetting_removes_the_key(
    project: Path,
) -> None:
    path = _write(project, COMMENTED)
    config = load_project_config(project)
    notes = config.find("notes")
    assert notes is not None
    config.put_hook("notes", notes.source, notes.events, notes.tools, run_async=True)
    save_project_config(config)
    with_async = path.read_text()
    assert with_async.replace("async = true\n", "") == COMMENTED
    assert load_project_config(project).find("notes").is_async  # type: ignore[union-attr]

    config = load_project_config(project)
    config.put_hook("notes", notes.source, notes.events, notes.tools, run_async=False)
    save_project_config(config)
    assert path.read_text() == COMMENTED


@FAST
@given(config_texts(), st.lists(st.sampled_from([True, False, None]), min_size=1, max_size=4))
def test_async_is_the_last_setting_given_and_none_keeps_it(
    project: Path, drawn: tuple[str, list[str]], settings_given: list[bool | None]
) -> None:
    text, _ = drawn
    _write(project, text)
    expected = False
    for run_async in settings_given:
        config = load_project_config(project)
        config.put_hook(
            "observer", HookSource("path", "o.py"), ["tool_call"], {}, run_async=run_async
        )
        save_project_config(config)
        expected = expected if run_async is None else run_async
        assert load_project_config(project).find("observer").is_async is expected  # type: ignore[union-attr]
    if not any(settings_given):  # never set to true: no async key was written
        written = (project / ".claude" / "hookman.toml").read_text()
        assert written.count("async") == text.count("async")  # only the drawn comments'


comment_texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\r\n"),
    max_size=30,
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=60)
@given(comment=comment_texts, has_key=st.booleans(), start=st.booleans())
def test_set_enabled_changes_only_the_enabled_line(
    project: Path, comment: str, has_key: bool, start: bool
) -> None:
    enabled_line = f"enabled = {'true' if start else 'false'}   # {comment}\n" if has_key else ""
    text = (
        f'# {comment}\n[[hooks]]\nname = "guard"  # {comment}\npath = "hooks/guard.py"\n'
        f'{enabled_line}events = ["tool_call"]\n\n[[hooks]]\nname = "other"\n'
        'path = "hooks/other.py"\n'
    )
    (project / ".claude" / "hookman.toml").write_text(text, encoding="utf-8")
    config = load_project_config(project)
    was = config.find("guard").enabled  # type: ignore[union-attr]

    config.set_enabled("guard", not was)
    flipped = config.text()
    config.set_enabled("guard", was)

    assert config.find("guard").enabled is was  # type: ignore[union-attr]
    assert [hook.enabled for hook in load_project_config(project).hooks] == [was, True]
    changed = [line for line in flipped.splitlines() if line not in text.splitlines()]
    assert len(changed) == 1 and changed[0].startswith(f"enabled = {str(not was).lower()}")
    if has_key:
        assert config.text() == text  # switching back restores every byte


READ_CASES = [
    "",
    'claude_version = "2.1.328"\n',
    '[[hooks]]\nname = "g"\npath = "hooks/g.py"\nevents = ["tool_call"]\n'
    'tools = { tool_call = ["Bash", "Edit"] }\ntimeout = 2.5\nasync = true\nenabled = false\n',
    'hooks = [{name = "a", registry = "a"}, {name = "b", template = "t", events = ["Stop"]}]\n',
    '\ufeff# comment\r\n[[hooks]]\r\nname = "crlf"\r\npath = "x.py"\r\n',
]


@pytest.mark.parametrize("text", READ_CASES)
def test_reading_with_tomllib_gives_what_tomlkit_gives(project: Path, text: str) -> None:
    from hookman.project.config import read_project_config

    (project / ".claude" / "hookman.toml").write_bytes(text.encode("utf-8"))
    edited, read = load_project_config(project), read_project_config(project)
    assert read.hooks == edited.hooks
    assert read.claude_version == edited.claude_version
    assert read.original_text() == edited.original_text()
    assert type(read) is ProjectConfigView and isinstance(edited, ProjectConfigDocument)
    assert not read.changed() and read.text() == edited.text()


EDITS = {"add_agent", "put_hook", "set_enabled", "set_rev", "remove_hook", "frozen_tag"}


def test_a_read_view_has_no_edits_so_none_can_be_lost(project: Path) -> None:
    """`set_enabled` on a config read with tomllib used to change nothing, silently: a view
    has no edit to call (a type checker refuses it; at run time it is an AttributeError)."""
    (project / ".claude" / "hookman.toml").write_text('[[hooks]]\nname = "a"\npath = "a.py"\n')
    view = read_project_config(project)
    assert EDITS & set(dir(view)) == set()
    assert set(dir(load_project_config(project))) >= EDITS
    with pytest.raises(AttributeError):
        view.set_enabled("a", False)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    ['[[hooks]]\nname = "a"\npath = "a.py"\nname = "b"\n', "hooks = [\n", "claude_version = 2\n"],
)
def test_reading_a_bad_file_fails_as_editing_does(project: Path, text: str) -> None:
    from hookman.project.config import read_project_config

    (project / ".claude" / "hookman.toml").write_text(text)
    with pytest.raises(HookmanError) as edited:
        load_project_config(project)
    with pytest.raises(HookmanError) as read:
        read_project_config(project)
    assert read.value.message == edited.value.message
    assert read.value.hint == edited.value.hint


def test_an_unchanged_hookman_toml_is_read_without_a_toml_parser(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookman.project import config as project_config

    (project / ".claude" / "hookman.toml").write_text(
        '# kept\n[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\ntimeout = 2.5\n'
    )
    project_config.remember_parsed_config(project)
    monkeypatch.setattr(project_config, "parse_toml_or_none", lambda text: None)

    [hook] = read_project_config(project).hooks
    assert (hook.name, hook.timeout) == ("guard", 2.5)  # from the kept JSON, no parser

    (project / ".claude" / "hookman.toml").write_text('[[hooks]]\nname = "other"\npath = "o.py"\n')
    monkeypatch.undo()
    assert [hook.name for hook in read_project_config(project).hooks] == ["other"]


def test_a_broken_or_foreign_parse_cache_is_ignored(project: Path) -> None:
    from hookman.project import config as project_config

    (project / ".claude" / "hookman.toml").write_text('[[hooks]]\nname = "a"\npath = "a.py"\n')
    paths.project_state_dir(project).mkdir(parents=True, mode=0o700)
    cache = project_config._parsed_cache_path(project)
    assert cache is not None
    for junk in ("{not json", '{"text": "other", "data": {"hooks": []}}', '{"text": 1}', "[]"):
        cache.write_text(junk)
        assert [hook.name for hook in read_project_config(project).hooks] == ["a"]


def test_values_json_cannot_hold_exactly_are_not_kept(project: Path) -> None:
    from hookman.project import config as project_config

    (project / ".claude" / "hookman.toml").write_text("when = 1979-05-27\n")
    paths.project_state_dir(project).mkdir(parents=True, mode=0o700)
    project_config.remember_parsed_config(project)
    cache = project_config._parsed_cache_path(project)
    assert cache is not None and not cache.exists()


def test_a_parse_cache_where_others_can_write_is_neither_read_nor_written(project: Path) -> None:
    """Another user who can write the state directory could keep another configuration
    there under hookman.toml's own text (issue 23, class 6)."""
    from hookman.project import config as project_config

    text = '[[hooks]]\nname = "a"\npath = "a.py"\n'
    (project / ".claude" / "hookman.toml").write_text(text)
    state = paths.project_state_dir(project)
    state.mkdir(parents=True)
    state.chmod(0o777)
    planted = state / project_config.PARSED_CACHE_NAME
    planted.write_text(json.dumps({"text": text, "data": {"hooks": []}}))

    assert [hook.name for hook in read_project_config(project).hooks] == ["a"]
    project_config.remember_parsed_config(project)
    assert json.loads(planted.read_text())["data"] == {"hooks": []}  # not rewritten either
