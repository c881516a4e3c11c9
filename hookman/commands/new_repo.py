"""`hookman new NAME --repo DIR [--template T]`: scaffold a hook repository.

Writes DIR/hookman-hooks.toml offering the hook NAME, DIR/hooks/MODULE.py from the template
(default bash_guard) and, beside it, its test; then `git init` when DIR is in no git work
tree. Refused before anything is written when DIR holds any of these files already.
"""

from __future__ import annotations

from pathlib import Path

from hookman.commands.new import (
    TEST_FILE_LINE,
    _check_name,
    _chosen_template,
    _write_new_files,
    list_templates,
    new,
)
from hookman.commands.options import CLAUDE_VERSION, PROJECT, Argument, Option, cli_command
from hookman.errors import HookmanError
from hookman.hooks.repository import MANIFEST_NAME
from hookman.output import console, escape

DEFAULT_TEMPLATE = "bash_guard"


def new_repo(name: str | None, directory: Path, *, template: str | None = None) -> int:
    if name is None:
        raise HookmanError(
            "name the repository's first hook.",
            "`hookman new no-rm-rf --repo agent-hooks`.",
            exit_code=2,
        )
    _check_name(name)
    chosen = _chosen_template(template or DEFAULT_TEMPLATE)
    root = directory.expanduser()
    if root.exists() and not root.is_dir():
        raise HookmanError(f"{directory} is not a directory.", "give a new or existing directory.")
    module = name.replace("-", "_")
    manifest = root / MANIFEST_NAME
    hook_file = root / "hooks" / f"{module}.py"
    test_file = root / "hooks" / f"test_{module}.py"
    for path in (manifest, hook_file, test_file):
        if path.exists() or path.is_symlink():
            raise HookmanError(
                f"{path} already exists; hookman never overwrites it, and nothing was written.",
                "choose another directory for the new hook repository.",
            )
    description = chosen.description.replace('"', "'")
    manifest_text = (
        "# The hooks this repository offers. A project installs one with\n"
        "#   hookman install NAME --repo URL --rev TAG\n"
        "[[hooks]]\n"
        f'name = "{name}"\n'
        f'path = "hooks/{module}.py"\n'
        f'description = "{description}"\n'
    )
    test_text = None
    if chosen.test_path is not None:
        text = chosen.test_path.read_text(encoding="utf-8")
        line = TEST_FILE_LINE.format(module=chosen.path.name)
        if line in text:
            test_text = text.replace(line, TEST_FILE_LINE.format(module=f"{module}.py"))
    _write_new_files(
        [
            (manifest, manifest_text),
            (hook_file, chosen.path.read_text(encoding="utf-8")),
            (test_file, test_text),
        ]
    )
    initialised = _git_init(root)
    out = console()
    out.print(f"created the hook repository {escape(str(root))}", highlight=False)
    for path in (manifest, hook_file, test_file if test_text is not None else None):
        if path is not None:
            out.print(f"  {escape(str(path.relative_to(root)))}", highlight=False)
    if initialised:
        out.print("  (git init: a new git repository)", highlight=False)
    out.print("next:", highlight=False)
    if test_text is not None:
        out.print(f"  python -m pytest {escape(str(root))}", highlight=False)
    out.print("  git add -A && git commit -m 'first hook' && git tag v0.1.0", highlight=False)
    out.print(
        f"  hookman install {escape(name)} --repo {escape(str(root.resolve()))} --rev v0.1.0",
        highlight=False,
    )
    return 0


def _git_init(root: Path) -> bool:
    from hookman.hooks.store import run_git

    inside = run_git(["rev-parse", "--is-inside-work-tree"], cwd=root)
    if inside.returncode == 0 and inside.stdout.strip() == "true":
        return False
    return run_git(["init", "-q", str(root)]).returncode == 0


@cli_command(
    "new",
    Argument(
        "name",
        "NAME",
        show_default=False,
        help="Name of the new hook (its file is .claude/hooks/NAME.py).",
    ),
    Option(
        "--template",
        "-t",
        metavar="TEMPLATE",
        complete="templates",
        help="The template to start from.",
    ),
    Option("--list", dest="list_only", flag=True, help="List the templates and what each does."),
    Option("--install", flag=True, help="Also install it now (write the settings)."),
    Option(
        "--repo",
        dest="repo_dir",
        metavar="DIR",
        type="path",
        help="Scaffold a hook repository in DIR (hookman-hooks.toml, the hook, its test).",
    ),
    PROJECT,
    CLAUDE_VERSION,
    Option(
        "--json",
        dest="json_output",
        flag=True,
        help="With --list: print the templates as JSON.",
    ),
    help="Create a hook and its test from a template, and record it in hookman.toml.",
    examples=("hookman new block_rm --template bash_guard --install", "hookman new --list --json"),
)
def new_command(
    name: str | None = None,
    *,
    template: str | None = None,
    list_only: bool = False,
    install: bool = False,
    repo_dir: Path | None = None,
    project: Path | None = None,
    claude_version: str | None = None,
    json_output: bool = False,
) -> int:
    """`hookman new`: list the templates (`--list`), scaffold a hook repository (`--repo`,
    new_repo) or a hook in this project (new.py `new`). Here, where both are in reach."""
    if list_only:
        return list_templates(json_output=json_output)
    if json_output:
        raise HookmanError(
            "--json works with --list only.", "`hookman new --list --json`.", exit_code=2
        )
    if repo_dir is not None:
        return new_repo(name, repo_dir, template=template)
    return new(
        name, template=template, install=install, project=project, claude_version=claude_version
    )
