"""Issue 24 (store): a hook repository whose module is a symlink out of it is refused in one
sentence naming the file, the same by install, doctor and plugin build, and the runner says
the real cause when an older install let it through; an in-repository symlink keeps working;
a file name that is not UTF-8 is one sentence at plugin build, never an internal error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookman.hooks import store
from tests.bridge.attack_support import DENY, installed_handlers, run_settings_command
from tests.hook_repos import commit, make_repo

from .helpers import hookman

VERSION = ("--claude-version", "2.1.332")


def _payload(command: str) -> dict[str, object]:
    return {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "session_id": "s",
        "cwd": "/tmp",
        "transcript_path": "/tmp/t.jsonl",
    }


def _repo_linking_out(tmp_path: Path) -> Path:
    """The test repository with guards/words.py an absolute symlink out of it, tagged v2."""
    repo = make_repo(tmp_path / "agent-hooks")
    outside = tmp_path / "outside_words.py"
    outside.write_text("REFUSED = 'rm -rf'\n", encoding="utf-8")
    (repo / "guards" / "words.py").unlink()
    (repo / "guards" / "words.py").symlink_to(outside)
    commit(repo, "v2")
    return repo


def _install(project: Path, repo: Path, rev: str) -> object:
    return hookman(
        "install", "no-rm-rf", "--repo", str(repo), "--rev", rev, "--project", str(project),
        *VERSION,
    )  # fmt: skip


def test_install_refuses_a_module_that_is_a_symlink_out_and_writes_nothing(
    project: Path, tmp_path: Path
) -> None:
    repo = _repo_linking_out(tmp_path)
    before = sorted(p.name for p in (project / ".claude").iterdir())

    result = _install(project, repo, "v2")

    assert result.exit_code == 1, result.output
    assert "guards/words.py in the repository is a symlink out of it" in result.output
    assert "make guards/words.py a regular file in the repository" in result.output
    assert "internal error" not in result.output
    assert sorted(p.name for p in (project / ".claude").iterdir()) == before


def test_an_in_repository_relative_symlink_still_installs_and_runs(
    project: Path, tmp_path: Path
) -> None:
    repo = make_repo(tmp_path / "agent-hooks")
    (repo / "guards" / "real_words.py").write_text("REFUSED = 'rm -rf'\n", encoding="utf-8")
    (repo / "guards" / "words.py").unlink()
    (repo / "guards" / "words.py").symlink_to("real_words.py")
    commit(repo, "v2")

    result = _install(project, repo, "v2")

    assert result.exit_code == 0, result.output
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    (handler,) = installed_handlers(settings, "PreToolUse")
    ran = run_settings_command(
        handler["command"], "PreToolUse", _payload("ls"), cwd=project, timeout=60
    )
    denied = run_settings_command(
        handler["command"], "PreToolUse", _payload("rm -rf x"), cwd=project, timeout=60
    )
    assert ran.decision != DENY and denied.decision == DENY, (
        ran,
        denied,
    )


@pytest.fixture
def let_through(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose install let the symlink-out module through (as hookman before this
    check did): the pins and the settings are written."""
    repo = _repo_linking_out(tmp_path)
    with monkeypatch.context() as patched:
        patched.setattr(store, "modules_linked_out", lambda url, commit: [])
        result = _install(project, repo, "v2")
    assert result.exit_code == 0, result.output
    return project


def test_doctor_names_the_symlink_out_as_install_does(let_through: Path) -> None:
    result = hookman("doctor", "--project", str(let_through), "--json", *VERSION)

    findings = json.loads(result.stdout)["findings"]
    found = [f for f in findings if f["code"] == "hookman-repo-symlink-out"]
    assert len(found) == 1, findings
    assert "guards/words.py in the repository is a symlink out of it" in found[0]["message"]
    assert "make guards/words.py a regular file" in found[0]["fix"]


def test_the_runner_names_the_symlink_not_a_useless_install(let_through: Path) -> None:
    settings = json.loads((let_through / ".claude" / "settings.local.json").read_text())
    (handler,) = installed_handlers(settings, "PreToolUse")

    verdict = run_settings_command(
        handler["command"], "PreToolUse", _payload("ls"), cwd=let_through, timeout=60
    )

    text = verdict.why + verdict.stderr.decode("utf-8", "replace")
    assert verdict.decision == DENY, verdict
    assert "guards/words.py is a symlink out of the repository" in text, text
    assert "changed in the hookman store" not in text, text


def test_plugin_build_refuses_a_non_utf8_file_name_in_one_sentence(
    project: Path, tmp_path: Path
) -> None:
    repo = make_repo(tmp_path / "agent-hooks")
    with open(bytes(repo / "guards") + b"/\xffdata.txt", "wb") as handle:
        handle.write(b"x")
    commit(repo, "v2")
    assert _install(project, repo, "v2").exit_code == 0

    result = hookman("plugin", "build", str(tmp_path / "plugin"), "--project", str(project))

    assert result.exit_code == 1, result.output
    assert "guards/\\xffdata.txt, a file whose name is not UTF-8" in result.output
    assert "give that file a UTF-8 name" in result.output
    assert not (tmp_path / "plugin").exists()


def test_modules_linked_out_lists_only_modules_leaving_the_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = tmp_path / "tree"
    (tree / "a").mkdir(parents=True)
    (tree / "a" / "real.py").write_text("x = 1\n")
    (tree / "a" / "inside.py").symlink_to("real.py")
    (tree / "a" / "up.py").symlink_to("../a/real.py")
    (tree / "a" / "absolute.py").symlink_to(tmp_path / "elsewhere.py")
    (tree / "a" / "climbs.py").symlink_to("../../elsewhere.py")
    (tree / "a" / "data.txt").symlink_to(tmp_path / "elsewhere.txt")
    files = store.tree_digests(tree)
    monkeypatch.setattr(store, "_fetched_files", lambda url, commit: files)
    monkeypatch.setattr(store, "tree_dir", lambda url, commit: tree)

    assert store.modules_linked_out("u", "c") == ["a/absolute.py", "a/climbs.py"]


def test_install_and_the_runner_take_a_repository_with_a_non_utf8_module_name(
    project: Path, tmp_path: Path
) -> None:
    repo = make_repo(tmp_path / "agent-hooks")
    with open(bytes(repo / "guards") + b"/\xffmod.py", "wb") as handle:
        handle.write(b"x = 1\n")
    commit(repo, "v2")

    result = _install(project, repo, "v2")

    assert result.exit_code == 0, result.output
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    (handler,) = installed_handlers(settings, "PreToolUse")
    ran = run_settings_command(
        handler["command"], "PreToolUse", _payload("ls"), cwd=project, timeout=60
    )
    denied = run_settings_command(
        handler["command"], "PreToolUse", _payload("rm -rf x"), cwd=project, timeout=60
    )
    assert ran.decision != DENY and denied.decision == DENY, (ran, denied)
