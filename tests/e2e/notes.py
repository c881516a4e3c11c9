"""What the real-client suite says at its end: how the clients' network was isolated, and
which pinned clients were missing (Claude Code, Codex CLI, and the other agents by name).
The e2e fixtures fill it; tests/conftest.py prints it, after gathering it from every
pytest-xdist worker (only the controller prints a summary)."""

from __future__ import annotations

ISOLATION: list[str] = []
MISSING_CLAUDE: dict[str, str] = {}
MISSING_CODEX: dict[str, str] = {}
MISSING_AGENTS: dict[str, str] = {}
