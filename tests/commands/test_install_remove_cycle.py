"""An `install NAME` / `remove NAME` cycle gives hookman.toml back byte for byte (issue 23:
each cycle used to leave one more blank line behind)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from hookman.project.config import HookSource, load_project_config, save_project_config

from .helpers import GUARD, hookman, write_hook

FLAGS = ("--claude-version", "2.1.328")

HOOK = (
    '[[hooks]]\nname = "notes"\npath = "hooks/notes.py"\nenabled = true\n'
    'events = ["session_start", "tool_result"]\n'
)
COMMENTED_HOOK = (
    "# the notes hook, first\n"
    '[[hooks]]   # keep it\nname = "notes"  # named by the team\npath = "hooks/notes.py"\n'
    'enabled = true\nevents = ["session_start", "tool_result"]   # both\n# after it\n'
)
AGENTS_ONLY = 'claude_version = "2.1.328"\n'
BODIES = {"hook": HOOK, "commented hook": COMMENTED_HOOK, "no hook": AGENTS_ONLY}
ENDINGS = {"newline": "\n", "no newline": "", "blank line": "\n\n", "spaces": "\n  \n"}
# What the `notes` entries above record: every install learns it from the code.
NOTES = """\
def hook(pi):
    pi.on("session_start", lambda event, ctx: None)
    pi.on("tool_result", lambda event, ctx: None)
"""


def _file(body: str, ending: str) -> str:
    return body.rstrip("\n") + ending


@pytest.mark.parametrize(("body", "ending"), list(itertools.product(BODIES, ENDINGS)), ids="-".join)
def test_cycles_through_the_cli_give_the_file_back(
    project: Path, monkeypatch: pytest.MonkeyPatch, body: str, ending: str
) -> None:
    monkeypatch.chdir(project)
    write_hook(project, "notes", NOTES)
    write_hook(project, "guard", GUARD)
    toml = project / ".claude" / "hookman.toml"
    before = _file(BODIES[body], ENDINGS[ending]).encode()
    toml.write_bytes(before)
    assert hookman("install", *FLAGS).exit_code == 0
    assert toml.read_bytes() == before
    after_installs = []
    for _ in range(3):
        assert hookman("install", "hooks/guard.py", *FLAGS).exit_code == 0
        after_installs.append(toml.read_bytes())
        assert b'name = "guard"' in after_installs[-1]
        assert hookman("remove", "guard", *FLAGS).exit_code == 0
        assert toml.read_bytes() == before
    assert len(set(after_installs)) == 1  # every cycle writes the same file


def test_an_added_hook_follows_one_blank_line_and_keeps_the_file_ending(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    write_hook(project, "notes", NOTES)
    write_hook(project, "guard", GUARD)
    toml = project / ".claude" / "hookman.toml"
    toml.write_text(HOOK)
    assert hookman("install", "hooks/guard.py", *FLAGS).exit_code == 0
    text = toml.read_text()
    assert text.startswith(HOOK + '\n[[hooks]]\nname = "guard"\n')
    assert text.endswith("\n") and not text.endswith("\n\n")


@pytest.mark.parametrize("ending", list(ENDINGS.values()), ids=list(ENDINGS))
@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
def test_many_cycles_of_several_hooks_in_any_order_give_the_file_back(
    project: Path, ending: str, crlf: bool
) -> None:
    toml = project / ".claude" / "hookman.toml"
    before = _file(COMMENTED_HOOK + "\n" + HOOK.replace("notes", "other"), ending)
    if crlf:
        before = before.replace("\n", "\r\n")
    toml.write_bytes(before.encode())
    names = ["a", "b", "c"]
    orders = list(itertools.permutations(names))
    assert len(orders) == 6
    for order in orders:
        for name in names:
            config = load_project_config(project)
            config.put_hook(name, HookSource("path", f"{name}.py"), ["tool_call"], {})
            save_project_config(config)
        for name in order:
            config = load_project_config(project)
            config.remove_hook(name)
            save_project_config(config)
        assert toml.read_bytes() == before.encode(), order
    assert load_project_config(project).text() == before.replace("\r\n", "\n")
