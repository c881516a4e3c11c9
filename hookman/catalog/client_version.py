"""Which Claude Code version hookman writes settings for.

The target comes from, in order: the `--claude-version` flag, `claude_version` in
hookman.toml, the `--claude-version` given to the last install or remove that wrote the
project's settings (remembered in its manifest, so what was written, what `list` reports and
what the next install keeps agree), `claude --version` (cached per client binary in hookman's
cache dir), else unknown (None). When a remembered target and `claude --version` disagree, the
remembered one still wins (the user chose it; a client found on PATH may not be the one they
run), and the target says so in a note naming the command that follows the installed client
instead. Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from hookman.errors import HookmanError

if TYPE_CHECKING:  # typing only: json_shapes costs nothing at start-up
    from hookman.json_shapes import ClaudeVersionSource as VersionSource

DETECT_TIMEOUT_S = 3.0
VERSION_CACHE_NAME = "claude-version.json"
VERSION_CACHE_SIZE = 8


# Compiled on first use (re caches them): most commands never parse a version text.
# A sentence's full stop may follow (`copilot --version`: "GitHub Copilot CLI 1.0.102.").
_VERSION_PATTERN = r"(?<![\d.])(\d+)\.(\d+)\.(\d+)(?!\d|\.\d)"
_USER_VERSION_PATTERN = r"v?(\d+)\.(\d+)\.(\d+)(?:\s+\(.*\))?"
_DOTTED_PATTERN = r"(\d+)(?:\.\d+)*"


class ClientVersion:
    """A Claude Code version, ordered numerically; immutable, equal only to a ClientVersion.

    Written by hand rather than with @dataclass(frozen=True, order=True), which compiles
    ten methods on every start of every command (about a tenth of a bare Python start).
    """

    __slots__ = ("major", "minor", "patch")
    major: int
    minor: int
    patch: int

    def __init__(self, major: int, minor: int, patch: int) -> None:
        object.__setattr__(self, "major", major)
        object.__setattr__(self, "minor", minor)
        object.__setattr__(self, "patch", patch)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of an immutable ClientVersion")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of an immutable ClientVersion")

    def __reduce__(self) -> tuple[type[ClientVersion], tuple[int, int, int]]:
        return ClientVersion, self._key()

    def _key(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not ClientVersion:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __lt__(self, other: ClientVersion) -> bool:
        if other.__class__ is not ClientVersion:
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: ClientVersion) -> bool:
        if other.__class__ is not ClientVersion:
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: ClientVersion) -> bool:
        if other.__class__ is not ClientVersion:
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: ClientVersion) -> bool:
        if other.__class__ is not ClientVersion:
            return NotImplemented
        return self._key() >= other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"ClientVersion(major={self.major}, minor={self.minor}, patch={self.patch})"

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"


class TargetVersion(NamedTuple):
    """The version to write for (None when unknown) and where it came from."""

    version: ClientVersion | None
    source: VersionSource
    note: str | None = None  # why the target is not what `claude --version` says

    @property
    def is_explicit_flag(self) -> bool:
        """Whether the target is a `--claude-version`, given now or remembered."""
        return self.source in ("flag", "earlier flag")

    def describe(self) -> str:
        """E.g. "2.1.328 (from hookman.toml)", or how to make an unknown target known."""
        if self.version is None:
            return (
                "unknown (`claude --version` did not answer; pass --claude-version V or set "
                "claude_version in hookman.toml)"
            )
        if self.source == "earlier flag":
            return f"{self.version} (from --claude-version, remembered from the last install)"
        if self.source == "last install":
            return (
                f"{self.version} (what the last install wrote for: `claude --version` did not "
                "answer)"
            )
        return f"{self.version} (from {self.source})"


def find_version(text: str) -> ClientVersion | None:
    """The first MAJOR.MINOR.PATCH in `text` (e.g. "2.1.328 (Claude Code)"), or None."""
    match = re.search(_VERSION_PATTERN, text)
    if match is None:
        return None
    major, minor, patch = (int(part) for part in match.groups())
    return ClientVersion(major, minor, patch)


def parse_version(text: str) -> ClientVersion:
    """Parse a version the user wrote (flag or hookman.toml). Raises ValueError when it is
    not MAJOR.MINOR.PATCH, optionally followed by a label."""
    match = re.fullmatch(_USER_VERSION_PATTERN, text.strip())
    if match is None:
        raise ValueError(f"not a Claude Code version: {text!r}")
    major, minor, patch = (int(part) for part in match.groups())
    return ClientVersion(major, minor, patch)


def is_dotted_version(text: str, *, v_prefix: bool = False) -> bool:
    """Whether `text` is numbers joined by dots ("1.2", "0.2.0"; "v1.2.0" with `v_prefix`),
    as a release tag or a `min_hookman` is written."""
    if v_prefix and text.startswith("v"):
        text = text[1:]
    return re.fullmatch(_DOTTED_PATTERN, text) is not None


def version_numbers(text: str) -> tuple[int, ...]:
    """The numbers of a version of any length, for ordering: "v1.2.0" -> (1, 2, 0),
    "0.2.0.dev3" -> (0, 2, 0, 3); () when `text` holds none. Claude Code's and Codex's
    MAJOR.MINOR.PATCH are ClientVersions (find_version, parse_version)."""
    return tuple(int(number) for number in re.findall(r"\d+", text))


def detect_claude_version(timeout: float = DETECT_TIMEOUT_S) -> ClientVersion | None:
    """Ask `claude --version`. Missing, failing, slow or unparsable -> None.

    The answer is cached per client binary (see `binary_identity`): a client that did not
    change since the last answer is not started again.
    """
    return detect_version("claude", VERSION_CACHE_NAME, timeout)


def detect_version(
    client: str, cache_name: str, timeout: float = DETECT_TIMEOUT_S
) -> ClientVersion | None:
    """Ask `CLIENT --version` (claude, codex), cached per binary in the cache file
    `cache_name`. Missing, failing, slow or unparsable -> None."""
    program = shutil.which(client)
    if program is None:
        return None
    identity = binary_identity(program, client)
    if identity is not None:
        cached = _cached_version(identity, cache_name)
        if cached is not None:
            return cached
    version = _ask_version(program, timeout)
    if version is not None and identity is not None:
        _remember_version(identity, version, cache_name)
    return version


def _ask_version(program: str, timeout: float) -> ClientVersion | None:
    import subprocess

    try:
        done = subprocess.run(
            [program, "--version"],
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
        return None
    if done.returncode != 0:
        return None
    return find_version(done.stdout)


def binary_identity(program: str, client: str = "claude") -> list[str | int] | None:
    """What identifies one installed client: the file `program` resolves to, with its size,
    inode, modification and change times (an upgrade replaces or rewrites that file, and the
    change time cannot be set back). None when the answer must not be cached: the file is a
    dispatcher that runs whichever client is current (a shell script such as an asdf shim, or
    a binary whose path does not name the client, such as mise or volta)."""
    real = os.path.realpath(program)
    parts = real.replace("\\", "/").lower().split("/")[-4:]
    if not any(client in part for part in parts):
        return None
    try:
        with open(real, "rb") as handle:
            head = handle.read(128)
        status = os.stat(real)
    except OSError:
        return None
    if head.startswith(b"#!") and b"node" not in head.split(b"\n", 1)[0]:
        return None
    return [real, status.st_size, status.st_ino, status.st_mtime_ns, status.st_ctime_ns]


def _cache_path(cache_name: str = VERSION_CACHE_NAME) -> str:
    from hookman import user_dirs

    return os.path.join(user_dirs.user_dir("cache"), cache_name)


def _cached_version(
    identity: list[str | int], cache_name: str = VERSION_CACHE_NAME
) -> ClientVersion | None:
    try:
        with open(_cache_path(cache_name), encoding="utf-8") as handle:
            entries = json.load(handle).get("clients", [])
        for entry in entries:
            if entry.get("identity") == identity:
                return parse_version(str(entry.get("version")))
    except (OSError, ValueError, AttributeError, TypeError):
        return None
    return None


def _remember_version(
    identity: list[str | int], version: ClientVersion, cache_name: str = VERSION_CACHE_NAME
) -> None:
    """Keep the answer (and a few for other clients, e.g. other PATHs); best effort."""
    path = _cache_path(cache_name)
    try:
        with open(path, encoding="utf-8") as handle:
            entries = [e for e in json.load(handle).get("clients", []) if isinstance(e, dict)]
    except (OSError, ValueError, AttributeError, TypeError):
        entries = []
    entries = [e for e in entries if e.get("identity", [None])[:1] != identity[:1]]
    entries.insert(0, {"identity": identity, "version": str(version)})
    from pathlib import Path

    from hookman.atomic_file import atomic_write_text  # its sweeper knows its temp files

    with contextlib.suppress(OSError):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write_text(Path(path), json.dumps({"clients": entries[:VERSION_CACHE_SIZE]}))


def resolve_target(
    flag: str | None,
    config_value: str | None,
    *,
    remembered: str | None = None,
    last_written: str | None = None,
    detect: Callable[[], ClientVersion | None] = detect_claude_version,
) -> TargetVersion:
    """flag > hookman.toml `claude_version` > the remembered earlier flag > `claude --version`
    > the version the settings were last written for (`last_written`: no client answers
    here now, so what was written stays what is written: a guard an earlier install wrote
    for the installed client is never dropped because `claude` is not on this PATH) >
    unknown. `remembered` and `last_written` are ignored when not a version (a hand-edited
    manifest). install, list, enable, fire and doctor all resolve through here."""
    if flag is not None:
        return TargetVersion(_parse_or_refuse(flag, "--claude-version", exit_code=2), "flag")
    if config_value is not None:
        version = _parse_or_refuse(config_value, "claude_version in hookman.toml", exit_code=1)
        return TargetVersion(version, "hookman.toml")
    earlier = _parse_or_none(remembered)
    if earlier is not None:
        detected = detect()
        note = None
        if detected is not None and detected != earlier:
            note = (
                f"`claude --version` says {detected}, but the target stays {earlier}, given "
                f"with --claude-version to an earlier install; pass --claude-version {detected} "
                "to write for the installed client instead."
            )
        return TargetVersion(earlier, "earlier flag", note)
    detected = detect()
    if detected is not None:
        return TargetVersion(detected, "claude --version")
    written = _parse_or_none(last_written)
    if written is not None:
        return TargetVersion(written, "last install")
    return TargetVersion(None, "unknown")


def _parse_or_none(text: str | None) -> ClientVersion | None:
    if text is None:
        return None
    try:
        return parse_version(text)
    except (ValueError, AttributeError):
        return None


def _parse_or_refuse(text: str, where: str, *, exit_code: int) -> ClientVersion:
    try:
        return parse_version(text)
    except ValueError:
        raise HookmanError(
            f"{where} is {text!r}, which is not a Claude Code version.",
            "write it as MAJOR.MINOR.PATCH, e.g. 2.1.328 (see `claude --version`).",
            exit_code=exit_code,
        ) from None
