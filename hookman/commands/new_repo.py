"""`hookman new NAME --repo DIR [--template T]`: scaffold a hook repository.

Writes DIR/hookman-hooks.toml offering the hook NAME, DIR/hooks/MODULE.py from the template
(default bash_guard) and, beside it, its test, and a `.gitignore` keeping `__pycache__/` out
of git; then `git init` when DIR is in no git work tree. When DIR already holds a
hookman-hooks.toml, the hook is added to it (its text kept, a `[[hooks]]` table appended).
Refused before anything is written when the repository already offers NAME, or its module or
test is already there, or the manifest there is not valid.
"""

from __future__ import annotations

import re
from pathlib import Path

from hookman.atomic_file import atomic_write_text
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
from hookman.hooks.repository import MANIFEST_NAME, read_repository_manifest
from hookman.output import console, escape

DEFAULT_TEMPLATE = "bash_guard"
VERSION_TAG = re.compile(r"(v?)(\d+)\.(\d+)(?:\.(\d+))?")
PYCACHE_IGNORE = "# bytecode Python writes when the hooks or their tests run\n__pycache__/\n"


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
    existing = _existing_manifest(manifest, root)
    _check_no_clash(name, existing, (hook_file, test_file), root)
    description = chosen.description.replace('"', "'")
    offer = (
        f'[[hooks]]\nname = "{name}"\npath = "hooks/{module}.py"\ndescription = "{description}"\n'
    )
    if existing is None:
        manifest_text = (
            "# The hooks this repository offers. A project installs one with\n"
            "#   hookman install NAME --repo URL --rev TAG\n" + offer
        )
    else:
        manifest_text = existing + ("" if existing.endswith("\n") else "\n") + "\n" + offer
    test_text = None
    if chosen.test_path is not None:
        text = chosen.test_path.read_text(encoding="utf-8")
        line = TEST_FILE_LINE.format(module=chosen.path.name)
        if line in text:
            test_text = text.replace(line, TEST_FILE_LINE.format(module=f"{module}.py"))
    written = _write_new_files(
        [(hook_file, chosen.path.read_text(encoding="utf-8")), (test_file, test_text)]
    )
    try:
        if existing is None:
            written += _write_new_files([(manifest, manifest_text)])
        else:
            atomic_write_text(manifest, manifest_text)
        gitignore = _keep_pycache_out(root)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    initialised = _git_init(root) if existing is None else False
    _print_created(root, name, existing is not None, [manifest, *written, gitignore], initialised)
    return 0


def _existing_manifest(manifest: Path, root: Path) -> str | None:
    """The text of the repository's hookman-hooks.toml, checked (None: there is none yet);
    a manifest hookman cannot read is refused, since adding to it would hide the problem."""
    if not manifest.exists() and not manifest.is_symlink():
        return None
    try:
        read_repository_manifest(root, str(root))
        return manifest.read_text(encoding="utf-8")
    except (HookmanError, OSError, UnicodeDecodeError) as error:
        problem = error.message if isinstance(error, HookmanError) else str(error)
        raise HookmanError(
            f"hookman cannot add a hook to {manifest}, so nothing was written: "
            f"{problem.rstrip('.')}.",
            f"fix {MANIFEST_NAME} by hand (`hookman new --repo` appends to a valid one), "
            "then run the command again.",
        ) from None


def _check_no_clash(name: str, existing: str | None, files: tuple[Path, ...], root: Path) -> None:
    """Refuse a hook the repository already offers, or a module or test already there."""
    if existing is not None and read_repository_manifest(root, str(root)).find(name):
        raise HookmanError(
            f"{root / MANIFEST_NAME} already offers a hook named {name!r}; nothing was written.",
            f"choose another name: `hookman new OTHER_NAME --repo {root}`.",
        )
    for path in files:
        if path.exists() or path.is_symlink():
            raise HookmanError(
                f"{path} already exists; hookman never overwrites it, and nothing was written.",
                f"choose another name: `hookman new OTHER_NAME --repo {root}`.",
            )


def _keep_pycache_out(root: Path) -> Path | None:
    """Write `.gitignore` (`__pycache__/`) at the repository's root when there is none:
    running the hook's test writes bytecode beside it. The file written, or None."""
    gitignore = root / ".gitignore"
    if gitignore.exists() or gitignore.is_symlink():
        return None
    written = _write_new_files([(gitignore, PYCACHE_IGNORE)])
    return written[0] if written else None


def _print_created(
    root: Path, name: str, added: bool, files: list[Path | None], initialised: bool
) -> None:
    out = console()
    if added:
        out.print(
            f"added the hook {escape(name)} to the hook repository {escape(str(root))}",
            highlight=False,
        )
    else:
        out.print(f"created the hook repository {escape(str(root))}", highlight=False)
    for path in dict.fromkeys(files):
        if path is not None:
            out.print(f"  {escape(str(path.relative_to(root)))}", highlight=False)
    if initialised:
        out.print("  (git init: a new git repository)", highlight=False)
    out.print("next:", highlight=False)
    if any(path is not None and path.name.startswith("test_") for path in files):
        out.print(f"  python -m pytest {escape(str(root))}", highlight=False)
    message = f"add {name}" if added else "first hook"
    tag = _next_tag(root) if added else "v0.1.0"
    out.print(f"  git add -A && git commit -m '{message}' && git tag {tag}", highlight=False)
    out.print(
        f"  hookman install {escape(name)} --repo {escape(str(root.resolve()))} --rev {tag}",
        highlight=False,
    )


def _next_tag(root: Path) -> str:
    """The release after the repository's newest version tag (v0.1.0 when it has none)."""
    from hookman.hooks.store import run_git

    tags = run_git(["tag", "--list", "--sort=-v:refname"], cwd=root).stdout.split()
    for tag in tags:
        found = VERSION_TAG.fullmatch(tag)
        if found:
            prefix, major, minor, patch = found.groups()
            return f"{prefix}{major}.{minor}.{int(patch or 0) + 1}"
    return "v0.1.0"


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
