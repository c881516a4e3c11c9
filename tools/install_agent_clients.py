#!/usr/bin/env python3
"""Install the pinned GitHub Copilot CLI, Qwen Code and Factory droid clients the end-to-end
suite runs against (tests/e2e/agents_harness.py).

Each goes into its own npm prefix outside the repository, the way install_codex_clients.py
does: `$HOOKMAN_E2E_CACHE/<agent>-<version>/node_modules/.bin/<agent>` (default cache:
`~/.cache/hookman-e2e`). A client already there that answers `--version` with the right
version is reused. Standard library only (tools/npm_clients.py); CI runs it before pytest.

    python tools/install_agent_clients.py                 # every pinned client
    python tools/install_agent_clients.py qwen droid      # just those agents
"""

from __future__ import annotations

import argparse
import os
import sys

# The shared installer beside this script (also when the script is loaded by its path).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npm_clients import NpmClient, install_all

# Copilot CLI unpacks its package (about 235 MB) into a cache on first run, `--version`
# included: beside the client, where the E2E harness points every run (COPILOT_PKG_CACHE_HOME,
# tests/e2e/agents_harness.py), so it is unpacked once, here, not into each test's HOME.
COPILOT_CLI = NpmClient(
    "copilot",
    "@github/copilot",
    "GitHub Copilot CLI",
    ("1.0.102",),
    version_env=(
        ("COPILOT_PKG_CACHE_HOME", "{prefix}/pkg-cache"),
        ("COPILOT_AUTO_UPDATE", "false"),
    ),
)
QWEN_CODE = NpmClient("qwen", "@qwen-code/qwen-code", "Qwen Code", ("0.24.4",))
# @factory/cli 0.225.1 names @factory/cli-linux-x64 0.225.1 as its optional platform binary,
# which the registry does not have: 0.225.2 of that package is installed beside it, and the
# binary reports its own version.
FACTORY_DROID = NpmClient(
    "droid",
    "@factory/cli",
    "Factory droid",
    ("0.225.1",),
    extra=(("0.225.1", ("@factory/cli-linux-x64@0.225.2",)),),
    reports=(("0.225.1", "0.225.2"),),
)
AGENT_CLIENTS = {client.name: client for client in (COPILOT_CLI, QWEN_CODE, FACTORY_DROID)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "agents", nargs="*", metavar="AGENT", help=f"agents to install: {', '.join(AGENT_CLIENTS)}"
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.agents if name not in AGENT_CLIENTS]
    if unknown:
        parser.error(f"unknown agent {unknown[0]!r}; choose from {', '.join(AGENT_CLIENTS)}")
    names = args.agents or list(AGENT_CLIENTS)
    chosen = [
        (AGENT_CLIENTS[name], version) for name in names for version in AGENT_CLIENTS[name].pinned
    ]
    return install_all(chosen)


if __name__ == "__main__":
    sys.exit(main())
