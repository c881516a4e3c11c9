"""`install --agent codex` trusts hookman's own entries of the project's .codex/hooks.json
and nothing else, and reads the project's trust as Codex does: what tools/mutants.py found
no test noticing (agents/codex_sync.py). A stand-in `codex` (tests/fake_codex.py) lists the
user layer's hooks.json and, for a trusted project, the project's."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.fake_codex import install_fake_codex, trust_project, trust_state

from .helpers import ASYNC_VERSION, GUARD, NOTIFIER, hookman, write_hook

# A hookman entry of another project, as a user might have copied it into their own layer.
ELSEWHERE = "sh /elsewhere/.claude/hookman/hookman-run.sh PreToolUse --agent codex"


@pytest.fixture
def codex_home(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(project)
    home = tmp_path / "codex-home"
    install_fake_codex(tmp_path / "bin", home)
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    return home


def _group(command: str) -> dict[str, object]:
    return {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}


def _install_guard(project: Path, *args: str) -> str:
    write_hook(project, "guard", GUARD)
    done = hookman("install", "hooks/guard.py", "--agent", "codex", *ASYNC_VERSION, *args)
    assert done.exit_code == 0, done.output
    return done.output


def test_a_foreign_hook_in_the_projects_hooks_json_is_never_trusted(
    project: Path, codex_home: Path
) -> None:
    trust_project(codex_home, project)
    (project / ".codex").mkdir()
    foreign = {"hooks": {"PreToolUse": [_group("./audit.sh")]}}
    (project / ".codex" / "hooks.json").write_text(json.dumps(foreign))
    output = _install_guard(project)
    ours = f"{project}/.codex/hooks.json:pre_tool_use:1:0"  # after the user's group
    assert list(trust_state(codex_home)) == [ours]
    assert f"trusted in Codex: {ours}" in output and "pre_tool_use:0:0" not in output


def test_a_hookman_entry_of_another_file_is_never_trusted(project: Path, codex_home: Path) -> None:
    trust_project(codex_home, project)
    user_file = codex_home / "hooks.json"
    user_file.write_text(json.dumps({"hooks": {"PreToolUse": [_group(ELSEWHERE)]}}))
    _install_guard(project)
    assert list(trust_state(codex_home)) == [f"{project}/.codex/hooks.json:pre_tool_use:0:0"]


def test_codex_gets_a_failing_closed_guard_and_an_async_observer(
    project: Path, codex_home: Path
) -> None:
    _install_guard(project)
    write_hook(project, "notifier", NOTIFIER)
    done = hookman("install", "hooks/notifier.py", "--async", *ASYNC_VERSION)
    assert done.exit_code == 0, done.output
    hooks = json.loads((project / ".codex" / "hooks.json").read_text())["hooks"]
    (guard,) = [group["hooks"][0]["command"] for group in hooks["PreToolUse"]]
    (observer,) = [group["hooks"][0]["command"] for group in hooks["PostToolUse"]]
    assert "EXIT; [ -f " in guard and guard.endswith("exit 2 ;; esac")  # denies when gone
    assert " PreToolUse --agent codex " in guard
    assert observer.endswith(" PostToolUse --async --agent codex || :")


@pytest.mark.parametrize("level", ["trusted", "untrusted"])
def test_the_project_is_trusted_through_a_folder_above_it_only_when_it_says_trusted(
    project: Path, codex_home: Path, level: str
) -> None:
    """Codex lists no hooks here (the stand-in was not told the project is trusted): what
    install says depends on what config.toml says of a folder above the project."""
    config = f'[projects."{project.parent}"]\ntrust_level = "{level}"\n'
    (codex_home / "config.toml").write_text(config)
    output = " ".join(_install_guard(project).split())
    trusted = f"Codex trusts {project} but lists none of hookman's hooks" in output
    untrusted = f"it does not trust {project}" in output
    assert (trusted, untrusted) == ((True, False) if level == "trusted" else (False, True))
