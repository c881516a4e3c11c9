from __future__ import annotations

import copy
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hookman.errors import HookmanError
from hookman.project.settings_entries import (
    HookmanEntry,
    RunnerRef,
    apply_hookman_entries,
    build_command,
    find_hookman_entries,
    hookman_command_event,
    hookman_command_is_async,
    hookman_command_runner,
    is_hookman_command,
    shell_words,
)
from hookman.project.settings_file import update_settings
from tests.direct_command import RUNNER_CODE, build_direct_command

MANIFEST = Path("/state/projects/p-0123/manifest.json")
LAUNCHER = Path("/state/projects/p-0123/hookman-run.sh")


def _entry(
    event: str = "PreToolUse",
    matcher: str | None = "Bash",
    timeout: int | float | None = 30,
    *,
    is_async: bool = False,
) -> HookmanEntry:
    command = build_command(event, LAUNCHER, guarded=event == "PreToolUse", run_async=is_async)
    return HookmanEntry(event, matcher, command, timeout, is_async)


def _foreign_group(command: str = "echo foreign", matcher: str | None = "Edit") -> dict:
    group: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
    group["hooks"] = [{"type": "command", "command": command}]
    return group


# --- build_direct_command (the form of earlier versions) -------------------------------------


def test_command_runs_current_interpreter_with_safe_path_flag_when_supported() -> None:
    words = shlex.split(build_direct_command("PreToolUse", MANIFEST))
    expected_flag = ["-P"] if sys.version_info >= (3, 11) else []
    assert words == [
        sys.executable,
        *expected_flag,
        "-c",
        RUNNER_CODE,
        "run",
        "PreToolUse",
        "--manifest",
        str(MANIFEST),
    ]


@pytest.mark.parametrize(
    ("python", "has_flag"),
    [("/opt/python3.10", False), ("/opt/python3.11", True), ("/opt/python3.13", True)],
)
def test_safe_path_flag_follows_interpreter_version_in_its_name(
    python: str, has_flag: bool
) -> None:
    assert ("-P" in shlex.split(build_direct_command("Stop", MANIFEST, python=python))) is has_flag


def test_safe_path_flag_is_omitted_when_version_cannot_be_learned(tmp_path: Path) -> None:
    assert "-P" not in shlex.split(
        build_direct_command("Stop", MANIFEST, python=str(tmp_path / "nope"))
    )


def test_safe_path_flag_asks_an_unnamed_interpreter_for_its_version(tmp_path: Path) -> None:
    fake = tmp_path / "py"
    fake.write_text("#!/bin/sh\necho 3 12\n")
    fake.chmod(0o755)
    assert "-P" in shlex.split(build_direct_command("Stop", MANIFEST, python=str(fake)))


def test_async_command_is_distinct_and_recognised_as_async() -> None:
    blocking = build_direct_command("PostToolUse", MANIFEST)
    observing = build_direct_command("PostToolUse", MANIFEST, run_async=True)
    assert blocking != observing
    assert hookman_command_is_async(observing)
    assert not hookman_command_is_async(blocking)
    assert hookman_command_event(observing) == "PostToolUse"


_path_part = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
    min_size=1,
    max_size=16,
).filter(lambda part: part not in (".", ".."))


@settings(max_examples=20, deadline=None)
@given(
    directory=_path_part,
    manifest_dir=_path_part,
    name=st.sampled_from(["python", "python3.10", "python3.12"]),
)
@example(directory="my dir", manifest_dir="it's", name="python")
@example(directory='a "quoted" $HOME `id`', manifest_dir="$(touch pwned)", name="python")
@example(directory="é ñ 日本 🐍", manifest_dir="new\nline", name="python")
@example(directory="-P", manifest_dir="--manifest", name="python")
@example(directory="\\back\\slash;|&", manifest_dir="~tilde *glob?", name="python")
def test_command_runs_the_right_interpreter_with_the_right_args_through_bash(
    tmp_path_factory: pytest.TempPathFactory, directory: str, manifest_dir: str, name: str
) -> None:
    root = tmp_path_factory.mktemp("hostile")
    fake_python = root / directory / name
    fake_python.parent.mkdir()
    fake_python.write_text(
        f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv))\n", encoding="utf-8"
    )
    fake_python.chmod(0o755)
    manifest = root / manifest_dir / "manifest.json"
    command = build_direct_command("PreToolUse", manifest, python=str(fake_python))
    done = subprocess.run(
        ["bash", "-c", command], cwd=root, capture_output=True, text=True, check=True
    )
    # The fake cannot report a version, so only a name saying >= 3.11 earns -P.
    safe_path_flag = ["-P"] if name == "python3.12" else []
    assert json.loads(done.stdout) == [
        str(fake_python),
        *safe_path_flag,
        "-c",
        RUNNER_CODE,
        "run",
        "PreToolUse",
        "--manifest",
        str(manifest),
    ]
    assert not (root / "pwned").exists()
    assert hookman_command_event(command) == "PreToolUse"


# --- recognising hookman's commands -----------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "event"),
    [
        ("'/usr/bin/python3' -P -m hookman run PreToolUse --manifest '/x y/m.json'", "PreToolUse"),
        ("/usr/bin/python3 -m hookman run Stop", "Stop"),
        (f"/usr/bin/python3 -P -c '{RUNNER_CODE}' run PostToolUse --manifest /m", "PostToolUse"),
        ('"/opt/my python/bin/python" -m hookman run SessionEnd --async', "SessionEnd"),
        ("hookman run Notification", "Notification"),
        ("/home/u/.local/bin/hookman run PostToolUse --manifest m", "PostToolUse"),
        ("python -m hookman run", None),
        ("python -m hookman run --manifest m", None),
    ],
)
def test_recognises_hookman_commands(command: str, event: str | None) -> None:
    assert is_hookman_command(command)
    assert hookman_command_event(command) == event


@pytest.mark.parametrize(
    "command",
    [
        "echo hi",
        "python -m hookmanx run Stop",
        "python -m hookman list",
        "python -c 'print(1)' run Stop",
        "python -m other run hookman",
        "hookman-run Stop",
        "/bin/hookmanager run Stop",
        "python -m 'hookman run' Stop",
        "'unbalanced quote -m hookman",
        "",
    ],
)
def test_does_not_claim_foreign_commands(command: str) -> None:
    assert not is_hookman_command(command)
    assert hookman_command_event(command) is None


def test_recognises_commands_with_unbalanced_quotes_by_words() -> None:
    assert hookman_command_event("python -m hookman run Stop --x 'oops") == "Stop"


# --- apply_hookman_entries: writing -----------------------------------------------------------


def test_apply_into_empty_settings_writes_documented_shape() -> None:
    settings: dict[str, Any] = {}
    entries = [_entry(), _entry("PostToolUse", None, None, is_async=True)]
    apply_hookman_entries(settings, entries)
    assert settings == {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": entries[0].command, "timeout": 30}],
                }
            ],
            "PostToolUse": [
                {"hooks": [{"type": "command", "command": entries[1].command, "async": True}]}
            ],
        }
    }


def test_apply_is_idempotent() -> None:
    settings: dict[str, Any] = {"hooks": {"PreToolUse": [_foreign_group()]}}
    entries = [_entry(), _entry("Stop", None, 10)]
    apply_hookman_entries(settings, entries)
    once = copy.deepcopy(settings)
    apply_hookman_entries(settings, entries)
    assert settings == once


def test_blocking_and_async_entries_for_one_event_coexist() -> None:
    settings: dict[str, Any] = {}
    entries = [_entry("PostToolUse", None, 30), _entry("PostToolUse", None, None, is_async=True)]
    apply_hookman_entries(settings, entries)
    assert [handler["command"] for _, handler in find_hookman_entries(settings)] == [
        entries[0].command,
        entries[1].command,
    ]
    apply_hookman_entries(settings, entries[:1])
    assert [handler["command"] for _, handler in find_hookman_entries(settings)] == [
        entries[0].command
    ]


def test_existing_hookman_group_is_updated_in_place() -> None:
    old_command = "/old/python -m hookman run PreToolUse --manifest /old.json"
    settings: dict[str, Any] = {
        "hooks": {
            "PreToolUse": [
                _foreign_group("first"),
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": old_command, "timeout": 5}],
                },
                _foreign_group("last"),
            ]
        }
    }
    new_entry = _entry(matcher=None, timeout=45)
    apply_hookman_entries(settings, [new_entry])
    groups = settings["hooks"]["PreToolUse"]
    assert [group["hooks"][0]["command"] for group in groups] == [
        "first",
        new_entry.command,
        "last",
    ]
    assert groups[1] == {
        "hooks": [{"type": "command", "command": new_entry.command, "timeout": 45}]
    }


def test_extra_keys_a_user_put_on_hookman_handler_are_kept() -> None:
    entry = _entry()
    settings: dict[str, Any] = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": entry.command, "statusMessage": "guard"}
                    ],
                }
            ]
        }
    }
    apply_hookman_entries(settings, [entry])
    handler = settings["hooks"]["PreToolUse"][0]["hooks"][0]
    assert handler == {
        "type": "command",
        "command": entry.command,
        "statusMessage": "guard",
        "timeout": 30,
    }


def test_shared_group_keeps_its_matcher_and_foreign_handler() -> None:
    old_command = "python3 -m hookman run PreToolUse"
    shared = {
        "matcher": "Edit",
        "hooks": [
            {"type": "command", "command": "fmt.sh"},
            {"type": "command", "command": old_command},
        ],
    }
    settings: dict[str, Any] = {"hooks": {"PreToolUse": [shared]}}
    entry = _entry(matcher="Bash")
    apply_hookman_entries(settings, [entry])
    assert settings["hooks"]["PreToolUse"] == [
        {"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]},
        entry.group(),
    ]


def test_shared_group_with_same_matcher_is_updated_in_place() -> None:
    settings: dict[str, Any] = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": "fmt.sh"},
                        {"type": "command", "command": "python3 -m hookman run PreToolUse"},
                    ],
                }
            ]
        }
    }
    entry = _entry(matcher="Bash")
    apply_hookman_entries(settings, [entry])
    assert settings["hooks"]["PreToolUse"][0]["hooks"][1]["command"] == entry.command
    assert len(settings["hooks"]["PreToolUse"]) == 1


def test_stale_and_duplicate_hookman_handlers_are_removed() -> None:
    settings: dict[str, Any] = {
        "keep": 1,
        "hooks": {
            "Stop": [_foreign_group("python -m hookman run Stop", None)],
            "PreToolUse": [
                _foreign_group("python -m hookman run PreToolUse", "Bash"),
                _foreign_group("python -m hookman run PreToolUse", "Bash"),
                _foreign_group("echo mine", "Bash"),
            ],
        },
    }
    entry = _entry()
    apply_hookman_entries(settings, [entry])
    assert settings == {
        "keep": 1,
        "hooks": {"PreToolUse": [entry.group(), _foreign_group("echo mine", "Bash")]},
    }


def test_apply_nothing_removes_everything_hookman_added() -> None:
    original = {
        "env": {"A": "1"},
        "hooks": {"PreToolUse": [_foreign_group()], "Stop": [{"hooks": []}]},
    }
    settings = copy.deepcopy(original)
    apply_hookman_entries(settings, [_entry(), _entry("Stop", None, 5), _entry("SessionEnd")])
    assert settings != original
    apply_hookman_entries(settings, [])
    assert settings == original


def test_foreign_empty_containers_are_left_alone() -> None:
    original: dict[str, Any] = {"hooks": {"Stop": [], "PreToolUse": [{"hooks": []}]}}
    settings = copy.deepcopy(original)
    apply_hookman_entries(settings, [])
    assert settings == original
    empty: dict[str, Any] = {"hooks": {}}
    apply_hookman_entries(empty, [])
    assert empty == {"hooks": {}}


def test_two_entries_with_the_same_key_are_a_programming_error() -> None:
    with pytest.raises(ValueError, match="two blocking"):
        apply_hookman_entries({}, [_entry(), _entry(matcher="Edit")])


@pytest.mark.parametrize(
    ("settings", "json_path"),
    [
        ({"hooks": []}, "at hooks "),
        ({"hooks": None}, "at hooks "),
        ({"hooks": {"PreToolUse": {"matcher": "Bash"}}}, "at hooks.PreToolUse "),
        ({"hooks": {"Stop": [], "Odd-Name": "x"}}, 'at hooks["Odd-Name"] '),
        ({"hooks": {"Stop": [_foreign_group(), "cmd"]}}, "at hooks.Stop[1] "),
        ({"hooks": {"Stop": [{"hooks": {"type": "command"}}]}}, "at hooks.Stop[0].hooks "),
    ],
)
def test_malformed_shapes_are_refused_and_left_as_they_are(
    settings: dict[str, Any], json_path: str
) -> None:
    untouched = copy.deepcopy(settings)
    with pytest.raises(HookmanError) as caught:
        apply_hookman_entries(settings, [_entry()])
    assert json_path in caught.value.message
    assert caught.value.hint
    assert settings == untouched


def test_malformed_file_is_not_written(project: Path) -> None:
    path = project / ".claude" / "settings.local.json"
    path.write_text('{"hooks": {"PreToolUse": {"matcher": "Bash"}}}\n')
    before = path.read_bytes(), path.stat().st_mtime_ns
    with pytest.raises(HookmanError, match=r"hooks\.PreToolUse"):
        update_settings(path, lambda settings: apply_hookman_entries(settings, [_entry()]))
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


# --- find_hookman_entries ---------------------------------------------------------------------


def test_find_lists_hookman_handlers_with_their_matcher() -> None:
    settings: dict[str, Any] = {}
    entries = [_entry(), _entry("Stop", None, None)]
    apply_hookman_entries(settings, entries)
    settings["hooks"]["Stop"].insert(0, _foreign_group())
    assert find_hookman_entries(settings) == [
        ("PreToolUse", {"type": "command", "command": entries[0].command, "timeout": 30,
                        "matcher": "Bash"}),
        ("Stop", {"type": "command", "command": entries[1].command}),
    ]  # fmt: skip


def test_find_tolerates_malformed_shapes() -> None:
    assert find_hookman_entries({"hooks": []}) == []
    assert find_hookman_entries({"hooks": {"Stop": "x", "End": [1, {"hooks": {}}]}}) == []


# --- properties: foreign content survives install then remove -------------------------------

_EVENTS = ["PreToolUse", "PostToolUse", "Stop", "SessionEnd", "Notification"]
_json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
_json_values = st.recursive(
    _json_scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=12,
)
_foreign_handlers = (
    st.fixed_dictionaries(
        {"type": st.sampled_from(["command", "prompt", "http"]), "command": st.text(max_size=20)},
        optional={"timeout": st.integers(1, 600), "x-extra": _json_values},
    )
    | _json_scalars
)
_foreign_groups = st.fixed_dictionaries(
    {"hooks": st.lists(_foreign_handlers, max_size=3)},
    optional={"matcher": st.text(max_size=10), "x-note": _json_values},
)
# A `hooks` object or an event array that is empty *and* gets a hookman entry cannot be told
# apart from one hookman created, so the generated foreign ones hold something.
_foreign_hooks = st.dictionaries(
    st.sampled_from([*_EVENTS, "UserPromptSubmit", "Weird Event ✓"]),
    st.lists(_foreign_groups, min_size=1, max_size=3),
    min_size=1,
    max_size=4,
)
_foreign_settings = st.dictionaries(
    st.text(max_size=8).filter(lambda key: key != "hooks"), _json_values, max_size=5
).flatmap(
    lambda others: st.one_of(
        st.just(others), _foreign_hooks.map(lambda hooks: {**others, "hooks": hooks})
    )
)
_entry_sets = st.lists(
    st.builds(
        _entry,
        event=st.sampled_from(_EVENTS),
        matcher=st.one_of(st.none(), st.sampled_from(["Bash", "Edit|Write", "^(?:a-b)$"])),
        timeout=st.one_of(st.none(), st.integers(1, 600), st.just(1.5)),
        is_async=st.booleans(),
    ),
    max_size=5,
    unique_by=lambda entry: (entry.event, entry.is_async),
)


@settings(max_examples=150, deadline=None)
@given(foreign=_foreign_settings, entries=_entry_sets, changed_entries=_entry_sets)
def test_foreign_settings_survive_install_reinstall_and_remove(
    foreign: dict[str, Any], entries: list[HookmanEntry], changed_entries: list[HookmanEntry]
) -> None:
    settings = copy.deepcopy(foreign)
    apply_hookman_entries(settings, entries)
    assert sorted(event for event, _ in find_hookman_entries(settings)) == sorted(
        entry.event for entry in entries
    )
    apply_hookman_entries(settings, changed_entries)
    assert len(find_hookman_entries(settings)) == len(changed_entries)
    apply_hookman_entries(settings, [])
    assert json.dumps(settings) == json.dumps(foreign)


@settings(max_examples=60, deadline=None)
@given(
    foreign=_foreign_settings,
    entries=_entry_sets,
    indent=st.sampled_from([2, 4, "\t"]),
    final_newline=st.booleans(),
)
def test_standard_file_survives_install_then_remove_byte_for_byte(
    tmp_path_factory: pytest.TempPathFactory,
    foreign: dict[str, Any],
    entries: list[HookmanEntry],
    indent: int | str,
    final_newline: bool,
) -> None:
    path = tmp_path_factory.mktemp("bytes") / "settings.local.json"
    original = json.dumps(foreign, indent=indent, ensure_ascii=False)
    original += "\n" if final_newline else ""
    path.write_text(original, encoding="utf-8")
    update_settings(path, lambda settings: apply_hookman_entries(settings, entries))
    update_settings(path, lambda settings: apply_hookman_entries(settings, []))
    assert path.read_text(encoding="utf-8") == original


def test_hookman_command_runner_names_the_interpreter_and_manifest(tmp_path):
    manifest = tmp_path / "my dir" / "manifest.json"
    command = build_direct_command("PreToolUse", manifest, python="/opt/py env/python3")
    runner = hookman_command_runner(command)
    assert runner == RunnerRef("/opt/py env/python3", str(manifest))


def test_hookman_command_runner_of_a_hookman_program_has_no_interpreter():
    runner = hookman_command_runner("/usr/bin/hookman run Stop --manifest /m.json")
    assert runner == RunnerRef(None, "/m.json")
    assert hookman_command_runner("python3 fmt.py run Stop") is None


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=60), st.booleans())
def test_shell_words_split_as_shlex_does(command: str, comments: bool) -> None:
    try:
        expected: tuple[str, ...] | type[ValueError] = tuple(
            shlex.split(command, comments=comments)
        )
    except ValueError:
        expected = ValueError
    try:
        found: tuple[str, ...] | type[ValueError] = shell_words(command, comments=comments)
    except ValueError:
        found = ValueError
    assert found == expected
