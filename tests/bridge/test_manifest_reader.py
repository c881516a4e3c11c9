from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookman.bridge.manifest_reader import ManifestError, parse_manifest, read_manifest

MANIFEST = {
    "format": 1,
    "project_dir": "/p",
    "state_dir": "/s",
    "log_path": "/l/firing.jsonl",
    "claude_version": None,
    "hooks": [
        {
            "name": "a",
            "path": "/p/a.py",
            "events": ["tool_call"],
            "claude_events": ["PreToolUse"],
            "tools": {"tool_call": ["Bash"]},
        },
        {"name": "b", "path": "/p/b.py", "events": ["agent_end"], "claude_events": ["Stop"]},
    ],
    "entries": {
        "PreToolUse": {"matcher": "Bash", "timeout": 30, "deadline": 27.0},
        "Stop": {"timeout": 10},
    },
}


def test_reads_hooks_in_order_and_per_event() -> None:
    manifest = parse_manifest(MANIFEST)

    assert [hook.name for hook in manifest.hooks] == ["a", "b"]
    assert [hook.name for hook in manifest.hooks_for("Stop")] == ["b"]
    assert manifest.claude_version is None


def test_deadlines() -> None:
    manifest = parse_manifest(MANIFEST)

    assert manifest.deadline_for("PreToolUse") == 27.0
    assert manifest.deadline_for("Stop") == 9.0
    assert manifest.deadline_for("SessionEnd") is None


def test_client_facts_are_read_and_known_events_include_the_manifests_own() -> None:
    manifest = parse_manifest(
        {**MANIFEST, "client": {"known_events": ["PreToolUse", "Stop", "Setup"]}}
    )

    assert manifest.client.present
    assert manifest.knows_event("Setup")
    assert not manifest.knows_event("PreToolUze")


def test_a_manifest_without_client_facts_knows_the_events_it_serves() -> None:
    manifest = parse_manifest({**MANIFEST, "hooks": [*MANIFEST["hooks"], _hook("c", "Setup")]})

    assert not manifest.client.present
    assert manifest.knows_event("PreToolUse")  # an entry
    assert manifest.knows_event("Setup")  # a hook's event
    assert not manifest.knows_event("SessionStart")


def _hook(name: str, event: str) -> dict:
    return {"name": name, "path": f"/p/{name}.py", "events": [event], "claude_events": [event]}


def test_tool_narrowing() -> None:
    guard = parse_manifest(MANIFEST).hooks[0]

    assert guard.handles_tool("tool_call", "Bash")
    assert not guard.handles_tool("tool_call", "Edit")
    assert guard.handles_tool("tool_result", "Edit")
    assert guard.guards("PreToolUse", "Bash") and not guard.guards("PreToolUse", "Edit")


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"hooks": []},
        {"project_dir": "/p", "hooks": [{"path": "x"}]},
        {"project_dir": "/p", "hooks": {}},
    ],
)
def test_malformed_manifests_raise(data: object) -> None:
    with pytest.raises(ManifestError):
        parse_manifest(data)


def test_unreadable_files_raise(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="does not exist"):
        read_manifest(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ManifestError, match="cannot be read"):
        read_manifest(str(bad))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(MANIFEST))
    assert read_manifest(str(good)).project_dir == "/p"


def test_async_hooks_and_entries_are_kept_apart() -> None:
    data = json.loads(json.dumps(MANIFEST))
    data["hooks"].append(
        {
            "name": "c",
            "path": "/p/c.py",
            "events": ["agent_end"],
            "claude_events": ["Stop"],
            "async": True,
        }
    )
    data["async_entries"] = {"Stop": {"timeout": 60, "deadline": 54.0}}
    manifest = parse_manifest(data)

    assert [hook.name for hook in manifest.hooks_for("Stop")] == ["b"]
    assert [hook.name for hook in manifest.hooks_for("Stop", run_async=True)] == ["c"]
    assert manifest.deadline_for("Stop", run_async=True) == 54.0
    assert manifest.deadline_for("Stop") == 9.0


def test_an_async_hook_on_a_guarded_event_runs_in_the_blocking_run() -> None:
    data = json.loads(json.dumps(MANIFEST))
    data["hooks"] = [
        {
            "name": "g",
            "path": "/p/g.py",
            "events": ["tool_call", "tool_result"],
            "claude_events": ["PreToolUse", "PostToolUse"],
            "async": True,
        }
    ]
    manifest = parse_manifest(data)

    assert [hook.name for hook in manifest.hooks_for("PreToolUse")] == ["g"]
    assert manifest.hooks_for("PreToolUse", run_async=True) == []
    assert manifest.hooks_for("PostToolUse") == []
    assert [hook.name for hook in manifest.hooks_for("PostToolUse", run_async=True)] == ["g"]


def test_a_manifest_without_async_fields_has_only_blocking_hooks() -> None:
    manifest = parse_manifest(MANIFEST)
    assert manifest.async_entries == {}
    assert not any(hook.is_async for hook in manifest.hooks)
    assert manifest.hooks_for("Stop", run_async=True) == []


@pytest.mark.parametrize("value", [[], "yes", 1])
def test_malformed_async_entries_are_refused(value: object) -> None:
    with pytest.raises(ManifestError):
        parse_manifest({**MANIFEST, "async_entries": value})


def _plugin_manifest(tmp_path: Path, plugin: object) -> str:
    path = tmp_path / "plugin root" / "hookman-runner" / "manifest.json"
    path.parent.mkdir(parents=True)
    data = {
        "format": 1,
        "project_dir": "",
        "state_dir": "",
        "log_path": "",
        "hooks": [{"name": "g", "path": "hooks/g.py", "events": ["tool_call"]}],
        "entries": {},
        "plugin": plugin,
    }
    path.write_text(json.dumps(data))
    return str(path)


def test_a_plugin_manifest_resolves_hooks_beside_it_and_state_in_the_plugin_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _plugin_manifest(tmp_path, {"name": "team-guards"})
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tmp_path / "project"))

    manifest = read_manifest(path)

    assert manifest.hooks[0].path == str(tmp_path / "plugin root" / "hookman-runner" / "hooks/g.py")
    assert manifest.state_dir == str(tmp_path / "data")
    assert manifest.log_path == str(tmp_path / "data" / "firing.jsonl")
    assert manifest.project_dir == str(tmp_path / "project")
    assert manifest.plugin_name == "team-guards"


def test_a_plugins_repository_tree_resolves_beside_its_manifest(tmp_path: Path) -> None:
    """A plugin carries a repository hook's store copy; its package_root is relative to the
    manifest, as its path is (the plugin root moves into the client's cache)."""
    root = tmp_path / "plugin root" / "hookman-runner"
    root.mkdir(parents=True)
    data = {
        "project_dir": "",
        "plugin": {"name": "team-guards"},
        "hooks": [
            {
                "name": "g",
                "path": "repos/r-1/guards/g.py",
                "events": ["tool_call"],
                "repo": "https://example.invalid/r",
                "package_root": "repos/r-1",
                "digests": {"guards/g.py": "0" * 64},
            }
        ],
    }
    (root / "manifest.json").write_text(json.dumps(data))

    [hook] = read_manifest(str(root / "manifest.json")).hooks

    assert hook.package_root == str(root / "repos/r-1")
    assert hook.path == str(root / "repos/r-1/guards/g.py")
    assert hook.digests == {"guards/g.py": "0" * 64}
    assert parse_manifest(MANIFEST).plugin_name is None


@pytest.mark.parametrize(
    ("hookman_home", "xdg", "expected"),
    [
        ("hh", "xdg", "hh/state/plugins/team-guards"),
        (None, "xdg", "xdg/hookman/plugins/team-guards"),
        (None, "relative/xdg", "home/.local/state/hookman/plugins/team-guards"),
        (None, None, "home/.local/state/hookman/plugins/team-guards"),
    ],
)
def test_without_a_plugin_data_dir_state_goes_to_hookmans_per_user_state_dir(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    hookman_home: str | None,
    xdg: str | None,
    expected: str,
) -> None:
    """Never $TMPDIR: another user could make the directory there first (issue 23)."""
    path = _plugin_manifest(tmp_path, {"name": "team-guards"})
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for variable, value in (("HOOKMAN_HOME", hookman_home), ("XDG_STATE_HOME", xdg)):
        if value is None:
            monkeypatch.delenv(variable, raising=False)
        else:
            monkeypatch.setenv(variable, value if "/" in value else str(tmp_path / value))

    manifest = read_manifest(path)

    assert manifest.state_dir == str(tmp_path / expected)
    assert manifest.log_path == str(tmp_path / expected / "firing.jsonl")


@pytest.mark.parametrize("plugin", [[], "x", {"name": 3}, {}])
def test_a_malformed_plugin_section_is_not_a_manifest(tmp_path: Path, plugin: object) -> None:
    with pytest.raises(ManifestError, match="malformed plugin section"):
        read_manifest(_plugin_manifest(tmp_path, plugin))
