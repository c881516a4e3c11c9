from __future__ import annotations

import re
from pathlib import Path

import platformdirs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman import paths, user_dirs

CASES = [
    {},
    {"XDG_STATE_HOME": "/x/state", "XDG_CONFIG_HOME": "/x/config", "XDG_CACHE_HOME": "/x/cache"},
    {"XDG_STATE_HOME": "", "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": ""},
    {"XDG_STATE_HOME": "relative/state", "XDG_CONFIG_HOME": "rel", "XDG_CACHE_HOME": "r"},
]


@pytest.mark.skipif(not user_dirs.uses_xdg(), reason="computed by platformdirs here")
@pytest.mark.parametrize("environment", CASES)
def test_the_lean_directories_are_platformdirs_answers(
    environment: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("HOOKMAN_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    for variable in ("XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    assert user_dirs.user_dir("state") == platformdirs.user_state_dir("hookman")
    assert user_dirs.user_dir("config") == platformdirs.user_config_dir("hookman")
    assert user_dirs.user_dir("cache") == platformdirs.user_cache_dir("hookman")
    assert user_dirs.user_dir("log") == platformdirs.user_log_dir("hookman")


def test_hookman_home_holds_everything(hookman_home: Path) -> None:
    assert paths.state_dir() == hookman_home.resolve() / "state"
    assert paths.cache_dir() == hookman_home.resolve() / "cache"


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("my project", "my-project"),
        ("a--b", "a--b"),
        ("ünï", "n"),
        ("ü", "root"),
        ("x.y_z", "x.y_z"),
    ],
)
def test_the_project_key_is_stable(name: str, slug: str, tmp_path: Path) -> None:
    project = tmp_path / name
    project.mkdir()
    key = user_dirs.project_key(str(project.resolve()))
    assert key.rsplit("-", 1)[0] == slug
    assert len(key.rsplit("-", 1)[1]) == 12
    import hashlib

    digest = hashlib.sha256(str(project.resolve()).encode()).hexdigest()[:12]
    assert key.endswith(digest)
    assert paths.project_state_dir(project).name == key


@given(st.text(max_size=30))
def test_the_slug_is_the_pattern_substitution_it_replaced(name: str) -> None:
    assert user_dirs._slug(name) == re.sub(r"[^A-Za-z0-9_.-]+", "-", name)
