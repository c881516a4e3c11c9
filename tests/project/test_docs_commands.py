"""The settings commands the documents show are the ones install writes: ARCHITECTURE.md's
entry, docs/claude-code-facts.md's command, docs/plugins.md's hooks.json command and the forms
settings_entries.py's docstring names, rendered here with the documents' placeholders for
paths and texts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import hookman.project.settings_entries as settings_entries
from hookman.plugin.launcher import hook_command, missing_launcher_text
from hookman.project.launcher import LAUNCHER_FORMAT, MISSING_LAUNCHER_TEXT
from hookman.project.settings_entries import HookmanEntry, build_command

REPO = Path(__file__).resolve().parents[2]


def _section(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    start = text.index(heading + "\n")
    end = text.find("\n#", start + len(heading))
    return text[start : end if end != -1 else len(text)]


def _with_why(command: str, why: str) -> str:
    """`command` with the stderr line of a launcher that did not run replaced by `why` (in
    the EXIT trap's echo and the `*)` arm's unset variable)."""
    text = MISSING_LAUNCHER_TEXT.removeprefix("hookman: ")  # the shell says `hookman: `
    assert command.count(text) == 2
    return command.replace(text, why)


def test_architecture_shows_the_guarded_entry_install_writes() -> None:
    section = _section(REPO / "ARCHITECTURE.md", "### The settings entry")
    example = section.split("```json\n", 1)[1].split("\n```", 1)[0]
    launcher = Path("/abs/state/projects/p-0123/hookman-run.sh")
    command = build_command("PreToolUse", launcher, guarded=True)
    assert json.loads(example) == HookmanEntry("PreToolUse", "Bash", command, 30).group()


def test_architecture_names_the_other_forms_install_writes() -> None:
    section = _section(REPO / "ARCHITECTURE.md", "### The settings entry")
    launcher = Path("L")
    assert f"`{build_command('EVENT', launcher)}`" in section
    assert f"`{build_command('EVENT', launcher, run_async=True)}`" in section


def test_the_client_facts_show_the_guarded_command_install_writes() -> None:
    section = _section(REPO / "docs" / "claude-code-facts.md", "## The shell that runs the command")
    shown = [line.strip() for line in section.splitlines() if line.startswith("    trap ")]
    expected = _with_why(build_command("EVENT", Path("L"), guarded=True), "...")
    assert shown == [expected]


def test_the_client_facts_show_the_stop_command_install_writes() -> None:
    text = (REPO / "docs" / "claude-code-facts.md").read_text(encoding="utf-8")
    assert f"(`{build_command('Stop', Path('<state>/hookman-run.sh'))}`)" in text


def test_settings_entries_docstring_shows_the_forms_install_writes() -> None:
    doc = settings_entries.__doc__ or ""
    block = doc.split(f"On a guarded event (launcher format {LAUNCHER_FORMAT}):\n", 1)[1]
    block = block.split("\n\n", 1)[0]
    shown = " ".join(block.replace("(one line)", "").split())
    expected = _with_why(build_command("EVENT", Path("L"), guarded=True), "<why>")
    assert shown == expected
    assert f"`{build_command('EVENT', Path('L'))}`" in doc
    assert f"`{build_command('EVENT', Path('L'), run_async=True)}`" in doc


def test_a_changed_command_would_be_seen() -> None:
    """The comparisons can fail: a form that differs in one word is not in the documents."""
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert "`sh L EVENT --async || true`" not in text
    assert not re.search(r"case \$\? in 3\) ;; 4\) exit 1", text)


def test_the_plugin_guide_shows_the_guarded_command_a_build_writes() -> None:
    text = (REPO / "docs" / "plugins.md").read_text(encoding="utf-8")
    shown = text.split("A guarded event's entry is `", 1)[1].split("` with L =")[0]
    shown = " ".join(shown.split())
    launcher = '"${CLAUDE_PLUGIN_ROOT}/hookman-runner/run.sh"'
    assert f"` with L = `{launcher}`" in text
    command = hook_command("team-guards", "EVENT", guarded=True)
    why = missing_launcher_text("team-guards").removeprefix("hookman: ")
    assert command.count(launcher) == 2 and command.count(why) == 2
    assert shown == command.replace(launcher, "L").replace(why, "...")
