from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookman import paths
from hookman.catalog.client_version import ClientVersion, TargetVersion
from hookman.errors import HookmanError
from hookman.install.sync import sync_project
from hookman.project.config import HookSource, load_project_config
from hookman.project.sentinel import stamp_is_current
from hookman.project.settings_entries import (
    BLOCKING,
    SENTINEL,
    find_hookman_entries,
    hookman_handler_kind,
)

TARGET = TargetVersion(ClientVersion(2, 1, 328), "flag")


def _module(project: Path, name: str, *events: str, tools: str = "") -> None:
    """A hook module subscribing to `events` (each narrowed to `tools`, a Python list's text,
    when given): what hookman.toml records for it, as every sync learns it from the code."""
    (project / "hooks").mkdir(exist_ok=True)
    narrowed = f", tools={tools}" if tools else ""
    body = "".join(f"    pi.on({event!r}, lambda e, c: None{narrowed})\n" for event in events)
    (project / "hooks" / f"{name}.py").write_text("def hook(pi):\n" + (body or "    pass\n"))


def _kinds(settings: dict) -> list[tuple[str, str, str | None]]:
    """hookman's entries in file order: (event, kind, matcher)."""
    return [
        (event, hookman_handler_kind(handler), handler.get("matcher"))
        for event, handler in find_hookman_entries(settings)
    ]


def _config_with_guard(project: Path):
    _module(project, "guard", "tool_call", tools='["Bash"]')
    config = load_project_config(project)
    config.put_hook(
        "guard", HookSource("path", "hooks/guard.py"), ["tool_call"], {"tool_call": ["Bash"]}
    )
    return config


def test_writes_manifest_config_and_settings(project: Path) -> None:
    result = sync_project(project, _config_with_guard(project), TARGET, dry_run=False)
    assert result.settings_change.changed
    assert (project / ".claude" / "hookman.toml").exists()
    assert (
        json.loads(paths.manifest_path(project).read_text())["entries"]["PreToolUse"]["matcher"]
        == "Bash"
    )
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    # the guard's entry, its event's sentinel (every other tool) and the prompt gate every
    # installed project has
    assert _kinds(settings) == [
        ("PreToolUse", BLOCKING, "Bash"),
        ("PreToolUse", SENTINEL, "^(?!(?:Bash)$).*"),
        ("UserPromptSubmit", BLOCKING, None),
    ]
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert manifest["sentinels"] == {"PreToolUse": {"matcher": "^(?!(?:Bash)$).*"}}
    watched = [project / ".claude" / "hookman.toml", project / "hooks" / "guard.py"]
    assert stamp_is_current(project, watched)  # touched after everything was written
    assert result.plan.prompt_gate_only
    assert result.git is None  # not a git work tree


def test_dry_run_writes_nothing_but_reports_the_diffs(project: Path) -> None:
    result = sync_project(project, _config_with_guard(project), TARGET, dry_run=True)
    assert result.dry_run
    assert "PreToolUse" in result.settings_change.diff()
    assert '+name = "guard"' in result.config_diff
    assert sorted(path.name for path in (project / ".claude").iterdir()) == []
    assert not paths.manifest_path(project).exists()


def test_a_new_hookman_toml_ends_with_a_newline_and_is_diffed_without_a_mark(
    project: Path,
) -> None:
    """A new hookman.toml ends its last line (tomlkit's own append left it open); its diff
    has no "no newline" mark."""
    _module(project, "notes", "session_start")
    config = load_project_config(project)
    config.put_hook("notes", HookSource("path", "hooks/notes.py"), ["session_start"], {})
    assert config.text().endswith('events = ["session_start"]\n')
    result = sync_project(project, config, TARGET, dry_run=True)
    assert result.config_diff.startswith("--- /dev/null\n")
    assert result.config_diff.endswith('\n+events = ["session_start"]\n')


def test_a_missing_module_is_reported_and_the_rest_is_written(project: Path) -> None:
    config = _config_with_guard(project)
    (project / "hooks" / "guard.py").unlink()

    result = sync_project(project, config, TARGET, dry_run=False)

    problem, fix = result.missing["guard"]
    assert "does not exist" in problem and "`hookman remove guard`" in fix
    assert (project / ".claude" / "hookman.toml").exists()
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert [hook["name"] for hook in manifest["hooks"]] == ["guard"]  # it fails closed
    assert result.missing == {"guard": (problem, fix)}


json_scalars = st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
# Non-empty: settings_entries drops a `hooks` object or event array that hookman's removal
# leaves empty, so a user's own empty `"hooks": {}` does not survive (reported to its owner).
foreign_groups = st.lists(
    st.fixed_dictionaries(
        {
            "hooks": st.lists(
                st.fixed_dictionaries(
                    {
                        "type": st.just("command"),
                        "command": st.text(min_size=1, max_size=12).filter(
                            lambda c: "hookman" not in c
                        ),
                    }
                ),
                max_size=2,
            )
        },
        optional={"matcher": st.sampled_from(["Bash", "Edit|Write", "*"])},
    ),
    min_size=1,
    max_size=2,
)
foreign_settings = st.fixed_dictionaries(
    {},
    optional={
        "env": st.dictionaries(st.text(min_size=1, max_size=5), st.text(max_size=5), max_size=2),
        "permissions": json_values,
        "hooks": st.dictionaries(
            st.sampled_from(["PreToolUse", "Stop", "Notification"]),
            foreign_groups,
            min_size=1,
            max_size=2,
        ),
    },
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(foreign_settings, st.sampled_from([0, 2, 4]))
def test_foreign_settings_survive_install_and_remove_byte_for_byte(
    project: Path, foreign: dict, indent: int
) -> None:
    shutil.rmtree(project / ".claude")
    (project / ".claude").mkdir()
    settings_path = project / ".claude" / "settings.local.json"
    original = json.dumps(foreign, indent=indent or None, ensure_ascii=False) + "\n"
    settings_path.write_text(original, encoding="utf-8")
    config = _config_with_guard(project)
    sync_project(project, config, TARGET, dry_run=False)
    installed = json.loads(settings_path.read_text(encoding="utf-8"))
    assert [(event, kind) for event, kind, _ in _kinds(installed)] == [
        ("PreToolUse", BLOCKING),
        ("PreToolUse", SENTINEL),
        ("UserPromptSubmit", BLOCKING),
    ]
    config = load_project_config(project)
    config.remove_hook("guard")
    sync_project(project, config, TARGET, dry_run=False)
    assert settings_path.read_text(encoding="utf-8") == original


def test_a_failed_write_leaves_manifest_config_and_settings_as_they_were(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sync_project(project, _config_with_guard(project), TARGET, dry_run=False)
    files = [
        paths.manifest_path(project),
        project / ".claude" / "hookman.toml",
        project / ".claude" / "settings.local.json",
    ]
    before = [path.read_bytes() for path in files]
    config = load_project_config(project)
    _module(project, "late", "Stop")
    config.put_hook("late", HookSource("path", "hooks/late.py"), ["Stop"], {})

    def refuse(*args: object, **kwargs: object) -> None:
        raise HookmanError("cannot write settings.local.json.", "fix it.")

    # The settings write is the last of the three: the manifest and hookman.toml are rolled back.
    monkeypatch.setattr("hookman.project.settings_file._write", refuse)
    with pytest.raises(HookmanError, match="cannot write"):
        sync_project(project, config, TARGET, dry_run=False)
    assert [path.read_bytes() for path in files] == before


def test_a_failed_first_install_leaves_no_manifest(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> bool:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("hookman.project.config.write_text_if_changed", refuse)
    with pytest.raises(HookmanError, match="Permission denied"):
        sync_project(project, _config_with_guard(project), TARGET, dry_run=False)
    assert not paths.manifest_path(project).exists()
    assert not (project / ".claude" / "hookman.toml").exists()
    assert not (project / ".claude" / "settings.local.json").exists()


def test_a_session_end_timeout_above_the_cap_is_a_warning(project: Path) -> None:
    _module(project, "notes", "session_shutdown")
    (project / ".claude" / "hookman.toml").write_text(
        '[[hooks]]\nname = "notes"\npath = "hooks/notes.py"\n'
        'events = ["session_shutdown"]\ntimeout = 90\n'
    )
    result = sync_project(project, load_project_config(project), TARGET, dry_run=True)
    assert result.plan.entries["SessionEnd"].timeout == 60
    assert result.plan.session_end_capped == {"notes": 90}


def test_an_async_hook_gets_its_own_async_entry_beside_the_blocking_one(project: Path) -> None:
    config = _config_with_guard(project)
    _module(project, "notify", "tool_call", "tool_result")
    config.put_hook(
        "notify",
        HookSource("path", "hooks/notify.py"),
        ["tool_call", "tool_result"],
        {},
        run_async=True,
    )
    result = sync_project(project, config, TARGET, dry_run=False)

    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    (blocking,) = settings["hooks"]["PreToolUse"]  # notify's guard part stays blocking
    assert "matcher" not in blocking and "async" not in blocking["hooks"][0]
    (observing,) = settings["hooks"]["PostToolUse"]
    assert "matcher" not in observing and observing["hooks"][0]["async"] is True
    assert {
        event: (entry.matcher, entry.timeout) for event, entry in result.plan.async_entries.items()
    } == {"PostToolUse": (None, 30), "PostToolUseFailure": (None, 30)}
    assert result.plan.kept_blocking == {"notify": ("PreToolUse",)}  # a guard stays blocking
    again = sync_project(project, load_project_config(project), TARGET, dry_run=False)
    assert not again.settings_change.changed


def test_nothing_to_change_is_found_without_the_lock(project: Path) -> None:
    from hookman.install.sync import sync_if_nothing_changes
    from hookman.project.config import read_project_config

    assert sync_if_nothing_changes(project, _config_with_guard(project), TARGET) is None
    written = sync_project(project, _config_with_guard(project), TARGET, dry_run=False)
    same = sync_if_nothing_changes(project, read_project_config(project), TARGET)
    assert same is not None
    assert not same.dry_run and not same.settings_change.changed and same.config_diff == ""
    assert same.plan.entries == written.plan.entries
    # Any file out of step means the caller must lock and write.
    other = TargetVersion(ClientVersion(2, 1, 197), "flag")
    assert sync_if_nothing_changes(project, read_project_config(project), other) is None
    paths.manifest_path(project).write_text("{}")
    assert sync_if_nothing_changes(project, read_project_config(project), TARGET) is None
    sync_project(project, load_project_config(project), TARGET, dry_run=False)
    settings = project / ".claude" / "settings.local.json"
    settings.write_text(settings.read_text().replace('"Bash"', '"Edit"'))
    assert sync_if_nothing_changes(project, read_project_config(project), TARGET) is None
