"""The launcher and the settings commands as shell: the bytes every variant renders (held
against recorded files: installed projects and built plugins keep them), parsed by the five
shells a client's `/bin/sh` may be, and clean under shellcheck."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from hookman.plugin.launcher import hook_command, plugin_launcher_text, start_text
from hookman.project import shell_template
from hookman.project.launcher import launcher_text
from hookman.project.settings_entries import build_command

GOLDEN = Path(__file__).parent / "launcher_golden"
PYTHON = "/opt/py env/bin/python3"
MANIFEST = Path("/home/a b/state/projects/p-0123/manifest.json")
ROOT = "/opt/hookman's lib"
PLUGIN = "team-guards"
GUARDED_SETS = {
    "all": ["PreToolUse", "PreSkillShellCommand"],
    "one": ["PreToolUse"],
    "none": [],
}
# Claude Code runs a command with `/bin/sh -c` (dash, bash in POSIX mode, busybox ash, mksh,
# or another shell linked there, zsh among them); the settings command runs `sh` on the
# launcher. Each shell only parses (-n): nothing runs.
SHELLS = {
    "dash": ["dash", "-n"],
    "bash": ["bash", "--posix", "-n"],
    "busybox": ["busybox", "sh", "-n"],
    "mksh": ["mksh", "-n"],
    "zsh": ["zsh", "--emulate", "sh", "-n"],
}
# shellcheck findings that are the design, not slips (excluding them keeps the bytes of the
# launchers installed projects have, which a `# shellcheck disable` line would change):
LAUNCHER_EXCLUDED = {
    # `guarded= finish=0` sets `guarded` to the empty string on purpose.
    "SC1007",
    # The deny and notice texts are single-quoted on purpose: their backticks are Markdown
    # for the model and the user, not command substitutions.
    "SC2016",
    # The runner writes the answer file and the group then reads it back, after the runner
    # has ended (one file of this invocation alone instead of a pipe).
    "SC2094",
    # `[ /dev/stdout -ef /dev/stderr ]`: every `sh` of the family has -ef but posh, whose
    # `[` the launcher does not ask (hookman_channel).
    "SC3013",
    # SHELLOPTS is bash's, read on purpose: bash as `sh` traces when it holds xtrace.
    "SC3028",
    # hookman_shared is called from the guarded arms alone: a launcher with no guarded
    # event has none (its body is the same text all the same).
    "SC2317",
}
COMMAND_EXCLUDED = {
    # `[ -f L ] && sh L EVENT && false || case $? in ...`: the `case` always runs, on
    # purpose: it reads the status of whichever test or launcher ended the and-list.
    "SC2015",
}


TIMER = "/usr/bin/timeout"


def _project(events: list[str]) -> str:
    timeouts = dict.fromkeys(events, 30)
    return launcher_text(PYTHON, MANIFEST, events, root=ROOT, timeouts=timeouts, timer=TIMER)


def _plugin(events: list[str]) -> str:
    return plugin_launcher_text(PLUGIN, events, timeouts=dict.fromkeys(events, 30), timer=TIMER)


VARIANTS: dict[str, Callable[[list[str]], str]] = {"project": _project, "plugin": _plugin}
LAUNCHERS = [(variant, name) for variant in VARIANTS for name in GUARDED_SETS]


def _launcher(variant: str, name: str) -> str:
    return VARIANTS[variant](GUARDED_SETS[name])


def _commands() -> list[str]:
    launcher = MANIFEST.parent / "hookman-run.sh"
    return [
        build_command("PreToolUse", launcher, guarded=True),
        build_command("Stop", launcher),
        build_command("PostToolUse", launcher, run_async=True),
        build_command("PreToolUse", launcher, guarded=True, agent="codex"),
        build_command("PostToolUse", launcher, run_async=True, agent="codex"),
        build_command("PreToolUse", launcher, guarded=True, agent="qwen"),
        hook_command(PLUGIN, "PreToolUse", guarded=True),
        hook_command(PLUGIN, "Stop", guarded=False),
        hook_command(PLUGIN, "PostToolUse", guarded=False, run_async=True),
    ]


def _tool(argv: list[str]) -> list[str]:
    """`argv` when its program is installed; skipped without it, failed in CI (.ci/run
    installs dash, busybox, mksh, zsh and shellcheck)."""
    if shutil.which(argv[0]) is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{argv[0]} is not installed (CI must have it: .ci/run)")
        pytest.skip(f"{argv[0]} is not installed")
    return argv


@pytest.mark.parametrize(("variant", "name"), LAUNCHERS)
def test_every_launcher_renders_the_bytes_installs_have(variant: str, name: str) -> None:
    """Recorded from the launcher builder before the shell moved into launcher.sh: a project
    installed then, or a plugin built then, keeps its launcher byte for byte."""
    assert _launcher(variant, name).encode() == (GOLDEN / f"{variant}-{name}.sh").read_bytes()


def test_the_plugin_start_script_is_the_bytes_built_plugins_have() -> None:
    golden = (GOLDEN / "plugin-start-all.py.golden").read_text()
    assert start_text(PLUGIN, GUARDED_SETS["all"]) == golden


def test_the_settings_commands_are_the_bytes_installs_have() -> None:
    assert "\n".join(_commands()) + "\n" == (GOLDEN / "commands.txt").read_text()


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("variant", "name"), LAUNCHERS)
def test_every_launcher_parses_under_every_shell(
    variant: str, name: str, shell: str, tmp_path: Path
) -> None:
    script = tmp_path / "hookman-run.sh"
    script.write_text(_launcher(variant, name))
    done = subprocess.run(
        [*_tool(SHELLS[shell]), str(script)], capture_output=True, text=True, timeout=30
    )
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("shell", SHELLS)
def test_every_settings_command_parses_under_every_shell(shell: str) -> None:
    commands = _commands()
    assert len(commands) >= 3  # guarded, plain and async: the loop below runs
    for command in commands:
        done = subprocess.run(
            [*_tool(SHELLS[shell]), "-c", command], capture_output=True, text=True, timeout=30
        )
        assert (command, done.returncode, done.stderr) == (command, 0, "")


def test_a_shell_here_refuses_what_does_not_parse(tmp_path: Path) -> None:
    """The parse check can fail: a launcher cut mid-function is refused by every shell."""
    script = tmp_path / "hookman-run.sh"
    script.write_text(_launcher("project", "all").split("exit 0\n}")[0])
    runs = {
        name: subprocess.run([*_tool(argv), str(script)], capture_output=True, timeout=30)
        for name, argv in SHELLS.items()
    }
    statuses = {name: done.returncode for name, done in runs.items()}
    assert sorted(statuses) == sorted(SHELLS) and 0 not in statuses.values(), statuses


@pytest.mark.parametrize(("variant", "name"), LAUNCHERS)
def test_shellcheck_finds_nothing_in_any_launcher(variant: str, name: str, tmp_path: Path) -> None:
    script = tmp_path / "hookman-run.sh"
    script.write_text(_launcher(variant, name))
    excluded = ",".join(sorted(LAUNCHER_EXCLUDED))
    argv = [*_tool(["shellcheck"]), "-s", "sh", "-e", excluded, str(script)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "")


def test_shellcheck_finds_nothing_in_the_settings_commands(tmp_path: Path) -> None:
    script = tmp_path / "commands.sh"
    script.write_text("\n".join(_commands()) + "\n")
    excluded = ",".join(sorted(COMMAND_EXCLUDED))
    argv = [*_tool(["shellcheck"]), "-s", "sh", "-e", excluded, str(script)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "")


def test_shellcheck_here_reports_a_slip(tmp_path: Path) -> None:
    """The shellcheck check can fail: an unquoted "$file" in the launcher is reported."""
    script = tmp_path / "hookman-run.sh"
    script.write_text(_launcher("project", "one").replace('rm -f "$file"', "rm -f $file"))
    excluded = ",".join(sorted(LAUNCHER_EXCLUDED))
    argv = [*_tool(["shellcheck"]), "-s", "sh", "-e", excluded, str(script)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "SC2086" in done.stdout


# --- the template renderer -------------------------------------------------------------------


def _template(tmp_path: Path, text: str) -> Path:
    path = tmp_path / f"t{len(list(tmp_path.iterdir()))}.sh"
    path.write_text(text)
    return path


def test_render_fills_lines_and_words_and_drops_the_notes(tmp_path: Path) -> None:
    path = _template(tmp_path, '## a note\n@lines@\nx=@word@ "$@" $$ ${a:-b}\n@none@\nend\n')
    values = {"lines": "a\nb\n", "word": "@word@ $x", "none": ""}
    assert shell_template.render(path, values) == 'a\nb\nx=@word@ $x "$@" $$ ${a:-b}\nend\n'


def test_render_refuses_a_missing_or_unused_value(tmp_path: Path) -> None:
    path = _template(tmp_path, "a=@a@\n")
    with pytest.raises(KeyError):
        shell_template.render(path, {})
    with pytest.raises(ValueError, match="no placeholder for b"):
        shell_template.render(path, {"a": 1, "b": 2})


def test_render_refuses_a_part_line_where_lines_go(tmp_path: Path) -> None:
    path = _template(tmp_path, "@lines@\n")
    with pytest.raises(ValueError, match="stands for lines"):
        shell_template.render(path, {"lines": "no newline"})


def test_render_words_gives_the_line_without_its_newline(tmp_path: Path) -> None:
    path = _template(tmp_path, "## note\n@a@ || :\n")
    assert shell_template.render_words(path, {"a": "sh x"}) == "sh x || :"
