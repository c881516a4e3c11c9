"""`hookman new NAME --template T`: scaffold a hook and its test from a bundled template.

Writes `.claude/hooks/NAME.py` (the template) and `.claude/hooks/test_NAME.py` (its test,
pointed at NAME.py), then records the hook in hookman.toml so `hookman install NAME` writes
its settings entries; `--install` does that at once. Nothing is ever overwritten: a taken
name, a file already there or a bad name is refused before anything is written.
`hookman new --list` shows the templates.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
from pathlib import Path
from typing import TYPE_CHECKING

from rich.markup import escape

from hookman import paths
from hookman.commands.git_wording import exclusion_sentence, pycache_sentence
from hookman.errors import HookmanError
from hookman.hooks.subscriptions import check_event_names, learn_subscriptions
from hookman.output import console, print_json
from hookman.project.config import HookSource, load_project_config, save_project_config
from hookman.project.git_exclude import ensure_git_ignored
from hookman.project.hooks_gitignore import HOOKS_DIR, PycacheIgnore, keep_pycache_out
from hookman.project.location import CLAUDE_DIR, find_project_dir
from hookman.project.lock import project_lock
from hookman.scaffold.template_catalog import Template, templates

if TYPE_CHECKING:
    from hookman.json_shapes import TemplateJson

# A module file name and a hook name at once: no dots or slashes (no path tricks), no
# leading digit or dash, and not test_* (that is where the generated tests go).
NEW_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")
TEST_FILE_LINE = 'HOOK_FILE = Path(__file__).with_name("{module}")'


def list_templates(*, json_output: bool = False) -> int:
    """`hookman new --list`. `--json`: a list of `TemplateJson` (hookman/json_shapes.py), in
    name order."""
    rows: list[TemplateJson] = [
        {"name": t.name, "description": t.description} for t in templates().values()
    ]
    if json_output:
        print_json(rows)
        return 0
    out = console()
    if not rows:
        out.print("this hookman ships no templates.")
        return 0
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        out.print(
            f"[bold]{escape(row['name'].ljust(width))}[/]  {escape(row['description'])}",
            highlight=False,
        )
    out.print("\nmake one with: hookman new NAME --template TEMPLATE", highlight=False)
    return 0


def new(
    name: str | None,
    *,
    template: str | None,
    install: bool = False,
    project: Path | None = None,
    claude_version: str | None = None,
) -> int:
    """Write the hook and its test, record the hook in hookman.toml; `install`: also write
    the settings (as `hookman install NAME`). Returns the exit code."""
    if name is None:
        raise HookmanError(
            "name the hook to create.",
            "`hookman new NAME --template TEMPLATE`; `hookman new --list` shows the templates.",
            exit_code=2,
        )
    _check_name(name)
    chosen = _chosen_template(template)
    project_dir = find_project_dir(project)
    hook_relative = f"{HOOKS_DIR}/{name}.py"
    test_relative = f"{HOOKS_DIR}/test_{name}.py"
    hook_file = project_dir / hook_relative
    test_file = project_dir / test_relative
    test_text = _test_text(chosen, name)
    with project_lock(project_dir):
        config = load_project_config(project_dir)
        _check_free(config.find(name) is not None, name, hook_relative, test_relative, project_dir)
        written = _write_new_files(
            [(hook_file, chosen.path.read_text(encoding="utf-8")), (test_file, test_text)]
        )
        try:
            try:
                subscriptions = learn_subscriptions(name, hook_file, project_dir)
                check_event_names(name, subscriptions.events, allow_unknown=False)
            except HookmanError as error:
                raise HookmanError(
                    f"the template {chosen.name!r} did not load in this project, so nothing "
                    f"was written: {error.message}",
                    "check that this Python can import hookman (`python -m hookman --version`);"
                    " `hookman new --list` shows the other templates.",
                ) from None
            config.put_hook(
                name,
                HookSource("path", hook_relative),
                subscriptions.events,
                subscriptions.tools,
                run_async=chosen.run_async or None,
            )
            save_project_config(config)
        except BaseException:
            for path in written:
                path.unlink(missing_ok=True)
            raise
    out = console()
    out.print(
        f"created {escape(hook_relative)} from the template [bold]{escape(chosen.name)}[/]",
        highlight=False,
    )
    if test_text is not None:
        out.print(f"created {escape(test_relative)}", highlight=False)
    events = ", ".join(subscriptions.events) or "no events: a command only"
    mode = ", async" if chosen.run_async else ""
    out.print(
        f"recorded [bold]{escape(name)}[/] in {CLAUDE_DIR}/hookman.toml ({escape(events)}{mode})",
        highlight=False,
    )
    if keep_pycache_out(project_dir) is PycacheIgnore.WRITTEN:
        out.print(pycache_sentence(), highlight=False)
    for written_path in chosen.writes:  # files the hook will write: never committed by mistake
        kept = exclusion_sentence(ensure_git_ignored(project_dir, written_path))
        out.print(f"{escape(written_path)} (the hook writes it): {escape(kept)}", highlight=False)
    if install:
        from hookman.commands.install import install as install_hooks

        out.print("")
        return install_hooks([name], project=project_dir, claude_version=claude_version)
    out.print("next:", highlight=False)
    out.print(f"  hookman install {escape(name)}", highlight=False)
    if paths.manifest_path(project_dir).exists():  # installed before: hookman.toml moved on
        out.print(f"  {_until_installed(project_dir)}", highlight=False)
    if test_text is not None:
        if importlib.util.find_spec("pytest") is None:
            out.print("  python -m pip install pytest   (the test needs it)", highlight=False)
        out.print(f"  python -m pytest {escape(test_relative)}", highlight=False)
    return 0


def _until_installed(project_dir: Path) -> str:
    """What hookman does here until `hookman install`, hookman.toml having moved on: with
    the sentinels (project/sentinel.py) every guarded call is denied; an install without
    them reaches only the calls its entries match."""
    from hookman.bridge.manifest_reader import ManifestError, read_manifest

    try:
        sentinels = read_manifest(str(paths.manifest_path(project_dir))).sentinels
    except ManifestError:
        sentinels = {}
    if sentinels:
        return (
            "until then hookman denies every guarded tool call here (hookman.toml no longer "
            "matches what was installed)"
        )
    return (
        "until then hookman denies every guarded tool call here that an installed entry "
        "reaches (hookman.toml no longer matches what was installed), and the new hook's "
        "own guards are not wired: Claude Code runs their calls without hookman"
    )


def _check_name(name: str) -> None:
    if not NEW_NAME.fullmatch(name) or name.lower().startswith("test"):
        raise HookmanError(
            f"{name!r} cannot name a new hook: use a letter or '_' first, then letters, "
            "digits, '_' or '-' (at most 64), and do not start with 'test'.",
            "for example: `hookman new block_rm --template bash_guard`.",
        )


def _chosen_template(template: str | None) -> Template:
    available = templates()
    if template is None:
        raise HookmanError(
            "choose a template with --template.",
            f"templates: {', '.join(available) or 'none'} (`hookman new --list` describes them).",
            exit_code=2,
        )
    if template not in available:
        close = difflib.get_close_matches(template, list(available), n=1)
        guess = f"did you mean {close[0]!r}? " if close else ""
        raise HookmanError(
            f"there is no template named {template!r}.",
            f"{guess}`hookman new --list` shows the templates.",
        )
    return available[template]


def _check_free(
    listed: bool, name: str, hook_relative: str, test_relative: str, project_dir: Path
) -> None:
    if listed:
        raise HookmanError(
            f"hookman.toml already has a hook named {name!r}; nothing was written.",
            "choose another name, or `hookman remove " + name + "` the old hook first.",
        )
    hints = {
        hook_relative: f"choose another name, or install the file you have: "
        f"`hookman install {hook_relative}`.",
        test_relative: f"choose another name, or move {test_relative} away first.",
    }
    for relative, hint in hints.items():
        if (project_dir / relative).exists() or (project_dir / relative).is_symlink():
            raise HookmanError(f"{relative} already exists; hookman never overwrites it.", hint)


def _test_text(chosen: Template, name: str) -> str | None:
    if chosen.test_path is None:
        return None
    text = chosen.test_path.read_text(encoding="utf-8")
    line = TEST_FILE_LINE.format(module=chosen.path.name)
    if line not in text:  # a template whose test cannot be pointed at the new module
        return None
    return text.replace(line, TEST_FILE_LINE.format(module=f"{name}.py"))


def _write_new_files(files: list[tuple[Path, str | None]]) -> list[Path]:
    """Create each file exclusively (never over an existing one); all or none."""
    written: list[Path] = []
    try:
        for path, text in files:
            if text is None:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("x", encoding="utf-8") as handle:
                written.append(path)
                handle.write(text)
    except FileExistsError as error:
        _remove(written)
        raise HookmanError(
            f"{error.filename} already exists; hookman never overwrites it.",
            "choose another name for the new hook.",
        ) from None
    except OSError as error:
        _remove(written)
        raise HookmanError(
            f"hookman cannot write {error.filename}: {error.strerror or error}.",
            f"check that {HOOKS_DIR}/ is writable.",
        ) from None
    return written


def _remove(paths: list[Path]) -> None:
    for path in paths:
        path.unlink(missing_ok=True)
