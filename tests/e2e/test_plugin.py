"""A plugin `hookman plugin build` made, listed in a local marketplace, added and installed
with the client's own `claude plugin` commands, guards and talks to the model in the real
client, on a machine whose only Python is a python3 without hookman (PATH holds no venv).

Measured facts these tests hold (docs/claude-code-facts.md, "Plugins"): on 2.1.197,
2.1.328 and 2.1.332 `claude plugin validate`, `plugin marketplace add LOCAL_DIR` and
`plugin install NAME@MARKETPLACE --scope user|project` work offline; a directory
marketplace's plugin runs from its source directory (`${CLAUDE_PLUGIN_ROOT}`), with the
session's project as cwd and `${CLAUDE_PLUGIN_DATA}` = ~/.claude/plugins/data/NAME-MARKETPLACE.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.state_attack_support import needs_root, plant_bytecode

from .harness import E2EProject
from .mock_anthropic import bash, say

pytestmark = pytest.mark.e2e

GUARD = """
def guard(event, ctx):
    if "rm -rf" in event["input"].get("command", ""):
        return {"block": True, "reason": "PLUGIN-GUARD-E2E: rm -rf is not allowed here"}


def hook(pi):
    pi.on("tool_call", guard, tools=["Bash"])
"""

CONTEXT = """
def hook(pi):
    pi.on("session_start", lambda event, ctx: pi.send_message("PLUGIN-CONTEXT-E2E 42"))
"""

PLUGIN = "team-guards"


def clean_path(e2e: E2EProject, *extra: str) -> str:
    """The client's bin dir and the system's: no venv, so no python3 with hookman."""
    return os.pathsep.join([str(e2e.client.bin_dir), *extra, "/usr/bin", "/bin"])


def use_clean_path(e2e: E2EProject, monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    original = e2e.env

    def env() -> dict[str, str]:
        return {**original(), "PATH": path}

    monkeypatch.setattr(e2e, "env", env)


def build_plugin(e2e: E2EProject, *, keep_entries: bool = False) -> tuple[Path, Path]:
    """Install the two hooks (to learn their events), build the plugin (for the newest
    client hookman knows: one plugin serves every pinned client) into a marketplace
    directory with an awkward name, and take the project's own entries out again."""
    e2e.hookman(
        "install",
        e2e.write_hook("guard", GUARD),
        e2e.write_hook("ctx", CONTEXT),
        "--claude-version",
        e2e.version,
    )
    marketplace = e2e.scratch / "team $hooks 'market'"
    plugin = marketplace / "plugins" / PLUGIN
    done = e2e.hookman(
        "plugin", "build", str(plugin), "--name", PLUGIN, "--marketplace", str(marketplace)
    )
    assert "built the plugin team-guards 0.1.0" in done.stdout, done.stdout
    if not keep_entries:
        e2e.write_settings({})  # only the plugin's hooks run
    return marketplace, plugin


def install_from_marketplace(e2e: E2EProject, marketplace: Path, scope: str) -> None:
    added = e2e.claude_cli("plugin", "marketplace", "add", str(marketplace))
    name = json.loads((marketplace / ".claude-plugin" / "marketplace.json").read_text())["name"]
    assert f"Successfully added marketplace: {name}" in added.stdout, added.stdout
    installed = e2e.claude_cli("plugin", "install", f"{PLUGIN}@{name}", "--scope", scope)
    assert f"Successfully installed plugin: {PLUGIN}@{name} (scope: {scope})" in installed.stdout


@pytest.mark.parametrize("scope", ["user", "project"])
def test_a_built_plugin_installed_from_a_marketplace_guards_and_talks_without_hookman(
    e2e: E2EProject, monkeypatch: pytest.MonkeyPatch, scope: str
) -> None:
    marketplace, plugin = build_plugin(e2e)
    path = clean_path(e2e)
    no_hookman = subprocess.run(
        ["python3", "-c", "import hookman"],
        env={"PATH": path},
        cwd=e2e.scratch,
        capture_output=True,
        check=False,
    )
    assert no_hookman.returncode != 0, "the clean PATH's python3 must not have hookman"
    use_clean_path(e2e, monkeypatch, path)
    validated = e2e.claude_cli("plugin", "validate", str(plugin))
    assert "Validation passed" in validated.stdout, validated.stdout
    e2e.claude_cli("plugin", "validate", str(marketplace))
    install_from_marketplace(e2e, marketplace, scope)
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude(
        "tidy up", turns=[bash(f"rm -rf {victim}"), bash("echo harmless-$((40+2))"), say("ok")]
    )

    assert run.returncode == 0, run.describe()
    denied, harmless = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert "PLUGIN-GUARD-E2E: rm -rf is not allowed here" in denied["content"], run.describe()
    assert victim.is_dir()
    assert harmless["content"] == "harmless-42"
    assert run.model_saw("PLUGIN-CONTEXT-E2E 42"), run.describe()
    data = e2e.home / ".claude" / "plugins" / "data"
    assert list(data.glob("*/firing.jsonl")), "the runner's log goes to ${CLAUDE_PLUGIN_DATA}"
    assert not list(plugin.rglob("__pycache__")), "nothing is written into the plugin"


def test_no_python3_on_path_denies_saying_what_to_install(
    e2e: E2EProject, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    marketplace, _plugin = build_plugin(e2e)
    use_clean_path(e2e, monkeypatch, clean_path(e2e))
    install_from_marketplace(e2e, marketplace, "user")
    tools = tmp_path / "no-python-bin"
    tools.mkdir()
    for program in ("sh", "bash", "rm", "echo", "cat", "env", "ls", "mkdir", "unshare"):
        found = shutil.which(program, path="/usr/bin:/bin")
        assert found is not None
        (tools / program).symlink_to(found)
    use_clean_path(e2e, monkeypatch, os.pathsep.join([str(e2e.client.bin_dir), str(tools)]))
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude("tidy up", turns=[bash(f"rm -rf {victim}"), say("ok")])

    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert "there is no `python3` on PATH: install Python 3.10 or newer" in denied["content"]
    assert victim.is_dir()


def test_doctor_sees_the_installed_plugin_duplicate_the_projects_entries(
    e2e: E2EProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    marketplace, _plugin = build_plugin(e2e, keep_entries=True)
    use_clean_path(e2e, monkeypatch, clean_path(e2e, str(Path(sys.executable).parent)))
    install_from_marketplace(e2e, marketplace, "user")

    report = json.loads(
        e2e.hookman("doctor", "--json", "--claude-version", e2e.version, check=False).stdout
    )

    found = {finding["code"]: finding for finding in report["findings"]}
    assert "plugin-duplicates-project" in found, report["findings"]
    assert "guard" in found["plugin-duplicates-project"]["message"]


def test_doctor_is_true_to_a_built_plugin_that_guards_in_this_client(
    e2e: E2EProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built for the newest client (its PreSkillShellCommand in hooks/since-2.1.332.json):
    on every client the guard denies, and doctor exits 0 with no error or warning, saying as
    information that an older client does not run the since-2.1.332 file's hooks."""
    marketplace, _plugin = build_plugin(e2e, keep_entries=True)
    e2e.hookman("remove", "guard", "ctx")  # a plugin user's project: only the plugin's hooks
    use_clean_path(e2e, monkeypatch, clean_path(e2e, str(Path(sys.executable).parent)))
    install_from_marketplace(e2e, marketplace, "user")

    done = e2e.hookman("doctor", "--json", "--claude-version", e2e.version, check=False)

    report = json.loads(done.stdout)
    loud = [f for f in report["findings"] if f["severity"] in ("error", "warning")]
    assert done.returncode == 0 and loud == [], json.dumps(loud, indent=1)
    newer = [f for f in report["findings"] if f["code"] == "plugin-hooks-for-newer-client"]
    expected = [] if e2e.version == "2.1.332" else ["since-2.1.332.json"]
    assert [Path(f["file"]).name for f in newer] == expected, report["findings"]
    victim = e2e.root / "victim"
    victim.mkdir()
    run = e2e.run_claude("tidy up", turns=[bash(f"rm -rf {victim}"), say("ok")])
    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert "PLUGIN-GUARD-E2E: rm -rf is not allowed here" in denied["content"], run.describe()
    assert victim.is_dir()


def test_a_rebuild_runs_at_once_from_a_directory_marketplace_and_update_sees_its_version(
    e2e: E2EProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory marketplace's plugin runs from its directory, so a rebuild needs no
    update there; the rebuild's new patch version is what `claude plugin update` (and a
    git marketplace's cache, keyed by version) needs to refresh the cached copy."""
    marketplace, plugin = build_plugin(e2e)
    use_clean_path(e2e, monkeypatch, clean_path(e2e, str(Path(sys.executable).parent)))
    install_from_marketplace(e2e, marketplace, "user")
    e2e.write_hook("guard", GUARD.replace("PLUGIN-GUARD-E2E", "PLUGIN-GUARD-REBUILT"))
    rebuilt = e2e.hookman("plugin", "build", str(plugin), "--name", PLUGIN)
    assert "rebuilt the plugin team-guards 0.1.1" in rebuilt.stdout
    e2e.write_settings({})

    run = e2e.run_claude("go", turns=[bash("rm -rf /tmp/hookman-e2e-nothing"), say("ok")])

    [denied] = run.tool_results()
    assert "PLUGIN-GUARD-REBUILT" in denied["content"], run.describe()
    name = json.loads((marketplace / ".claude-plugin" / "marketplace.json").read_text())["name"]
    updated = e2e.claude_cli("plugin", "update", f"{PLUGIN}@{name}")
    assert "updated from 0.1.0 to 0.1.1" in updated.stdout, updated.stdout


@needs_root
def test_a_data_dir_others_can_write_denies_without_loading_what_they_planted(
    e2e: E2EProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23, class 6, in the real client: `${CLAUDE_PLUGIN_DATA}` opened to every user
    (a shared HOME), with another user's bytecode for the guard in its cache (a guard that
    allows everything). The runner checks the directory before any hook loads: denied, and
    the victim stays."""
    marketplace, plugin = build_plugin(e2e)
    use_clean_path(e2e, monkeypatch, clean_path(e2e))
    install_from_marketplace(e2e, marketplace, "user")
    first = e2e.run_claude("go", turns=[bash("echo warm-$((40+2))"), say("ok")])
    assert first.tool_results()[0]["content"] == "warm-42", first.describe()
    [data] = (e2e.home / ".claude" / "plugins" / "data").iterdir()
    plant_bytecode(data, plugin.resolve() / "hookman-runner" / "hooks" / "guard.py")
    data.chmod(0o777)
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude("tidy up", turns=[bash(f"rm -rf {victim}"), say("ok")])

    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert "hookman blocked" in denied["content"], run.describe()
    assert victim.is_dir()
