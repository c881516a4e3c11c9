#!/usr/bin/env python3
"""Install the pinned Claude Code clients the end-to-end suite runs against.

Each version goes into its own npm prefix outside the repository:
`$HOOKMAN_E2E_CACHE/claude-<version>/node_modules/.bin/claude` (default cache:
`~/.cache/hookman-e2e`). A client already there that answers `claude --version` with the right
version is reused. Standard library only (tools/npm_clients.py); CI runs it before pytest.

    python tools/install_claude_clients.py             # every pinned version
    python tools/install_claude_clients.py 2.1.328     # just one
"""

from __future__ import annotations

import os
import sys

# The shared installer beside this script (also when the script is loaded by its path).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npm_clients import NpmClient, main

PINNED_VERSIONS = ("2.1.328", "2.1.197", "2.1.332")
CLAUDE_CODE = NpmClient(
    "claude",
    "@anthropic-ai/claude-code",
    "Claude Code",
    PINNED_VERSIONS,
    (("DISABLE_AUTOUPDATER", "1"),),
)

if __name__ == "__main__":
    sys.exit(main(CLAUDE_CODE, __doc__.split("\n\n")[0]))
