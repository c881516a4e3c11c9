"""CI runs the property tests derandomized, so a run cannot fail where the last one passed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
from hypothesis import settings
from tests.conftest import CI_PROFILE
ours = settings.default == settings.get_profile(CI_PROFILE)
print(ours and settings.default.derandomize)
"""


@pytest.mark.parametrize(("ci", "derandomized"), [("true", "True"), (None, "False")])
def test_the_ci_profile_is_derandomized_and_loaded_only_under_ci(
    ci: str | None, derandomized: str
) -> None:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    if ci is not None:
        env["CI"] = ci
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == derandomized
