"""bridge/guard_drift.py: a path hook whose code now guards what install did not wire is
found (and only then), and a project that did not change loads nothing for it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookman import paths
from hookman.bridge.guard_drift import CHECKED_NAME, drift_reason, guard_drift
from hookman.bridge.manifest_reader import read_manifest
from hookman.runtime import loader

from .attack_support import hookman_install

BASH_GUARD = """
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        return None
"""
OBSERVER = """
def hook(pi):
    pi.on("agent_start", lambda event, ctx: None)
"""
DATA_GUARD = """
import json, pathlib
def hook(pi):
    tools = json.loads((pathlib.Path(__file__).parent / "guarded.json").read_text())
    pi.on("tool_call", lambda event, ctx: None, tools=tools)
"""


def _write(project: Path, name: str, source: str) -> Path:
    (project / "hooks").mkdir(exist_ok=True)
    path = project / "hooks" / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return path


def _drift(project: Path) -> list:
    """What a fresh runner finds (the loader imports a module once per process)."""
    loader._modules_by_path.clear()
    manifest = read_manifest(str(paths.manifest_path(project)))
    return guard_drift(manifest, manifest.state_dir)


@pytest.fixture
def installed_bash_guard(project: Path) -> Path:
    _write(project, "g", BASH_GUARD)
    hookman_install(project, "hooks/g.py", "--claude-version", "2.1.332")
    return project


def test_unchanged_code_is_no_drift_and_is_remembered(installed_bash_guard: Path) -> None:
    project = installed_bash_guard
    assert _drift(project) == []
    state_dir = paths.project_state_dir(project)
    assert (state_dir / CHECKED_NAME).is_file()


def test_a_tool_the_guard_now_asks_for_is_drift(installed_bash_guard: Path) -> None:
    project = installed_bash_guard
    _write(project, "g", BASH_GUARD.replace('["Bash"]', '["Bash", "Write"]'))
    (found,) = _drift(project)
    assert (found.hook, found.subscription, found.tools) == ("g", "tool_call", ("Write",))
    reason = drift_reason("PreToolUse", [found], str(project))
    assert "'g' now guards Write (tool_call)" in reason
    assert f"Run `hookman install` in {project}" in reason


def test_a_guard_widened_to_every_tool_is_drift(installed_bash_guard: Path) -> None:
    project = installed_bash_guard
    _write(project, "g", BASH_GUARD.replace(', tools=["Bash"]', ""))
    (found,) = _drift(project)
    assert found.tools is None
    assert "now guards every tool" in found.shown()


def test_a_guard_gained_by_an_observer_is_drift(project: Path) -> None:
    _write(project, "obs", OBSERVER)
    hookman_install(project, "hooks/obs.py", "--claude-version", "2.1.332")
    _write(project, "obs", OBSERVER + '    pi.on("PreToolUse", lambda event, ctx: None)\n')
    (found,) = _drift(project)
    assert (found.hook, found.subscription, found.tools) == ("obs", "PreToolUse", None)


def test_narrower_or_observe_only_changes_are_not_drift(installed_bash_guard: Path) -> None:
    project = installed_bash_guard
    narrower = BASH_GUARD.replace('["Bash"]', "[]") + '    pi.on("agent_end", lambda e, c: None)\n'
    _write(project, "g", BASH_GUARD + '    pi.on("agent_end", lambda event, ctx: None)\n')
    assert _drift(project) == []
    _write(project, "g", narrower.replace("tools=[]", 'tools=["Bash"]'))
    assert _drift(project) == []


def test_a_remembered_check_loads_nothing_until_a_file_changes(
    installed_bash_guard: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = installed_bash_guard
    import hookman.runtime

    loads: list[object] = []
    real = hookman.runtime.load_hooks
    monkeypatch.setattr(
        hookman.runtime, "load_hooks", lambda *a, **k: loads.append(a) or real(*a, **k)
    )
    assert _drift(project) == []
    assert len(loads) == 1
    assert _drift(project) == []
    assert len(loads) == 1  # remembered: not loaded again
    hook = project / "hooks" / "g.py"
    before = hook.stat()
    hook.write_text(BASH_GUARD.replace('["Bash"]', '["Edit", "Bash"]'), encoding="utf-8")
    os.utime(hook, ns=(before.st_atime_ns, before.st_mtime_ns))  # the mtime set back
    (found,) = _drift(project)  # the size and ctime still tell
    assert found.tools == ("Edit",)
    assert len(loads) == 2
    assert _drift(project) != []  # a drift is never remembered as checked
    assert len(loads) == 3


def test_a_data_file_the_factory_reads_is_watched(project: Path) -> None:
    data = project / "hooks" / "guarded.json"
    _write(project, "h", DATA_GUARD)
    data.write_text('["Bash"]', encoding="utf-8")
    hookman_install(project, "hooks/h.py", "--claude-version", "2.1.332")
    assert _drift(project) == []
    data.write_text('["Bash", "Write"]', encoding="utf-8")
    (found,) = _drift(project)
    assert found.tools == ("Write",)


def test_a_hook_that_no_longer_loads_is_left_to_the_dispatch(installed_bash_guard: Path) -> None:
    project = installed_bash_guard
    _write(project, "g", "def hook(pi):\n    raise RuntimeError('broken')\n")
    assert _drift(project) == []
