"""Every finding code doctor can emit is listed in docs/doctor.md, and every listed code is
one doctor emits (codes are a contract: CI scripts match on them)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOT_CODES = {
    "check-ignore",
    "doctor-probe",
    "doctor-probe-agent",
    "general-purpose",
    "ts-node",
    "utf-8",
    "utf-8-sig",
}


def emitted_codes() -> set[str]:
    found: set[str] = set()
    for module in (REPO / "hookman" / "doctor").glob("*.py"):
        found |= set(re.findall(r'"([a-z][a-z0-9]*(?:-[a-z0-9]+)+)"', module.read_text()))
    return found - NOT_CODES


def documented_codes() -> set[str]:
    text = (REPO / "docs" / "doctor.md").read_text()
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", text, re.MULTILINE))


def test_every_emitted_code_is_documented_and_every_documented_code_is_emitted() -> None:
    assert emitted_codes() == documented_codes()
