from __future__ import annotations

import json
from pathlib import Path

from hookman import paths
from hookman.bridge.manifest_reader import read_manifest
from hookman.client_version import ClientVersion
from hookman.install_plan import plan_install
from hookman.manifest import build_manifest, write_manifest
from hookman.project_config import HookSource, HookSpec

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
            "claude_events": ["PreToolUse"],
            "tools": {"tool_call": ["Bash"]},
            "timeout": 10,
        },
        {
            "name": "dirs",
            "path": "/templates/dirs.py",
            "events": ["DirectoryAdded"],
            "claude_events": ["DirectoryAdded"],
            "tools": {},
            "timeout": None,
        },
    ]
    assert manifest["entries"] == {
        "PreToolUse": {"matcher": "Bash", "timeout": 30, "deadline": 27.0}
    }
    assert manifest["held_back"] == {"DirectoryAdded": "2.1.219"}


def test_an_unknown_version_is_null(project: Path) -> None:
    assert _manifest(project, None)["claude_version"] is None


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
