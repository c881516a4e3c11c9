"""Where hookman keeps its per-user files, as strings, with the standard library only.

`hookman statusline` and the completion helper run on the lean path (no platformdirs, no
pathlib), so the directories are computed here: HOOKMAN_HOME when set (tests, sandboxes);
on Linux and other XDG platforms the XDG base directories, which is what platformdirs
answers there (tests/test_user_dirs.py compares the two); elsewhere (macOS, Windows)
platformdirs itself. hookman.paths wraps these as Paths for the rest of the CLI.
"""

from __future__ import annotations

import os
import sys

APP_NAME = "hookman"
# platformdirs' Unix answers: (XDG variable, default under the home directory).
_XDG = {
    "config": ("XDG_CONFIG_HOME", "~/.config"),
    "state": ("XDG_STATE_HOME", "~/.local/state"),
    "cache": ("XDG_CACHE_HOME", "~/.cache"),
}
_PLATFORMDIRS = {
    "config": "user_config_dir",
    "state": "user_state_dir",
    "cache": "user_cache_dir",
    "log": "user_log_dir",
}


def uses_xdg() -> bool:
    """Whether this platform's directories are the XDG ones computed here."""
    return os.name == "posix" and sys.platform != "darwin"


def user_dir(kind: str) -> str:
    """hookman's `kind` directory: "config", "state", "cache" or "log" (absolute)."""
    home = os.environ.get("HOOKMAN_HOME")
    if home:
        return os.path.join(os.path.realpath(os.path.expanduser(home)), kind)
    if not uses_xdg():
        import platformdirs

        return str(getattr(platformdirs, _PLATFORMDIRS[kind])(APP_NAME))
    if kind == "log":  # platformdirs' Unix log dir: the state dir's `log`
        return os.path.join(user_dir("state"), "log")
    variable, default = _XDG[kind]
    base = os.environ.get(variable, "")
    if not os.path.isabs(base):  # unset, empty or relative: the XDG spec ignores it
        base = os.path.expanduser(default)
    return os.path.join(base, APP_NAME)


def project_key(resolved_project_dir: str) -> str:
    """The per-project directory name under `<state>/projects/`: `<slug>-<sha256[:12]>`."""
    digest = _sha256_hex(resolved_project_dir.encode("utf-8", "surrogateescape"))[:12]
    slug = _slug(os.path.basename(resolved_project_dir))
    return f"{slug.strip('-')[:40] or 'root'}-{digest}"


_SLUG_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def _slug(name: str) -> str:
    """`name` with each run of other characters than [A-Za-z0-9_.-] made one "-" (no `re`:
    the lean paths do not load it)."""
    pieces: list[str] = []
    in_run = False
    for character in name:
        if character in _SLUG_CHARACTERS:
            pieces.append(character)
            in_run = False
        elif not in_run:
            pieces.append("-")
            in_run = True
    return "".join(pieces)


def project_state_dir(resolved_project_dir: str) -> str:
    """State for one project (manifest, session queues and statuses), by its resolved path."""
    return os.path.join(user_dir("state"), "projects", project_key(resolved_project_dir))


def manifest_path(resolved_project_dir: str) -> str:
    return os.path.join(project_state_dir(resolved_project_dir), "manifest.json")


def sha256_hex(data: bytes) -> str:
    """SHA-256 of `data` in hex, without loading OpenSSL."""
    return _sha256_hex(data)


def _sha256_hex(data: bytes) -> str:
    if not _SHA256:
        _SHA256.append(_sha256_constructor())
    return _SHA256[0](data).hexdigest()


_SHA256: list = []  # the constructor, found once: a failed import searches all of sys.path


def _sha256_constructor():  # type: ignore[no-untyped-def]
    # hashlib loads OpenSSL (about a fifth of a bare Python start); the built-in module is
    # the same SHA-256 (named _sha2 from Python 3.12, _sha256 before).
    try:
        if sys.version_info >= (3, 12):
            from _sha2 import sha256  # type: ignore[import-not-found]
        else:
            from _sha256 import sha256  # type: ignore[import-not-found,no-redef]
    except ImportError:
        from hashlib import sha256
    return sha256
