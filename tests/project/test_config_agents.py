"""`agents` in hookman.toml: which clients hookman writes hooks for (default Claude Code)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookman.errors import HookmanError
from hookman.project.config import load_project_config, read_project_config, save_project_config

BASE = '[[hooks]]\nname = "g"\npath = "hooks/g.py"\nevents = ["tool_call"]\n'


def project_with(tmp_path: Path, text: str) -> Path:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "hookman.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_the_default_is_claude_code_only(tmp_path: Path) -> None:
    assert read_project_config(project_with(tmp_path, BASE)).agents == ("claude",)


def test_agents_are_read_in_order(tmp_path: Path) -> None:
    project = project_with(tmp_path, 'agents = ["codex", "claude"]\n' + BASE)
    assert read_project_config(project).agents == ("codex", "claude")
    assert load_project_config(project).agents == ("codex", "claude")


@pytest.mark.parametrize(
    "value",
    ['"codex"', "[]", '["cursor"]', '["codex", "codex"]', "[1]", '["Codex"]'],
)
def test_a_bad_agents_value_is_one_sentence_and_the_file_is_untouched(
    tmp_path: Path, value: str
) -> None:
    text = f"agents = {value}\n" + BASE
    project = project_with(tmp_path, text)
    with pytest.raises(HookmanError) as refused:
        read_project_config(project)
    assert "`agents`" in refused.value.message and refused.value.hint
    assert (project / ".claude" / "hookman.toml").read_text() == text


def test_adding_an_agent_keeps_the_rest_of_the_file(tmp_path: Path) -> None:
    text = "# team hooks\n" + BASE
    project = project_with(tmp_path, text)
    config = load_project_config(project)
    config.add_agent("codex")
    config.add_agent("codex")
    save_project_config(config)
    after = (project / ".claude" / "hookman.toml").read_text()
    assert after.startswith("# team hooks\n")
    assert 'agents = ["claude", "codex"]' in after
    assert read_project_config(project).agents == ("claude", "codex")
    assert read_project_config(project).hooks[0].name == "g"
