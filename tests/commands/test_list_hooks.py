from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookman import paths

from .helpers import ASYNC_VERSION, DIRS, GUARD, NOTIFIER, hookman, hookman_json, write_hook


@pytest.fixture(autouse=True)
def _in_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)


def test_an_empty_project_lists_nothing(project: Path) -> None:
    listed = hookman_json("list", "--claude-version", "2.1.328")
    assert listed["hooks"] == []
    assert hookman("list").exit_code == 0


def test_list_shows_order_events_matcher_held_back_and_enabled(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    write_hook(project, "dirs", DIRS)
    hookman_json("install", "hooks/guard.py", "hooks/dirs.py", "--claude-version", "2.1.197")
    listed = hookman_json("list", "--claude-version", "2.1.197")
    assert listed["claude_version"] == "2.1.197"
    guard, dirs = listed["hooks"]
    assert (guard["order"], guard["name"], dirs["order"], dirs["name"]) == (1, "guard", 2, "dirs")
    assert guard["source"] == {"kind": "path", "value": "hooks/guard.py"}
    assert dirs["claude_events"] == {
        "DirectoryAdded": {"status": "held_back", "matcher": None, "since": "2.1.219"},
        "PreToolUse": {"status": "written", "matcher": "Bash|Read", "since": None},
    }
    assert listed["held_back"] == {
        "PreSkillShellCommand": {"since": "2.1.332"},
        "DirectoryAdded": {"since": "2.1.219"},
    }
    assert guard["last_fired"] is None
    text = hookman("list", "--claude-version", "2.1.197").stdout
    assert text.index("guard") < text.index("dirs")
    assert "held back" in text
    assert "never" in text


EVERY_TOOL = """\
def hook(pi):
    pi.on("tool_call", lambda event, ctx: None)
    pi.on("tool_result", lambda event, ctx: None, tools=["Edit", "Bash"])
"""


def test_the_terminal_shows_each_hook_the_tools_its_entry_runs_it_for(project: Path) -> None:
    """The entry's matcher is shared by the event's hooks (the JSON's "matcher"); the line
    of a hook that asks for some tools names those, one that asks for every tool the
    matcher."""
    write_hook(project, "guard", GUARD)
    write_hook(project, "dirs", DIRS)
    write_hook(project, "every", EVERY_TOOL)
    hookman_json("install", "hooks/guard.py", "hooks/dirs.py", "--claude-version", "2.1.332")
    text = " ".join(hookman("list", "--claude-version", "2.1.332").stdout.split())
    assert "claude: PreToolUse[Bash], PreSkillShellCommand[Bash] " in text, text
    assert "claude: DirectoryAdded, PreToolUse[Read] " in text, text
    listed = hookman_json("list", "--claude-version", "2.1.332")
    assert listed["hooks"][1]["claude_events"]["PreToolUse"]["matcher"] == "Bash|Read"
    hookman_json("install", "hooks/every.py", "--claude-version", "2.1.332")
    listed = hookman_json("list", "--claude-version", "2.1.332")
    every = listed["hooks"][2]["claude_events"]
    text = " ".join(hookman("list", "--claude-version", "2.1.332").stdout.split())
    assert every["PreToolUse"]["matcher"] is None  # every tool: the entry has no matcher
    assert "claude: PreToolUse, PreSkillShellCommand, PostToolUse[Edit|Bash]," in text, text
    assert "claude: PreToolUse[Bash], PreSkillShellCommand[Bash] " in text, text


def test_an_entry_whose_matcher_leaves_out_a_tool_the_hook_asks_for_is_shown_as_it_runs(
    project: Path,
) -> None:
    """This machine's entry was written before the guard asked for Edit too (a teammate's
    pull, installed elsewhere): list shows the matcher the client runs and names install,
    not the matcher hookman.toml asks for."""
    path = write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", "--claude-version", "2.1.332")
    settings = project / ".claude" / "settings.local.json"
    before = settings.read_bytes()
    path.write_text(GUARD.replace('tools=["Bash"]', 'tools=["Bash", "Edit"]'))
    hookman_json("install", "--claude-version", "2.1.332")
    settings.write_bytes(before)  # the entries of before: PreToolUse for Bash only
    listed = hookman_json("list", "--claude-version", "2.1.332")
    [guard] = listed["hooks"]
    assert guard["claude_events"]["PreToolUse"]["matcher"] == "Bash", guard
    assert any("entry runs hooks for Bash only" in w for w in listed["warnings"]), listed
    text = " ".join(hookman("list", "--claude-version", "2.1.332").stdout.split())
    assert "PreToolUse[Bash|Edit] (installed here for Bash only)" in text, text
    assert "`hookman install` rewrites it" in text
    hookman_json("install", "--claude-version", "2.1.332")
    text = " ".join(hookman("list", "--claude-version", "2.1.332").stdout.split())
    assert "claude: PreToolUse[Bash|Edit], PreSkillShellCommand[Bash] " in text, text
    assert "installed here for" not in text


def test_a_tool_name_install_writes_as_a_regex_is_shown_installed(project: Path) -> None:
    """A name with a dot gets an anchored, escaped matcher (`^(?:mcp__srv\\.tool|Bash)$`):
    list reads its names back and does not call the hook's entry narrower than it is."""
    write_hook(project, "guard", GUARD)
    write_hook(project, "mcp", GUARD.replace('tools=["Bash"]', 'tools=["mcp__srv.tool"]'))
    hookman_json("install", "hooks/guard.py", "hooks/mcp.py", "--claude-version", "2.1.332")
    listed = hookman_json("list", "--claude-version", "2.1.332")
    assert listed["hooks"][1]["claude_events"]["PreToolUse"]["matcher"].startswith("^(?:")
    assert not listed["warnings"], listed["warnings"]
    text = " ".join(hookman("list", "--claude-version", "2.1.332").stdout.split())
    assert "claude: PreToolUse[mcp__srv.tool] " in text, text
    assert "installed here for" not in text


def test_last_fired_comes_from_this_projects_firing_log_lines(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", "--claude-version", "2.1.328")
    log = paths.firing_log_path()
    log.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        {"time": "2026-01-01T00:00:00Z", "project": str(project), "hooks": ["guard"]},
        {"time": "2026-01-02T00:00:00Z", "project": str(project), "hooks": ["guard"]},
        {"time": "2026-01-03T00:00:00Z", "project": "/other/project", "hooks": ["guard"]},
        {"time": "2026-01-04T00:00:00Z", "project": str(project), "hooks": []},
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines) + "not json\n")
    listed = hookman_json("list", "--claude-version", "2.1.328")
    assert listed["hooks"][0]["last_fired"] == "2026-01-02T00:00:00Z"


def test_last_fired_is_read_from_the_index_once_the_log_was_read(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookman.bridge import firing_log

    write_hook(project, "guard", GUARD)
    write_hook(project, "dirs", DIRS)
    hookman_json("install", "hooks/guard.py", "hooks/dirs.py", "--claude-version", "2.1.328")
    log = str(paths.firing_log_path())
    other = str(tmp_path / "other")
    firing_log.append_record(
        log, {"time": "2026-01-01T00:00:00Z", "project": other, "hooks": ["dirs"]}
    )
    firing_log.append_record(
        log, {"time": "2026-01-02T00:00:00Z", "project": str(project), "hooks": ["guard"]}
    )
    first = hookman_json("list", "--claude-version", "2.1.328")

    monkeypatch.setattr(firing_log, "read_records", None)  # nothing may read the log now
    monkeypatch.setattr(firing_log, "_scan", None)
    listed = hookman_json("list", "--claude-version", "2.1.328")
    assert listed == first
    assert [hook["last_fired"] for hook in listed["hooks"]] == ["2026-01-02T00:00:00Z", None]
    text = hookman("list", "--claude-version", "2.1.328").stdout
    assert "last fired: 2026-01-02T00:00:00Z" in text and "last fired: never" in text


def test_shadowed_registry_names_are_marked(project: Path, tmp_path: Path) -> None:
    write_hook(project, "guard", GUARD)
    other = write_hook(tmp_path / "shared", "guard", GUARD)
    hookman("registry", "add", str(other))
    hookman_json("install", "hooks/guard.py", "--claude-version", "2.1.328")
    listed = hookman_json("list", "--claude-version", "2.1.328")
    assert listed["hooks"][0]["shadows"] == ["registry"]
    assert "shadows registry" in hookman("list", "--claude-version", "2.1.328").stdout


def test_disabled_hooks_are_listed_as_disabled(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", "--claude-version", "2.1.328")
    toml = project / ".claude" / "hookman.toml"
    toml.write_text(toml.read_text().replace("enabled = true", "enabled = false"))
    [guard] = hookman_json("list", "--claude-version", "2.1.328")["hooks"]
    assert guard["enabled"] is False
    assert guard["claude_events"]["PreToolUse"]["status"] == "disabled"


def test_a_malformed_toml_is_one_sentence_and_a_hint(project: Path) -> None:
    (project / ".claude" / "hookman.toml").write_text("hooks = [\n")
    result = hookman("list")
    assert result.exit_code == 1
    assert "not valid TOML" in result.stderr
    assert "Traceback" not in result.output


def test_list_shows_which_hooks_are_async(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    write_hook(project, "notifier", NOTIFIER)
    hookman_json("install", "hooks/guard.py", *ASYNC_VERSION)
    hookman_json("install", "hooks/notifier.py", "--async", *ASYNC_VERSION)

    guard, notifier = hookman_json("list", *ASYNC_VERSION)["hooks"]

    assert (guard["async"], notifier["async"]) == (False, True)
    assert notifier["claude_events"] == {
        "PostToolUse": {"status": "written", "matcher": "Bash", "since": None},
        "PostToolUseFailure": {"status": "written", "matcher": "Bash", "since": None},
    }
    lines = hookman("list", *ASYNC_VERSION).stdout.splitlines()
    assert "enabled, async" in next(line for line in lines if "notifier" in line)
    assert "async" not in next(line for line in lines if "guard" in line)


def test_list_of_a_project_not_installed_learns_its_hooks_once(project: Path) -> None:
    """A clone before its first install: `list` learns what the hooks subscribe to (a child
    process) and keeps it in the subscriptions cache, so the next `list` starts no child."""
    from hookman.hooks.subscription_cache import learned_before

    write_hook(project, "guard", GUARD)
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "hookman.toml").write_text(
        '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\nenabled = true\n'
        'events = ["tool_call"]\ntools = { tool_call = ["Bash"] }\n'
    )
    assert learned_before(project / "hooks" / "guard.py", project) is None
    assert hookman("list", "--claude-version", "2.1.332").exit_code == 0
    assert learned_before(project / "hooks" / "guard.py", project) is not None


def test_a_clone_never_installed_here_lists_its_events_as_not_installed(project: Path) -> None:
    """hookman.toml and the hook came with the clone; this machine's settings.local.json
    has no entry: the client runs nothing, and list says so (it once said `written`)."""
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", "--claude-version", "2.1.332")
    (project / ".claude" / "settings.local.json").unlink()

    listed = hookman_json("list", "--claude-version", "2.1.332")
    shown = hookman("list", "--claude-version", "2.1.332")

    (guard,) = listed["hooks"]
    assert {facts["status"] for facts in guard["claude_events"].values()} == {"not_installed"}
    assert any("until `hookman install` writes the entries" in w for w in listed["warnings"])
    assert "PreToolUse (not installed here yet)" in shown.output
    assert "`hookman install`" in shown.output
    hookman_json("install", "--claude-version", "2.1.332")  # the hint, in this state
    again = hookman_json("list", "--claude-version", "2.1.332")
    assert again["hooks"][0]["claude_events"]["PreToolUse"]["status"] == "written"
    assert not [w for w in again["warnings"] if "no hookman entry" in w]


def test_an_entry_taken_out_by_hand_is_not_installed_and_the_others_stay(project: Path) -> None:
    write_hook(project, "guard", GUARD)
    hookman_json("install", "hooks/guard.py", "--claude-version", "2.1.332")
    settings_path = project / ".claude" / "settings.local.json"
    settings = json.loads(settings_path.read_text())
    del settings["hooks"]["PreToolUse"]
    settings_path.write_text(json.dumps(settings))

    listed = hookman_json("list", "--claude-version", "2.1.332")

    events = listed["hooks"][0]["claude_events"]
    assert events["PreToolUse"]["status"] == "not_installed"
    assert events["PreSkillShellCommand"]["status"] == "written"
    assert any("no hookman entry for PreToolUse:" in w for w in listed["warnings"])
