"""Hook path resolution (docs/dispatch.md, "Loading hooks")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.runtime.hook_paths import resolve_hook_path


def test_tilde_forms_expand_to_the_home_directory(user_home: Path) -> None:
    home = str(user_home)  # the test's own HOME (tests/conftest.py), read when the test runs
    assert resolve_hook_path("~", "/cwd") == home
    assert resolve_hook_path("~/hooks/a.py", "/cwd") == os.path.join(home, "hooks/a.py")
    assert resolve_hook_path("~bob/x.py", "/cwd") == os.path.join(home, "bob/x.py")


def test_relative_paths_resolve_against_cwd_and_are_normalised() -> None:
    assert resolve_hook_path("hooks/../guard.py", "/project") == "/project/guard.py"
    assert resolve_hook_path("./a.py", "/project/sub") == "/project/sub/a.py"


def test_absolute_paths_are_kept_exactly_as_given() -> None:
    assert resolve_hook_path("/a/../b.py", "/cwd") == "/a/../b.py"


def test_unicode_spaces_become_ascii_spaces() -> None:
    assert resolve_hook_path("my\u00a0hook\u3000.py", "/p") == "/p/my hook .py"


def test_path_like_objects_are_accepted_and_other_types_refused() -> None:
    assert resolve_hook_path(Path("a.py"), "/p") == "/p/a.py"  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        resolve_hook_path(42, "/p")  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(["a", "b", "..", ".", "c d", "é"]), min_size=1, max_size=6))
def test_relative_paths_always_resolve_to_normalised_absolute_paths(parts: list[str]) -> None:
    resolved = resolve_hook_path("/".join(parts), "/base/dir")
    assert os.path.isabs(resolved)
    assert resolved == os.path.normpath(resolved)
