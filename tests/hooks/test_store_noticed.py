"""The store's git calls and a repository's manifest: what tools/mutants.py found no test
noticing (hooks/store.py, hooks/repository.py). Real git repositories, no network."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hookman.errors import HookmanError
from hookman.hooks import store
from hookman.hooks.repository import read_repository_manifest
from tests.hook_repos import commit, git, make_repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "hooks-repo")


def _recording_git(directory: Path, log: Path) -> dict[str, str]:
    """PATH with a `git` that writes one line per call (the variables hookman must set or
    drop, and the arguments), then runs the real git."""
    real = subprocess.run(["which", "git"], capture_output=True, text=True, check=True)
    directory.mkdir()
    shim = directory / "git"
    shim.write_text(
        textwrap.dedent(
            f"""\
            #!/bin/sh
            printf 'prompt=%s nosystem=%s dir=%s args=%s\\n' \\
              "${{GIT_TERMINAL_PROMPT-unset}}" "${{GIT_CONFIG_NOSYSTEM-unset}}" \\
              "${{GIT_DIR-unset}}" "$*" >> {log}
            exec {real.stdout.strip()} "$@"
            """
        )
    )
    shim.chmod(0o755)
    return {"PATH": f"{directory}{os.pathsep}{os.environ['PATH']}"}


def test_git_runs_without_prompts_system_config_hooks_or_the_callers_repository(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "git.log"
    for name, value in _recording_git(tmp_path / "shim", log).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere" / ".git"))
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "1")
    sha = store.resolve_rev(str(repo), "v1.0.0").commit
    store.ensure_stored(str(repo), sha)
    calls = [line for line in log.read_text().splitlines() if "args=-c core.hooksPath" in line]
    assert len(calls) >= 4  # ls-remote, init, fetch, checkout: each through the same door
    assert all(line.startswith("prompt=0 nosystem=1 dir=unset ") for line in calls), calls
    assert all("args=-c core.hooksPath=/dev/null -c advice.detachedHead=false " in c for c in calls)
    assert len(calls) == len(log.read_text().splitlines())  # no git call without them


def test_a_tag_wins_over_a_branch_of_the_same_name(repo: Path) -> None:
    tagged = git(repo, "rev-parse", "v1.0.0")
    later = commit(repo)
    git(repo, "branch", "v1.0.0", later)  # refs/heads/v1.0.0 beside refs/tags/v1.0.0
    assert store.resolve_rev(str(repo), "v1.0.0") == store.ResolvedRev(tagged, "tag")
    assert store.resolve_rev(str(repo), "main") == store.ResolvedRev(later, "branch")


def test_a_fetch_leaves_the_work_directory_of_a_live_fetch_alone(repo: Path) -> None:
    """`.fetch-PID-*` directories are removed once PID is gone, never while it runs."""
    sha = store.resolve_rev(str(repo), "v1.0.0").commit
    parent = store.store_root() / store.url_key(str(repo))
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"]) as live:
        dead_pid = _a_pid_that_is_gone()
        try:
            (parent / f"{store.FETCH_PREFIX}{live.pid}-abc").mkdir(parents=True)
            (parent / f"{store.FETCH_PREFIX}{dead_pid}-abc").mkdir()
            store.ensure_stored(str(repo), sha)
            left = sorted(path.name for path in parent.iterdir())
        finally:
            live.kill()
    assert left == sorted([f"{store.FETCH_PREFIX}{live.pid}-abc", sha])


def _a_pid_that_is_gone() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def _manifest_repo(tmp_path: Path, path: str, *, file_name: str | None = None) -> Path:
    root = tmp_path / "repo"
    (root / "hooks").mkdir(parents=True)
    (root / "hooks" / "guard.py").write_text("def hook(pi): pass\n")
    if file_name is not None:
        (root / file_name).write_text("def hook(pi): pass\n")
    entry = json.dumps(path)  # a TOML basic string: JSON's escapes are TOML's here
    (root / "hookman-hooks.toml").write_text(f'[[hooks]]\nname = "g"\npath = {entry}\n')
    return root


def _refusal(root: Path) -> str:
    with pytest.raises(HookmanError) as caught:
        read_repository_manifest(root, "R at v1")
    return caught.value.message


@pytest.mark.parametrize("path", ["..\\outside.py", "hooks\\guard.py"])
def test_a_manifest_path_with_a_backslash_is_refused_even_when_such_a_file_exists(
    tmp_path: Path, path: str
) -> None:
    """On POSIX `..\\outside.py` is one odd file name, elsewhere a way out: refused."""
    root = _manifest_repo(tmp_path, path, file_name=path)
    assert _refusal(root).endswith("which is not a plain POSIX path.")


def test_a_manifest_path_with_a_nul_is_refused(tmp_path: Path) -> None:
    root = _manifest_repo(tmp_path, "hooks/guard.py\x00.txt")
    assert _refusal(root).endswith("which is not a plain POSIX path.")


@pytest.mark.parametrize(
    ("path", "why"), [("~/guard.py", "is absolute"), ("hooks", "is not a file")]
)
def test_a_manifest_path_home_relative_or_a_directory_is_refused(
    tmp_path: Path, path: str, why: str
) -> None:
    root = _manifest_repo(tmp_path, path)
    (root / "~").mkdir()
    (root / "~" / "guard.py").write_text("def hook(pi): pass\n")
    assert f"which {why}" in _refusal(root)


def test_a_manifest_that_is_a_symlink_is_refused(tmp_path: Path) -> None:
    elsewhere = _manifest_repo(tmp_path / "other", "hooks/guard.py")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "hookman-hooks.toml").symlink_to(elsewhere / "hookman-hooks.toml")
    assert "has no hookman-hooks.toml at its root" in _refusal(root)


def test_a_kept_parse_of_another_text_is_not_used(tmp_path: Path) -> None:
    root = _manifest_repo(tmp_path, "hooks/guard.py")
    cache = tmp_path / "manifest.json"
    stale = {"text": "[[hooks]]\n", "data": {"hooks": [{"name": "old", "path": "hooks/guard.py"}]}}
    cache.write_text(json.dumps(stale))
    assert read_repository_manifest(root, "R at v1", cache).names() == ["g"]
    assert read_repository_manifest(root, "R at v1", cache).names() == ["g"]  # kept now
    assert json.loads(cache.read_text())["data"]["hooks"][0]["name"] == "g"
