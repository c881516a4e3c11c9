#!/usr/bin/env python3
"""Install the pinned Codex CLI clients the end-to-end suite runs against.

Each version goes into its own npm prefix outside the repository:
`$HOOKMAN_E2E_CACHE/codex-<version>/node_modules/.bin/codex` (default cache:
`~/.cache/hookman-e2e`). A client already there that answers `codex --version` with the right
version is reused. Standard library only; CI runs it before pytest.

    python tools/install_codex_clients.py             # every pinned version
    python tools/install_codex_clients.py 0.171.0     # just one
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

PINNED_VERSIONS = ("0.171.0", "0.150.0")
PACKAGE = "@openai/codex"
NPM_TIMEOUT_S = 900
VERSION_TIMEOUT_S = 60


class InstallError(Exception):
    """One clear sentence about why a client could not be installed."""


def cache_root() -> Path:
    override = os.environ.get("HOOKMAN_E2E_CACHE")
    return Path(override).expanduser() if override else Path.home() / ".cache" / "hookman-e2e"


def client_dir(version: str, root: Path) -> Path:
    return root / f"codex-{version}"


def client_binary(version: str, root: Path) -> Path:
    return client_dir(version, root) / "node_modules" / ".bin" / "codex"


def installed_version(binary: Path) -> str | None:
    """The version `codex --version` reports ("0.171.0" of `codex-cli 0.171.0`), or None
    if it does not run."""
    if not binary.exists():
        return None
    try:
        done = subprocess.run(
            [str(binary), "--version"],
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = done.stdout.split()
    return words[-1] if done.returncode == 0 and words else None


def ensure_client(version: str, root: Path) -> str:
    """Install `version` unless present; return what was done, for the user to read."""
    binary = client_binary(version, root)
    if installed_version(binary) == version:
        return f"Codex CLI {version}: already installed at {binary}"
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError(f"Cannot install Codex CLI {version}: npm is not on PATH.")
    target = client_dir(version, root)
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    command = [npm, "install", "--prefix", str(target), "--save-exact", "--no-audit"]
    command += ["--no-fund", "--loglevel=error", f"{PACKAGE}@{version}"]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=NPM_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired as error:
        raise InstallError(
            f"npm did not install Codex CLI {version} within {NPM_TIMEOUT_S} s."
        ) from error
    (target / "npm.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode != 0:
        last_line = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise InstallError(
            f"npm could not install Codex CLI {version} ({last_line}); see {target / 'npm.log'}."
        )
    found = installed_version(binary)
    if found != version:
        raise InstallError(
            f"Codex CLI {version} was installed at {binary} but reports version {found!r}."
        )
    return f"Codex CLI {version}: installed at {binary}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "versions", nargs="*", default=list(PINNED_VERSIONS), help="versions to install"
    )
    args = parser.parse_args(argv)
    root = cache_root()
    failed = False
    for version in args.versions:
        try:
            print(ensure_client(version, root), flush=True)
        except (InstallError, OSError) as error:
            print(f"error: {error}", file=sys.stderr, flush=True)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
