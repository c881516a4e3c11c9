"""`hookman uninstall` in the real Claude Code client (every pinned version): a guard that
denied in a session no longer runs after uninstall, the user's own settings survive byte for
byte, and `hookman install` from the kept hookman.toml brings the guard back."""

from __future__ import annotations

import pytest

from .harness import E2EProject
from .mock_anthropic import bash, say
from .test_guard import GUARD

pytestmark = pytest.mark.e2e
MINE = '{\n  "permissions": {"allow": ["Bash(ls:*)"]}\n}\n'


def denied(e2e: E2EProject) -> bool:
    victim = e2e.root / "victim"
    victim.mkdir(exist_ok=True)
    run = e2e.run_claude("tidy", turns=[bash(f"rm -rf {victim}"), say("ok")])
    assert run.returncode == 0, run.describe()
    (result,) = run.tool_results()
    blocked = "GUARD-E2E: rm -rf is not allowed here" in str(result["content"])
    assert blocked == victim.is_dir(), run.describe()
    return blocked


def test_uninstall_silences_the_guard_keeps_the_users_settings_and_install_brings_it_back(
    e2e: E2EProject,
) -> None:
    settings = e2e.root / ".claude" / "settings.local.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(MINE)
    e2e.hookman("install", e2e.write_hook("guard", GUARD))
    assert denied(e2e)

    done = e2e.hookman("uninstall")

    assert f"{settings}: " in done.stdout and "(the rest kept)" in done.stdout, done.stdout
    assert settings.read_text() == MINE
    assert not denied(e2e)
    e2e.hookman("install")
    assert denied(e2e)
