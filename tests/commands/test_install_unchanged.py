"""A repeated bare `hookman install` that nothing changed since answers from a stamp of its
inputs' stats, before typer loads (issue 26, item 5; install/unchanged.py); any input
changed, and the full install runs: a hook whose code changed is learned again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookman import paths
from hookman.hooks.subscription_cache import SubscriptionCache
from hookman.install import unchanged
from hookman.project.sentinel import stamp_path
from hookman.serve import wire

from .helpers import hookman, write_hook

VERSION = ("--claude-version", "2.1.332")
# A guard whose tools come from a data file beside it: a file its loading reads.
DATA_GUARD = """\
import json, pathlib

def hook(pi):
    tools = json.loads(pathlib.Path(__file__).with_name("tools.json").read_text())
    pi.on("tool_call", lambda event, ctx: None, tools=tools)
"""
GAINS_AGENT_START = DATA_GUARD + '    pi.on("agent_start", lambda event, ctx: None)\n'
# Runs `hookman ARGS` as the `hookman` script does, and names what it loaded of the modules
# a lean route does without (tests/runtime/test_import_cost.py's list, and hashlib).
HEAVY = ("typer", "click", "rich", "tomlkit", "platformdirs", "filelock", "pathlib", "subprocess")
ENTRY = (
    "import sys\n"
    "from hookman.__main__ import main\n"
    "code = main(sys.argv[1:])\n"
    "sys.stdout.flush()\n"
    f"heavy = [name for name in {(*HEAVY, 'hashlib')!r} if name in sys.modules]\n"
    "sys.stderr.write('loaded ' + ' '.join(heavy) + '\\n' if heavy else 'lean\\n')\n"
    "sys.exit(code)\n"
)


@pytest.fixture(autouse=True)
def _here(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin") + ":/usr/bin:/bin")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.chdir(project)
    # The files were all written a moment ago; in use, a stamp waits for them to be older.
    monkeypatch.setattr(unchanged, "RACY_NS", 0)


def _installed(project: Path) -> Path:
    guard = write_hook(project, "guard", DATA_GUARD)
    (project / "hooks" / "tools.json").write_text('["Bash"]')
    assert hookman("install", "hooks/guard.py", *VERSION).exit_code == 0
    again = hookman("install")  # nothing to change: remembered
    assert again.exit_code == 0, again.output
    return guard


def _run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", ENTRY, *args],
        cwd=project,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        check=False,
    )


def _files(project: Path) -> dict[str, bytes]:
    files = [
        project / ".claude" / "hookman.toml",
        project / ".claude" / "settings.local.json",
        paths.manifest_path(project),
    ]
    return {path.name: path.read_bytes() for path in files}


def test_a_repeated_bare_install_says_what_the_full_one_said_without_the_cli(
    project: Path,
) -> None:
    _installed(project)
    full = hookman("install")
    written = _files(project)

    done = _run(project, "install")

    assert done.returncode == 0, done.stderr
    assert done.stderr == "lean\n"
    assert done.stdout == full.stdout
    assert "settings.local.json unchanged" in done.stdout
    assert _files(project) == written
    by_project = _run(project.parent, "install", "--project", str(project))
    assert by_project.stderr == "lean\n" and by_project.stdout == full.stdout


def test_a_hook_whose_code_changed_is_learned_again_by_the_full_install(
    project: Path,
) -> None:
    guard = _installed(project)
    guard.write_text(GAINS_AGENT_START)  # e.g. a pull

    done = _run(project, "install")

    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("loaded typer")
    assert "guard now subscribes to agent_start" in done.stdout
    manifest = json.loads(paths.manifest_path(project).read_text())
    assert manifest["hooks"][0]["events"] == ["tool_call", "agent_start"]


def test_a_file_the_hook_reads_changed_is_learned_again(project: Path) -> None:
    _installed(project)
    (project / "hooks" / "tools.json").write_text('["Bash", "Write"]')

    done = _run(project, "install")

    assert done.stderr.startswith("loaded typer")
    assert "Write" in (project / ".claude" / "hookman.toml").read_text()


@pytest.mark.parametrize(
    "change",
    [
        "hookman.toml", "settings", "manifest", "launcher", "registry", "serve opt-in", "git",
        "sentinel stamp",
    ],
)  # fmt: skip
def test_any_input_changed_takes_the_full_install(
    project: Path, change: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed(project)
    capsys.readouterr()
    assert unchanged.lean_main([]) == 0  # the stamp answers while nothing changed
    assert "settings.local.json unchanged" in capsys.readouterr().out
    state = paths.project_state_dir(project)
    if change == "hookman.toml":
        with (project / ".claude" / "hookman.toml").open("a") as handle:
            handle.write("# a comment\n")
    elif change == "settings":
        (project / ".claude" / "settings.local.json").unlink()
    elif change == "manifest":
        paths.manifest_path(project).write_text("{}")
    elif change == "launcher":
        (state / "hookman-run.sh").unlink()
    elif change == "registry":
        paths.registry_path().parent.mkdir(parents=True, exist_ok=True)
        paths.registry_path().write_text("")
    elif change == "serve opt-in":
        Path(wire.serve_dir()).mkdir(parents=True, exist_ok=True)
        Path(wire.serve_dir(), wire.USE_NAME).write_text("")
    elif change == "sentinel stamp":  # gone: the sentinels would run the runner on every call
        stamp_path(project).unlink()
    else:
        subprocess.run(["git", "init", "-q", str(project)], check=True)

    assert unchanged.lean_main([]) is None
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    "argv", [["guard"], ["--json"], ["--dry-run"], ["--claude-version", "2.1.332"], ["--help"]]
)
def test_arguments_take_the_full_install(project: Path, argv: list[str]) -> None:
    _installed(project)
    assert unchanged.lean_main(argv) is None


def test_nothing_is_remembered_while_the_files_are_fresh(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(unchanged, "RACY_NS", 60 * 10**9)  # written within the last minute
    _installed(project)
    assert unchanged.lean_main([]) is None
    assert not (paths.project_state_dir(project) / unchanged.STAMP_NAME).exists()


def test_an_install_that_writes_is_not_remembered(project: Path) -> None:
    write_hook(project, "guard", DATA_GUARD)
    (project / "hooks" / "tools.json").write_text('["Bash"]')
    assert hookman("install", "hooks/guard.py", *VERSION).exit_code == 0
    assert unchanged.lean_main([]) is None  # its output said what it wrote


def test_in_a_git_work_tree_a_pattern_added_is_said_once(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    write_hook(project, "guard", DATA_GUARD)
    (project / "hooks" / "tools.json").write_text('["Bash"]')
    first = hookman("install", "hooks/guard.py", *VERSION)
    assert "added to .git/info/exclude" in first.stdout
    again = hookman("install")
    assert "already ignored by git" in again.stdout
    capsys.readouterr()

    assert unchanged.lean_main([]) == 0
    assert capsys.readouterr().out == again.stdout
    (project / ".git" / "info" / "exclude").write_text("")  # the user took it out
    assert unchanged.lean_main([]) is None


def test_a_hook_the_cache_does_not_hold_is_never_answered_from_a_stamp(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # e.g. a state dir hookman cannot write: each install loads the hook again, so what
    # its loading reads is not known and no stat can stand for it
    monkeypatch.setattr(SubscriptionCache, "remember", lambda self, answers: None)
    _installed(project)
    assert unchanged.lean_main([]) is None
    assert not (paths.project_state_dir(project) / unchanged.STAMP_NAME).exists()


@pytest.mark.parametrize("flag", [VERSION, ("--json",)])
def test_an_install_given_options_is_not_remembered(project: Path, flag: tuple[str, ...]) -> None:
    write_hook(project, "guard", DATA_GUARD)
    (project / "hooks" / "tools.json").write_text('["Bash"]')
    assert hookman("install", "hooks/guard.py", *VERSION).exit_code == 0
    assert hookman("install", *flag).exit_code == 0  # nothing to change, but said otherwise
    assert unchanged.lean_main([]) is None


def test_a_claude_dispatcher_on_path_is_asked_every_time(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an asdf-style shim: the client it runs can change while the shim stays the same
    shims = tmp_path / "shims"
    shims.mkdir()
    shim = shims / "claude"
    shim.write_text("#!/bin/sh\necho '2.1.332 (Claude Code)'\n")
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shims}:/usr/bin:/bin")
    write_hook(project, "guard", DATA_GUARD)
    (project / "hooks" / "tools.json").write_text('["Bash"]')
    assert hookman("install", "hooks/guard.py").exit_code == 0
    again = hookman("install")
    assert again.exit_code == 0 and "from claude --version" in again.stdout
    assert unchanged.lean_main([]) is None


def test_an_install_that_asks_the_server_s_state_is_never_replayed(project: Path) -> None:
    """Opted in to the warm server: install's output says whether it runs now, asked live;
    a stamp would repeat "not running" after the server started (or the reverse)."""
    import socket

    with socket.socket() as probe:  # a port nothing listens on once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert hookman("serve", "enable", "--port", str(port)).exit_code == 0
    _installed(project)
    assert unchanged.lean_main([]) is None
    assert not (paths.project_state_dir(project) / unchanged.STAMP_NAME).exists()
    again = hookman("install")
    assert "hookman serve start" in again.output
