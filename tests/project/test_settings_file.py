from __future__ import annotations

import json
import os
import pickle
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookman import atomic_file
from hookman.errors import HookmanError
from hookman.project.settings_file import (
    SettingsChange,
    detect_style,
    read_settings,
    serialize_json,
    update_settings,
)


def _settings_path(project: Path) -> Path:
    return project / ".claude" / "settings.local.json"


def _snapshot(path: Path) -> tuple[bytes, int, int]:
    info = path.lstat()
    return path.read_bytes(), info.st_mtime_ns, info.st_ino


def _add_key(key: str, value: Any) -> Any:
    def edit(settings: dict[str, Any]) -> None:
        settings[key] = value

    return edit


def _no_edit(settings: dict[str, Any]) -> None:
    pass


# --- reading -------------------------------------------------------------------------------


def test_read_absent_file_is_empty_object(project: Path) -> None:
    assert read_settings(_settings_path(project)) == {}


def test_read_empty_or_blank_file_is_empty_object(project: Path) -> None:
    path = _settings_path(project)
    path.write_text(" \n")
    assert read_settings(path) == {}


def test_empty_file_is_filled_in_the_default_layout(project: Path) -> None:
    path = _settings_path(project)
    path.write_text("")
    update_settings(path, _add_key("x", 1))
    assert path.read_text() == '{\n  "x": 1\n}\n'


def test_read_returns_parsed_object(project: Path) -> None:
    path = _settings_path(project)
    path.write_text('{"env": {"A": "1"}, "hooks": {}}')
    assert read_settings(path) == {"env": {"A": "1"}, "hooks": {}}


# --- refusing what cannot be parsed ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        # Python 3.13's json points at the trailing comma itself; earlier ones at the brace
        ('{\n  "a": 1,\n  "b": 2,\n}\n', *((3, 9) if sys.version_info >= (3, 13) else (4, 1))),
        ('{\n  "a": [1, 2\n}', 3, 1),
        ('{"a": 1} trailing', 1, 10),
        ("{\n  'a': 1\n}", 2, 3),
        ('{\n  "n": NaN\n}', 2, 8),
        ('{"s": "Infinity", "n": -Infinity}', 1, 24),
    ],
)
def test_malformed_json_names_line_and_column_and_changes_nothing(
    project: Path, text: str, line: int, column: int
) -> None:
    path = _settings_path(project)
    path.write_text(text)
    before = _snapshot(path)
    with pytest.raises(HookmanError) as caught:
        update_settings(path, _add_key("x", 1))
    assert f"line {line}, column {column}" in caught.value.message
    assert str(path) in caught.value.message
    assert caught.value.hint
    assert _snapshot(path) == before


@pytest.mark.parametrize(
    ("text", "kind"),
    [("[]", "an array"), ('"hi"', "a string"), ("3", "a number"), ("null", "null")],
)
def test_non_object_top_level_is_refused_untouched(project: Path, text: str, kind: str) -> None:
    path = _settings_path(project)
    path.write_text(text)
    before = _snapshot(path)
    with pytest.raises(HookmanError, match=kind):
        update_settings(path, _add_key("x", 1))
    assert _snapshot(path) == before


def test_invalid_utf8_is_refused_untouched(project: Path) -> None:
    path = _settings_path(project)
    path.write_bytes(b'{\n  "a": "\xff"\n}')
    before = _snapshot(path)
    with pytest.raises(HookmanError, match="UTF-8"):
        update_settings(path, _add_key("x", 1))
    assert _snapshot(path) == before


def test_duplicate_key_is_read_but_never_rewritten(project: Path) -> None:
    path = _settings_path(project)
    path.write_text('{"a": 1, "a": 2}')
    before = _snapshot(path)
    assert read_settings(path) == {"a": 2}
    assert update_settings(path, _no_edit).changed is False
    with pytest.raises(HookmanError, match="twice"):
        update_settings(path, _add_key("x", 1))
    assert _snapshot(path) == before


def test_unreadable_file_is_refused_for_real(unprivileged_dir: Path) -> None:
    path = unprivileged_dir / "settings.local.json"
    path.write_text('{"a": 1}')
    path.chmod(0)
    before = _snapshot(path)
    failure = _run_unprivileged(lambda: update_settings(path, _add_key("x", 1)))
    assert isinstance(failure, HookmanError)
    assert "cannot read" in failure.message
    assert "Permission denied" in failure.message
    assert _snapshot(path) == before


def test_unreadable_file_is_refused(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests run as root here, which ignores chmod 000: emulate the EACCES the OS would raise.
    path = _settings_path(project)
    path.write_text('{"a": 1}')
    before = _snapshot(path)

    def denied(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(HookmanError, match=r"cannot read .*Permission denied"):
        update_settings(path, _add_key("x", 1))
    monkeypatch.undo()
    assert _snapshot(path) == before


def test_unwritable_directory_is_refused_and_file_kept(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As root a read-only directory is still writable: emulate the EACCES from creating the
    # temporary file, which is the first thing a write does.
    path = _settings_path(project)
    path.write_text('{"a": 1}\n')
    before = _snapshot(path)

    def denied(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(atomic_file.tempfile, "mkstemp", denied)
    with pytest.raises(HookmanError, match=r"cannot write .*unchanged"):
        update_settings(path, _add_key("x", 1))
    monkeypatch.undo()
    assert _snapshot(path) == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.local.json"]


def test_read_only_directory_is_refused_for_real(unprivileged_dir: Path) -> None:
    path = unprivileged_dir / "settings.local.json"
    path.write_text("{}\n")
    if os.geteuid() == 0:
        os.chown(path, _NOBODY, _NOBODY)  # writable file, but the directory is not
    unprivileged_dir.chmod(0o555)
    before = _snapshot(path)
    failure = _run_unprivileged(lambda: update_settings(path, _add_key("x", 1)))
    assert isinstance(failure, HookmanError)
    assert "cannot write" in failure.message
    assert _snapshot(path) == before
    assert [p.name for p in unprivileged_dir.iterdir()] == ["settings.local.json"]


_NOBODY = 65534


@pytest.fixture
def unprivileged_dir() -> Iterator[Path]:
    """A directory the unprivileged user can reach (pytest's tmp dirs are private to root)."""
    directory = Path(tempfile.mkdtemp(prefix="hookman-perm-"))
    directory.chmod(0o755)
    try:
        yield directory
    finally:
        directory.chmod(0o755)
        shutil.rmtree(directory)


def _run_unprivileged(action: Callable[[], object]) -> BaseException | None:
    """Run `action` with no special file privileges; return what it raised, if anything.

    As root (where permission bits do not apply) it runs in a forked child that has dropped to
    uid/gid `nobody`; the exception comes back pickled through a pipe.
    """
    if os.geteuid() != 0:
        try:
            action()
        except BaseException as error:
            return error
        return None
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        os.close(read_end)
        result: BaseException | None = None
        try:
            os.setgroups([])
            os.setgid(_NOBODY)
            os.setuid(_NOBODY)
            action()
        except BaseException as error:
            result = error
        with os.fdopen(write_end, "wb") as pipe:
            pickle.dump(result, pipe)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        outcome = pickle.load(pipe)
    os.waitpid(child, 0)
    return outcome


# --- symlinks and special files ---------------------------------------------------------------


def test_symlink_into_a_dotfiles_repo_is_followed_and_kept(project: Path, tmp_path: Path) -> None:
    target = tmp_path / "dotfiles" / "myproject" / "settings.local.json"
    target.parent.mkdir(parents=True)
    target.write_text('{\n  "env": {}\n}\n')
    link = _settings_path(project)
    link.symlink_to(target)
    change = update_settings(link, _add_key("x", 1))
    assert change.changed
    assert link.is_symlink()
    assert os.readlink(link) == str(target)
    assert json.loads(target.read_text()) == {"env": {}, "x": 1}
    assert sorted(p.name for p in target.parent.iterdir()) == ["settings.local.json"]


def test_a_relative_symlink_to_a_local_file_in_this_claude_dir_is_followed(
    project: Path,
) -> None:
    target = project / ".claude" / "real" / "settings.local.json"
    target.parent.mkdir()
    target.write_text("{}\n")
    link = _settings_path(project)
    link.symlink_to("real/settings.local.json")

    update_settings(link, _add_key("x", 1))

    assert json.loads(target.read_text()) == {"x": 1} and link.is_symlink()


def _other_settings_files(project: Path, tmp_path: Path) -> dict[str, Path]:
    return {
        "committed settings.json": project / ".claude" / "settings.json",
        "user settings": tmp_path / "home" / ".claude" / "settings.json",
        "user local settings": tmp_path / "home" / ".claude" / "settings.local.json",
        "managed settings": tmp_path / "etc" / "claude-code" / "managed-settings.json",
        "managed drop-in": tmp_path / "etc" / "claude-code" / "managed-settings.d" / "a.json",
        "another project's local settings": tmp_path / "other" / ".claude" / "settings.local.json",
        "a json file of another name": tmp_path / "dotfiles" / "claude-local.json",
    }


@pytest.mark.parametrize(
    "kind",
    [
        "committed settings.json",
        "user settings",
        "user local settings",
        "managed settings",
        "managed drop-in",
        "another project's local settings",
        "a json file of another name",
    ],
)
@pytest.mark.parametrize("dry_run", [False, True], ids=["write", "dry-run"])
def test_a_symlink_to_any_other_settings_file_is_refused_and_nothing_changes(
    project: Path, tmp_path: Path, kind: str, dry_run: bool
) -> None:
    target = _other_settings_files(project, tmp_path)[kind]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text('{"permissions": {"allow": ["Bash(ls)"]}}\n')
    before = _snapshot(target)
    link = _settings_path(project)
    link.symlink_to(target)
    listing = sorted(target.parent.iterdir())

    with pytest.raises(HookmanError) as refused:
        update_settings(link, _add_key("hooks", {"Stop": []}), dry_run=dry_run)

    assert refused.value.message == (
        f"{link} is a symlink to {target}, which is not a local settings file of this project, "
        "so hookman will not write through it (it modifies no settings file but "
        ".claude/settings.local.json)."
    )
    assert refused.value.hint == (
        f"replace the link with a plain file (`rm {link}`, then `hookman install`), or point "
        "it at a file named settings.local.json outside any other .claude directory."
    )
    assert _snapshot(target) == before
    assert sorted(target.parent.iterdir()) == listing


def test_a_chain_of_symlinks_is_judged_by_its_final_target(project: Path, tmp_path: Path) -> None:
    committed = project / ".claude" / "settings.json"
    committed.write_text("{}\n")
    hop = tmp_path / "dotfiles" / "settings.local.json"
    hop.parent.mkdir()
    hop.symlink_to(committed)
    _settings_path(project).symlink_to(hop)

    with pytest.raises(HookmanError, match="not a local settings file of this project"):
        update_settings(_settings_path(project), _add_key("x", 1))
    assert committed.read_text() == "{}\n"


def test_dangling_symlink_is_refused(project: Path, tmp_path: Path) -> None:
    link = _settings_path(project)
    link.symlink_to(tmp_path / "missing.json")
    with pytest.raises(HookmanError, match="does not exist"):
        update_settings(link, _add_key("x", 1))
    assert link.is_symlink()
    assert not (tmp_path / "missing.json").exists()


def test_symlink_to_directory_is_refused(project: Path, tmp_path: Path) -> None:
    link = _settings_path(project)
    link.symlink_to(tmp_path)
    with pytest.raises(HookmanError, match="not a regular file"):
        read_settings(link)


def test_fifo_is_refused_without_blocking(project: Path) -> None:
    path = _settings_path(project)
    os.mkfifo(path)
    with pytest.raises(HookmanError, match="not a regular file"):
        update_settings(path, _add_key("x", 1))


# --- writing ----------------------------------------------------------------------------------


def test_creates_claude_dir_and_file(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.local.json"
    change = update_settings(path, _add_key("x", 1))
    assert change.before is None
    assert path.read_text() == '{\n  "x": 1\n}\n'
    assert change.after == path.read_text()


def test_new_file_mode_respects_umask(project: Path) -> None:
    path = _settings_path(project)
    old_umask = os.umask(0o077)
    try:
        update_settings(path, _add_key("x", 1))
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_existing_mode_is_kept(project: Path) -> None:
    path = _settings_path(project)
    path.write_text("{}")
    path.chmod(0o640)
    update_settings(path, _add_key("x", 1))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_no_op_update_writes_nothing(project: Path) -> None:
    path = _settings_path(project)
    path.write_text('{"a":   [1,2],\n"b": 1.50}')
    before = _snapshot(path)
    change = update_settings(path, _add_key("a", [1, 2]))
    assert not change.changed
    assert change.diff() == ""
    assert _snapshot(path) == before


def test_edit_that_adds_nothing_to_absent_file_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.local.json"
    change = update_settings(path, _no_edit)
    assert change == SettingsChange(path, None, None)
    assert not path.parent.exists()


def test_dry_run_writes_nothing_and_diff_shows_change(project: Path) -> None:
    path = _settings_path(project)
    path.write_text('{\n  "a": 1\n}\n')
    before = _snapshot(path)
    change = update_settings(path, _add_key("b", 2), dry_run=True)
    assert change.changed
    assert _snapshot(path) == before
    diff = change.diff()
    assert '-  "a": 1\n' in diff
    assert '+  "a": 1,\n' in diff
    assert '+  "b": 2\n' in diff


def test_dry_run_on_missing_dir_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.local.json"
    change = update_settings(path, _add_key("b", 2), dry_run=True)
    assert change.before is None
    assert change.diff().startswith("--- /dev/null\n")
    assert not path.parent.exists()


def test_diff_marks_missing_final_newline(project: Path) -> None:
    path = _settings_path(project)
    path.write_text('{"a": 1}')
    diff = update_settings(path, _add_key("b", 2), dry_run=True).diff()
    assert "\\ No newline at end of file" in diff


@pytest.mark.parametrize(
    "original",
    [
        '{\n  "a": 1\n}\n',
        '{\n    "a": 1\n}',
        '{\n\t"a": 1\n}\n',
        '{"a": 1}',
        '{"a":1}\n',
        '{\r\n  "a": 1\r\n}\r\n',
        '\ufeff{\n  "a": 1\n}\n',
        '{\n  "a": "\\u00e9"\n}\n',
        '{\n  "a": "é"\n}\n',
        '{\n"a": 1\n}',
        '{\n"a": [\n1\n]\n}\n',
    ],
)
def test_style_survives_add_then_remove_byte_for_byte(project: Path, original: str) -> None:
    path = _settings_path(project)
    path.write_bytes(original.encode())
    added = update_settings(path, _add_key("hooks", {"Stop": [{"hooks": []}]}))
    assert added.changed
    update_settings(path, lambda settings: settings.pop("hooks"))
    assert path.read_bytes() == original.encode()


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        ('{\n    "a": 1\n}\n', '{\n    "a": 1,\n    "b": [\n        2\n    ]\n}\n'),
        ('{\n\t"a": 1\n}', '{\n\t"a": 1,\n\t"b": [\n\t\t2\n\t]\n}'),
        ('{"a": 1}', '{"a": 1, "b": [2]}'),
        ('{"a":1}', '{"a":1,"b":[2]}'),
        ('{\n"a": 1\n}\n', '{\n"a": 1,\n"b": [\n2\n]\n}\n'),
        ('{"a": "\\u00e9"}', '{"a": "\\u00e9", "b": [2]}'),
    ],
)
def test_writes_in_the_files_own_style(project: Path, original: str, expected: str) -> None:
    path = _settings_path(project)
    path.write_text(original)
    update_settings(path, _add_key("b", [2]))
    assert path.read_text() == expected


def test_unchanged_parts_keep_their_exact_text(project: Path) -> None:
    path = _settings_path(project)
    original = (
        '{\n  "permissions": {"allow": ["Bash(ls)",   "Read"]},\n'
        '  "numbers": [1.0, 1e400, -0, 1E5, 0.10],\n'
        '  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}\n}\n'
    )
    path.write_text(original)
    update_settings(path, lambda s: s["hooks"].__setitem__("Start", []))
    text = path.read_text()
    assert '"permissions": {"allow": ["Bash(ls)",   "Read"]}' in text
    assert '"numbers": [1.0, 1e400, -0, 1E5, 0.10]' in text
    assert '"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]' in text
    update_settings(path, lambda s: s["hooks"].pop("Start"))
    assert json.loads(path.read_text()) == json.loads(original)


def test_key_order_is_kept(project: Path) -> None:
    path = _settings_path(project)
    path.write_text('{"z": 1, "a": 2, "m": 3}')
    update_settings(path, _add_key("a", 5))
    assert list(json.loads(path.read_text())) == ["z", "a", "m"]


def test_edit_error_writes_nothing(project: Path) -> None:
    path = _settings_path(project)
    path.write_text("{}")
    before = _snapshot(path)

    def failing_edit(settings: dict[str, Any]) -> None:
        settings["x"] = 1
        raise HookmanError("no", "hint")

    with pytest.raises(HookmanError):
        update_settings(path, failing_edit)
    assert _snapshot(path) == before


# --- properties -------------------------------------------------------------------------------

# Characters str.splitlines() breaks at that JSON keeps raw inside strings (json.dumps
# escapes the others): mixed with spaces, they look like indented lines to a naive reader.
LINE_BREAKS_RAW_IN_JSON = ["\x85", "\u2028", "\u2029"]
_json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.text(st.sampled_from([*LINE_BREAKS_RAW_IN_JSON, " ", "\t", "\n", "a"]), max_size=6)
)
_json_values = st.recursive(
    _json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)
_json_objects = st.dictionaries(st.text(max_size=6), _json_values, max_size=5)
_indents = st.sampled_from([0, 1, 2, 4, "\t", None])  # 0: line breaks, no indentation


@settings(max_examples=100, deadline=None)
@given(value=_json_objects, indent=_indents, ensure_ascii=st.booleans())
def test_serializer_reproduces_standard_json_dumps(
    value: dict[str, Any], indent: int | str | None, ensure_ascii: bool
) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)
    reparsed = read_settings_from_text(text)
    assert serialize_json(reparsed, detect_style(text)) == text
    assert serialize_json(reparsed, detect_style(text), original=text) == text


@settings(max_examples=60, deadline=None)
@given(
    value=_json_objects,
    indent=_indents,
    ensure_ascii=st.booleans(),
    final_newline=st.booleans(),
    added=_json_values,
)
def test_any_standard_file_survives_add_then_remove_byte_for_byte(
    tmp_path_factory: pytest.TempPathFactory,
    value: dict[str, Any],
    indent: int | str | None,
    ensure_ascii: bool,
    final_newline: bool,
    added: Any,
) -> None:
    path = tmp_path_factory.mktemp("prop") / ".claude" / "settings.local.json"
    path.parent.mkdir()
    original = json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)
    original += "\n" if final_newline else ""
    path.write_text(original, encoding="utf-8")
    key = "\x00hookman-test-key"
    update_settings(path, _add_key(key, added))
    assert read_settings(path)[key] == added
    update_settings(path, lambda settings: settings.pop(key))
    assert path.read_text(encoding="utf-8") == original


@pytest.mark.parametrize("breaker", LINE_BREAKS_RAW_IN_JSON)
@pytest.mark.parametrize(
    "original",
    [
        '{"env": {"A": "x{b}  y"}, "model": "m"}\n',
        '{"env":{"A":"x{b}    y"},"model":"m"}',
        '{"a": "{b}\\t{b}  "}',
    ],
)
def test_a_one_line_file_with_a_raw_line_separator_in_a_string_stays_one_line(
    project: Path, original: str, breaker: str
) -> None:
    path = _settings_path(project)
    text = original.replace("{b}", breaker)
    path.write_text(text, encoding="utf-8")

    added = update_settings(path, _add_key("hooks", {"Stop": []}))
    update_settings(path, lambda settings: settings.pop("hooks"))

    assert added.after is not None and "\n" not in added.after.rstrip("\n")
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("control", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e"])
def test_a_raw_control_character_in_a_string_is_refused_and_untouched(
    project: Path, control: str
) -> None:
    # splitlines() breaks at these too, but JSON does not allow them raw: not JSON at all.
    path = _settings_path(project)
    path.write_text(f'{{"a": "x{control}  y"}}', encoding="utf-8")
    before = _snapshot(path)

    with pytest.raises(HookmanError, match="is not valid JSON: Invalid control character"):
        update_settings(path, _add_key("x", 1))

    assert _snapshot(path) == before


def test_a_diff_breaks_lines_only_at_newlines(project: Path) -> None:
    path = _settings_path(project)
    path.write_text('{"a": "x\u2028y"}\n', encoding="utf-8")

    change = update_settings(path, _add_key("b", 1), dry_run=True)

    assert change.diff().split("\n")[2:] == [
        "@@ -1 +1 @@",
        '-{"a": "x\u2028y"}',
        '+{"a": "x\u2028y", "b": 1}',
        "",
    ]


def read_settings_from_text(text: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "settings.local.json"
        path.write_text(text, encoding="utf-8")
        return read_settings(path)


# --- crash safety -----------------------------------------------------------------------------

_CRASH_WRITER = r"""
import sys
from pathlib import Path
from hookman.project.settings_file import update_settings

path = Path(sys.argv[1])
payload = "x" * 1_000_000
round_number = 0
while True:
    round_number += 1
    tag = "A" if round_number % 2 else "B"

    def edit(settings, tag=tag):
        settings.clear()
        settings["round"] = tag
        settings["payload"] = payload if tag == "A" else payload[:-1]

    update_settings(path, edit)
    if round_number == 1:
        print("ready", flush=True)
"""


def test_killed_writer_leaves_old_or_new_valid_json(project: Path) -> None:
    path = _settings_path(project)
    expected_lengths = {"A": 1_000_000, "B": 999_999}
    rng = random.Random(1234)
    killed_mid_write = 0
    for _ in range(8):
        child = subprocess.Popen(
            [sys.executable, "-c", _CRASH_WRITER, str(path)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready"
            # Aim inside the write window: wait for the next temporary file, then kill the
            # child a random moment later (while writing, fsyncing, renaming or after).
            _wait_for_temp_file(path.parent, timeout=10.0)
            time.sleep(rng.uniform(0.0, 0.005))
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        leftovers = [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
        killed_mid_write += bool(leftovers)
        for leftover in leftovers:
            leftover.unlink()
        settings_now = json.loads(path.read_text())
        assert len(settings_now["payload"]) == expected_lengths[settings_now["round"]]
    assert killed_mid_write >= 1, "no kill landed inside a write; the test proved nothing"


def _wait_for_temp_file(directory: Path, *, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(entry.name.endswith(".tmp") for entry in os.scandir(directory)):
            return
    raise AssertionError("the writer never started another write")


def test_a_large_file_is_edited_quickly_and_kept_byte_for_byte(tmp_path: Path) -> None:
    # Claude Code appends every approved command to permissions.allow, so files grow big.
    big = {
        "permissions": {"allow": [f"Bash(npm run task{index})" for index in range(20000)]},
        "env": {f"VAR_{index}": "v" * 20 for index in range(5000)},
    }
    text = json.dumps(big, indent=2) + "\n"
    path = tmp_path / "settings.local.json"
    path.write_text(text)
    group = {"hooks": [{"type": "command", "command": "hookman run Stop"}]}
    started = time.process_time()  # CPU time: other processes on a busy machine do not count
    update_settings(path, lambda settings: settings.setdefault("hooks", {}).update(Stop=[group]))
    assert json.loads(path.read_text())["hooks"] == {"Stop": [group]}
    update_settings(path, lambda settings: settings.pop("hooks"))
    assert time.process_time() - started < 2.5  # a Python-level walk of the whole file took ~8 s
    assert path.read_text() == text


@pytest.mark.parametrize(
    ("text", "item_separator", "key_separator"),
    [
        ('{"a": ",", "b": {}}', ", ", ": "),
        ('{"a":", ","b":{}}', ",", ":"),
        ('{"a": "x\\",y", "b": 1}', ", ", ": "),
    ],
)
def test_compact_separators_are_read_outside_strings(
    text: str, item_separator: str, key_separator: str
) -> None:
    style = detect_style(text)
    assert (style.item_separator, style.key_separator) == (item_separator, key_separator)


def test_a_comma_inside_a_value_does_not_change_the_layout_on_install_and_remove(
    project: Path,
) -> None:
    path = _settings_path(project)
    original = '{"hooks": {"Stop": [{"hooks": [{"command": ",", "type": "command"}]}]}, "env": {}}'
    path.write_text(original)
    entry = {"hooks": [{"type": "command", "command": "python -m hookman run Stop"}]}
    update_settings(path, lambda settings: settings["hooks"]["Stop"].append(entry))
    update_settings(path, lambda settings: settings["hooks"]["Stop"].pop())
    assert path.read_text() == original


def test_a_hard_link_to_settings_json_is_split_not_written_through(project: Path) -> None:
    committed = project / ".claude" / "settings.json"
    committed.write_text('{"permissions": {}}\n')
    os.link(committed, _settings_path(project))

    update_settings(_settings_path(project), _add_key("x", 1))

    assert committed.read_text() == '{"permissions": {}}\n'
    assert json.loads(_settings_path(project).read_text()) == {"permissions": {}, "x": 1}
