"""Many hooks in one `hookman install a.py b.py ...` (issue 26, item 4): the same files as
adding them one at a time, one learning child for all of them, and a hook among them that
does not load named, with nothing written."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookman import paths
from hookman.hooks import subscription_cache, subscriptions
from hookman.install import sync
from hookman.project import config as config_module

from .helpers import GUARD, NOTES, hookman, write_hook

VERSION = ("--claude-version", "2.1.332")
COUNT = 40
SIDE_BY_SIDE = 24  # added one at a time too: kept small for the default run
# Hooks of a few kinds: guards narrowed to tools, observers, a session hook.
KINDS = (
    GUARD,
    NOTES,
    "def hook(pi):\n    pi.on('Stop', lambda event, ctx: None)\n",
    "def hook(pi):\n    pi.on('tool_call', lambda event, ctx: None, tools=['Edit', 'Write'])\n",
)
BROKEN = "def hook(pi):\n    raise RuntimeError('factory 17 is broken')\n"


@pytest.fixture(autouse=True)
def _here(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin") + ":/usr/bin:/bin")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.chdir(project)


def _write_hooks(project: Path, count: int = COUNT) -> list[str]:
    names = []
    for index in range(count):
        write_hook(project, f"h{index:02d}", KINDS[index % len(KINDS)])
        names.append(f"hooks/h{index:02d}.py")
    return names


def _written(project: Path) -> dict[str, bytes | None]:
    files = {
        "hookman.toml": project / ".claude" / "hookman.toml",
        "settings": project / ".claude" / "settings.local.json",
        "manifest": paths.manifest_path(project),
        "launcher": paths.project_state_dir(project) / "hookman-run.sh",
    }
    return {key: path.read_bytes() if path.exists() else None for key, path in files.items()}


def _forget_install(project: Path) -> None:
    """The project as before its first install (the subscriptions learned are kept, so
    adding the hooks one at a time afterwards starts no child)."""
    for name in ("hookman.toml", "settings.local.json"):
        (project / ".claude" / name).unlink()
    for path in paths.project_state_dir(project).iterdir():
        if path.name != "subscriptions.json":
            path.unlink()


def _learning_children(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The learning children started, each as the number of hooks it was given."""
    started: list[int] = []
    real = subprocess.Popen

    def popen(argv: list[str], *args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        if subscriptions._CHILD_CODE in argv:
            stdin = kwargs["stdin"]
            started.append(len(json.loads(stdin.read())))  # type: ignore[attr-defined]
            stdin.seek(0)  # type: ignore[attr-defined]
        return real(argv, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(subprocess, "Popen", popen)  # the module imports it where it runs
    return started


def test_many_hooks_in_one_install_write_what_one_at_a_time_writes(project: Path) -> None:
    hooks = _write_hooks(project, SIDE_BY_SIDE)
    done = hookman("install", *hooks, *VERSION)
    assert done.exit_code == 0, done.output
    at_once = _written(project)
    _forget_install(project)

    for hook in hooks:
        added = hookman("install", hook, *VERSION)
        assert added.exit_code == 0, added.output

    one_at_a_time = _written(project)
    assert at_once["hookman.toml"] == one_at_a_time["hookman.toml"]
    assert at_once["manifest"] == one_at_a_time["manifest"]
    assert at_once["launcher"] == one_at_a_time["launcher"]
    # The same entries; one at a time, each event's entry is added where it first appeared.
    assert json.loads(at_once["settings"] or b"") == json.loads(one_at_a_time["settings"] or b"")
    assert all(f"installed h{index:02d}" in done.stdout for index in range(SIDE_BY_SIDE))
    toml = (project / ".claude" / "hookman.toml").read_text()
    assert toml.count("[[hooks]]") == SIDE_BY_SIDE


def test_many_hooks_given_again_with_async_change_what_one_at_a_time_changes(
    project: Path,
) -> None:
    hooks = _write_hooks(project, 8)
    assert hookman("install", *hooks[:4], *VERSION).exit_code == 0
    done = hookman("install", *hooks, "--async", *VERSION)
    assert done.exit_code == 0, done.output
    at_once = _written(project)
    _forget_install(project)
    assert hookman("install", *hooks[:4], *VERSION).exit_code == 0

    for hook in hooks:
        assert hookman("install", hook, "--async", *VERSION).exit_code == 0

    one_at_a_time = _written(project)
    assert at_once["hookman.toml"] == one_at_a_time["hookman.toml"]
    assert at_once["manifest"] == one_at_a_time["manifest"]
    assert json.loads(at_once["settings"] or b"") == json.loads(one_at_a_time["settings"] or b"")


def _counted(calls: list[str], name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return real(*args, **kwargs)

    return counted


def test_many_hooks_are_learned_by_one_child_and_validated_once(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hooks = _write_hooks(project)
    started = _learning_children(monkeypatch)
    validations: list[int] = []
    validate = config_module._validate

    def counted(document: object) -> object:
        validations.append(1)
        return validate(document)  # type: ignore[arg-type]

    monkeypatch.setattr(config_module, "_validate", counted)
    writes: list[str] = []
    for module, name in ((subscription_cache, "_write_cache"), (sync, "write_manifest")):
        monkeypatch.setattr(module, name, _counted(writes, name, getattr(module, name)))

    done = hookman("install", *hooks, *VERSION)

    assert done.exit_code == 0, done.output
    assert started == [COUNT]  # one child for all of them (not one per hook)
    assert sorted(writes) == ["_write_cache", "write_manifest"]  # each written once
    # hookman.toml read, edited and validated a bounded number of times, not once per hook
    assert len(validations) <= 6


def test_a_broken_hook_among_many_is_named_and_nothing_is_written(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_hook(project, "first", GUARD)
    assert hookman("install", "hooks/first.py", *VERSION).exit_code == 0
    before = _written(project)
    hooks = _write_hooks(project, 30)
    write_hook(project, "h17", BROKEN)
    started = _learning_children(monkeypatch)

    done = hookman("install", *hooks, *VERSION)

    assert done.exit_code == 1
    assert "'h17'" in done.output and "factory 17 is broken" in done.output
    assert "h16" not in done.output and "h18" not in done.output  # the one hook named
    assert "Traceback" not in done.output
    assert _written(project) == before
    assert started == [30]  # one child still: the broken hook does not start more
