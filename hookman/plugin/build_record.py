"""The build record a plugin hookman built carries (`hookman-runner/build.json`): doctor
reads it to know hookman's plugins without importing the builder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookman.plugin.launcher import RUNNER_DIR

RECORD = f"{RUNNER_DIR}/build.json"
BUILT_BY = "hookman"


def read_build_record(root: Path) -> dict[str, Any] | None:
    """The build record of a plugin hookman built (None for anything else)."""
    try:
        data = json.loads((root / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("built_by") != BUILT_BY:
        return None
    if not isinstance(data.get("files"), dict):
        return None
    return data
