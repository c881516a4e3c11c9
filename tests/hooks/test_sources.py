from __future__ import annotations

from pathlib import Path

import pytest

from hookman.errors import HookmanError
from hookman.hooks.registry import add_registry_entry
from hookman.hooks.sources import choose_hook, module_path, shadowed_sources
from hookman.project.config import HookSource, HookSpec, load_project_config
from hookman.scaffold import template_files

FACTORY = "def hook(pi):\n    pi.on('Stop', lambda e, c: None)\n"


def _file(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(FACTORY)
    return path


@pytest.fixture
def templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "templates"
    _file(directory / "bash_guard.py")
    _file(directory / "notes" / "hook.py")
    _file(directory / "test_bash_guard.py")
    monkeypatch.setattr(template_files, "templates_dir", lambda: str(directory))
    return directory


def test_a_path_inside_the_project_is_stored_relative(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _file(project / "hooks" / "guard.py")
    monkeypatch.chdir(project / "hooks")
    choice = choose_hook(
        "guard.py", name_override=None, project_dir=project, config=load_project_config(project)
    )
    assert choice.name == "guard"
    assert choice.source == HookSource("path", "hooks/guard.py")
    assert choice.module_path == project / "hooks" / "guard.py"
    assert not choice.already_listed


def test_a_path_outside_the_project_is_refused_with_the_registry_hint(
    project: Path, tmp_path: Path
) -> None:
    outside = _file(tmp_path / "elsewhere" / "guard.py")
    with pytest.raises(HookmanError) as error:
        choose_hook(
            str(outside),
            name_override=None,
            project_dir=project,
            config=load_project_config(project),
        )
    assert "outside the project" in error.value.message
    assert "hookman registry add" in (error.value.hint or "")


def test_a_missing_file_is_refused(project: Path) -> None:
    with pytest.raises(HookmanError, match="not a file"):
        choose_hook(
            str(project / "nope.py"),
            name_override=None,
            project_dir=project,
            config=load_project_config(project),
        )


def test_names_resolve_project_then_registry_then_templates(
    project: Path, tmp_path: Path, templates: Path
) -> None:
    registered = _file(tmp_path / "reg" / "bash_guard.py")
    config = load_project_config(project)
    choice = choose_hook("bash_guard", name_override=None, project_dir=project, config=config)
    assert choice.source == HookSource("template", "bash_guard")
    add_registry_entry("bash_guard", registered)
    choice = choose_hook("bash_guard", name_override=None, project_dir=project, config=config)
    assert (choice.source, choice.module_path) == (HookSource("registry", "bash_guard"), registered)
    _file(project / "bash_guard.py")
    config.put_hook("bash_guard", HookSource("path", "bash_guard.py"), ["Stop"], {})
    choice = choose_hook("bash_guard", name_override=None, project_dir=project, config=config)
    assert choice.already_listed
    assert choice.source == HookSource("path", "bash_guard.py")
    assert shadowed_sources(config.hooks[0]) == ["registry", "template"]


def test_an_unknown_name_gets_a_suggestion(project: Path, templates: Path) -> None:
    with pytest.raises(HookmanError) as error:
        choose_hook(
            "bash_gaurd",
            name_override=None,
            project_dir=project,
            config=load_project_config(project),
        )
    assert "did you mean 'bash_guard'?" in (error.value.hint or "")


def test_a_name_clash_with_another_source_is_refused(project: Path, templates: Path) -> None:
    _file(project / "hooks" / "notes.py")
    config = load_project_config(project)
    config.put_hook("notes", HookSource("template", "notes"), ["Stop"], {})
    with pytest.raises(HookmanError, match="already has a hook named 'notes'"):
        choose_hook(
            str(project / "hooks" / "notes.py"),
            name_override=None,
            project_dir=project,
            config=config,
        )


def test_a_registry_hook_missing_from_the_registry_is_a_clear_error(project: Path) -> None:
    hook = HookSpec("gone", HookSource("registry", "gone"))
    with pytest.raises(HookmanError) as error:
        module_path(hook, project)
    assert "registry add" in (error.value.hint or "")


def test_a_bad_file_stem_needs_a_name(project: Path) -> None:
    _file(project / "my hook.py")
    with pytest.raises(HookmanError) as error:
        choose_hook(
            str(project / "my hook.py"),
            name_override=None,
            project_dir=project,
            config=load_project_config(project),
        )
    assert error.value.exit_code == 2
    choice = choose_hook(
        str(project / "my hook.py"),
        name_override="mine",
        project_dir=project,
        config=load_project_config(project),
    )
    assert choice.source == HookSource("path", "my hook.py")
