from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.catalog.client_version import (
    ClientVersion,
    detect_claude_version,
    find_version,
    parse_version,
    resolve_target,
)
from hookman.errors import HookmanError

versions = st.builds(ClientVersion, st.integers(0, 999), st.integers(0, 999), st.integers(0, 9999))


def test_parses_the_claude_version_output() -> None:
    assert find_version("2.1.328 (Claude Code)\n") == ClientVersion(2, 1, 328)
    assert parse_version("2.1.328 (Claude Code)") == ClientVersion(2, 1, 328)
    assert parse_version(" v2.0.0 ") == ClientVersion(2, 0, 0)


@pytest.mark.parametrize("text", ["", "2.1", "latest", "2.1.x", "2.1.3.4", "1.2.3 beta"])
def test_refuses_what_is_not_a_version(text: str) -> None:
    with pytest.raises(ValueError):
        parse_version(text)


@given(versions)
def test_parse_round_trips(version: ClientVersion) -> None:
    assert parse_version(str(version)) == version
    assert find_version(f"{version} (Claude Code)") == version


@given(versions, versions)
def test_ordering_is_numeric_not_textual(first: ClientVersion, second: ClientVersion) -> None:
    as_tuples = (first.major, first.minor, first.patch) < (second.major, second.minor, second.patch)
    assert (first < second) == as_tuples


def test_2_1_99_is_older_than_2_1_100() -> None:
    assert parse_version("2.1.99") < parse_version("2.1.100")


def _fake_claude(directory: Path, script: str) -> None:
    program = directory / "claude"
    program.write_text("#!/bin/sh\n" + script + "\n")
    program.chmod(program.stat().st_mode | stat.S_IEXEC)


def test_detects_the_installed_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_claude(tmp_path, 'echo "2.1.197 (Claude Code)"')
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ["PATH"])
    assert detect_claude_version() == ClientVersion(2, 1, 197)


@pytest.mark.parametrize("script", ["exit 3", "echo garbage", "sleep 5"])
def test_a_failing_or_slow_client_means_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    _fake_claude(tmp_path, script)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ["PATH"])
    assert detect_claude_version(timeout=0.5) is None


def test_a_missing_client_means_unknown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert detect_claude_version() is None


def test_target_order_is_flag_then_config_then_detected() -> None:
    detected = ClientVersion(2, 1, 1)
    target = resolve_target("2.1.328", "2.1.197", detect=lambda: detected)
    assert (target.version, target.source) == (ClientVersion(2, 1, 328), "flag")
    target = resolve_target(None, "2.1.197", detect=lambda: detected)
    assert (target.version, target.source) == (ClientVersion(2, 1, 197), "hookman.toml")
    target = resolve_target(None, None, detect=lambda: detected)
    assert (target.version, target.source) == (detected, "claude --version")
    target = resolve_target(None, None, detect=lambda: None)
    assert (target.version, target.source) == (None, "unknown")


def test_a_bad_flag_is_a_usage_error_and_a_bad_config_value_a_problem() -> None:
    with pytest.raises(HookmanError) as flag_error:
        resolve_target("two", None, detect=lambda: None)
    assert flag_error.value.exit_code == 2
    assert "--claude-version" in flag_error.value.message
    with pytest.raises(HookmanError) as config_error:
        resolve_target(None, "2.1", detect=lambda: None)
    assert config_error.value.exit_code == 1
    assert "hookman.toml" in config_error.value.message


def test_a_remembered_flag_comes_after_the_config_and_before_detection() -> None:
    detected = ClientVersion(2, 1, 332)
    target = resolve_target(None, None, remembered="2.1.332", detect=lambda: detected)
    assert (target.version, target.source, target.note) == (detected, "earlier flag", None)
    assert target.describe() == "2.1.332 (from --claude-version, remembered from the last install)"
    assert resolve_target(None, "2.1.197", remembered="2.1.332").source == "hookman.toml"
    assert resolve_target("2.1.328", None, remembered="2.1.332").source == "flag"


def test_a_remembered_flag_the_installed_client_disagrees_with_still_wins_and_says_so() -> None:
    target = resolve_target(
        None, None, remembered="2.1.332", detect=lambda: ClientVersion(2, 1, 197)
    )
    assert (target.version, target.source) == (ClientVersion(2, 1, 332), "earlier flag")
    assert target.note == (
        "`claude --version` says 2.1.197, but the target stays 2.1.332, given with "
        "--claude-version to an earlier install; pass --claude-version 2.1.197 to write for "
        "the installed client instead."
    )


@pytest.mark.parametrize("garbage", ["", "two", "2.1", "9" * 5000 + ".1.1"])
def test_a_remembered_value_that_is_not_a_version_is_ignored(garbage: str) -> None:
    detected = ClientVersion(2, 1, 328)
    target = resolve_target(None, None, remembered=garbage, detect=lambda: detected)
    assert (target.version, target.source) == (detected, "claude --version")


def _client(directory: Path, text: str) -> Path:
    program = directory / "claude"
    program.write_text(text)
    program.chmod(0o755)
    return program


def test_a_client_that_did_not_change_is_asked_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hookman.catalog.client_version as client_version

    program = _client(tmp_path, "#!/usr/bin/env node\n// 2.1.328\n")
    monkeypatch.setenv("PATH", str(tmp_path))
    asked: list[str] = []

    def ask(path: str, timeout: float) -> ClientVersion:
        asked.append(path)
        return ClientVersion(2, 1, 328 + len(asked) - 1)

    monkeypatch.setattr(client_version, "_ask_version", ask)
    assert detect_claude_version() == ClientVersion(2, 1, 328)
    assert detect_claude_version() == ClientVersion(2, 1, 328)
    assert len(asked) == 1
    program.unlink()  # an upgrade replaces the file
    _client(tmp_path, "#!/usr/bin/env node\n// 2.1.332\n")
    assert detect_claude_version() == ClientVersion(2, 1, 329)
    assert len(asked) == 2


def test_dispatchers_are_never_cached(tmp_path: Path) -> None:
    from hookman.catalog.client_version import binary_identity

    assert binary_identity(str(_client(tmp_path, "#!/bin/sh\nexec real-claude\n"))) is None
    node_client = _client(tmp_path, "#!/usr/bin/env node\n")
    assert binary_identity(str(node_client)) is not None
    shim_dir = tmp_path / "shims"
    shim_dir.mkdir()
    dispatcher = shim_dir / "mise"
    dispatcher.write_bytes(b"\x7fELF")
    (shim_dir / "claude").symlink_to(dispatcher)
    assert binary_identity(str(shim_dir / "claude")) is None


def test_a_broken_cache_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hookman.catalog.client_version as client_version

    _client(tmp_path, "#!/usr/bin/env node\n")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(client_version, "_ask_version", lambda p, t: ClientVersion(2, 1, 1))
    cache = Path(client_version._cache_path())
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text("{not json")
    assert detect_claude_version() == ClientVersion(2, 1, 1)
    assert detect_claude_version() == ClientVersion(2, 1, 1)


def test_a_client_version_is_an_immutable_ordered_value() -> None:
    import copy
    import pickle

    version = ClientVersion(2, 1, 328)
    assert version == ClientVersion(2, 1, 328) and version != (2, 1, 328)
    assert hash(version) == hash(ClientVersion(2, 1, 328))
    assert ClientVersion(2, 1, 99) < version <= ClientVersion(2, 1, 328) < ClientVersion(3, 0, 0)
    assert sorted([ClientVersion(2, 1, 9), ClientVersion(2, 0, 10)])[0] == ClientVersion(2, 0, 10)
    assert repr(version) == "ClientVersion(major=2, minor=1, patch=328)"
    assert str(version) == "2.1.328"
    with pytest.raises(AttributeError):
        version.patch = 1  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(version)) == version == copy.deepcopy(version)
    with pytest.raises(TypeError):
        _ = version < (2, 1, 1)  # type: ignore[operator]
