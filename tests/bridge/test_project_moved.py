"""What install records of the project (the manifest's `installed_from`) and how the runner
compares it with the files now (bridge/project_moved.py, issue 24 item 2)."""

from __future__ import annotations

import json
from pathlib import Path

from hookman import paths
from hookman.bridge import project_moved
from hookman.bridge.project_moved import (
    CONFIG_KEY,
    PINS_KEY,
    project_change,
    say_once,
)

from .attack_support import hookman_install

# -- the comparison ---------------------------------------------------------------------------


def _files(tmp_path: Path, config: bytes | None, pins: bytes | None) -> str:
    claude = tmp_path / ".claude"
    claude.mkdir(exist_ok=True)
    for name, data in ((CONFIG_KEY, config), (PINS_KEY, pins)):
        target = claude / name
        if data is None:
            target.unlink(missing_ok=True)
        else:
            target.write_bytes(data)
    return str(claude / CONFIG_KEY)


def test_the_same_bytes_are_no_change(tmp_path: Path) -> None:
    config = _files(tmp_path, b'[[hooks]]\nname = "a"\n', b"{}")
    recorded = project_moved.installed_from(config)

    assert recorded[CONFIG_KEY] is not None and recorded[PINS_KEY] is not None
    assert project_change(recorded, config) is None


def test_a_changed_pins_file_is_named(tmp_path: Path) -> None:
    config = _files(tmp_path, b"x = 1\n", b'{"pins": 1}')
    recorded = project_moved.installed_from(config)
    _files(tmp_path, b"x = 1\n", b'{"pins": 2}')

    change = project_change(recorded, config)

    assert change is not None and change.changed == [PINS_KEY]
    assert change.shown() == ".claude/hookman-pins.json"
    assert not change.config_gone


def test_a_comment_added_to_hookman_toml_is_a_change(tmp_path: Path) -> None:
    config = _files(tmp_path, b"x = 1\n", None)
    recorded = project_moved.installed_from(config)
    _files(tmp_path, b"x = 1\n# a comment\n", None)

    change = project_change(recorded, config)

    assert change is not None and change.changed == [CONFIG_KEY]


def test_pins_that_appear_or_go_are_a_change(tmp_path: Path) -> None:
    config = _files(tmp_path, b"x = 1\n", None)
    recorded = project_moved.installed_from(config)
    _files(tmp_path, b"x = 1\n", b"{}")
    appeared = project_change(recorded, config)

    assert appeared is not None and appeared.changed == [PINS_KEY]


def test_a_gone_hookman_toml_is_named_whatever_the_pins(tmp_path: Path) -> None:
    config = _files(tmp_path, b"x = 1\n", b"{}")
    recorded = project_moved.installed_from(config)
    _files(tmp_path, None, None)

    change = project_change(recorded, config)

    assert change is not None and change.changed == [CONFIG_KEY] and change.config_gone


def test_an_unreadable_hookman_toml_is_a_change(tmp_path: Path) -> None:
    config = _files(tmp_path, b"x = 1\n", None)
    recorded = project_moved.installed_from(config)
    Path(config).unlink()
    Path(config).mkdir()  # something there that is no file

    change = project_change(recorded, config)

    assert change is not None and change.changed == [CONFIG_KEY] and not change.config_gone


def test_an_older_manifest_or_a_plugin_cannot_tell(tmp_path: Path) -> None:
    config = _files(tmp_path, b"x = 1\n", None)

    assert project_change(None, config) is None  # no installed_from: an older install
    assert project_change({CONFIG_KEY: "0" * 64}, config) is None  # a key missing
    assert project_change({CONFIG_KEY: "0" * 64, PINS_KEY: None}, None) is None  # a plugin's


def test_a_change_is_said_once(tmp_path: Path) -> None:
    config = _files(tmp_path, b"x = 1\n", None)
    recorded = project_moved.installed_from(config)
    _files(tmp_path, b"x = 2\n", None)
    change = project_change(recorded, config)
    assert change is not None
    state = tmp_path / "state"
    state.mkdir()

    assert [say_once(str(state), change) for _ in range(3)] == [True, False, False]
    _files(tmp_path, b"x = 3\n", None)  # another change: said again, once
    again = project_change(recorded, config)
    assert again is not None
    assert [say_once(str(state), again) for _ in range(2)] == [True, False]


def test_the_manifest_records_the_bytes_install_wrote(project: Path) -> None:
    (project / "hooks").mkdir()
    (project / "hooks" / "guard.py").write_text(
        "def hook(pi):\n    pi.on('tool_call', lambda event, ctx: None)\n", encoding="utf-8"
    )
    hookman_install(project, "hooks/guard.py", "--claude-version", "2.1.332")
    manifest = json.loads(paths.manifest_path(project).read_text(encoding="utf-8"))
    written = (project / ".claude" / "hookman.toml").read_bytes()

    assert manifest["installed_from"] == {
        CONFIG_KEY: project_moved.sha256_hex(written),
        PINS_KEY: None,
    }


def test_a_plugins_manifest_is_never_compared_a_projects_is(tmp_path: Path) -> None:
    from hookman.bridge.manifest_reader import parse_manifest

    recorded = {CONFIG_KEY: "0" * 64, PINS_KEY: None}
    data = {
        "project_dir": str(tmp_path),
        "config_path": str(tmp_path / ".claude" / "hookman.toml"),
        "installed_from": recorded,
        "hooks": [],
    }
    project = parse_manifest(data)
    plugin = parse_manifest({**data, "plugin": {"name": "guards"}})

    assert project.installed_from == recorded and project.config_path == data["config_path"]
    assert plugin.installed_from is None and plugin.config_path is None


def test_an_unchanged_project_is_remembered_and_then_compared_by_stat_alone(
    tmp_path: Path,
) -> None:
    config = _files(tmp_path, b"x = 1\n", b"{}")
    recorded = project_moved.installed_from(config)
    state = tmp_path / "state"
    state.mkdir()

    assert project_change(recorded, config, str(state)) is None
    remembered = (state / project_moved.CHECKED_NAME).read_text()
    assert recorded[CONFIG_KEY] in remembered  # the record and both files' stat
    stale = recorded | {CONFIG_KEY: "0" * 64}  # the stats match, the record does not
    assert project_change(stale, config, str(state)) is not None


def test_an_edit_after_a_remembered_check_is_still_a_change(tmp_path: Path) -> None:
    config = _files(tmp_path, b"x = 1\n", b"{}")
    recorded = project_moved.installed_from(config)
    state = tmp_path / "state"
    state.mkdir()
    assert project_change(recorded, config, str(state)) is None

    replacement = tmp_path / ".claude" / "new.toml"
    replacement.write_bytes(b"x = 2\n")  # the same size, another file put in place (git)
    replacement.replace(config)
    same_size = project_change(recorded, config, str(state))
    Path(config).write_bytes(b"x = 1\n# grown\n")  # edited in place
    grown = project_change(recorded, config, str(state))

    assert same_size is not None and same_size.changed == [CONFIG_KEY]
    assert grown is not None and grown.changed == [CONFIG_KEY]
    assert project_change(recorded, config, str(state)) is not None  # never remembered


def test_the_client_s_project_is_the_manifest_s_inside_it_or_through_a_symlink(
    tmp_path: Path,
) -> None:
    from hookman.bridge.project_moved import foreign_project

    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(project)
    copy = tmp_path / "copy"
    copy.mkdir()

    assert not foreign_project(str(project), str(project))
    assert not foreign_project(str(project), str(project / "sub"))  # started in a subdirectory
    assert not foreign_project(str(project), str(link))
    assert not foreign_project(str(project), None)  # Codex, or by hand: no project named
    assert foreign_project(str(project), str(copy))  # copied with its settings.local.json
    assert foreign_project(str(project), str(tmp_path))  # a parent is another project
    assert foreign_project(str(tmp_path / "moved-away"), str(copy))  # installed dir gone
