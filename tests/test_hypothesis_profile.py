"""CI runs the property tests derandomized, so a run cannot fail where the last one passed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBE = "import tests.conftest, hypothesis; print(hypothesis.settings.default.derandomize)"


@pytest.mark.parametrize(("ci", "derandomized"), [("true", "True"), ("", "False")])
def test_the_ci_profile_is_derandomized_and_loaded_only_under_ci(
    ci: str, derandomized: str
) -> None:
    env = {**os.environ, "CI": ci}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == derandomized
