"""toml_data: the one reader of TOML values (tomllib, tomli on Python 3.10) and the one
"TOML kept as JSON" cache, written through atomic_file."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from hookman import toml_data


def test_the_parser_is_tomllib_or_on_python_3_10_tomli() -> None:
    expected = "tomllib" if sys.version_info >= (3, 11) else "tomli"
    assert toml_data.toml_parser().__name__ == expected


def test_text_that_is_no_toml_is_none_and_toml_is_its_values(tmp_path: Path) -> None:
    assert toml_data.parse_toml_or_none('a = 1\n[t]\nb = "x"\n') == {"a": 1, "t": {"b": "x"}}
    assert toml_data.parse_toml_or_none("a = \n") is None
    path = tmp_path / "f.toml"
    assert toml_data.read_toml_file(path) is None  # missing
    path.write_bytes(b"a = '\xff'\n")
    assert toml_data.read_toml_file(path) is None  # not UTF-8
    path.write_text("\ufeffa = 1\n", encoding="utf-8")
    assert toml_data.read_toml_file(path, encoding="utf-8-sig") == {"a": 1}


def test_a_kept_parse_is_used_for_its_text_only(tmp_path: Path) -> None:
    cache = tmp_path / "kept.json"
    assert toml_data.parse_toml_kept("a = 1\n", cache) == {"a": 1}
    assert cache.is_file()
    cache.write_text('{"text": "a = 1\\n", "data": {"a": 2}}', encoding="utf-8")
    assert toml_data.parse_toml_kept("a = 1\n", cache) == {"a": 2}  # from the cache
    assert toml_data.parse_toml_kept("a = 3\n", cache) == {"a": 3}  # another text: parsed
    assert toml_data.parse_toml_kept("a = \n", cache) is None
    assert toml_data.parse_toml_kept("a = 4\n", None) == {"a": 4}


def test_values_json_cannot_hold_exactly_are_not_kept(tmp_path: Path) -> None:
    cache = tmp_path / "kept.json"
    assert toml_data.parse_toml_kept("when = 1979-05-27\n", cache) is not None
    assert not cache.exists()
    assert not toml_data.keep_parse(cache, "x = nan\n", {"x": float("nan")})
    assert not cache.exists()


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", ""])
    process.wait()
    return process.pid


def test_the_cache_is_written_through_atomic_file_whose_sweeper_knows_its_files(
    tmp_path: Path,
) -> None:
    """A writer killed mid-write leaves atomic_file's temporary file; the next write of the
    cache removes it (the repository manifest's cache once wrote `.NAME.PID.tmp` files that
    nothing removed)."""
    cache = tmp_path / "hookman-hooks.toml.json"
    stale = tmp_path / f".{cache.name}.hookman-tmp-{_dead_pid()}-abc.tmp"
    stale.write_text("{}", encoding="utf-8")
    old = time.time() - 120
    os.utime(stale, (old, old))
    assert toml_data.keep_parse(cache, "a = 1\n", {"a": 1})
    assert sorted(path.name for path in tmp_path.iterdir()) == [cache.name]
