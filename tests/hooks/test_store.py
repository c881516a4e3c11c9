"""The store: real git repositories, fetched by path and file:// URL (no network)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hookman.errors import HookmanError
from hookman.hooks import store
from tests.hook_repos import git, make_repo, release

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "agent hooks $x")


def test_a_tag_resolves_and_its_commit_is_fetched_whole(repo: Path) -> None:
    url = f"file://{repo}"
    resolved = store.resolve_rev(url, "v1.0.0")
    assert resolved == store.ResolvedRev(git(repo, "rev-parse", "v1.0.0"), "tag")
    assert not store.is_stored(url, resolved.commit)
    tree = store.ensure_stored(url, resolved.commit, rev="v1.0.0")
    assert store.is_stored(url, resolved.commit)
    assert (tree / "guards" / "words.py").read_text() == "REFUSED = 'rm -rf'\n"
    assert not (tree / ".git").exists()
    assert store.changed_files(url, resolved.commit) == []
    assert tree == store.tree_dir(url, resolved.commit)
    assert store.ensure_stored(url, resolved.commit) == tree  # warm: nothing fetched


def test_a_local_path_works_like_a_url(repo: Path, tmp_path: Path) -> None:
    url = store.fetch_url(os.path.relpath(repo, tmp_path), tmp_path)
    assert url == str(repo)
    commit_sha = store.resolve_rev(url, "v1.0.0").commit
    assert (store.ensure_stored(url, commit_sha) / "hookman-hooks.toml").is_file()


def test_an_annotated_tag_resolves_to_its_commit(repo: Path) -> None:
    sha = release(repo, "v2.0.0", reason="two", annotated=True)
    assert store.resolve_rev(str(repo), "v2.0.0") == store.ResolvedRev(sha, "tag")


def test_a_branch_is_resolved_but_said_to_be_a_branch(repo: Path) -> None:
    assert store.resolve_rev(str(repo), "main").kind == "branch"


def test_a_full_sha_is_a_commit(repo: Path) -> None:
    sha = git(repo, "rev-parse", "HEAD")
    assert store.resolve_rev(str(repo), sha) == store.ResolvedRev(sha, "commit")


def test_an_unknown_rev_is_one_sentence_naming_the_newest_tag(repo: Path) -> None:
    with pytest.raises(HookmanError) as caught:
        store.resolve_rev(str(repo), "v9")
    assert caught.value.message == (
        f"the repository {repo} has no tag or branch named 'v9' (rev must be a tag or a "
        "full 40-character commit SHA)."
    )
    assert "'v1.0.0'" in (caught.value.hint or "")


def test_a_sha_the_repository_lacks_fails_at_fetch_and_stores_nothing(repo: Path) -> None:
    missing = "0" * 40
    with pytest.raises(HookmanError, match="has no commit"):
        store.ensure_stored(str(repo), missing)
    assert not store.is_stored(str(repo), missing)
    assert list((store.store_root() / store.url_key(str(repo))).iterdir()) == []


@pytest.mark.parametrize("kind", ["missing", "not git"])
def test_an_unreachable_or_non_git_url_is_one_sentence(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "plain"
    if kind == "not git":
        target.mkdir()
    with pytest.raises(HookmanError) as caught:
        store.resolve_rev(f"file://{target}", "v1")
    assert caught.value.message.startswith(
        f"hookman cannot read the git repository file://{target}: "
    )
    assert caught.value.message.endswith(".")
    assert "\n" not in caught.value.message


def test_the_callers_git_environment_is_ignored(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A trap of the test's own (never a path outside it): a store that let git read these
    # would write into it, and nothing may.
    trap = tmp_path / "trap"
    monkeypatch.setenv("GIT_DIR", str(trap))
    monkeypatch.setenv("GIT_WORK_TREE", str(trap))
    monkeypatch.setenv("GIT_INDEX_FILE", str(trap / "index"))
    sha = store.resolve_rev(str(repo), "v1.0.0").commit
    assert (store.ensure_stored(str(repo), sha) / "guards").is_dir()
    assert not trap.exists()


def test_a_changed_store_copy_is_seen(repo: Path) -> None:
    sha = store.resolve_rev(str(repo), "v1.0.0").commit
    tree = store.ensure_stored(str(repo), sha)
    (tree / "guards" / "words.py").write_text("REFUSED = 'nothing'\n")
    (tree / "extra.py").write_text("")
    assert store.changed_files(str(repo), sha) == ["extra.py", "guards/words.py"]


def test_bytecode_caches_are_not_changes(repo: Path) -> None:
    sha = store.resolve_rev(str(repo), "v1.0.0").commit
    tree = store.ensure_stored(str(repo), sha)
    (tree / "guards" / "__pycache__").mkdir()
    (tree / "guards" / "__pycache__" / "words.cpython-311.pyc").write_bytes(b"x")
    assert store.changed_files(str(repo), sha) == []


def test_release_tags_are_ordered_by_version() -> None:
    refs = {f"refs/tags/{tag}": "a" * 40 for tag in ["v1.10.0", "v1.9.0", "v1.2", "latest", "2.0"]}
    assert store.release_tags(refs) == ["v1.2", "v1.9.0", "v1.10.0", "2.0"]


def _git_shim(directory: Path) -> Path:
    """A `git` that kills the hookman calling it when asked to check out (a fetch killed
    halfway), and is the real git otherwise."""
    real = subprocess.run(["which", "git"], capture_output=True, text=True, check=True)
    directory.mkdir()
    shim = directory / "git"
    shim.write_text(
        textwrap.dedent(
            f"""\
            #!/bin/sh
            for word in "$@"; do
              if [ "$word" = checkout ]; then kill -9 $PPID; sleep 5; exit 1; fi
            done
            exec {real.stdout.strip()} "$@"
            """
        )
    )
    shim.chmod(0o755)
    return directory


def test_a_fetch_killed_halfway_leaves_no_entry_and_the_next_one_cleans_up(
    repo: Path, tmp_path: Path
) -> None:
    sha = store.resolve_rev(str(repo), "v1.0.0").commit
    shim_dir = _git_shim(tmp_path / "shim")
    code = f"from hookman.hooks import store; store.ensure_stored({str(repo)!r}, {sha!r})"
    env = {**os.environ, "PATH": f"{shim_dir}:{os.environ['PATH']}"}
    killed = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=False)
    assert killed.returncode == -9
    parent = store.store_root() / store.url_key(str(repo))
    leftovers = [path.name for path in parent.iterdir()]
    assert leftovers and all(name.startswith(store.FETCH_PREFIX) for name in leftovers)
    assert not store.is_stored(str(repo), sha)
    store.ensure_stored(str(repo), sha)
    assert sorted(path.name for path in parent.iterdir()) == [sha]


def test_many_processes_fetching_one_repository_at_once_all_get_one_whole_entry(
    repo: Path,
) -> None:
    sha = store.resolve_rev(str(repo), "v1.0.0").commit
    code = (
        "import sys; from hookman.hooks import store; "
        f"tree = store.ensure_stored({str(repo)!r}, {sha!r}); "
        "print((tree / 'guards' / 'words.py').read_text(), end='')"
    )
    processes = [
        subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        for _ in range(8)
    ]
    outputs = [process.communicate(timeout=300)[0] for process in processes]
    assert [process.returncode for process in processes] == [0] * 8
    assert outputs == ["REFUSED = 'rm -rf'\n"] * 8
    parent = store.store_root() / store.url_key(str(repo))
    assert sorted(path.name for path in parent.iterdir()) == [sha]


def test_two_commits_of_one_repository_are_two_entries(repo: Path) -> None:
    first = store.resolve_rev(str(repo), "v1.0.0").commit
    second = release(repo, "v1.1.0", reason="newer")
    store.ensure_stored(str(repo), first)
    store.ensure_stored(str(repo), second)
    assert "newer" not in (store.tree_dir(str(repo), first) / "guards" / "no_rm_rf.py").read_text()
    assert "newer" in (store.tree_dir(str(repo), second) / "guards" / "no_rm_rf.py").read_text()


def test_url_keys_differ_per_url_and_are_file_names() -> None:
    keys = {store.url_key(url) for url in ["a/b.git", "c/b.git", "https://x/../b", "b"]}
    assert len(keys) == 4
    assert all("/" not in key and not key.startswith(".") for key in keys)


def test_scp_and_scheme_urls_are_kept_and_paths_made_absolute(tmp_path: Path) -> None:
    assert store.fetch_url("git@example.org:acme/h.git", tmp_path) == "git@example.org:acme/h.git"
    assert store.fetch_url("https://example.org/h.git", tmp_path) == "https://example.org/h.git"
    assert store.fetch_url("../h", tmp_path / "p") == str(tmp_path / "h")


@pytest.mark.parametrize("pid", ["99999999999999999999", "0", str(2**31)])
def test_a_planted_fetch_entry_with_an_impossible_pid_is_no_internal_error(
    repo: Path, pid: str
) -> None:
    """A `.fetch-PID-*` name is anyone's to plant: a pid os.kill cannot take (OverflowError)
    or one that is no process is no crash, and a directory whose pid may live is kept."""
    sha = store.resolve_rev(str(repo), "v1.0.0").commit
    parent = store.store_root() / store.url_key(str(repo))
    planted = parent / f"{store.FETCH_PREFIX}{pid}-x"
    planted.mkdir(parents=True)
    store.ensure_stored(str(repo), sha)
    assert store.is_stored(str(repo), sha)
    assert (parent / sha).is_dir()
