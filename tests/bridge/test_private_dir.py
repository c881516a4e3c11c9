"""bridge/private_dir.py's quick check of a path that is its own real path (one lstat per
directory, what a warm worker runs at every event) must find exactly what the whole check
finds (realpath, then lstat of the resolved chain and stat of the path's own symlinks), for
every tree: symlinks anywhere on the way, `..`, doubled and trailing slashes, modes other
users can write, directories of another user."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookman.bridge import private_dir

pytestmark = pytest.mark.skipif(not hasattr(os, "getuid"), reason="no user ids here")

OTHER_UID = 54321
MODES = (0o700, 0o755, 0o775, 0o777, 0o1777, 0o750)
# One step of the tree under the test's own base: a directory of a mode (and, as root, of
# another user), or a symlink to a directory made earlier.
STEP = st.one_of(
    st.tuples(st.just("dir"), st.sampled_from(MODES), st.booleans()),
    st.tuples(st.just("link"), st.integers(min_value=0, max_value=8), st.just(False)),
)
SPELLING = st.sampled_from(["plain", "dotdot", "double", "trailing", "dot"])


def _whole_check(path: str) -> tuple[str, str | None]:
    """make_private_dir without the quick path."""
    original = private_dir._plain_chain_problem
    private_dir._plain_chain_problem = lambda _path: (False, None)
    try:
        return private_dir.make_private_dir(path)
    finally:
        private_dir._plain_chain_problem = original


def _build(base: Path, steps: list[tuple[str, int, bool]]) -> Path:
    made = [base]
    current = base
    for index, (kind, value, others) in enumerate(steps):
        name = current / f"d{index}"
        if kind == "dir":
            name.mkdir()
            os.chmod(name, value)
            if others and os.getuid() == 0:
                os.chown(name, OTHER_UID, -1)
        else:
            target = made[value % len(made)]
            name.symlink_to(target)
        made.append(name)
        current = name
    return current


def _spelled(path: Path, spelling: str) -> str:
    text = str(path)
    if spelling == "dotdot" and path.parent != path:
        return f"{path.parent}/{path.name}/../{path.name}"
    if spelling == "double":
        return text.replace("/", "//", 1) if text.count("/") > 1 else text
    if spelling == "trailing":
        return text + "/"
    if spelling == "dot":
        return f"{path.parent}/./{path.name}"
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(STEP, min_size=1, max_size=5), spelling=SPELLING)
def test_the_quick_check_finds_what_the_whole_check_finds(
    steps: list[tuple[str, int, bool]], spelling: str
) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch) / "base"
        base.mkdir(mode=0o700)
        path = _spelled(_build(base, steps), spelling)
        try:
            assert private_dir.make_private_dir(path) == _whole_check(path)
        finally:
            for root, directories, _files in os.walk(scratch):
                for directory in directories:
                    full = os.path.join(root, directory)
                    if not os.path.islink(full):
                        os.chmod(full, 0o700)


def test_the_quick_check_takes_a_plain_private_directory_without_realpath(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    private = tmp_path / "state"
    private.mkdir(mode=0o700)
    monkeypatch.setattr(os.path, "realpath", _no_realpath)
    assert private_dir.make_private_dir(str(private)) == (str(private), None)


def test_the_quick_check_names_a_directory_others_can_write(tmp_path: Path) -> None:
    private = tmp_path / "state"
    private.mkdir()
    os.chmod(private, 0o777)
    path, problem = private_dir.make_private_dir(str(private))
    assert path == str(private)
    assert problem == f"the directory {private} can be written by other users (mode 777)"


def test_a_symlink_on_the_way_takes_the_whole_check(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(real)
    assert private_dir._plain_chain_problem(str(tmp_path / "link")) == (False, None)
    assert private_dir.make_private_dir(str(tmp_path / "link")) == (str(real), None)
    assert stat.S_ISLNK(os.lstat(tmp_path / "link").st_mode)


def _no_realpath(path: str, *args: object, **kwargs: object) -> str:
    raise AssertionError(f"realpath({path!r}) on the quick path")
