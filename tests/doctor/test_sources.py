from __future__ import annotations

from pathlib import Path

import pytest

from hookman.doctor.sources import collect_sources

from .conftest import command, diagnose, group, settings, write_json

HOOKS = {"hooks": {"Stop": [group(command("true"))]}}


def kinds(project: Path, **options: object) -> list[tuple[str, str, bool]]:
    found = collect_sources(project, **options)  # type: ignore[arg-type]
    return [(s.kind, s.path, s.exists) for s in found.sources]


def test_user_project_and_local_settings_are_read_in_order(
    project: Path, isolated_user: Path
) -> None:
    write_json(isolated_user / ".claude" / "settings.json", HOOKS)
    settings(project, HOOKS["hooks"])
    assert kinds(project) == [
        ("user", str(isolated_user / ".claude" / "settings.json"), True),
        ("project", str(project / ".claude" / "settings.json"), True),
        ("local", str(project / ".claude" / "settings.local.json"), False),
    ]
    assert [h.source.kind for h in diagnose(project).handlers] == ["user", "project"]


def test_claude_config_dir_moves_the_user_settings(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert kinds(project)[0] == ("user", str(tmp_path / "cfg" / "settings.json"), False)


def test_managed_settings_and_drop_ins_are_read_in_name_order(
    project: Path, tmp_path: Path
) -> None:
    main = write_json(tmp_path / "policy" / "managed-settings.json", HOOKS)
    write_json(tmp_path / "policy" / "managed-settings.d" / "20-b.json", HOOKS)
    write_json(tmp_path / "policy" / "managed-settings.d" / "10-a.json", HOOKS)
    (tmp_path / "policy" / "managed-settings.d" / "notes.txt").write_text("x")
    managed = [p for k, p, _ in kinds(project, managed_settings=main) if k == "managed"]
    assert [Path(p).name for p in managed] == ["managed-settings.json", "10-a.json", "20-b.json"]
    by_dir = [p for k, p, _ in kinds(project, managed_settings=main.parent) if k == "managed"]
    assert by_dir == managed


def test_the_platforms_managed_dir_is_read_when_present(project: Path, tmp_path: Path) -> None:
    assert not [k for k, _, _ in kinds(project) if k == "managed"]
    write_json(tmp_path / "managed" / "managed-settings.json", HOOKS)
    assert [k for k, _, _ in kinds(project)].count("managed") == 1


def skills_dir_plugin(user: Path, name: str) -> Path:
    root = user / ".claude" / "skills" / name
    write_json(root / ".claude-plugin" / "plugin.json", {"name": name})
    write_json(root / "hooks" / "hooks.json", HOOKS)
    return root


def test_skills_dir_plugins_load_unless_disabled(project: Path, isolated_user: Path) -> None:
    skills_dir_plugin(isolated_user, "demo")
    plugins = [s for s in collect_sources(project).sources if s.kind == "plugin"]
    assert [p.label for p in plugins] == ["demo@skills-dir"]
    write_json(
        project / ".claude" / "settings.local.json", {"enabledPlugins": {"demo@skills-dir": False}}
    )
    assert not [s for s in collect_sources(project).sources if s.kind == "plugin"]


def test_installed_plugins_load_only_when_enabled(
    project: Path, isolated_user: Path, tmp_path: Path
) -> None:
    root = tmp_path / "cache" / "fmt"
    write_json(root / "hooks" / "hooks.json", HOOKS)
    installed = {
        "version": 2,
        "plugins": {"fmt@market": [{"scope": "user", "installPath": str(root)}]},
    }
    write_json(isolated_user / ".claude" / "plugins" / "installed_plugins.json", installed)
    assert not [s for s in collect_sources(project).sources if s.kind == "plugin"]
    write_json(
        isolated_user / ".claude" / "settings.json", {"enabledPlugins": {"fmt@market": True}}
    )
    plugins = [s for s in collect_sources(project).sources if s.kind == "plugin"]
    assert [(p.label, p.path) for p in plugins] == [
        ("fmt@market", str(root / "hooks" / "hooks.json"))
    ]


def test_plugin_root_is_known_to_command_checks(project: Path, isolated_user: Path) -> None:
    root = skills_dir_plugin(isolated_user, "demo")
    hooks = {"hooks": {"Stop": [group(command("${CLAUDE_PLUGIN_ROOT}/bin/run.sh"))]}}
    write_json(root / "hooks" / "hooks.json", hooks)
    found = [f for f in diagnose(project).findings if f.code == "command-not-found"]
    assert found and str(root / "bin" / "run.sh") in found[0].message


def test_skill_agent_and_command_frontmatter_hooks_are_handlers(
    project: Path, isolated_user: Path
) -> None:
    skill = project / ".claude" / "skills" / "deploy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: deploy\nhooks:\n  Stop:\n    - hooks:\n"
        "        - type: command\n          command: echo hi\n---\nbody\n"
    )
    agent = isolated_user / ".claude" / "agents" / "rev.md"
    agent.parent.mkdir(parents=True)
    agent.write_text("---\nname: rev\n---\nno hooks\n")
    ctx = diagnose(project)
    assert [(h.source.kind, h.event, h.command) for h in ctx.handlers] == [
        ("skill", "Stop", "echo hi")
    ]
    assert ("agent", str(agent), True) in kinds(project)


def test_frontmatter_doctor_cannot_read_is_a_warning(project: Path) -> None:
    skill = project / ".claude" / "skills" / "x" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nhooks: |\n  Stop\n---\n")
    found = [f for f in diagnose(project).findings if f.code == "source-unreadable"]
    assert found and found[0].severity == "warning"


def test_a_settings_dir_doctor_may_not_enter_is_a_finding_not_a_crash(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookman.doctor import fs

    real = fs.exists
    blocked = project / ".claude" / "settings.json"
    monkeypatch.setattr(fs, "exists", lambda path: None if path == blocked else real(path))
    found = [f for f in diagnose(project).findings if f.code == "source-unreadable"]
    assert found and "permission denied" in found[0].message
