"""Whether a hook's module can load at all: it exists, can be read, and compiles.

One answer shared by install, list and doctor, so a hook with a syntax error (which the
runner reports as a load error: a guard then denies every call it guards) is named the
same way everywhere. Compiling runs none of the hook's code."""

from __future__ import annotations

from pathlib import Path

from hookman.bridge.state_file import NotRegularFile, read_regular


def module_problem(module: Path) -> str | None:
    """What keeps `module` from loading, as a phrase ("has a syntax error (line 3: ...)"),
    or None when it compiles."""
    try:  # never blocking: a named pipe at the name would wait for a writer forever
        source = read_regular(str(module), follow=True)
    except FileNotFoundError:
        return f"has no module ({module} does not exist)"
    except NotRegularFile as error:  # named as the runner's loader names it
        return f"has a module that cannot be read ({module} is {error.kind}, not a Python file)"
    except OSError as error:
        return f"has a module that cannot be read ({error.strerror or error})"
    try:
        compile(source, str(module), "exec", dont_inherit=True)
    except SyntaxError as error:
        return f"has a syntax error in {module.name} (line {error.lineno}: {error.msg})"
    except ValueError as error:
        return f"has a module that cannot be compiled ({error})"
    return None


def load_effect(events: tuple[str, ...] | list[str]) -> str:
    """What a hook that does not load means for the client, from the events it listens to."""
    if "tool_call" in events or "PreToolUse" in events:
        return "it fails to load, so its guard denies every tool call it guards"
    return "it fails to load, so it does nothing"
