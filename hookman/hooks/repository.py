"""A hook repository's manifest: `hookman-hooks.toml` at the root of a git repository.

    [[hooks]]
    name = "no-rm-rf"
    path = "guards/no_rm_rf.py"       # a module in the repository (POSIX, relative)
    description = "Denies rm -rf outside the project."
    min_hookman = "0.2.0"             # optional: the oldest hookman that can run it

Read with tomllib: hookman never edits it. Every path must stay inside the repository:
no `..`, no absolute path, no symlink whose target is outside it.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from hookman.catalog.client_version import is_dotted_version, version_numbers
from hookman.errors import HookmanError
from hookman.project.config import is_valid_hook_name
from hookman.toml_data import parse_toml_kept

MANIFEST_NAME = "hookman-hooks.toml"
OFFER_KEYS = frozenset({"name", "path", "description", "min_hookman"})


class HookOffer(NamedTuple):  # not a dataclass: those compile methods at every start
    """One `[[hooks]]` table of a repository's manifest."""

    name: str
    path: str  # relative to the repository root, POSIX separators
    description: str
    min_hookman: str | None = None


class RepositoryManifest:
    __slots__ = ("hooks", "root")

    def __init__(self, root: Path, hooks: tuple[HookOffer, ...]) -> None:
        self.root = root
        self.hooks = hooks

    def find(self, name: str) -> HookOffer | None:
        return next((offer for offer in self.hooks if offer.name == name), None)

    def names(self) -> list[str]:
        return [offer.name for offer in self.hooks]


def read_repository_manifest(
    root: Path, where: str, cache: Path | None = None
) -> RepositoryManifest:
    """Parse and check `root/hookman-hooks.toml`; `where` names the repository (URL and
    rev) in messages. A HookmanError for a missing or invalid manifest.

    `cache`: a JSON file keeping the text and its parsed values (a store entry's), so an
    unchanged manifest is read without importing a TOML parser (which costs more than the
    rest of an install that changes nothing). Checked against the text every time."""
    path = root / MANIFEST_NAME
    hint = f"fix {MANIFEST_NAME} in the repository, tag a new release, and use that rev."
    if path.is_symlink() or not path.is_file():
        raise HookmanError(
            f"the repository {where} has no {MANIFEST_NAME} at its root, so it offers no hooks.",
            "check the URL and rev; `hookman new --repo DIR` scaffolds a hook repository.",
        )
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise HookmanError(f"cannot read {MANIFEST_NAME} of {where}: {error}.", hint) from None
    data = parse_toml_kept(text, cache)
    if data is None:
        raise HookmanError(f"{MANIFEST_NAME} of {where} is not valid TOML.", hint)
    raw_hooks = data.get("hooks")
    if not isinstance(raw_hooks, list) or not raw_hooks:
        raise HookmanError(
            f"{MANIFEST_NAME} of {where} lists no hooks (it needs [[hooks]] tables).", hint
        )
    offers: list[HookOffer] = []
    for position, raw in enumerate(raw_hooks, start=1):
        offer = _offer(raw, position, root, where, hint)
        if any(known.name == offer.name for known in offers):
            raise HookmanError(
                f"{MANIFEST_NAME} of {where} lists the hook {offer.name!r} twice.", hint
            )
        offers.append(offer)
    return RepositoryManifest(root, tuple(offers))


def _offer(raw: object, position: int, root: Path, where: str, hint: str) -> HookOffer:
    if not isinstance(raw, dict):
        raise HookmanError(f"hook {position} in {MANIFEST_NAME} of {where} is not a table.", hint)
    name = raw.get("name")
    if not isinstance(name, str) or not is_valid_hook_name(name):
        raise HookmanError(
            f"hook {position} in {MANIFEST_NAME} of {where} needs a `name` made of letters, "
            "digits, '_', '.' or '-'.",
            hint,
        )

    def refuse(problem: str) -> HookmanError:
        return HookmanError(f"the hook {name!r} in {MANIFEST_NAME} of {where} {problem}.", hint)

    unknown = sorted(set(raw) - OFFER_KEYS)
    if unknown:
        raise refuse(f"has the unknown key {unknown[0]!r}")
    path = raw.get("path")
    if not isinstance(path, str) or not path:
        raise refuse("needs a `path`, the module's place in the repository")
    problem = path_problem(root, path)
    if problem is not None:
        raise refuse(f"has the path {path!r}, which {problem}")
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise refuse("has a `description` that is not a string")
    min_hookman = raw.get("min_hookman")
    if min_hookman is not None and (
        not isinstance(min_hookman, str) or not is_dotted_version(min_hookman)
    ):
        raise refuse('has a `min_hookman` that is not a version such as "0.2.0"')
    return HookOffer(
        name, path, description.strip().splitlines()[0] if description else "", min_hookman
    )


def path_problem(root: Path, path: str) -> str | None:
    """Why `path` cannot name a module inside the repository at `root`, or None."""
    if "\x00" in path or "\\" in path:
        return "is not a plain POSIX path"
    pure = PurePosixPath(path)
    if pure.is_absolute() or path.startswith("~"):
        return "is absolute"
    if ".." in pure.parts:
        return "leaves the repository"
    full = root / pure
    real_root = os.path.realpath(root)
    real = os.path.realpath(full)
    if os.path.commonpath([real_root, real]) != real_root:
        return "leaves the repository through a symlink"
    if not os.path.isfile(real):
        return "is not a file in the repository"
    return None


def needs_newer_hookman(offer: HookOffer, version: str) -> bool:
    if offer.min_hookman is None:
        return False
    return version_numbers(offer.min_hookman) > version_numbers(version)
