"""hookman.toml read for its values: parsed once per process and text (doctor's families each
ask), every edit seen at once, and `read_config_values` for a value a bad hook table must not
hide (doctor's target version)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookman.errors import HookmanError
from hookman.project import config
from hookman.project.config import read_config_values, read_project_config

ONE = '[[hooks]]\nname = "aaa"\npath = "hooks/a.py"\n'
OTHER = '[[hooks]]\nname = "bbb"\npath = "hooks/b.py"\n'  # the same size: a stat could not tell


def _toml(project: Path) -> Path:
    path = project / ".claude" / "hookman.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def test_an_unchanged_text_is_parsed_once(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _toml(project).write_text(ONE)
    first = read_project_config(project)
    parses: list[str] = []
    monkeypatch.setattr(config, "parse_toml_or_none", lambda text: parses.append(text))
    monkeypatch.setattr(config, "kept_parse", lambda cache, text: parses.append(text))
    assert read_project_config(project) is first
    assert parses == []


def test_every_edit_is_read_at_once(project: Path) -> None:
    path = _toml(project)
    path.write_text(ONE)
    assert [hook.name for hook in read_project_config(project).hooks] == ["aaa"]
    path.write_text(OTHER)
    assert [hook.name for hook in read_project_config(project).hooks] == ["bbb"]
    path.write_text(ONE)
    assert [hook.name for hook in read_project_config(project).hooks] == ["aaa"]
    path.unlink()
    assert read_project_config(project).hooks == []


def test_a_file_that_does_not_validate_is_refused_every_time(project: Path) -> None:
    _toml(project).write_text('claude_version = "2.1.328"\n[[hooks]]\nname = "no source"\n')
    for _ in range(2):
        with pytest.raises(HookmanError):
            read_project_config(project)
    assert read_config_values(project) == {
        "claude_version": "2.1.328",
        "hooks": [{"name": "no source"}],
    }


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b'\xef\xbb\xbfclaude_version = "2.1.197"\r\n', {"claude_version": "2.1.197"}),
        (b"claude_version = [\n", None),  # not TOML
        (b"\xff\xfe", None),  # not UTF-8
        (None, None),  # missing
    ],
)
def test_read_config_values(project: Path, raw: bytes | None, expected: object) -> None:
    if raw is not None:
        _toml(project).write_bytes(raw)
    assert read_config_values(project) == expected


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.sampled_from([ONE, OTHER, 'agents = ["claude"]\n' + ONE, "x = 1\n"]), min_size=1)
)
def test_any_sequence_of_texts_reads_as_a_fresh_process_would(
    project: Path, texts: list[str]
) -> None:
    path = _toml(project)
    for text in texts:
        path.write_text(text)
        cached = read_project_config(project)
        config._VIEWS.clear()
        config._VALUES.clear()
        fresh = read_project_config(project)
        assert [hook.name for hook in cached.hooks] == [hook.name for hook in fresh.hooks]
        assert cached.agents == fresh.agents
        assert read_config_values(project) == config.parse_toml_or_none(text)
    assert path.read_text() == texts[-1]  # the loop ran: the last text is the one read
