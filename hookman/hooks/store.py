"""The store: hook repositories fetched at one commit, shared by every project of the user.

    <cache>/repos/<url-key>/<commit>/tree/          the repository's files at that commit
    <cache>/repos/<url-key>/<commit>/fetched.json   {"url", "commit", "files": {path: sha256}}

An entry is keyed by URL and commit and never changes once made: a commit names its files,
so a later fetch of the same commit has nothing to add. It is made in a temporary directory
beside it and renamed into place whole, under a file lock per URL, so no reader ever sees a
partial checkout (a fetch killed halfway leaves only a `.fetch-PID-*` directory, removed by
the next fetch once PID is gone). git does all of git's work (ls-remote, fetch, checkout);
hookman runs it with a clean environment: no GIT_DIR or other variables of the caller's
repository, no terminal prompt, no templates or hooks.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from hookman import paths
from hookman.atomic_file import process_alive
from hookman.bridge.state_file import NotRegularFile, read_regular
from hookman.errors import HookmanError
from hookman.project.config import is_full_sha
from hookman.user_dirs import sha256_hex

if TYPE_CHECKING:
    import subprocess

# subprocess, shutil and hashlib are imported where git runs or files are hashed: an install
# that changes nothing only computes where entries are (the built-in SHA-256, no OpenSSL).

STORE_DIR_NAME = "repos"
TREE_NAME = "tree"
FETCHED_NAME = "fetched.json"
FETCH_PREFIX = ".fetch-"
LOCK_TIMEOUT_S = 300.0
GIT_TIMEOUT_S = 300.0
TAG_PREFIX = "refs/tags/"
HEAD_PREFIX = "refs/heads/"


class ResolvedRev:
    """The commit a rev names, and what the rev is: "tag", "branch" or "commit"."""

    __slots__ = ("commit", "kind")

    def __init__(self, commit: str, kind: str) -> None:
        self.commit = commit
        self.kind = kind

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ResolvedRev) and (self.commit, self.kind) == (
            other.commit,
            other.kind,
        )

    def __repr__(self) -> str:
        return f"ResolvedRev({self.commit!r}, {self.kind!r})"


def fetch_url(repo: str, project_dir: Path) -> str:
    """What git fetches for `repo` as hookman.toml gives it: a URL as it is, a local path
    made absolute (relative to the project)."""
    if _is_url(repo):
        return repo
    return os.path.normpath(project_dir / os.path.expanduser(repo))


def _is_url(repo: str) -> bool:
    """A URL with a scheme (`https://`, `file://`, ...) or scp-like `user@host:path`."""
    scheme, separator, _ = repo.partition("://")
    if separator and scheme[:1].isalpha() and all(c.isalnum() or c in "+.-" for c in scheme):
        return True
    at, colon = repo.find("@"), repo.find(":")
    return 0 < at < colon and "/" not in repo[:colon]


def store_root() -> Path:
    return paths.cache_dir() / STORE_DIR_NAME


def url_key(url: str) -> str:
    digest = sha256_hex(url.encode("utf-8", "surrogateescape"))[:16]
    tail = url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
    import re

    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", tail).strip("-.")[:32] or "repo"
    return f"{slug}-{digest}"


def entry_dir(url: str, commit: str) -> Path:
    return store_root() / url_key(url) / commit


def tree_dir(url: str, commit: str) -> Path:
    """Where the repository's files at `commit` are (whether fetched or not)."""
    return entry_dir(url, commit) / TREE_NAME


def manifest_cache(url: str, commit: str) -> Path:
    """The parsed hookman-hooks.toml of an entry (beside its tree, so not one of its files)."""
    return entry_dir(url, commit) / "manifest.json"


def is_stored(url: str, commit: str) -> bool:
    return (entry_dir(url, commit) / FETCHED_NAME).is_file()


def git_environment() -> dict[str, str]:
    """The caller's environment without anything that points git at another repository or
    makes it ask a terminal for a password."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("GIT_") or key in ("GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS")
    }
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    env["LC_ALL"] = "C"
    return env


def run_git(args: list[str], *, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`git ARGS`; a HookmanError when git itself is missing."""
    import subprocess

    try:
        return subprocess.run(
            ["git", "-c", "core.hooksPath=/dev/null", "-c", "advice.detachedHead=false", *args],
            cwd=cwd,
            env=git_environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except FileNotFoundError:
        raise HookmanError(
            "hook repositories need git, which is not on PATH.", "install git, then try again."
        ) from None
    except subprocess.TimeoutExpired:
        raise HookmanError(
            f"git {args[0]} did not finish within {GIT_TIMEOUT_S:g} seconds.",
            "check the network and the repository's URL, then try again.",
        ) from None


def git_reason(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line.strip() for line in result.stderr.splitlines() if line.strip()]
    fatal = [line for line in lines if line.startswith(("fatal:", "error:"))]
    text = (fatal or lines or [f"git exited with status {result.returncode}"])[-1]
    return text.removeprefix("fatal: ").removeprefix("error: ").rstrip(".")


def remote_refs(url: str) -> dict[str, str]:
    """ref name -> commit for the tags and branches of `url` (annotated tags peeled)."""
    result = run_git(["ls-remote", "--tags", "--heads", "--", url])
    if result.returncode != 0:
        raise HookmanError(
            f"hookman cannot read the git repository {url}: {git_reason(result)}.",
            "check the URL (any git URL, a file:// URL or a local path) and your access to it.",
        )
    refs: dict[str, str] = {}
    for line in result.stdout.splitlines():
        sha, _, ref = line.partition("\t")
        if ref.endswith("^{}"):
            refs[ref[:-3]] = sha  # the peeled commit of an annotated tag wins
        else:
            refs.setdefault(ref, sha)
    return refs


def head_commit(url: str) -> str:
    """The commit `url`'s HEAD (its default branch) names now."""
    result = run_git(["ls-remote", "--", url, "HEAD"])
    if result.returncode != 0:
        raise HookmanError(
            f"hookman cannot read the git repository {url}: {git_reason(result)}.",
            "check the URL (any git URL, a file:// URL or a local path) and your access to it.",
        )
    sha = result.stdout.split("\t", 1)[0].strip()
    if not is_full_sha(sha):
        raise HookmanError(
            f"the git repository {url} has no HEAD commit to try.", "give a rev with --rev."
        )
    return sha


def resolve_rev(url: str, rev: str) -> ResolvedRev:
    """The commit `rev` names in `url` now: a tag, a branch (not pinned: doctor says so) or a
    full commit SHA (checked when fetched)."""
    refs = remote_refs(url)
    if is_full_sha(rev):
        return ResolvedRev(rev, "commit")
    for prefix, kind in ((TAG_PREFIX, "tag"), (HEAD_PREFIX, "branch")):
        commit = refs.get(prefix + rev)
        if commit is not None:
            return ResolvedRev(commit, kind)
    tags = release_tags(refs)
    hint = f"its newest release tag is {tags[-1]!r}; " if tags else ""
    raise HookmanError(
        f"the repository {url} has no tag or branch named {rev!r} (rev must be a tag or a "
        "full 40-character commit SHA).",
        f"{hint}`git ls-remote --tags {url}` lists its tags.",
    )


def release_tags(refs: dict[str, str]) -> list[str]:
    """The tags that look like releases (v1.2.0, 1.2), oldest first by version."""
    from hookman.catalog.client_version import is_dotted_version, version_numbers

    tags = [ref[len(TAG_PREFIX) :] for ref in refs if ref.startswith(TAG_PREFIX)]
    releases = [tag for tag in tags if is_dotted_version(tag, v_prefix=True)]
    return sorted(releases, key=lambda tag: (version_numbers(tag), tag))


def ensure_stored(url: str, commit: str, *, rev: str | None = None) -> Path:
    """The tree of `url` at `commit`, fetched into the store first when it is not there."""
    if is_stored(url, commit):
        return tree_dir(url, commit)
    with _locked(url):
        if not is_stored(url, commit):  # another hookman may have fetched it meanwhile
            _fetch(url, commit, rev or commit)
    return tree_dir(url, commit)


class StoreCheck:
    """What `ensure_intact` found: `repaired` lists the files of an entry that had changed
    since its fetch (added, edited or gone) and were restored from the pinned commit."""

    __slots__ = ("repaired", "tree")

    def __init__(self, tree: Path, repaired: list[str]) -> None:
        self.tree = tree
        self.repaired = repaired


def ensure_intact(url: str, commit: str, *, rev: str | None = None) -> StoreCheck:
    """The tree of `url` at `commit` as fetched: fetched first when it is not stored; when
    its files no longer match the digests recorded at the fetch (doctor's
    `hookman-repo-store-changed`), fetched again from the pinned commit in its place. A
    HookmanError when that fetch fails (the changed entry is then left as it was, so the
    runner keeps refusing it)."""
    if not is_stored(url, commit):
        return StoreCheck(ensure_stored(url, commit, rev=rev), [])
    if not changed_files(url, commit):
        return StoreCheck(tree_dir(url, commit), [])
    with _locked(url):
        changed = changed_files(url, commit)
        if changed:
            _refetch(url, commit, rev or commit, changed)
    return StoreCheck(tree_dir(url, commit), changed or [])


def _refetch(url: str, commit: str, rev: str, changed: list[str]) -> None:
    """Replace a changed entry by a fresh fetch of its commit (under the URL's lock): the
    changed one is set aside as a `.fetch-PID-*` directory, put back when the fetch fails,
    removed when it worked (or by a later fetch, if this process is killed meanwhile)."""
    import shutil

    entry = entry_dir(url, commit)
    aside = Path(_make_work_dir(entry.parent))
    try:
        os.rename(entry, aside / commit)
    except OSError as error:
        shutil.rmtree(aside, ignore_errors=True)
        raise _store_write_error(entry.parent, error) from error
    try:
        _fetch(url, commit, rev)
    except HookmanError as error:
        with contextlib.suppress(OSError):
            os.rename(aside / commit, entry)
        shown = ", ".join(changed[:3]) + (" ..." if len(changed) > 3 else "")
        raise HookmanError(
            f"the store copy of {url} at {rev} changed since it was fetched ({shown}), and "
            f"hookman cannot fetch the pinned commit {commit[:12]} again "
            f"({error.message.rstrip('.')}).",
            "make the repository reachable and run `hookman install` again.",
        ) from None
    shutil.rmtree(aside, ignore_errors=True)


def _store_write_error(parent: Path, error: OSError) -> HookmanError:
    return HookmanError(
        f"hookman cannot write its store {parent}: {error.strerror or error}.",
        "check the permissions of your cache directory, or set HOOKMAN_HOME.",
    )


def module_digests(url: str, commit: str) -> dict[str, str]:
    """POSIX relative path -> sha256 of each Python module (`*.py`) of a store entry, as its
    fetch recorded them (never as the tree is now: a copy edited since must not be blessed
    by the next install or remove); a module that is a symlink to another recorded file of
    the entry gets that file's digest, the bytes reading it gives. What the runner compares
    with the bytes it compiles (hookman/runtime/verified_import.py); {} when the record is
    unreadable (the runner then refuses every module of the entry)."""
    fetched = _fetched_files(url, commit)
    tree = tree_dir(url, commit)
    digests: dict[str, str] = {}
    for relative, digest in fetched.items():
        if not relative.endswith(".py") or not is_utf8(relative):
            continue  # a name that is not UTF-8 is no module any import statement can name
        target = _link_target(tree, relative, digest)
        if target is None:
            digests[relative] = digest
        elif target in fetched:
            digests[relative] = fetched[target]
    return digests


def fetched_contents(url: str, commit: str) -> dict[str, bytes]:
    """POSIX relative path -> bytes of each file of a store entry its fetch recorded, as a
    copy elsewhere needs them (a plugin: hookman/plugin/repo_trees.py): a symlink to another
    recorded file of the entry as that file's bytes, one leaving the entry left out. Call it
    on an entry `changed_files` finds unchanged."""
    fetched = _fetched_files(url, commit)
    tree = tree_dir(url, commit)
    contents: dict[str, bytes] = {}
    for relative, digest in sorted(fetched.items()):
        target = _link_target(tree, relative, digest)
        if target == "" or (target is not None and target not in fetched):
            continue
        contents[relative] = (tree / (target or relative)).read_bytes()
    return contents


def is_utf8(path: str) -> bool:
    """Whether `path` (as os.walk gives it: undecodable bytes as surrogates) is UTF-8."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def fetched_contents_names(url: str, commit: str) -> list[str]:
    """The POSIX relative paths of the files a store entry's fetch recorded (a name that is
    not UTF-8 holds its undecodable bytes as surrogates, as os.walk gives them)."""
    return sorted(_fetched_files(url, commit))


def _fetched_files(url: str, commit: str) -> dict[str, str]:
    try:
        record = json.loads((entry_dir(url, commit) / FETCHED_NAME).read_text(encoding="utf-8"))
        files = record["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {str(key): str(value) for key, value in files.items()}


def modules_linked_out(url: str, commit: str) -> list[str]:
    """The Python modules (`*.py`) of a store entry its fetch recorded that are symlinks
    leaving the repository (an absolute target, or `..` past its root): the runner can
    verify no bytes outside the entry, a plugin cannot carry them, and on another machine
    they name another file, so install, doctor and plugin build refuse a hook of such a
    repository (docs/hook-repositories.md, "Symlinks and file names")."""
    tree = tree_dir(url, commit)
    found: list[str] = []
    for relative in sorted(_fetched_files(url, commit)):
        if not relative.endswith(".py") or not is_utf8(relative):
            continue
        try:
            text = os.readlink(tree / relative)
        except OSError:
            continue  # a regular file (or gone: changed_files reports that)
        if _leaves_tree(relative, text):
            found.append(relative)
    return found


def _leaves_tree(relative: str, text: str) -> bool:
    """Whether the symlink `relative` (POSIX, in the tree) with target `text` leaves it."""
    joined = os.path.normpath(os.path.join(os.path.dirname(relative), text))
    return os.path.isabs(joined) or joined == os.pardir or joined.startswith(os.pardir + os.sep)


def _link_target(tree: Path, relative: str, digest: str) -> str | None:
    """For a module that is a symlink whose text is the recorded one: the POSIX relative
    path of the file it names in the tree (None for a regular file; "" when it leaves it)."""
    full = tree / relative
    try:
        text = os.readlink(full)
    except OSError:
        return None
    if sha256_hex(text.encode("utf-8", "surrogateescape")) != digest:
        return ""  # retargeted since the fetch: no digest, so the runner refuses it
    if _leaves_tree(relative, text):
        return ""
    return os.path.normpath(os.path.join(os.path.dirname(relative), text)).replace(os.sep, "/")


def _fetch(url: str, commit: str, rev: str) -> None:
    import shutil

    parent = store_root() / url_key(url)
    _remove_abandoned(parent)
    work = Path(_make_work_dir(parent))
    try:
        tree = work / TREE_NAME
        _git_checked(["init", "-q", "--template=", str(tree)], url, rev)
        fetched = run_git(["fetch", "-q", "--depth=1", "--no-tags", "--", url, commit], cwd=tree)
        if fetched.returncode != 0:  # a server that serves no unadvertised commit: everything
            fetched = run_git(
                [
                    "fetch",
                    "-q",
                    "--no-tags",
                    "--",
                    url,
                    "+refs/heads/*:refs/h/*",
                    "+refs/tags/*:refs/t/*",
                ],
                cwd=tree,
            )
            if fetched.returncode != 0:
                raise _fetch_error(url, rev, fetched)
        checkout = run_git(["checkout", "-q", "--detach", commit], cwd=tree)
        if checkout.returncode != 0:
            raise HookmanError(
                f"the repository {url} has no commit {commit} (for rev {rev!r}): "
                f"{git_reason(checkout)}.",
                "check the rev; `hookman autoupdate` moves it to the newest release tag.",
            )
        shutil.rmtree(tree / ".git")
        files = tree_digests(tree)
        (work / FETCHED_NAME).write_text(
            json.dumps({"url": url, "commit": commit, "files": files}, sort_keys=True),
            encoding="utf-8",
        )
        final = parent / commit
        try:
            os.rename(work, final)
        except OSError:
            if not is_stored(url, commit):
                raise
    except OSError as error:
        raise _store_write_error(parent, error) from error
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


def _git_checked(args: list[str], url: str, rev: str) -> None:
    result = run_git(args)
    if result.returncode != 0:
        raise _fetch_error(url, rev, result)


def _fetch_error(url: str, rev: str, result: subprocess.CompletedProcess[str]) -> HookmanError:
    return HookmanError(
        f"hookman cannot fetch {rev!r} from the git repository {url}: {git_reason(result)}.",
        "check the URL and the rev, and your access to the repository.",
    )


def _make_work_dir(parent: Path) -> str:
    import tempfile

    parent.mkdir(parents=True, exist_ok=True)
    return tempfile.mkdtemp(prefix=f"{FETCH_PREFIX}{os.getpid()}-", dir=parent)


def _remove_abandoned(parent: Path) -> None:
    """Work directories of fetches whose process is gone (killed halfway)."""
    import shutil

    with contextlib.suppress(OSError):
        for child in parent.iterdir():
            if not child.name.startswith(FETCH_PREFIX):
                continue
            pid_text = child.name[len(FETCH_PREFIX) :].split("-", 1)[0]
            if pid_text.isdigit() and not process_alive(int(pid_text)):
                shutil.rmtree(child, ignore_errors=True)


def tree_digests(tree: Path) -> dict[str, str]:
    """POSIX relative path -> sha256 of every file (a symlink: of its target text)."""
    import hashlib

    digests: dict[str, str] = {}
    for directory, subdirs, files in os.walk(tree):
        subdirs[:] = [name for name in subdirs if name != "__pycache__"]
        for name in files:
            full = os.path.join(directory, name)
            relative = os.path.relpath(full, tree).replace(os.sep, "/")
            if os.path.islink(full):
                data = os.readlink(full).encode("utf-8", "surrogateescape")
            else:
                try:  # never blocking: a named pipe planted in the copy would wait forever
                    data = read_regular(full, follow=False)
                except NotRegularFile:
                    digests[relative] = NOT_A_FILE
                    continue
            digests[relative] = hashlib.sha256(data).hexdigest()
    return digests


NOT_A_FILE = "not a regular file"  # tree_digests' digest of a named pipe, device or socket


def changed_files(url: str, commit: str) -> list[str] | None:
    """The files of a store entry that differ from what was fetched (added, changed or
    gone), or None when the entry is not stored or its record is unreadable."""
    drift = store_drift(url, commit)
    return None if drift is None else sorted(drift.changed + drift.added)


class StoreDrift(NamedTuple):
    """How a store entry differs from its fetch: `changed` the fetched files whose bytes
    differ or that are gone (the runner refuses such a module: a hook that imports one
    does not load), `added` the files the fetch did not have (never run: the runner imports
    only what the pinned commit recorded, and refuses a hook that imports one)."""

    changed: list[str]
    added: list[str]


def shown_files(names: list[str], most: int = 5) -> str:
    """A store entry's changed files as a sentence names them: the first few, then `...`."""
    return ", ".join(names[:most]) + (" ..." if len(names) > most else "")


def additions_sentence(where: str, added: list[str]) -> str:
    """A store copy (of `where`: "REPO at REV") holding files its pinned commit lacks:
    doctor's warning and `list`'s say the same."""
    return (
        f"files were added to the store copy of {where} since it was fetched "
        f"({shown_files(added)}): the runner never runs a file the pinned commit lacks (a hook "
        "that imports one does not load; the others run as fetched)"
    )


def store_drift(url: str, commit: str) -> StoreDrift | None:
    """How the entry differs from what was fetched; None when it is not stored or its
    record is unreadable."""
    if not is_stored(url, commit):
        return None
    fetched = _fetched_files(url, commit)
    if not fetched:
        return None
    try:
        now = tree_digests(tree_dir(url, commit))
    except OSError:
        return StoreDrift(sorted(fetched), [])
    changed = sorted(name for name in fetched if fetched[name] != now.get(name))
    return StoreDrift(changed, sorted(name for name in now if name not in fetched))


@contextlib.contextmanager
def _locked(url: str) -> Iterator[None]:
    from filelock import FileLock, Timeout

    root = store_root()
    lock_path = root / f"{url_key(url)}.lock"
    try:
        root.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(lock_path))
        lock.acquire(timeout=LOCK_TIMEOUT_S)
    except Timeout as error:
        raise HookmanError(
            f"another hookman is fetching {url} into the store and did not finish within "
            f"{LOCK_TIMEOUT_S:g} seconds.",
            "wait for it and run the command again.",
        ) from error
    except OSError as error:
        raise HookmanError(
            f"hookman cannot lock its store {root}: {error.strerror or error}.",
            "check the permissions of your cache directory, or set HOOKMAN_HOME.",
        ) from error
    try:
        yield
    finally:
        lock.release()
