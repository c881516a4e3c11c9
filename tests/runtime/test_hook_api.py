"""The `pi` object: on (both forms, tools), send_message, append_entry, commands, renderers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.runtime import HookAPI, LoadedHook, RegisteredCommand


def api(cwd: str = "/project") -> tuple[HookAPI, LoadedHook]:
    loaded = LoadedHook("hook.py")
    return HookAPI(loaded, cwd), loaded


def handler(event: object, ctx: object) -> None:
    return None


def other(event: object, ctx: object) -> None:
    return None


def test_on_appends_handlers_in_order_and_returns_the_handler() -> None:
    pi, loaded = api()
    assert pi.on("tool_call", handler) is handler
    pi.on("tool_call", other)
    pi.on("context", handler)
    assert loaded.handlers == {"tool_call": [handler, other], "context": [handler]}


def test_on_works_as_a_decorator_with_and_without_tools() -> None:
    pi, loaded = api()

    @pi.on("tool_call")
    def plain(event: object, ctx: object) -> None:
        return None

    @pi.on("tool_result", tools=["Bash"])
    def narrowed(event: object, ctx: object) -> None:
        return None

    assert plain.__name__ == "plain"  # the decorator hands the function back unchanged
    assert loaded.handlers == {"tool_call": [plain], "tool_result": [narrowed]}
    assert loaded.tool_filters == {"tool_call": None, "tool_result": ["Bash"]}


def test_tool_filters_are_the_union_of_declared_tools_per_event() -> None:
    pi, loaded = api()
    pi.on("tool_call", handler, tools=["Bash", "Edit"])
    pi.on("tool_call", other, tools=("Edit", "Write"))
    assert loaded.tool_filters["tool_call"] == ["Bash", "Edit", "Write"]


@pytest.mark.parametrize("undeclared_first", [True, False])
def test_one_handler_without_tools_makes_the_filter_none(undeclared_first: bool) -> None:
    pi, loaded = api()
    registrations = [(handler, None), (other, ["Bash"])]
    for function, tools in registrations if undeclared_first else reversed(registrations):
        pi.on("tool_call", function, tools=tools)
    assert loaded.tool_filters["tool_call"] is None


def test_an_empty_tools_list_is_refused_as_hookman_toml_refuses_it() -> None:
    pi, loaded = api()
    with pytest.raises(ValueError, match=r"tools=\[\] names no tool"):
        pi.on("tool_call", handler, tools=[])
    assert "tool_call" not in loaded.tool_filters


@given(
    st.lists(
        st.one_of(
            st.none(), st.lists(st.sampled_from(["Bash", "Edit", "Read", "mcp__x"]), min_size=1)
        )
    )
)
def test_tool_filter_property(declarations: list[list[str] | None]) -> None:
    pi, loaded = api()
    for tools in declarations:
        pi.on("tool_call", handler, tools=tools)
    if not declarations:
        assert "tool_call" not in loaded.tool_filters
    elif any(tools is None for tools in declarations):
        assert loaded.tool_filters["tool_call"] is None
    else:
        expected = list(dict.fromkeys(name for tools in declarations for name in tools))
        assert loaded.tool_filters["tool_call"] == expected


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda pi: pi.on("tool_call", tools="Bash"), "not the string 'Bash'"),
        (lambda pi: pi.on("tool_call", handler, tools=[1]), "list of tool names"),
        (lambda pi: pi.on(42, handler), "event name"),
        (lambda pi: pi.on("tool_call", "not callable"), "must be callable"),
        (lambda pi: pi.on("tool_call", lambda event: None), "must accept \\(event, ctx\\)"),
        (lambda pi: pi.on("tool_call", lambda a, b, c: None), "must accept \\(event, ctx\\)"),
    ],
)
def test_registration_mistakes_raise_clear_type_errors(call: object, message: str) -> None:
    pi, _ = api()
    with pytest.raises(TypeError, match=message):
        call(pi)  # type: ignore[operator]


def test_handlers_with_defaults_varargs_methods_and_callables_are_accepted() -> None:
    class Policy:
        def check(self, event: object, ctx: object) -> None:
            return None

        def __call__(self, event: object, ctx: object) -> None:
            return None

    pi, loaded = api()
    for accepted in (
        lambda event, ctx, extra=None: None,
        lambda *args: None,
        lambda event, ctx=None: None,
        Policy().check,
        Policy(),
        print,
    ):
        pi.on("turn_start", accepted)
    assert len(loaded.handlers["turn_start"]) == 6


def test_send_message_and_append_entry_fail_before_initialize() -> None:
    pi, _ = api()
    with pytest.raises(RuntimeError, match="send_message handler not initialized"):
        pi.send_message("hi")
    with pytest.raises(RuntimeError, match="append_entry handler not initialized"):
        pi.append_entry("note")


def test_send_message_and_append_entry_fail_while_loading_even_with_sinks() -> None:
    pi, loaded = api()
    loaded.set_send_message_handler(lambda *a, **k: None)
    loaded.set_append_entry_handler(lambda *a: None)
    loaded.loading = True
    with pytest.raises(
        RuntimeError, match="send_message is not available while the hook is loading"
    ):
        pi.send_message("hi")
    with pytest.raises(
        RuntimeError, match="append_entry is not available while the hook is loading"
    ):
        pi.append_entry("note")


def test_send_message_and_append_entry_forward_to_the_sinks() -> None:
    pi, loaded = api()
    sent: list[tuple[object, dict[str, object]]] = []
    entries: list[tuple[str, object]] = []
    loaded.set_send_message_handler(lambda message, **options: sent.append((message, options)))
    loaded.set_append_entry_handler(lambda custom_type, data: entries.append((custom_type, data)))

    pi.send_message("plain")
    pi.send_message({"custom_type": "note", "content": "x"}, trigger_turn=True, deliver_as="steer")
    pi.append_entry("counter")
    pi.append_entry("counter", {"n": 2})

    assert sent == [
        ("plain", {"trigger_turn": False, "deliver_as": None}),
        ({"custom_type": "note", "content": "x"}, {"trigger_turn": True, "deliver_as": "steer"}),
    ]
    assert entries == [("counter", None), ("counter", {"n": 2})]


def test_register_command_replaces_in_place_keeping_the_first_position() -> None:
    pi, loaded = api()

    def run(args: str, ctx: object) -> None:
        return None

    pi.register_command("deploy", description="old", handler=run)
    pi.register_command("status", handler=run)
    pi.register_command("deploy", description="new", handler=run)

    assert list(loaded.commands) == ["deploy", "status"]
    assert loaded.commands["deploy"] == RegisteredCommand("deploy", "new", run)
    assert loaded.commands["status"].description is None


def test_register_message_renderer_last_registration_wins() -> None:
    pi, loaded = api()

    def first(message: object, options: object, theme: object) -> None:
        return None

    def second(message: object, options: object, theme: object) -> None:
        return None

    pi.register_message_renderer("note", first)
    pi.register_message_renderer("note", second)
    assert loaded.message_renderers == {"note": second}


def test_exec_runs_in_the_hooks_cwd_by_default(tmp_path: object) -> None:
    pi, _ = api(str(tmp_path))
    result = pi.exec("pwd", [])
    assert (result.code, result.stdout.strip()) == (0, str(tmp_path))


def test_loaded_hook_built_by_hand_has_no_tool_narrowing() -> None:
    loaded = LoadedHook("a.py", {"tool_call": [handler]}, tool_filters={"tool_result": ["Bash"]})
    assert loaded.resolved_path == "a.py"
    assert loaded.tool_filters == {"tool_call": None, "tool_result": ["Bash"]}
    assert loaded.commands == {} and loaded.message_renderers == {}
