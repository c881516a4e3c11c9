"""doctor reads the client's own off-switches (catalog/doctor_facts.json, "off_switches"):
managed strictPluginOnlyCustomization, CLAUDE_CODE_SIMPLE (`--bare`), a workspace with no
trust record, and the cap on Stop blocks in a row. A fixture and a near miss per code; the
real client's behaviour is proven in tests/e2e/test_off_switches.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookman.doctor.report import exit_code

from .conftest import (
    codes,
    command,
    diagnose,
    group,
    install,
    settings,
    the,
    write_json,
)

STOP_GUARD = """\
def hook(pi):
    pi.on("Stop", lambda event, ctx: {"decision": "block", "reason": "not yet"})
"""


def managed(tmp_path: Path, **keys: Any) -> Path:
    return write_json(tmp_path / "managed" / "managed-settings.json", keys)


# --- hooks-plugin-only -------------------------------------------------------------------------


@pytest.mark.parametrize("value", [True, ["skills", "hooks"], "yes"])
def test_strict_plugin_only_silences_every_settings_hook_hookmans_included(
    project: Path, tmp_path: Path, value: Any
) -> None:
    install(project)
    settings(project, {"PostToolUse": [group(command("echo hi"))]})
    managed(tmp_path, strictPluginOnlyCustomization=value)

    ctx = diagnose(project)

    found = the(ctx, "hooks-plugin-only")
    assert found.severity == "error" and exit_code(ctx) == 1
    # hookman's: the guard's entry, its sentinel (every other tool) and the prompt gate
    assert "4 hook(s) of the user, project and local settings" in found.message
    assert "hookman's 3 included" in found.message and "hookman plugin build" in found.fix
    assert found.path == "strictPluginOnlyCustomization"
    silenced = [h for h in ctx.handlers if h.not_loaded_because == "hooks-plugin-only"]
    assert {h.source.kind for h in silenced} == {"project", "local"} and len(silenced) == 4


def test_strict_plugin_only_for_other_surfaces_leaves_hooks_alone(
    project: Path, tmp_path: Path
) -> None:
    install(project)
    managed(tmp_path, strictPluginOnlyCustomization=["skills", "mcp"])
    assert "hooks-plugin-only" not in codes(diagnose(project))
    managed(tmp_path, strictPluginOnlyCustomization=False)
    assert "hooks-plugin-only" not in codes(diagnose(project))


def test_strict_plugin_only_without_settings_hooks_is_information(
    project: Path, tmp_path: Path
) -> None:
    managed(tmp_path, strictPluginOnlyCustomization=True)
    assert the(diagnose(project), "hooks-plugin-only").severity == "info"


def test_the_managed_settings_path_can_be_given(project: Path, tmp_path: Path) -> None:
    install(project)
    policy = write_json(tmp_path / "policy" / "managed-settings.json", {})
    policy.write_text(json.dumps({"strictPluginOnlyCustomization": ["hooks"]}))
    ctx = diagnose(project, managed_settings=policy)
    assert the(ctx, "hooks-plugin-only").file == str(policy)


# --- hooks-off-bare-mode -----------------------------------------------------------------------


@pytest.mark.parametrize(("value", "said"), [("1", True), ("True", True), ("0", False)])
def test_claude_code_simple_in_this_environment_is_said(
    project: Path, monkeypatch: pytest.MonkeyPatch, value: str, said: bool
) -> None:
    install(project)
    monkeypatch.setenv("CLAUDE_CODE_SIMPLE", value)
    ctx = diagnose(project)
    assert ("hooks-off-bare-mode" in codes(ctx, "info")) is said
    assert exit_code(ctx) == 0


# --- workspace-not-trusted ---------------------------------------------------------------------


def trust(home: Path, directory: Path, accepted: bool = True) -> Path:
    record = {"projects": {str(directory): {"hasTrustDialogAccepted": accepted}}}
    return write_json(home / ".claude.json", record)


def test_a_project_claude_code_has_no_trust_record_for_is_said(
    project: Path, isolated_user: Path
) -> None:
    install(project)
    trust(isolated_user, isolated_user / "elsewhere")
    found = the(diagnose(project), "workspace-not-trusted")
    assert found.severity == "info" and found.file == str(isolated_user / ".claude.json")
    assert "accept the trust dialog" in found.fix
    trust(isolated_user, project, accepted=False)
    assert "workspace-not-trusted" in codes(diagnose(project))


def test_a_trusted_project_or_folder_above_it_is_quiet(
    project: Path, isolated_user: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    install(project)
    trust(isolated_user, project.parent)
    assert "workspace-not-trusted" not in codes(diagnose(project))
    config = tmp_path / "config"
    trust(config, isolated_user / "elsewhere")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))  # the record is read there then
    assert the(diagnose(project), "workspace-not-trusted").file == str(config / ".claude.json")


def test_no_claude_json_means_nothing_to_compare(project: Path) -> None:
    install(project)
    assert "workspace-not-trusted" not in codes(diagnose(project))


# --- stop-block-cap ----------------------------------------------------------------------------


def test_a_hookman_stop_guard_is_told_the_client_s_cap(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", raising=False)
    install(project, STOP_GUARD, "gate")

    found = the(diagnose(project), "stop-block-cap")

    assert found.severity == "info" and found.event == "Stop"
    assert "more than 8 times in a row" in found.message and "default 8" in found.message
    monkeypatch.setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "2")
    assert "more than 2 times" in the(diagnose(project), "stop-block-cap").message
    monkeypatch.setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "0")
    assert "never overrides" in the(diagnose(project), "stop-block-cap").message


def test_a_foreign_stop_hook_is_told_only_when_the_environment_sets_the_cap(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", raising=False)
    settings(project, {"Stop": [group(command("echo hi"))]})
    assert "stop-block-cap" not in codes(diagnose(project))
    monkeypatch.setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "3")
    assert "more than 3 times" in the(diagnose(project), "stop-block-cap").message
