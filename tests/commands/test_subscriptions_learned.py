"""One source of truth for subscriptions (issue 24, item 1): every install learns what each
enabled hook subscribes to from its code, in one child process for all of them, rewrites
hookman.toml's `events`/`tools` to it and wires the entries; `list` and `doctor` report
any gap between the code, hookman.toml and the installed entries; a hook that cannot load
stops the install before anything is written."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from hookman import json_shapes as shapes
from hookman import paths
from hookman.doctor import sources
from hookman.hooks import subscriptions
from tests.shape_check import assert_shape

from .helpers import GUARD, hookman, local_settings, write_hook

VERSION = ("--claude-version", "2.1.332")
HAND_WRITTEN = '# the team\'s hooks\n[[hooks]]\nname = "guard"  # ours\npath = "hooks/guard.py"\n'
GAINS_AGENT_START = GUARD + '    pi.on("agent_start", lambda event, ctx: None)\n'


@pytest.fixture(autouse=True)
def _no_claude(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin") + ":/usr/bin:/bin")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sources, "managed_dir", lambda: tmp_path / "managed")
    monkeypatch.chdir(project)


def _files(project: Path) -> dict[str, bytes | None]:
    files = {
        "toml": project / ".claude" / "hookman.toml",
        "settings": project / ".claude" / "settings.local.json",
        "manifest": paths.manifest_path(project),
    }
    return {key: path.read_bytes() if path.exists() else None for key, path in files.items()}


def _children(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the learning children started (and the hooks each was given)."""
    started: list[int] = []
    real = subprocess.Popen

    def popen(argv: list[str], *args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        stdin = kwargs.get("stdin")
        if subscriptions._CHILD_CODE in argv:  # a learning child: count the hooks it gets
            given = 1  # hookman before issue 24 gave one hook per child, in argv
            if hasattr(stdin, "read"):  # the hooks to load, as JSON
                given = len(json.loads(stdin.read()))  # type: ignore[union-attr]
                stdin.seek(0)  # type: ignore[union-attr]
            started.append(given)
        return real(argv, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(subprocess, "Popen", popen)  # the module imports it where it runs
    return started


def test_a_hand_written_entry_without_events_is_wired_by_a_bare_install(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    toml = project / ".claude" / "hookman.toml"
    toml.write_text(HAND_WRITTEN)
    done = hookman("install", *VERSION)
    assert done.exit_code == 0, done.output
    assert "guard now subscribes to tool_call (Bash only)" in done.stdout
    assert "no hookman entries" not in done.stdout
    assert (
        toml.read_text()
        == HAND_WRITTEN + 'events = ["tool_call"]\ntools = {tool_call = ["Bash"]}\n'
    )
    assert local_settings(project)["hooks"]["PreToolUse"][0]["matcher"] == "Bash"


def _served(project: Path) -> list[str]:
    """The Claude Code events the installed manifest runs the project's one hook on."""
    manifest = json.loads(paths.manifest_path(project).read_text())
    return manifest["hooks"][0]["claude_events"]


def test_the_code_gaining_and_dropping_a_subscription_is_followed_by_a_bare_install(
    project: Path,
) -> None:
    guard = write_hook(project, "guard", GUARD)
    assert hookman("install", "hooks/guard.py", *VERSION).exit_code == 0
    assert "UserPromptSubmit" not in _served(project)  # (its entry is the prompt gate)

    guard.write_text(GAINS_AGENT_START)  # e.g. after a teammate's commit and a pull
    gained = hookman("install")
    assert gained.exit_code == 0, gained.output
    assert "guard now subscribes to agent_start" in gained.stdout
    assert "UserPromptSubmit" in _served(project)  # agent_start's event
    assert (
        'events = ["tool_call", "agent_start"]'
        in (project / ".claude" / "hookman.toml").read_text()
    )
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert manifest["hooks"][0]["events"] == ["tool_call", "agent_start"]
    written = _files(project)
    again = hookman("install")  # nothing changed: not one byte
    assert again.exit_code == 0 and "subscribes" not in again.stdout
    assert _files(project) == written

    guard.write_text(GUARD)
    dropped = hookman("install", "--json")
    assert dropped.exit_code == 0, dropped.output
    assert json.loads(dropped.stdout)["subscriptions_changed"] == [
        {"hook": "guard", "gained": [], "lost": ["agent_start"], "tools": {}}
    ]
    assert "UserPromptSubmit" not in _served(project)
    assert 'events = ["tool_call"]\n' in (project / ".claude" / "hookman.toml").read_text()


def test_enable_disable_and_remove_learn_the_code_too(project: Path) -> None:
    guard = write_hook(project, "guard", GUARD)
    write_hook(project, "other", "def hook(pi):\n    pi.on('Stop', lambda e, c: None)\n")
    assert hookman("install", "hooks/guard.py", "hooks/other.py", *VERSION).exit_code == 0
    guard.write_text(GAINS_AGENT_START)
    done = hookman("disable", "other")
    assert done.exit_code == 0, done.output
    assert "guard now subscribes to agent_start" in done.stdout
    assert set(local_settings(project)["hooks"]) >= {"PreToolUse", "UserPromptSubmit"}


def test_three_hundred_hooks_are_learned_by_one_child(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = 300
    entries = []
    for index in range(count):
        event = "tool_call" if index % 2 else "Stop"
        write_hook(
            project, f"h{index}", f"def hook(pi):\n    pi.on({event!r}, lambda e, c: None)\n"
        )
        entries.append(f'[[hooks]]\nname = "h{index}"\npath = "hooks/h{index}.py"\n')
    (project / ".claude" / "hookman.toml").write_text("\n".join(entries))
    started = _children(monkeypatch)
    began = time.monotonic()
    done = hookman("install", *VERSION)
    elapsed = time.monotonic() - began
    assert done.exit_code == 0, done.output
    assert started == [count]  # one child, given every hook
    assert elapsed < 120  # an upper bound with slack: one child per hook took minutes
    assert set(local_settings(project)["hooks"]) >= {"PreToolUse", "Stop"}
    assert hookman("install").exit_code == 0
    assert started == [count]  # all cached: no child at all
    write_hook(project, "h7", "def hook(pi):\n    pi.on('Stop', lambda e, c: None)\n")
    again = hookman("install")
    assert again.exit_code == 0, again.output
    assert "h7 now subscribes to Stop" in again.stdout
    assert started == [count, 1]  # only the changed hook is loaded again


def test_list_and_doctor_report_the_gap_before_install_and_not_after(project: Path) -> None:
    guard = write_hook(project, "guard", GUARD)
    assert hookman("install", "hooks/guard.py", *VERSION).exit_code == 0
    guard.write_text(GAINS_AGENT_START)

    listed = json.loads(hookman("list", "--json").stdout)
    assert_shape(listed, shapes.ListJson)  # the gap's keys, held to their types
    row = listed["hooks"][0]
    assert row["learned"] == {
        "events": ["tool_call", "agent_start"],
        "tools": {"tool_call": ["Bash"]},
    }
    assert row["subscription_gap"]["hookman_toml"]["gained"] == ["agent_start"]
    assert row["subscription_gap"]["installed"]["gained"] == ["agent_start"]
    assert "hookman.toml is behind the code of guard" in hookman("list").stdout
    report = hookman("doctor", "--json")
    assert report.exit_code == 1  # a subscription the entries do not serve: the hook is silent
    (finding,) = [
        f for f in json.loads(report.stdout)["findings"] if f["code"] == "subscriptions-changed"
    ]
    assert finding["severity"] == "error"
    assert "UserPromptSubmit" in finding["message"] and "hookman install" in finding["fix"]

    assert hookman("install").exit_code == 0
    after = json.loads(hookman("list", "--json").stdout)
    assert after["hooks"][0]["subscription_gap"] is None and after["warnings"] == []
    codes = [f["code"] for f in json.loads(hookman("doctor", "--json").stdout)["findings"]]
    assert "subscriptions-changed" not in codes


def test_a_dropped_subscription_still_wired_is_a_doctor_warning(project: Path) -> None:
    guard = write_hook(project, "guard", GAINS_AGENT_START)
    assert hookman("install", "hooks/guard.py", *VERSION).exit_code == 0
    guard.write_text(GUARD)
    report = json.loads(hookman("doctor", "--json").stdout)
    (finding,) = [f for f in report["findings"] if f["code"] == "subscriptions-changed"]
    assert finding["severity"] == "warning"
    assert "agent_start too, which the code dropped" in finding["message"]


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("def hook(pi):\n    raise RuntimeError('no config')\n", "failed to load: no config"),
        ("def hook(pi):\n    pi.on('tool_call',\n", "has a syntax error in guard.py"),
        ("import time\ndef hook(pi):\n    time.sleep(60)\n", "did not finish within 2 seconds"),
    ],
    ids=["factory raises", "syntax error", "hangs"],
)
def test_a_hook_that_cannot_load_stops_a_bare_install_and_nothing_is_written(
    project: Path, monkeypatch: pytest.MonkeyPatch, source: str, said: str
) -> None:
    monkeypatch.setattr(subscriptions, "LEARN_TIMEOUT_S", 2.0)
    guard = write_hook(project, "guard", GUARD)
    notes = write_hook(project, "notes", "def hook(pi):\n    pi.on('Stop', lambda e, c: None)\n")
    assert hookman("install", "hooks/guard.py", "hooks/notes.py", *VERSION).exit_code == 0
    notes.write_text("def hook(pi):\n    pi.on('SessionEnd', lambda e, c: None)\n")
    guard.write_text(source)
    before = _files(project)
    done = hookman("install")
    assert done.exit_code == 1
    assert done.stdout == ""
    assert "the hook 'guard'" in done.stderr and said in done.stderr
    assert "nothing was written" in done.stderr and "hookman disable guard" in done.stderr
    assert _files(project) == before
    assert json.loads(hookman("list", "--json").stdout)["hooks"][0]["problem"]
    disabled = hookman("disable", "guard")  # the way out the hint names
    assert disabled.exit_code == 0, disabled.output
    assert "notes now subscribes to SessionEnd" in disabled.stdout


def test_a_missing_module_still_blocks_no_other_hook(project: Path) -> None:
    guard = write_hook(project, "guard", GUARD)
    notes = write_hook(project, "notes", "def hook(pi):\n    pi.on('Stop', lambda e, c: None)\n")
    assert hookman("install", "hooks/guard.py", "hooks/notes.py", *VERSION).exit_code == 0
    guard.unlink()
    notes.write_text("def hook(pi):\n    pi.on('SessionEnd', lambda e, c: None)\n")
    done = hookman("install")
    assert done.exit_code == 1
    assert "missing:" in done.stdout and "notes now subscribes to SessionEnd" in done.stdout
    assert "SessionEnd" in local_settings(project)["hooks"]
    assert "PreToolUse" in local_settings(project)["hooks"]  # guard's, failing closed
