"""Every command hookman writes (settings.local.json, .codex/hooks.json, a built plugin's
hooks/hooks.json) under every shell that may be `/bin/sh`, with the hostile conditions of
issue 23's classes 1, 3 and 4, judged as the client reads the result (sh_family.py runs
them). The guard denies `rm -rf`; so must the command, whatever the condition: with the
runner alive, with the runner gone (its Python or start.py missing), and with the launcher
emptied or cut inside its function (ksh93 exits 3 on that syntax error: no status the
launcher answers with may be one a shell uses for its own failures).

Class 1: a low open-file limit set in the client's shell before the command (`ulimit -n N`;
posh has no ulimit: the limit is inherited there), fds 1 or 2 closed or /dev/full. Class 3:
SHELLOPTS=xtrace with BASH_XTRACEFD=1 or 2 (bash as `sh` reads them), a PS4 that looks like
JSON or runs a command, `set -x` in the outer shell. Class 4 (Codex's `bash -c`): a BASH_ENV
that moves, closes or nulls fds 1 and 2, traces, or prints.

`HOOKMAN_SH_FAMILY_FULL=1` runs every open-file limit from 3 to 12 (the default: the edges
where shells stop saving descriptors, at fd 10) and the plugin under every shell."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from . import sh_family
from .attack_support import DENY
from .sh_family import Condition, Target

FULL = os.environ.get("HOOKMAN_SH_FAMILY_FULL") == "1"
LIMITS = range(3, 13) if FULL else (3, 4, 7, 10, 11, 12)
CLAUDE = [
    sh_family.PLAIN,
    *(Condition(f"ulimit-n-{n}", prelude=f"ulimit -n {n}; ") for n in LIMITS),
    *sh_family.BROKEN_STREAMS,
    *sh_family.TRACING,
]
CODEX = [
    sh_family.PLAIN,
    *(Condition(f"ulimit-n-{n}", prelude=f"ulimit -n {n}; ") for n in (3, 4, 10, 11)),
    *sh_family.TRACING[:2],
    *sh_family.START_UP_FILES,
]
SCENARIOS = sh_family.SCENARIOS
# Conditions under which the runner starts, so its answer (the guard's reason) must arrive.
OWN_REASON = [*sh_family.BROKEN_STREAMS[:2], *sh_family.TRACING, *sh_family.START_UP_FILES]
# The plugin's launcher is the project's body with its own values and prelude: by default
# under the shells that broke differently before issue 23 (dash, bash, mksh, yash).
PLUGIN_SHELLS = ("dash", "bash", "mksh", "yash")
# What no command can answer for, measured: zsh as `sh` cannot start any process with at
# most one descriptor free (`pipe failed`, fatal, no EXIT trap), so neither the launcher nor
# the command's own deny runs and it exits 1. A Codex command whose launcher is emptied while
# a start-up file took fd 2 has nowhere to say its deny (exit 2 needs a stderr).
KNOWN_LIMITS = {
    ("zsh", "ulimit-n-3"): "zsh cannot fork with no descriptor free",
    ("zsh", "ulimit-n-4"): "zsh cannot fork with one descriptor free",
}
CODEX_EMPTIED = {"bash-env-2-null", "bash-env-2-closed", "bash-env-2-to-1"}
# posh's `[` has no -ef: fds 1 and 2 one pipe (a start-up file's `exec 2>&1`) go unseen.
POSH_SAME_PIPE = {("posh", "bash-env-2-to-1")}


def _shell(name: str) -> str:
    if sh_family.shell_path(name) is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{name} is not installed (CI must have it: .ci/run)")
        pytest.skip(f"{name} is not installed")
    return name


@pytest.fixture(scope="module", params=SCENARIOS)
def targets(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, dict[str, Target], Path]]:
    root = tmp_path_factory.mktemp(f"sh-family-{request.param}")
    made = sh_family.make_targets(root)
    for target in made.values():
        sh_family.break_target(target, request.param)
    yield request.param, made, root / "scratch"


def _check(scenario: str, target: Target, shell: str, condition: Condition, scratch: Path) -> None:
    limit = KNOWN_LIMITS.get((shell, condition.name))
    if target.client == "codex":
        limit = None  # Codex's shell is bash
        if scenario in ("emptied", "cut") and condition.name in CODEX_EMPTIED:
            limit = "the command's own deny has no stderr to go to"
        elif (shell, condition.name) in POSH_SAME_PIPE:
            limit = "posh cannot tell that fds 1 and 2 are one pipe"
    verdict = sh_family.run(target, shell, condition, scratch)
    if limit is not None:
        assert verdict.decision != DENY, f"{limit}: now denied, move it out of the limits"
        pytest.xfail(limit)
    assert verdict.decision == DENY, (scenario, target.name, shell, condition.name, verdict)
    if scenario == "guard" and condition in OWN_REASON:
        # The runner ran: the client reads the guard's own reason, not the launcher's.
        assert "GUARD: no rm -rf" in verdict.why, (target.name, shell, condition.name, verdict)


@pytest.mark.parametrize("shell", sh_family.FAMILY)
@pytest.mark.parametrize("condition", CLAUDE, ids=lambda c: c.name)
def test_the_settings_command_denies_under_every_sh(
    targets: tuple[str, dict[str, Target], Path], condition: Condition, shell: str
) -> None:
    scenario, made, scratch = targets
    _check(scenario, made["settings"], _shell(shell), condition, scratch)


@pytest.mark.parametrize("shell", sh_family.FAMILY if FULL else PLUGIN_SHELLS)
@pytest.mark.parametrize("condition", CLAUDE, ids=lambda c: c.name)
def test_a_built_plugin_s_command_denies_under_every_sh(
    targets: tuple[str, dict[str, Target], Path], condition: Condition, shell: str
) -> None:
    scenario, made, scratch = targets
    _check(scenario, made["plugin"], _shell(shell), condition, scratch)


@pytest.mark.parametrize("shell", sh_family.FAMILY)
@pytest.mark.parametrize("condition", CODEX, ids=lambda c: c.name)
def test_codex_s_command_denies_under_bash_with_every_sh(
    targets: tuple[str, dict[str, Target], Path], condition: Condition, shell: str
) -> None:
    scenario, made, scratch = targets
    _check(scenario, made["codex"], _shell(shell), condition, scratch)
