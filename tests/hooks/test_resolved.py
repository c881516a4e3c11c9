"""The resolved hook set (what install writes and packaging reuses): name -> module path and
the repository root its sibling imports resolve against."""

from __future__ import annotations

from pathlib import Path

from hookman.hooks import store
from hookman.hooks.resolved import resolve_hook_set
from hookman.project.config import HookSource, HookSpec
from tests.hook_repos import git, make_repo


def test_path_and_repo_hooks_resolve_and_nothing_is_fetched_without_fetch(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo")
    project = tmp_path / "project"
    (project / "hooks").mkdir(parents=True)
    (project / "hooks" / "mine.py").write_text("def hook(pi): pass\n")
    hooks = [
        HookSpec("mine", HookSource("path", "hooks/mine.py")),
        HookSpec("guard", HookSource("repo", str(repo), "v1.0.0", "no-rm-rf")),
    ]
    cold = resolve_hook_set(hooks, project, {}, fetch=False)
    assert list(cold.hooks) == ["mine"]
    assert "not pinned yet" in cold.missing["guard"][0]
    warm = resolve_hook_set(hooks, project, {}, fetch=True)
    sha = git(repo, "rev-parse", "v1.0.0")
    tree = store.tree_dir(str(repo), sha)
    assert warm.hooks["mine"].module_path == project / "hooks" / "mine.py"
    assert warm.hooks["mine"].package_root is None
    assert warm.hooks["guard"].module_path == tree / "guards" / "no_rm_rf.py"
    assert warm.hooks["guard"].package_root == tree
    assert [(pin.rev, pin.commit, pin.ref) for pin in warm.pins.values()] == [
        ("v1.0.0", sha, "tag")
    ]
    again = resolve_hook_set(hooks, project, warm.pins, fetch=False)
    assert again.missing == {} and again.hooks["guard"].module_path.is_file()
