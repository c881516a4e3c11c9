#!/usr/bin/env python3
"""Install the pinned Codex CLI clients the end-to-end suite runs against.

Each version goes into its own npm prefix outside the repository:
`$HOOKMAN_E2E_CACHE/codex-<version>/node_modules/.bin/codex` (default cache:
`~/.cache/hookman-e2e`). A client already there that answers `codex --version` with the right
version is reused. Standard library only (tools/npm_clients.py); CI runs it before pytest.

    python tools/install_codex_clients.py             # every pinned version
    python tools/install_codex_clients.py 0.171.0     # just one
"""

from __future__ import annotations

import os
import sys

# The shared installer beside this script (also when the script is loaded by its path).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npm_clients import NpmClient, main

PINNED_VERSIONS = ("0.171.0", "0.150.0")
CODEX_CLI = NpmClient("codex", "@openai/codex", "Codex CLI", PINNED_VERSIONS)

if __name__ == "__main__":
    sys.exit(main(CODEX_CLI, __doc__.split("\n\n")[0]))
