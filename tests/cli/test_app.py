from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import hookman as hookman_package
from hookman import __version__


def hookman(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookman", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )


def test_version() -> None:
    done = hookman("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"hookman {__version__}"


def test_help_lists_every_command() -> None:
    done = hookman("--help")
    assert done.returncode == 0
    for name in ("install", "remove", "list", "registry", "run", "fire", "log", "statusline"):
        assert name in done.stdout


def test_unknown_command_is_a_usage_error_without_traceback() -> None:
    done = hookman("instal")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "No such command" in done.stderr


def test_bad_project_dir_is_one_sentence_and_a_hint(tmp_path: Path) -> None:
    done = hookman("list", "--project", str(tmp_path / "missing"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines[0].startswith("hookman: the project directory")
    assert lines[1].strip().startswith("hint:")


def help_text(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "hookman", *args, "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "80", "NO_COLOR": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


def test_install_help_is_plain_with_conventional_metavars_and_an_example() -> None:
    text = help_text("install")
    assert text.startswith(
        "Usage: hookman install [OPTIONS] [HOOK]...\n\n"
        "  Add hooks to the project and write its Claude Code settings.\n"
    )
    for line in (
        "  --name NAME            Name for a single path hook (default: the file's",
        "  --project DIR          Project directory (default: nearest ancestor with",
        "  --claude-version V     Target Claude Code version (default: `claude",
        "  --async / --no-async   Observe-only: run the hooks given in a separate entry",
        "  -h, --help             Show this message and exit.",
    ):
        assert line in text.splitlines()
    assert text.endswith(
        "  Examples:\n"
        "    hookman install hooks/guard.py\n"
        "    hookman install guard --async\n"
        "    hookman install          # rewrite settings from hookman.toml\n"
    )
    assert "<" not in text and "╭" not in text  # no <bool>/<list[str]>, no rich panels


def test_every_command_help_has_an_example_and_no_type_metavars() -> None:
    root = help_text()
    commands = [
        line.split()[0] for line in root.split("Commands:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    ]
    assert commands[:3] == ["install", "remove", "list"]
    for name in commands:
        words = ["registry", "add"] if name == "registry" else [name]
        text = help_text(*words)
        assert "Example" in text, name
        assert not re.search(r"<(str|bool|int|path|list\[str\])>", text), name


def test_log_and_fire_help_show_their_metavars() -> None:
    log_help = help_text("log").splitlines()
    assert "  -n, --lines N  How many recent lines.  [default: 20]" in log_help
    assert any(line.startswith("  --event EVENT") for line in log_help)
    assert help_text("fire").splitlines()[0] == "Usage: hookman fire [OPTIONS] EVENT"
    assert "  --payload FILE" in help_text("fire")
    assert help_text("remove").splitlines()[0] == "Usage: hookman remove [OPTIONS] HOOK..."
    assert help_text("registry", "add").splitlines()[0] == (
        "Usage: hookman registry add [OPTIONS] FILE"
    )
    assert help_text("command").splitlines()[0] == "Usage: hookman command [OPTIONS] NAME"


# Commands other branches add; their hints are checked once they are part of the CLI.
COMMANDS_NOT_YET_HERE = {"new", "enable", "disable", "doctor"}
HINT = re.compile(r"`(hookman [^`\n]*)`")
PLACEHOLDER = re.compile(r"^(\{.*\}|[A-Z][A-Z_.]*|PATH\.py)$")


def _hint_commands() -> list[tuple[str, str]]:
    found = []
    for path in sorted(Path(hookman_package.__file__).parent.rglob("*.py")):
        for match in HINT.finditer(path.read_text(encoding="utf-8")):
            found.append((f"{path.name}", match.group(1)))
    return found


def _words(command: str) -> list[str]:
    words = []
    for word in command.split()[1:]:
        if word in ("|", "<", ">"):
            break  # the shell's, not hookman's
        word = word.strip("[]")
        if word in ("...", "<", ">", "<", "payload.json") or word.startswith(("<", ">")):
            continue
        words.append("x" if PLACEHOLDER.match(word.rstrip(".")) or "{" in word else word)
    return words


def test_every_hookman_command_named_in_a_message_exists_with_those_options() -> None:
    import typer.main

    from hookman.cli.app import app

    root = typer.main.get_command(app)
    checked = 0
    for where, command in _hint_commands():
        words = _words(command)
        if words and words[0].startswith("__"):
            continue  # the completion helper, routed before typer
        if words and words[0] in COMMANDS_NOT_YET_HERE:
            continue
        alternatives = words[1].split("/") if len(words) > 1 and "/" in words[1] else None
        for variant in [[words[0], alt, *words[2:]] for alt in alternatives or [None]]:
            variant = [word for word in variant if word is not None] if alternatives else words
            node = root
            position = 0
            while position < len(variant) and hasattr(node, "commands"):
                if variant[position].startswith("-"):
                    break
                child = node.commands.get(variant[position])
                assert child is not None, f"{where}: `{command}` names no command"
                node = child
                position += 1
            known = {opt for param in node.params for opt in (*param.opts, *param.secondary_opts)}
            known |= {"-h", "--help"}
            if node.context_settings.get("ignore_unknown_options"):
                known = None  # `run` and `command` pass their other words on
            for word in variant[position:]:
                if known is not None and word.startswith("-") and "=" not in word:
                    assert word in known, f"{where}: `{command}`: {word} is not an option"
            checked += 1
    assert checked > 40


def test_a_broken_new_hook_hint_repeats_the_path_given(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    (project / "hooks").mkdir()
    (project / "hooks" / "x.py").write_text("def hook(pi):\n    pi.on('tool_call', \n")
    done = hookman("install", "hooks/x.py", "--claude-version", "2.1.328", cwd=project)
    assert done.returncode == 1
    assert "run `hookman install hooks/x.py` again" in done.stderr


@pytest.mark.parametrize(
    "args", [["--help"], ["list"], ["registry", "list"], ["install", "--help"]]
)
def test_a_reader_that_stops_early_ends_the_command_quietly(args: list[str], project: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "hookman", *args],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # like `| head -0`: nobody reads what hookman prints
    stderr = process.stderr.read()
    # 141 as after SIGPIPE; click's own help output ends with 1 there.
    assert process.wait() in (141, 1)
    assert stderr == ""


def _run_with_importtime(
    args: list[str], cwd: Path
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """`python -X importtime -m hookman ARGS` with no claude on PATH (nothing to cache either),
    and the modules it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "hookman", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PATH": os.defpath},
        check=False,
    )
    imported = set(re.findall(r"^import time:.*\|\s*([\w.]+)\s*$", done.stderr, re.MULTILINE))
    return done, imported


def _quickstart(tmp_path: Path) -> Path:
    project = tmp_path / "quickstart"
    shutil.copytree(Path(__file__).parents[2] / "examples" / "quickstart", project)
    return project


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["install", "--help"],
        ["list"],
        ["list", "--json"],
        ["log"],
        ["registry", "list"],
    ],
)
def test_reading_commands_printing_plain_text_import_nothing_heavy(
    args: list[str], project: Path
) -> None:
    done, imported = _run_with_importtime(args, project)
    assert done.returncode == 0, done.stderr
    heavy = {"rich", "pydantic", "tomlkit", "filelock", "platformdirs"}
    assert not {name.split(".")[0] for name in imported} & heavy
    assert "hookman.hooks.subscriptions" not in imported


def test_install_with_nothing_to_change_loads_no_runtime(tmp_path: Path) -> None:
    """Hooks load in the child process that learns their subscriptions (cached), never in
    install's own: the runtime package would cost it milliseconds on every run."""
    project = _quickstart(tmp_path)
    install = ["install", "--claude-version", "2.1.332"]
    first = subprocess.run(
        [sys.executable, "-m", "hookman", *install],
        capture_output=True,
        text=True,
        cwd=project,
        env={**os.environ, "PATH": os.defpath},
    )
    assert first.returncode == 0, first.stderr
    again, imported = _run_with_importtime(install, project)
    assert again.returncode == 0, again.stderr
    assert "hookman.install.sync" in imported  # the measurement saw install's own modules
    assert not {name for name in imported if name.startswith("hookman.runtime")}


def test_list_imports_no_writer(tmp_path: Path) -> None:
    """`list` reads what install would write (install/report.py, install/resolution.py) and
    never loads the modules that write: they cost it milliseconds on every run."""
    done, imported = _run_with_importtime(["list"], _quickstart(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "block_rm_rf.py" in done.stdout  # the listing ran, with the example's hook
    assert "hookman.install.report" in imported
    writers = {
        "hookman.install.sync",
        "hookman.project.settings_file",
        "hookman.project.settings_entries",
        "hookman.agents.codex_files",
        "hookman.project.launcher",
    }
    assert not imported & writers
