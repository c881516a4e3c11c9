"""A plugin built from a hook repository whose guard imports a sibling module
(`from .words import REFUSED`, the form docs/hook-repositories.md recommends), installed
from a local marketplace with the client's own `claude plugin` commands, on a machine whose
python3 has no hookman and with no hookman store: the model reads the guard's own deny, and
a sibling changed in the plugin is a deny that names what a plugin user can do."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.hook_repos import make_repo

from .harness import E2EProject
from .mock_anthropic import bash, say
from .test_plugin import PLUGIN, clean_path, install_from_marketplace, use_clean_path

pytestmark = pytest.mark.e2e

REASON = "PLUGIN-REPO-E2E: the words say no"


def build_from_repository(e2e: E2EProject) -> tuple[Path, Path]:
    """Install the repository guard, build the plugin into a marketplace, then take the
    hook out of the project and leave the hookman store behind (a plugin user has
    neither)."""
    repo = make_repo(e2e.scratch / "agent hooks", reason=REASON)
    e2e.hookman(
        "install", "no-rm-rf", "--repo", f"file://{repo}", "--rev", "v1.0.0",
        "--claude-version", e2e.version,
    )  # fmt: skip
    marketplace = e2e.scratch / "team-hooks"
    plugin = marketplace / "plugins" / PLUGIN
    done = e2e.hookman(
        "plugin", "build", str(plugin), "--name", PLUGIN, "--marketplace", str(marketplace)
    )
    assert "built the plugin team-guards 0.1.0" in done.stdout, done.stdout
    e2e.hookman("remove", "no-rm-rf")
    shutil.rmtree(Path(e2e.env()["HOOKMAN_HOME"]) / "cache" / "repos")
    return marketplace, plugin


def test_a_repository_guard_with_a_sibling_module_denies_through_the_plugin(
    e2e: E2EProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    marketplace, plugin = build_from_repository(e2e)
    use_clean_path(e2e, monkeypatch, clean_path(e2e))
    validated = e2e.claude_cli("plugin", "validate", str(plugin))
    assert "Validation passed" in validated.stdout, validated.stdout
    install_from_marketplace(e2e, marketplace, "user")
    victim = e2e.root / "victim"
    victim.mkdir()

    run = e2e.run_claude(
        "tidy up", turns=[bash(f"rm -rf {victim}"), bash("echo harmless-$((40+2))"), say("ok")]
    )

    assert run.returncode == 0, run.describe()
    denied, harmless = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    assert REASON in denied["content"], run.describe()
    assert "failed to load" not in denied["content"], run.describe()
    assert victim.is_dir()
    assert harmless["content"] == "harmless-42", run.describe()


def test_a_sibling_changed_in_the_plugin_denies_in_words_a_plugin_user_can_act_on(
    e2e: E2EProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    marketplace, plugin = build_from_repository(e2e)
    use_clean_path(e2e, monkeypatch, clean_path(e2e))
    install_from_marketplace(e2e, marketplace, "user")
    [words] = (plugin / "hookman-runner").rglob("words.py")
    words.write_text("REFUSED = 'never matches'\n")  # a directory marketplace runs from here

    run = e2e.run_claude("list", turns=[bash("echo harmless"), say("ok")])

    assert run.returncode == 0, run.describe()
    [denied] = run.tool_results()
    assert denied["is_error"] is True, run.describe()
    text = denied["content"]
    assert "guards/words.py changed in the plugin since it was built" in text, run.describe()
    assert f"claude plugin update {PLUGIN}@MARKETPLACE" in text, run.describe()
    assert "hookman fire" not in text and "hookman disable" not in text, run.describe()


def test_doctor_probes_the_installed_plugins_own_copy(
    e2e: E2EProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`doctor --probe-commands` runs the plugin the client installed, from its own files:
    its guard works there, and once the plugin lacks the sibling (what builds before this
    one wrote) it is an error, never "the guard works"."""
    marketplace, plugin = build_from_repository(e2e)
    use_clean_path(e2e, monkeypatch, clean_path(e2e, str(Path(sys.executable).parent)))
    install_from_marketplace(e2e, marketplace, "user")

    def probe() -> tuple[int, list[dict], list[str]]:
        done = e2e.hookman(
            "doctor", "--json", "--probe-commands", "--claude-version", e2e.version, check=False
        )
        report = json.loads(done.stdout)
        runs = [
            run
            for run in report["probed"]
            if run["kind"] == "command" and run["event"] == "PreToolUse"
        ]
        return done.returncode, runs, [f["code"] for f in report["findings"]]

    status, runs, codes = probe()
    assert "hookman-hook-does-not-load" not in codes, codes
    assert [(r["result"], REASON in r["summary"]) for r in runs] == [
        ("no_answer", False),
        ("denied", True),
    ], runs
    [words] = (plugin / "hookman-runner").rglob("words.py")
    words.unlink()

    status, runs, codes = probe()

    assert status == 1 and "hookman-hook-does-not-load" in codes, codes
    assert [r["result"] for r in runs] == ["failed_closed", "failed_closed"], runs
    assert not [r for r in runs if "the guard works" in r["summary"]], runs
