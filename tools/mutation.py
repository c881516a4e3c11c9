"""The machinery of hookman's hand-made mutation testing (tools/guard_mutants.py,
tools/mutants.py): apply one one-line mutant to a source file, run the tests that should
notice it, put the file back, and say whether a test failed ("killed", as it must) or not
("SURVIVED").

It edits hookman's files in place: run it from a clean checkout, one run at a time, and let
it finish (the file is restored when a run is interrupted or terminated, not when it is
killed with SIGKILL).
"""

from __future__ import annotations

import pathlib
import signal
import subprocess
import sys
from collections.abc import Sequence
from typing import NamedTuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
# One process (-n 0): a mutant's run stops at its first failing test, and several mutant
# runs side by side would each start a worker per core.
PYTEST = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "not e2e"]
PYTEST += ["-n", "0"]
TIMEOUT_S = 900


class Mutant(NamedTuple):
    """One mutant: `old` (exactly once in `path`) becomes `new`."""

    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...] = ()  # the tests that should kill it (empty: the list's default)
    # Why no test can notice it (the behaviour is the same): not run, reported as such.
    equivalent: str | None = None


def run_mutant(label: str, mutant: Mutant, tests: Sequence[str]) -> str:
    """Apply, test, restore; print and return the verdict: "killed", "SURVIVED",
    "equivalent", "NOT APPLICABLE" or "BROKEN" (pytest could not run the tests)."""
    if mutant.equivalent is not None:
        print(f"{label} equivalent: {mutant.name} ({mutant.equivalent})", flush=True)
        return "equivalent"
    file = ROOT / mutant.path
    text = file.read_text()
    if text.count(mutant.old) != 1:
        print(f"{label} NOT APPLICABLE ({text.count(mutant.old)} matches): {mutant.name}")
        return "NOT APPLICABLE"
    # A SIGTERM ends the run through the `finally` below, which puts the file back.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    file.write_text(text.replace(mutant.old, mutant.new))
    try:
        done = subprocess.run(
            [*PYTEST, *(mutant.tests or tests)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    finally:
        file.write_text(text)
    failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    # 1: a test failed. Anything else but 0 (no tests found, a usage error) proves nothing.
    verdict = {0: "SURVIVED", 1: "killed"}.get(done.returncode, f"BROKEN (exit {done.returncode})")
    print(f"{label} {verdict}: {mutant.name}  {failed[:1]}", flush=True)
    return verdict


def applicable(mutant: Mutant) -> bool:
    """Whether the mutant's line is in its file exactly once (equivalent ones too)."""
    return (ROOT / mutant.path).read_text().count(mutant.old) == 1
