"""Installs pinned npm clients for the end-to-end suite (install_claude_clients.py,
install_codex_clients.py, install_agent_clients.py): each version in its own npm prefix
outside the repository, `$HOOKMAN_E2E_CACHE/<name>-<version>/node_modules/.bin/<name>`
(default cache: `~/.cache/hookman-e2e`), reused when it answers `<name> --version` with that
version. Standard library only; CI runs the scripts before pytest."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

NPM_TIMEOUT_S = 900
VERSION_TIMEOUT_S = 60


class InstallError(Exception):
    """One clear sentence about why a client could not be installed."""


class NpmClient(NamedTuple):
    """One client: its program `name`, the npm `package`, how it is called in messages
    (`title`), the pinned versions, and extra environment for `--version` (where "{prefix}"
    stands for the version's npm prefix); `extra` names
    packages (`name@version`) installed beside a pinned version of it (a platform binary
    the package's own optional dependency cannot supply), and `reports` the version its
    `--version` answers when that is not the package's own."""

    name: str
    package: str
    title: str
    pinned: tuple[str, ...]
    version_env: tuple[tuple[str, str], ...] = ()
    extra: tuple[tuple[str, tuple[str, ...]], ...] = ()
    reports: tuple[tuple[str, str], ...] = ()

    def extra_packages(self, version: str) -> tuple[str, ...]:
        return dict(self.extra).get(version, ())

    def reported_version(self, version: str) -> str:
        return dict(self.reports).get(version, version)


def cache_root() -> Path:
    override = os.environ.get("HOOKMAN_E2E_CACHE")
    return Path(override).expanduser() if override else Path.home() / ".cache" / "hookman-e2e"


def client_dir(client: NpmClient, version: str, root: Path) -> Path:
    return root / f"{client.name}-{version}"


def client_binary(client: NpmClient, version: str, root: Path) -> Path:
    return client_dir(client, version, root) / "node_modules" / ".bin" / client.name


def installed_version(client: NpmClient, binary: Path) -> str | None:
    """The version `binary --version` reports: the word holding a digit-dot version
    ("2.1.328 (Claude Code)", "codex-cli 0.171.0", "GitHub Copilot CLI 1.0.102."), or None
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
            # "{prefix}" in a value is the client's own npm prefix (name-version/).
            env={
                **os.environ,
                **{
                    key: value.format(prefix=binary.parents[2]) for key, value in client.version_env
                },
            },
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    # "GitHub Copilot CLI 1.0.102." ends its sentence with a period.
    words = [word.rstrip(".,") for word in done.stdout.split()]
    words = [word for word in words if word[:1].isdigit() and "." in word]
    return words[0] if words else None


def ensure_client(client: NpmClient, version: str, root: Path) -> str:
    """Install `version` unless present; return what was done, for the user to read."""
    title = f"{client.title} {version}"
    binary = client_binary(client, version, root)
    expected = client.reported_version(version)
    if installed_version(client, binary) == expected:
        return f"{title}: already installed at {binary}"
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError(f"Cannot install {title}: npm is not on PATH.")
    target = client_dir(client, version, root)
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    command = [npm, "install", "--prefix", str(target), "--save-exact", "--no-audit"]
    command += ["--no-fund", "--loglevel=error", f"{client.package}@{version}"]
    command += list(client.extra_packages(version))
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=NPM_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired as error:
        raise InstallError(f"npm did not install {title} within {NPM_TIMEOUT_S} s.") from error
    (target / "npm.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode != 0:
        last_line = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise InstallError(
            f"npm could not install {title} ({last_line}); see {target / 'npm.log'}."
        )
    found = installed_version(client, binary)
    if found != expected:
        raise InstallError(f"{title} was installed at {binary} but reports version {found!r}.")
    return f"{title}: installed at {binary}"


def main(client: NpmClient, description: str, argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "versions", nargs="*", default=list(client.pinned), help="versions to install"
    )
    args = parser.parse_args(argv)
    return install_all([(client, version) for version in args.versions])


def install_all(chosen: Sequence[tuple[NpmClient, str]]) -> int:
    """Install each (client, version) unless present; 1 when any failed, after trying all."""
    root = cache_root()
    failed = False
    for client, version in chosen:
        try:
            print(ensure_client(client, version, root), flush=True)
        except (InstallError, OSError) as error:
            print(f"error: {error}", file=sys.stderr, flush=True)
            failed = True
    return 1 if failed else 0
