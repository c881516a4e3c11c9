"""Qwen Code's switches that turn every hook off, in the real 0.24.4 binary: with
QWEN_CODE_SIMPLE (what `qwen --bare` sets) or QWEN_CODE_SAFE_MODE truthy, hookman's guard
does not run and the `rm -rf` goes ahead; `hookman doctor`, run from the same environment,
says so (qwen-hooks-off-env, doctor_facts.json qwen "off_env"). A falsy value changes
nothing."""

from __future__ import annotations

import pytest

from .agents_harness import AgentProject
from .mock_anthropic import say
from .test_agent_merge import GUARD, REASON

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("variable", "value", "off"),
    [
        ("QWEN_CODE_SIMPLE", "1", True),
        ("QWEN_CODE_SAFE_MODE", "true", True),
        ("QWEN_CODE_SIMPLE", "0", False),
    ],
)
@pytest.mark.parametrize("agent_client", ["qwen"], indirect=True)
def test_a_qwen_off_switch_lets_the_call_run_and_doctor_says_so(
    agent_e2e: AgentProject, variable: str, value: str, off: bool
) -> None:
    e2e = agent_e2e
    e2e.install(e2e.write_hook("guard", GUARD))
    e2e.extra_env[variable] = value
    victim = e2e.root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep\n")
    run = e2e.run_agent("tidy", turns=[e2e.shell("rm -rf victim"), say("ok")])
    doctor = e2e.hookman("doctor", check=False)
    if not off:
        assert (victim / "keep.txt").exists(), run.describe()
        assert e2e.denied(REASON) in run.tool_results()[0], run.describe()
        assert "qwen-hooks-off-env" not in doctor.stdout
        return
    assert not (victim / "keep.txt").exists(), "the switch no longer turns hooks off"
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "info qwen-hooks-off-env" in doctor.stdout, doctor.stdout
    assert f"  {variable} is set in this environment: a Qwen Code started from it" in doctor.stdout
    assert f"  fix: unset {variable}, and start Qwen Code without" in doctor.stdout
