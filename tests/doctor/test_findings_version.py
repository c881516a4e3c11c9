from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import codes, diagnose, the


def test_an_unknown_target_says_which_facts_it_assumes(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(project))  # no `claude` to ask
    found = the(diagnose(project, None), "target-version-unknown")
    assert found.severity == "info" and "2.1.332" in found.message


def test_a_target_newer_than_hookmans_facts_is_information(project: Path) -> None:
    found = the(diagnose(project, "2.9.0"), "target-newer-than-facts")
    assert found.severity == "info" and "behaves like 2.1.332" in found.message


def test_a_checked_target_has_no_version_finding(project: Path) -> None:
    assert codes(diagnose(project, "2.1.332")) == []
