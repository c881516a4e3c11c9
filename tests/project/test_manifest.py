from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookman import paths
from hookman.bridge.client_facts import ClientFacts
from hookman.bridge.manifest_reader import read_manifest
from hookman.catalog.client_version import ClientVersion
from hookman.errors import HookmanError
from hookman.project.config import HookSource, HookSpec
from hookman.project.install_plan import plan_install
from hookman.project.manifest import build_manifest, client_facts, remembered_flag, write_manifest

GUARD = HookSpec(
    "guard",
    HookSource("path", "hooks/guard.py"),
    True,
    ("tool_call",),
    {"tool_call": ("Bash",)},
    10,
)
OFF = HookSpec("off", HookSource("registry", "off"), False, ("Stop",), {}, None)
DIRS = HookSpec("dirs", HookSource("template", "dirs"), True, ("DirectoryAdded",), {}, None)


def _manifest(project: Path, version: ClientVersion | None) -> dict:
    hooks = [GUARD, OFF, DIRS]
    plan = plan_install(hooks, version)
    module_paths = {"guard": project / "hooks/guard.py", "dirs": Path("/templates/dirs.py")}
    return build_manifest(project, hooks, module_paths, plan, version)


def test_the_manifest_has_the_architecture_shape(project: Path) -> None:
    manifest = _manifest(project, ClientVersion(2, 1, 197))
    assert manifest["format"] == 1
    assert manifest["project_dir"] == str(project)
    assert manifest["config_path"] == str(project / ".claude" / "hookman.toml")
    assert manifest["state_dir"] == str(paths.project_state_dir(project))
    assert manifest["log_path"] == str(paths.firing_log_path())
    assert manifest["claude_version"] == "2.1.197"
    assert manifest["hooks"] == [
        {
            "name": "guard",
            "path": str(project / "hooks/guard.py"),
            "events": ["tool_call"],
            "claude_events": ["PreToolUse", "PreSkillShellCommand"],
            "tools": {"tool_call": ["Bash"]},
            "timeout": 10,
            "async": False,
        },
        {
            "name": "dirs",
            "path": "/templates/dirs.py",
            "events": ["DirectoryAdded"],
            "claude_events": ["DirectoryAdded"],
            "tools": {},
            "timeout": None,
            "async": False,
        },
    ]
    assert manifest["entries"] == {
        "PreToolUse": {"matcher": "Bash", "timeout": 30, "deadline": 27.0}
    }
    assert manifest["held_back"] == {"PreSkillShellCommand": "2.1.332", "DirectoryAdded": "2.1.219"}
    assert manifest["client"] == client_facts(ClientVersion(2, 1, 197))


def test_the_client_facts_the_runner_and_fire_need(project: Path) -> None:
    client = _manifest(project, ClientVersion(2, 1, 197))["client"]

    assert set(client) == {
        "known_events",
        "tool_events",
        "message_channels",
        "turn_channels",
        "plain_stdout_events",
        "exit2_blocking_events",
        "guarded_events",
        "updated_input_blocks_events",
        "updated_tool_output",
        "model_text",
    }
    assert len(client["known_events"]) == 34
    assert client["guarded_events"] == ["PreToolUse", "PreSkillShellCommand"]
    assert "UserPromptSubmit" in client["message_channels"]
    assert client["turn_channels"] == ["Stop", "SubagentStop"]
    assert not set(client["turn_channels"]) & set(client["message_channels"])
    assert client["tool_events"] == [
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PermissionRequest",
        "PermissionDenied",
        "PreSkillShellCommand",
    ]
    assert client["updated_tool_output"] is True
    assert client["guarded_events"] == ["PreToolUse", "PreSkillShellCommand"]
    assert client["updated_input_blocks_events"] == ["PreSkillShellCommand"]
    assert client["model_text"] == {
        "deny": "{reason}",
        "deny_events": {"PreSkillShellCommand": "[not run: blocked by hook: {reason}]"},
        "additionalContext": {
            "*": "{label} hook additional context: {text}",
            "PostToolUse": "<system-reminder>\n{label} hook additional context: {text}\n"
            "</system-reminder>",
        },
        "block": {"Stop": ["Stop hook feedback:\n{reason}"]},
    }


@pytest.mark.parametrize(
    ("version", "updated_tool_output", "deny"),
    [
        (ClientVersion(2, 1, 328), True, "{label} hook error: {reason}"),
        (ClientVersion(2, 1, 250), True, "{reason}"),  # between measurements: the older form
        (ClientVersion(2, 1, 196), False, "{reason}"),  # below the measured lower bound
        (None, None, "{label} hook error: {reason}"),  # unknown: undecided / newest text
    ],
)
def test_version_dependent_facts(
    version: ClientVersion | None, updated_tool_output: bool | None, deny: str
) -> None:
    client = client_facts(version)

    assert client["updated_tool_output"] is updated_tool_output
    assert client["model_text"]["deny"] == deny


def test_an_unknown_version_is_null(project: Path) -> None:
    manifest = _manifest(project, None)
    assert manifest["claude_version"] is None
    assert manifest["client"]["updated_tool_output"] is None


def test_written_once_then_untouched_and_readable_by_the_runner(project: Path) -> None:
    manifest = _manifest(project, ClientVersion(2, 1, 328))
    assert write_manifest(project, manifest)
    path = paths.manifest_path(project)
    mtime = path.stat().st_mtime_ns
    assert not write_manifest(project, manifest)
    assert path.stat().st_mtime_ns == mtime
    assert json.loads(path.read_text()) == manifest
    parsed = read_manifest(str(path))
    assert [hook.name for hook in parsed.hooks_for("PreToolUse")] == ["guard"]
    assert parsed.deadline_for("PreToolUse") == 27.0
    assert parsed.client.delivers_messages("PreToolUse")
    assert parsed.client.updated_tool_output is True


def test_an_unwritable_state_dir_is_a_clear_error(project: Path, hookman_home: Path) -> None:
    (hookman_home / "state").write_text("a file where the state dir belongs")
    with pytest.raises(HookmanError, match="cannot write its manifest"):
        write_manifest(project, _manifest(project, None))


def test_async_hooks_are_marked_and_their_entries_listed_apart(project: Path) -> None:
    notify = HookSpec(
        "notify", HookSource("path", "hooks/notify.py"), True, ("agent_end",), {}, 20, True
    )
    hooks = [GUARD, notify]
    plan = plan_install(hooks, ClientVersion(2, 1, 328))
    module_paths = {"guard": project / "hooks/guard.py", "notify": project / "hooks/notify.py"}

    manifest = build_manifest(project, hooks, module_paths, plan, ClientVersion(2, 1, 328))

    assert [hook["async"] for hook in manifest["hooks"]] == [False, True]
    assert manifest["entries"] == {
        "PreToolUse": {"matcher": "Bash", "timeout": 30, "deadline": 27.0}
    }
    assert manifest["async_entries"] == {"Stop": {"matcher": None, "timeout": 30, "deadline": 27.0}}


@pytest.mark.parametrize(
    ("content", "remembered"),
    [
        ({"claude_version": "2.1.332", "claude_version_source": "flag"}, "2.1.332"),
        ({"claude_version": "2.1.332", "claude_version_source": "claude --version"}, None),
        ({"claude_version": None, "claude_version_source": "flag"}, None),
        ({"claude_version": "2.1.332"}, None),  # written before sources were kept
        ([1, 2], None),
        ("not json", None),
    ],
)
def test_the_remembered_flag_is_read_back_only_when_a_flag_wrote_the_manifest(
    project: Path, content: object, remembered: str | None
) -> None:
    path = paths.manifest_path(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content))

    assert remembered_flag(project) == remembered


def test_no_manifest_remembers_nothing(project: Path) -> None:
    assert remembered_flag(project) is None


def test_the_runner_reads_back_every_client_fact_install_writes() -> None:
    """Writer and reader share the section's keys (bridge/protocol.py): each fact written
    comes back in ClientFacts as written, none as a default."""
    written = client_facts(ClientVersion(2, 1, 332))
    read = ClientFacts(written)
    lists = {key: value for key, value in written.items() if isinstance(value, list)}
    assert len(lists) == 8
    for key, value in lists.items():
        assert getattr(read, key) == frozenset(value), key
    assert read.updated_tool_output is written["updated_tool_output"] is True
    assert read.model_text == written["model_text"]
    assert read.guarded_events == {"PreToolUse", "PreSkillShellCommand"}
