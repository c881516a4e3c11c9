"""doctor on plugins hookman built: out of date, run twice beside the project's own entries,
silenced by managed allowManagedHooksOnly; other plugins and quiet cases say nothing."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import codes, diagnose, hookman_cli, install, the, write_json


def build_and_enable(project: Path, home: Path, tmp_path: Path) -> Path:
    plugin = tmp_path / "cache" / "team-guards"
    done = hookman_cli(
        "plugin",
        "build",
        str(plugin),
        "--name",
        "team-guards",
        "--project",
        str(project),
        "--claude-version",
        "2.1.328",
    )
    assert done.exit_code == 0, done.output
    write_json(
        home / ".claude" / "plugins" / "installed_plugins.json",
        {
            "version": 2,
            "plugins": {"team-guards@m": [{"scope": "user", "installPath": str(plugin)}]},
        },
    )
    write_json(home / ".claude" / "settings.json", {"enabledPlugins": {"team-guards@m": True}})
    return plugin


def test_a_plugin_carrying_the_projects_own_hooks_runs_them_twice(
    project: Path, isolated_user: Path, tmp_path: Path
) -> None:
    install(project)
    build_and_enable(project, isolated_user, tmp_path)

    finding = the(diagnose(project), "plugin-duplicates-project")

    assert "carries the hooks guard" in finding.message and "PreToolUse" in finding.message
    # the project's copy is the one kept: removing it would edit the team's hookman.toml,
    # unguard Codex and leave the plugin's copy of its build's day guarding
    assert "claude plugin disable team-guards@m" in finding.fix
    assert "hookman remove" not in finding.fix


def test_a_plugin_alone_is_quiet(project: Path, isolated_user: Path, tmp_path: Path) -> None:
    install(project)
    build_and_enable(project, isolated_user, tmp_path)
    (project / ".claude" / "settings.local.json").write_text("{}\n")

    found = codes(diagnose(project))

    assert not [code for code in found if code.startswith("plugin-")], found


def test_a_plugin_built_by_an_older_hookman_is_out_of_date(
    project: Path, isolated_user: Path, tmp_path: Path
) -> None:
    install(project)
    plugin = build_and_enable(project, isolated_user, tmp_path)
    record_path = plugin / "hookman-runner" / "build.json"
    record = json.loads(record_path.read_text())
    record["hookman_version"] = "0.0.1"
    record_path.write_text(json.dumps(record))

    finding = the(diagnose(project), "plugin-runner-outdated")

    assert "built by hookman 0.0.1" in finding.message


def test_allow_managed_hooks_only_silences_the_plugin(
    project: Path, isolated_user: Path, tmp_path: Path
) -> None:
    install(project)
    build_and_enable(project, isolated_user, tmp_path)
    write_json(tmp_path / "managed" / "managed-settings.json", {"allowManagedHooksOnly": True})

    finding = the(diagnose(project), "plugin-silenced-managed-only")

    assert finding.severity == "error" and "team-guards@m" in finding.message


def test_an_event_too_new_silences_the_whole_plugin_hooks_file_on_an_older_client(
    project: Path, isolated_user: Path, tmp_path: Path
) -> None:
    plugin = tmp_path / "any-plugin"
    write_json(plugin / ".claude-plugin" / "plugin.json", {"name": "any"})
    hook = {"hooks": [{"type": "command", "command": "true"}]}
    write_json(
        plugin / "hooks" / "hooks.json",
        {"hooks": {"PreToolUse": [hook], "PreSkillShellCommand": [hook]}},
    )
    write_json(
        isolated_user / ".claude" / "plugins" / "installed_plugins.json",
        {"version": 2, "plugins": {"any@m": [{"scope": "user", "installPath": str(plugin)}]}},
    )
    write_json(isolated_user / ".claude" / "settings.json", {"enabledPlugins": {"any@m": True}})

    old = diagnose(project, version="2.1.197")
    finding = the(old, "plugin-hooks-file-not-loaded")
    assert "PreSkillShellCommand" in finding.message and len(finding.silences) == 2
    assert "plugin-hooks-file-not-loaded" not in codes(diagnose(project, version="2.1.332"))


def test_a_built_plugin_is_loaded_by_an_older_client_in_parts(
    project: Path, isolated_user: Path, tmp_path: Path
) -> None:
    install(project)
    plugin = tmp_path / "cache" / "team-guards"
    done = hookman_cli("plugin", "build", str(plugin), "--project", str(project))
    assert done.exit_code == 0, done.output
    write_json(
        isolated_user / ".claude" / "plugins" / "installed_plugins.json",
        {"version": 2, "plugins": {"t@m": [{"scope": "user", "installPath": str(plugin)}]}},
    )
    write_json(isolated_user / ".claude" / "settings.json", {"enabledPlugins": {"t@m": True}})
    (project / ".claude" / "settings.local.json").write_text("{}\n")

    ctx = diagnose(project, version="2.1.197")

    assert "plugin-hooks-file-not-loaded" not in codes(ctx)
    newer = the(ctx, "plugin-hooks-for-newer-client")
    assert Path(newer.file or "").name == "since-2.1.332.json" and newer.severity == "info"
    assert "skips this file" in newer.message and "PreSkillShellCommand" in newer.message
    loaded = [h for h in ctx.handlers if h.source.kind == "plugin" and h.loaded]
    assert "PreToolUse" in [h.event for h in loaded]


def test_probe_commands_runs_the_plugins_copy_and_a_guard_that_cannot_load_there_fails(
    project: Path, isolated_user: Path, tmp_path: Path
) -> None:
    """A plugin whose repository guard lacks a sibling in the plugin (what build wrote
    before it carried the repository): the probe runs the plugin's own command, which
    denies without deciding, and that is no working guard."""
    from tests.commands.test_repo_hooks import install_repo
    from tests.hook_repos import make_repo

    install_repo(project, str(make_repo(tmp_path / "agent-hooks")))
    plugin = build_and_enable(project, isolated_user, tmp_path)
    (project / ".claude" / "settings.local.json").write_text("{}\n")
    for words in plugin.rglob("words.py"):
        words.unlink()

    ctx = diagnose(project, probe_commands=True)

    plugin_runs = [r for r in ctx.probed or [] if "team-guards" in str(r.file)]
    assert [r.result for r in plugin_runs if r.event == "PreToolUse"] == [
        "failed_closed",
        "failed_closed",
    ], [(r.event, r.result, r.summary) for r in plugin_runs]
    assert not [r for r in plugin_runs if "the guard works" in r.summary]
    found = the(ctx, "hookman-hook-does-not-load")
    assert found.severity == "error" and "denies every call it guards" in found.message


def test_a_directory_marketplaces_plugin_is_read_where_the_client_runs_it(
    project: Path, isolated_user: Path, tmp_path: Path
) -> None:
    """The client runs a directory marketplace's plugin from the marketplace's directory,
    not from its cache copy (docs/claude-code-facts.md, "Plugins"): doctor reads and probes
    that directory."""
    import shutil

    from hookman.doctor.sources import collect_sources

    install(project)
    marketplace = tmp_path / "team-hooks"
    source = marketplace / "plugins" / "team-guards"
    done = hookman_cli(
        "plugin", "build", str(source), "--name", "team-guards", "--marketplace",
        str(marketplace), "--project", str(project),
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    cache = isolated_user / ".claude" / "plugins" / "cache" / "team-hooks" / "team-guards" / "0.1.0"
    shutil.copytree(source, cache)
    write_json(
        isolated_user / ".claude" / "plugins" / "installed_plugins.json",
        {"version": 2, "plugins": {"team-guards@team-hooks": [{"installPath": str(cache)}]}},
    )
    write_json(
        isolated_user / ".claude" / "plugins" / "known_marketplaces.json",
        {
            "team-hooks": {
                "source": {"source": "directory", "path": str(marketplace)},
                "installLocation": str(marketplace),
            }
        },
    )
    write_json(
        isolated_user / ".claude" / "settings.json",
        {"enabledPlugins": {"team-guards@team-hooks": True}},
    )

    roots = set(collect_sources(project).plugin_roots.values())

    assert roots == {str(source)}
