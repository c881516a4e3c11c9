"""A plugin built from a repository hook carries the repository (its sibling modules, its
data files) and checks every module it imports; build refuses a hook that cannot load from
the plugin's own files, writing nothing; a plugin's deny names what a plugin user can do."""

from __future__ import annotations

import json
import os
import py_compile
import shutil
from pathlib import Path

import pytest

from tests.bridge.attack_support import DENY, Verdict, run_settings_command
from tests.commands.helpers import hookman, write_hook
from tests.commands.test_repo_hooks import install_repo
from tests.hook_repos import commit, make_repo

from .conftest import VERSION

REFUSED = {
    "session_id": "s1",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "rm -rf /tmp/x"},
    "cwd": "/tmp",
}
HARMLESS = {**REFUSED, "tool_input": {"command": "ls"}}
HOOKMAN_COMMANDS = ("hookman fire", "hookman disable", "hookman install", "hookman log")


def build(project: Path, out: Path, *args: str):  # type: ignore[no-untyped-def]
    return hookman(
        "plugin", "build", str(out), "--project", str(project), "--name", "team-guards",
        *VERSION, *args,
    )  # fmt: skip


def run_plugin(plugin: Path, payload: dict, data: Path, cwd: Path) -> Verdict:
    """The plugin's PreToolUse command from hooks/hooks.json, run as Claude Code runs it."""
    hooks = json.loads((plugin / "hooks" / "hooks.json").read_text())["hooks"]
    [handler] = hooks["PreToolUse"][0]["hooks"]
    return run_settings_command(
        handler["command"],
        "PreToolUse",
        payload,
        timeout=float(handler["timeout"]),
        cwd=cwd,
        env={"CLAUDE_PLUGIN_ROOT": str(plugin), "CLAUDE_PLUGIN_DATA": str(data)},
    )


@pytest.fixture
def repo_plugin(project: Path, tmp_path: Path) -> Path:
    """A plugin built from `no-rm-rf`, a repository guard importing `from .words import
    REFUSED`, moved away from where it was built and with the hookman store gone (a
    plugin user's machine has neither)."""
    repo = make_repo(tmp_path / "agent-hooks", reason="the words say no")
    install_repo(project, str(repo))
    out = tmp_path / "built"
    done = build(project, out)
    assert done.exit_code == 0, done.output
    moved = tmp_path / "cache dir" / "team-guards"
    moved.parent.mkdir()
    os.replace(out, moved)
    shutil.rmtree(Path(os.environ["HOOKMAN_HOME"]) / "cache" / "repos")
    return moved


def test_a_repository_guard_with_siblings_denies_from_the_plugin(
    repo_plugin: Path, project: Path, tmp_path: Path
) -> None:
    denied = run_plugin(repo_plugin, REFUSED, tmp_path / "data", project)
    assert (denied.decision, denied.why) == (DENY, "the words say no")
    allowed = run_plugin(repo_plugin, HARMLESS, tmp_path / "data", project)
    assert allowed.decision == "allow" and allowed.answer == {}, allowed
    manifest = json.loads((repo_plugin / "hookman-runner" / "manifest.json").read_text())
    [hook] = manifest["hooks"]
    tree = hook["package_root"]
    assert not os.path.isabs(tree) and hook["path"] == f"{tree}/guards/no_rm_rf.py"
    assert sorted(hook["digests"]) == ["guards/no_rm_rf.py", "guards/words.py"]
    assert (repo_plugin / "hookman-runner" / tree / "hookman-hooks.toml").is_file()
    assert not list(repo_plugin.rglob("__pycache__"))


def test_a_changed_sibling_in_the_plugin_denies_naming_the_plugin(
    repo_plugin: Path, project: Path, tmp_path: Path
) -> None:
    [words] = (repo_plugin / "hookman-runner").rglob("words.py")
    words.write_text("REFUSED = 'never matches'\n")

    verdict = run_plugin(repo_plugin, REFUSED, tmp_path / "data", project)

    assert verdict.decision == DENY
    assert "guards/words.py changed in the plugin since it was built" in verdict.why
    assert "the hook 'no-rm-rf' of the plugin 'team-guards'" in verdict.why
    assert "claude plugin update team-guards@MARKETPLACE" in verdict.why
    assert not [words for words in HOOKMAN_COMMANDS if words in verdict.why], verdict.why


def test_a_plugin_guard_that_cannot_load_names_no_hookman_command(
    repo_plugin: Path, project: Path, tmp_path: Path
) -> None:
    [words] = (repo_plugin / "hookman-runner").rglob("words.py")
    words.unlink()  # what a plugin built before siblings were carried held

    verdict = run_plugin(repo_plugin, REFUSED, tmp_path / "data", project)

    assert verdict.decision == DENY
    assert "the plugin 'team-guards'" in verdict.why and "claude plugin" in verdict.why
    assert not [words for words in HOOKMAN_COMMANDS if words in verdict.why], verdict.why


def test_a_repository_data_file_travels_with_the_plugin(project: Path, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "agent-hooks")
    (repo / "guards" / "words.py").write_text(
        "from pathlib import Path\n"
        "REFUSED = (Path(__file__).parent / 'refused.txt').read_text().strip()\n"
    )
    (repo / "guards" / "refused.txt").write_bytes(b"rm -rf\n")
    commit(repo, "v1.0.1")
    install_repo(project, str(repo), "v1.0.1")
    out = tmp_path / "plug"
    assert build(project, out).exit_code == 0
    shutil.rmtree(Path(os.environ["HOOKMAN_HOME"]) / "cache" / "repos")

    verdict = run_plugin(out, REFUSED, tmp_path / "data", project)

    assert (verdict.decision, verdict.why) == (DENY, "repo says no")


def _refused_build(project: Path, tmp_path: Path) -> tuple[str, Path]:
    out = tmp_path / "out" / "plug"
    done = build(project, out)
    assert done.exit_code == 1, done.output
    assert not (tmp_path / "out").exists()  # no staging directory, not even its parent
    return " ".join(done.output.split()), out


def test_a_path_hook_importing_a_project_sibling_is_refused_with_nothing_written(
    project: Path, tmp_path: Path
) -> None:
    write_hook(project, "words", "REFUSED = 'rm -rf'\n")
    write_hook(
        project,
        "guard",
        "import os, sys\n"
        "sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\n"
        "from words import REFUSED\n\n"
        "def hook(pi):\n"
        "    pi.on('tool_call', lambda e, c: {'block': True, 'reason': REFUSED}, tools=['Bash'])\n",
    )
    installed = hookman(
        "install", str(project / "hooks" / "guard.py"), "--project", str(project), *VERSION
    )
    assert installed.exit_code == 0, installed.output

    said, _ = _refused_build(project, tmp_path)

    assert "the hook 'guard' does not load from the plugin's own files" in said
    assert "No module named 'words'" in said and "no plugin was built" in said
    assert "hook repository" in said


def test_a_path_hook_reaching_into_the_project_is_refused(project: Path, tmp_path: Path) -> None:
    write_hook(project, "words", "REFUSED = 'rm -rf'\n")
    write_hook(
        project,
        "guard",
        "import sys\n"
        f"sys.path.insert(0, {str(project / 'hooks')!r})\n"
        "from words import REFUSED\n\n"
        "def hook(pi):\n"
        "    pi.on('tool_call', lambda e, c: {'block': True, 'reason': REFUSED}, tools=['Bash'])\n",
    )
    installed = hookman(
        "install", str(project / "hooks" / "guard.py"), "--project", str(project), *VERSION
    )
    assert installed.exit_code == 0, installed.output

    said, _ = _refused_build(project, tmp_path)

    assert f"the hook 'guard' imports {project / 'hooks' / 'words.py'}" in said
    assert "a module of the project that a plugin does not carry" in said


def test_a_repository_whose_store_copy_changed_is_refused(project: Path, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "agent-hooks")
    install_repo(project, str(repo))
    [words] = (Path(os.environ["HOOKMAN_HOME"]) / "cache" / "repos").rglob("words.py")
    words.write_text("REFUSED = 'nothing'\n")

    said, _ = _refused_build(project, tmp_path)

    assert "is not as it was fetched (guards/words.py)" in said
    assert "run `hookman install` to fetch the pinned commit again" in said


def test_a_repository_hook_importing_a_compiled_module_is_refused(
    project: Path, tmp_path: Path
) -> None:
    """A sibling shipped only as bytecode: the digest check imports nothing it cannot read
    as source, so the plugin could never load it."""
    repo = make_repo(tmp_path / "agent-hooks")
    words = repo / "guards" / "words.py"
    py_compile.compile(str(words), cfile=str(words.with_suffix(".pyc")), doraise=True)
    words.unlink()
    commit(repo, "v1.0.1")
    installed = install_repo(project, str(repo), "v1.0.1")
    assert installed["hooks"], installed

    said, _ = _refused_build(project, tmp_path)

    assert "the hook 'no-rm-rf' does not load from the plugin's own files" in said
    assert "guards/words.pyc" in said


def test_a_hook_importing_an_installed_package_builds_with_a_note(
    project: Path, tmp_path: Path
) -> None:
    """The plugin's runner reads the machine's site-packages: build loads the hook the same
    way, and only notes that every machine's python3 needs the package."""
    write_hook(
        project,
        "guard",
        "import hypothesis\n\n"
        "def hook(pi):\n"
        "    pi.on('tool_call', lambda e, c: {'block': True, 'reason': 'no'}, tools=['Bash'])\n",
    )
    installed = hookman(
        "install", str(project / "hooks" / "guard.py"), "--project", str(project), *VERSION
    )
    assert installed.exit_code == 0, installed.output

    done = build(project, tmp_path / "plug")

    assert done.exit_code == 0, done.output
    assert "imports hypothesis, which is not in the standard library" in " ".join(
        done.output.split()
    )


def test_a_plugin_without_its_manifest_denies_naming_the_plugin_not_hookman_install(
    repo_plugin: Path, project: Path, tmp_path: Path
) -> None:
    (repo_plugin / "hookman-runner" / "manifest.json").unlink()

    verdict = run_plugin(repo_plugin, HARMLESS, tmp_path / "data", project)

    assert verdict.decision == DENY
    assert "so the plugin's guard hooks could not run" in verdict.why
    assert "Reinstall or update the plugin (`claude plugin update" in verdict.why
    assert not [words for words in HOOKMAN_COMMANDS if words in verdict.why], verdict.why
