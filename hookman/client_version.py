"""Which Claude Code version hookman writes settings for.

The target comes from, in order: the `--claude-version` flag, `claude_version` in
hookman.toml, the `--claude-version` given to the last install or remove that wrote the
project's settings (remembered in its manifest, so what was written, what `list` reports and
what the next install keeps agree), `claude --version`, else unknown (None). When a
remembered target and `claude --version` disagree, the remembered one still wins (the user
chose it; a client found on PATH may not be the one they run), and the target says so in a
note naming the command that follows the installed client instead. Standard library only.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from hookman.errors import HookmanError

DETECT_TIMEOUT_S = 3.0

VersionSource = Literal["flag", "hookman.toml", "earlier flag", "claude --version", "unknown"]

_VERSION_PATTERN = re.compile(r"(?<![\d.])(\d+)\.(\d+)\.(\d+)(?![\d.])")
_USER_VERSION_PATTERN = re.compile(r"v?(\d+)\.(\d+)\.(\d+)(?:\s+\(.*\))?")


@dataclass(frozen=True, order=True)
class ClientVersion:
    major: int
    minor: int
    patch: int

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"


@dataclass(frozen=True)
class TargetVersion:
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
        return f"{self.version} (from {self.source})"


def find_version(text: str) -> ClientVersion | None:
    """The first MAJOR.MINOR.PATCH in `text` (e.g. "2.1.328 (Claude Code)"), or None."""
    match = _VERSION_PATTERN.search(text)
    if match is None:
        return None
    major, minor, patch = (int(part) for part in match.groups())
    return ClientVersion(major, minor, patch)


def parse_version(text: str) -> ClientVersion:
    """Parse a version the user wrote (flag or hookman.toml). Raises ValueError when it is
    not MAJOR.MINOR.PATCH, optionally followed by a label."""
    match = _USER_VERSION_PATTERN.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"not a Claude Code version: {text!r}")
    major, minor, patch = (int(part) for part in match.groups())
    return ClientVersion(major, minor, patch)


def detect_claude_version(timeout: float = DETECT_TIMEOUT_S) -> ClientVersion | None:
    """Ask `claude --version`. Missing, failing, slow or unparsable -> None."""
    program = shutil.which("claude")
    if program is None:
        return None
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


def resolve_target(
    flag: str | None,
    config_value: str | None,
    *,
    remembered: str | None = None,
    detect: Callable[[], ClientVersion | None] = detect_claude_version,
) -> TargetVersion:
    """flag > hookman.toml `claude_version` > the remembered earlier flag > `claude --version`
    > unknown. `remembered` is ignored when it is not a version (a hand-edited manifest)."""
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
