from __future__ import annotations

import json
import textwrap
from pathlib import Path

from typer.testing import CliRunner

from hookman import paths
from hookman.cli.app import app

FIRST = """
def hook(pi):
    def greet(args, ctx):
        print("hello", args, "from", ctx.cwd)
        pi.send_message("greeted " + args)
    pi.register_command("greet", description="Say hello", handler=greet)
    pi.register_command("fail", handler=lambda args, ctx: 1 / 0)
"""
SECOND = """
def hook(pi):
    pi.register_command("greet", description="Shadowed", handler=lambda a, c: None)
    async def stats(args, ctx):
        return "42 things"
    pi.register_command("stats", handler=stats)
"""


def _install(project: Path, hooks: dict[str, str]) -> None:
    records = []
    for name, source in hooks.items():
        path = project / f"{name}.py"
        path.write_text(textwrap.dedent(source))
        records.append({"name": name, "path": str(path), "events": [], "claude_events": []})
    manifest_path = paths.manifest_path(project)
    manifest_path.parent.mkdir(parents=True, exist_ok=True)
    manifest_path.write_text(
        json.dumps(
            {
                "project_dir": str(project.resolve()),
                "state_dir": str(manifest_path.parent),
                "hooks": records,
            }
        )
    )


def _invoke(project: Path, *args: str):
    return CliRunner().invoke(app, [*args, "--project", str(project)])


def test_commands_lists_first_wins_with_shadowing(project: Path) -> None:
    _install(project, {"first": FIRST, "second": SECOND, "broken": "nope("})

    done = _invoke(project, "commands", "--json")

    report = json.loads(done.output)
    assert [(r["name"], r["hook"], r["shadowed_by"]) for r in report["commands"]] == [
        ("greet", "first", None),
        ("fail", "first", None),
        ("greet", "second", "first"),
        ("stats", "second", None),
    ]
    assert report["load_errors"][0]["hook"] == "broken"


def test_command_runs_the_first_registration_with_args(project: Path) -> None:
    _install(project, {"first": FIRST, "second": SECOND})

    done = _invoke(project, "command", "greet", "you", "there")

    assert done.exit_code == 0, done.output
    assert f"hello you there from {project.resolve()}" in done.output
    assert "message for the agent: greeted you there" in done.output


def test_an_async_command_result_is_printed(project: Path) -> None:
    _install(project, {"second": SECOND})

    assert _invoke(project, "command", "stats").output == "42 things\n"


def test_a_failing_command_is_one_sentence(project: Path) -> None:
    _install(project, {"first": FIRST})

    done = _invoke(project, "command", "fail")

    assert done.exit_code == 1
    assert "the command 'fail' of hook 'first' failed: ZeroDivisionError" in done.output
    assert "Traceback" not in done.output


def test_an_unknown_command_points_at_the_list(project: Path) -> None:
    _install(project, {"first": FIRST})

    done = _invoke(project, "command", "nope")

    assert done.exit_code == 1
    assert "hookman commands" in done.output


def _install_repository_hook(project: Path, tree: Path) -> None:
    """A manifest with one repository hook registering `word`, which a sibling names."""
    from hookman.runtime.verified_import import sha256_hex

    (tree / "lib").mkdir(parents=True)
    (tree / "lib" / "words.py").write_text("WORD = 'fetched'\n")
    (tree / "lib" / "cmd.py").write_text(
        "from .words import WORD\n\n"
        "def hook(pi):\n"
        "    pi.register_command('word', handler=lambda args, ctx: WORD)\n"
    )
    digests = {
        name: sha256_hex((tree / name).read_bytes()) for name in ("lib/words.py", "lib/cmd.py")
    }
    record = {
        "name": "cmd",
        "path": str(tree / "lib" / "cmd.py"),
        "events": [],
        "claude_events": [],
        "repo": "https://example.invalid/r.git",
        "rev": "v1",
        "package_root": str(tree),
        "digests": digests,
    }
    manifest_path = paths.manifest_path(project)
    manifest_path.parent.mkdir(parents=True, exist_ok=True)
    manifest = {"project_dir": str(project.resolve()), "state_dir": str(manifest_path.parent)}
    manifest_path.write_text(json.dumps({**manifest, "hooks": [record]}))


def test_a_repository_hooks_command_loads_in_its_package(project: Path) -> None:
    """`hookman command` loads a repository hook as the runner does: in its package, so its
    relative import works."""
    _install_repository_hook(project, project / "store-a" / "tree")
    done = _invoke(project, "command", "word")
    assert (done.exit_code, done.output.strip()) == (0, "fetched")


def test_a_repository_hooks_command_runs_no_edited_sibling(project: Path) -> None:
    tree = project / "store-b" / "tree"
    _install_repository_hook(project, tree)
    (tree / "lib" / "words.py").write_text("WORD = 'edited'\n")
    done = _invoke(project, "command", "word")
    assert done.exit_code != 0
    assert "edited" not in done.output
