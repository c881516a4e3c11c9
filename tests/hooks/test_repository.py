"""hookman-hooks.toml: what a hook repository offers, and every way it can be wrong."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman.errors import HookmanError
from hookman.hooks.repository import (
    HookOffer,
    needs_newer_hookman,
    path_problem,
    read_repository_manifest,
)


def _repo(tmp_path: Path, manifest: str) -> Path:
    root = tmp_path / "repo"
    (root / "hooks").mkdir(parents=True)
    (root / "hooks" / "guard.py").write_text("def hook(pi): pass\n")
    (root / "hookman-hooks.toml").write_text(manifest)
    return root


def _refused(tmp_path: Path, manifest: str) -> str:
    with pytest.raises(HookmanError) as caught:
        read_repository_manifest(_repo(tmp_path, manifest), "R at v1")
    assert "\n" not in caught.value.message
    return caught.value.message


def test_a_manifest_offers_its_hooks(tmp_path: Path) -> None:
    manifest = read_repository_manifest(
        _repo(
            tmp_path,
            '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\n'
            'description = "Guards.\\nMore."\nmin_hookman = "0.1.0"\n',
        ),
        "R at v1",
    )
    assert manifest.hooks == (HookOffer("guard", "hooks/guard.py", "Guards.", "0.1.0"),)
    assert manifest.find("guard") is not None and manifest.find("other") is None


def test_no_manifest(tmp_path: Path) -> None:
    root = _repo(tmp_path, "")
    (root / "hookman-hooks.toml").unlink()
    with pytest.raises(HookmanError, match=r"has no hookman-hooks\.toml at its root"):
        read_repository_manifest(root, "R at v1")


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ("[[hooks]\n", "hookman-hooks.toml of R at v1 is not valid TOML."),
        ("", "hookman-hooks.toml of R at v1 lists no hooks (it needs [[hooks]] tables)."),
        (
            '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\n'
            '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\n',
            "hookman-hooks.toml of R at v1 lists the hook 'guard' twice.",
        ),
        (
            '[[hooks]]\nname = "guard"\npath = "../outside.py"\n',
            "the hook 'guard' in hookman-hooks.toml of R at v1 has the path '../outside.py', "
            "which leaves the repository.",
        ),
        (
            '[[hooks]]\nname = "guard"\npath = "/etc/passwd"\n',
            "the hook 'guard' in hookman-hooks.toml of R at v1 has the path '/etc/passwd', "
            "which is absolute.",
        ),
        (
            '[[hooks]]\nname = "guard"\npath = "hooks/none.py"\n',
            "the hook 'guard' in hookman-hooks.toml of R at v1 has the path 'hooks/none.py', "
            "which is not a file in the repository.",
        ),
        (
            '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\nrun = "x"\n',
            "the hook 'guard' in hookman-hooks.toml of R at v1 has the unknown key 'run'.",
        ),
        (
            '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\nmin_hookman = "soon"\n',
            "the hook 'guard' in hookman-hooks.toml of R at v1 has a `min_hookman` that is not "
            'a version such as "0.2.0".',
        ),
        ('[[hooks]]\nname = "a b"\npath = "x"\n', "hook 1 in hookman-hooks.toml of R at v1 needs"),
    ],
)
def test_bad_manifests_are_one_sentence(tmp_path: Path, manifest: str, message: str) -> None:
    assert _refused(tmp_path, manifest).startswith(message)


def test_a_symlink_out_of_the_repository_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("def hook(pi): pass\n")
    root = _repo(tmp_path, '[[hooks]]\nname = "guard"\npath = "hooks/link.py"\n')
    (root / "hooks" / "link.py").symlink_to(outside)
    with pytest.raises(HookmanError, match="leaves the repository through a symlink"):
        read_repository_manifest(root, "R at v1")


def test_a_symlinked_manifest_is_no_manifest(tmp_path: Path) -> None:
    root = _repo(tmp_path, '[[hooks]]\nname = "guard"\npath = "hooks/guard.py"\n')
    real = tmp_path / "elsewhere.toml"
    (root / "hookman-hooks.toml").rename(real)
    (root / "hookman-hooks.toml").symlink_to(real)
    with pytest.raises(HookmanError, match=r"has no hookman-hooks\.toml"):
        read_repository_manifest(root, "R at v1")


def test_min_hookman_compares_versions() -> None:
    offer = HookOffer("g", "g.py", "", "0.10.0")
    assert needs_newer_hookman(offer, "0.9.9")
    assert not needs_newer_hookman(offer, "0.10.0")
    assert not needs_newer_hookman(offer._replace(min_hookman=None), "0.0.1")


@settings(deadline=None)
@given(st.lists(st.sampled_from(["..", ".", "hooks", "guard.py", "/", "x", "~"]), max_size=6))
def test_an_accepted_path_never_leaves_the_repository(parts: list[str]) -> None:
    root = Path(__file__).resolve().parent
    path = "/".join(parts)
    if path_problem(root, path) is None:
        real = os.path.realpath(root / path)
        assert os.path.commonpath([str(root), real]) == str(root)
        assert os.path.isfile(real)
