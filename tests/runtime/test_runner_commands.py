"""Commands and message renderers across hooks (docs/dispatch.md)."""

from __future__ import annotations

from collections.abc import Callable

from hookman.runtime import HookRunner, LoadedHook, RegisteredCommand

Build = Callable[..., HookRunner]


def command(name: str, description: str) -> RegisteredCommand:
    return RegisteredCommand(name, description, lambda args, ctx: None)


def test_get_command_returns_the_first_hooks_command(runner_for: Build) -> None:
    first, second = command("deploy", "first"), command("deploy", "second")
    runner = runner_for(
        LoadedHook("a.py", commands={"other": command("other", "o")}),
        LoadedHook("b.py", commands={"deploy": first}),
        LoadedHook("c.py", commands={"deploy": second}),
    )
    assert runner.get_command("deploy") is first
    assert runner.get_command("missing") is None


def test_registered_commands_keep_duplicates_across_hooks_in_hook_order(runner_for: Build) -> None:
    a1, a2, b1 = command("x", "a"), command("y", "a"), command("x", "b")
    runner = runner_for(
        LoadedHook("a.py", commands={"x": a1, "y": a2}),
        LoadedHook("b.py", commands={"x": b1}),
    )
    assert runner.get_registered_commands() == [a1, a2, b1]


def test_get_message_renderer_returns_the_first_hooks_renderer(runner_for: Build) -> None:
    def first(message: object, options: object, theme: object) -> None:
        return None

    def second(message: object, options: object, theme: object) -> None:
        return None

    runner = runner_for(
        LoadedHook("a.py", message_renderers={"note": first}),
        LoadedHook("b.py", message_renderers={"note": second, "todo": second}),
    )
    assert runner.get_message_renderer("note") is first
    assert runner.get_message_renderer("todo") is second
    assert runner.get_message_renderer("none") is None
