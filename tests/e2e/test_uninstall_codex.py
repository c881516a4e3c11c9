"""`hookman uninstall` in the real `codex` binary (both pinned versions): after install (Codex
records its trust in hookman's entry in CODEX_HOME/config.toml) and a run in which the guard
blocks, uninstall leaves config.toml byte for byte as it was, the project's .codex/ gone,
and the next `codex exec` runs the command (no hookman hook left, none half-trusted)."""

from __future__ import annotations

import pytest

from .codex_harness import CodexProject
from .test_codex_doctor import GUARD, guarded_run

pytestmark = pytest.mark.e2e


def test_uninstall_takes_out_the_entry_and_codex_trust_in_it(codex_e2e: CodexProject) -> None:
    e2e = codex_e2e
    config = e2e.codex_home / "config.toml"
    config.write_text(f'# mine\nmodel = "o3"\n\n{config.read_text().strip()}\n')
    before = config.read_bytes()
    e2e.hookman("install", e2e.write_hook("guard", GUARD), "--agent", "codex")
    assert b"[hooks.state" in config.read_bytes()  # Codex recorded its trust
    blocked, run = guarded_run(e2e)
    assert blocked, run.describe()

    done = e2e.hookman("uninstall")

    assert "Codex's trust in hookman's entries (1 record)" in done.stdout, done.stdout
    assert config.read_bytes() == before
    assert not (e2e.root / ".codex").exists()
    blocked, run = guarded_run(e2e)
    assert not blocked, run.describe()
