"""How a command is declared on the command line: the decorator on the function in
hookman/commands/ that does the command's work, and the options several commands share.

Each option and argument is declared once, beside its command (hatch's model: the click
decorators sit on the function). The decorator only records the declaration on the function
(`function.cli`); the function stays a plain Python function that tests call with keyword
arguments and that returns the exit code. Defaults are the function's own.

The CLI layer turns the declarations into typer/click commands and the shell completions.
So that a command's help and `hookman --help` import no command module (the start-up
budget), it reads them from the generated hookman/cli/command_index.json (written by
hookman/cli/declarations.py when `python -m hookman.cli.completion_scripts` regenerates the
completions; tests/cli fail while either is stale).

Lean: `hookman statusline` imports this module on its fast path (no typing, no dataclasses,
no pathlib).
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`: the status line imports this module
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    Function = TypeVar("Function", bound=Callable[..., Any])

# What a value completes to on TAB: a `hookman __complete` KIND (hookman/cli/complete_words.py),
# or one the scripts complete themselves.
SCRIPT_KINDS = ("dirs", "files", "events", "shells")


class Option:
    """`--flag VALUE` (or a flag: `flag=True`). `dest` is the function's parameter (default:
    the long flag's name); `type`: "str", "int" or "path"; `value`: what a flag passes when
    given (`--no-codex-trust`: False); `secondary`: a flag's opposite (`--async/--no-async`);
    `multiple`: repeatable, a list; `complete`: what its value completes to on TAB;
    `passthrough`: the command reads it itself (`run --manifest`), so only the completions
    know it; `show_default`: click's "[default: ...]"."""

    __slots__ = (
        "complete",
        "dest",
        "flag",
        "flags",
        "help",
        "metavar",
        "multiple",
        "passthrough",
        "secondary",
        "show_default",
        "type",
        "value",
    )

    def __init__(
        self,
        *flags: str,
        help: str,
        dest: str | None = None,
        metavar: str | None = None,
        type: str = "str",
        flag: bool = False,
        value: bool = True,
        secondary: str | None = None,
        multiple: bool = False,
        show_default: bool = False,
        complete: str | None = None,
        passthrough: bool = False,
    ) -> None:
        long_flags = [f for f in flags if f.startswith("--")]
        self.flags = flags
        self.dest = dest or long_flags[0][2:].replace("-", "_")
        self.metavar = metavar
        self.help = help
        self.type = type
        self.flag = flag or secondary is not None
        self.value = value
        self.secondary = secondary
        self.multiple = multiple
        self.show_default = show_default
        self.complete = complete
        self.passthrough = passthrough


class Argument:
    """A positional argument: `dest` is the function's parameter (`type` as an Option's);
    `variadic`: any number
    (a list); required when the function gives it no default; `show_default`: False hides
    click's "[required]"."""

    __slots__ = ("complete", "dest", "help", "metavar", "show_default", "type", "variadic")

    def __init__(
        self,
        dest: str,
        metavar: str,
        *,
        help: str,
        type: str = "str",
        variadic: bool = False,
        show_default: bool = True,
        complete: str | None = None,
    ) -> None:
        self.dest = dest
        self.metavar = metavar
        self.help = help
        self.type = type
        self.variadic = variadic
        self.show_default = show_default
        self.complete = complete


class Command:
    """A command's declaration: its words (`("registry", "add")`), its help (first line: the
    summary), the example command lines of its help, its parameters in help order, and
    `rest`: the parameter that takes the words after them (`run`, `command`), as a list or,
    with `rest_text`, joined by spaces."""

    __slots__ = ("examples", "help", "params", "path", "rest", "rest_text")

    def __init__(
        self,
        path: tuple[str, ...],
        help: str,
        examples: tuple[str, ...],
        params: tuple[Option | Argument, ...],
        rest: str | None,
        rest_text: bool,
    ) -> None:
        self.path = path
        self.help = help
        self.examples = examples
        self.params = params
        self.rest = rest
        self.rest_text = rest_text


class Group:
    """A command with sub-commands (`registry`, `plugin`)."""

    __slots__ = ("examples", "help", "name")

    def __init__(self, name: str, help: str, examples: tuple[str, ...]) -> None:
        self.name = name
        self.help = help
        self.examples = examples


def cli_command(
    name: str,
    *params: Option | Argument,
    help: str,
    examples: tuple[str, ...],
    rest: str | None = None,
    rest_text: bool = False,
) -> Callable[[Function], Function]:
    """Declare the decorated function as the command `name` (`"registry add"`: a sub-command)."""

    def declare(function: Function) -> Function:
        declared = Command(tuple(name.split()), help, examples, params, rest, rest_text)
        function.cli = declared  # type: ignore[attr-defined]
        return function

    return declare


# The options several commands share: declared once here.
PROJECT = Option(
    "--project",
    metavar="DIR",
    type="path",
    complete="dirs",
    help="Project directory (default: nearest ancestor with .claude/, else the git root, "
    "else the current directory).",
)
CLAUDE_VERSION = Option(
    "--claude-version",
    metavar="V",
    help="Target Claude Code version (default: `claude --version`, or claude_version in "
    "hookman.toml).",
)
JSON = Option("--json", dest="json_output", flag=True, help="Print machine-readable JSON.")
DRY_RUN = Option("--dry-run", flag=True, help="Show the diff; write nothing.")


def agent_values() -> str:
    """The values `--agent` takes (install, fire), for their help: the agents besides Claude
    Code (project/config.py KNOWN_AGENTS holds them all)."""
    from hookman.bridge.protocol import CODEX_AGENT
    from hookman.catalog.agent_catalog import OTHER_AGENTS

    return ", ".join((CODEX_AGENT, *OTHER_AGENTS))
