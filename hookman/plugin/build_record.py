"""The build record a plugin hookman built carries (`hookman-runner/build.json`): doctor
reads it to know hookman's plugins without importing the builder."""

from __future__ import annotations

import json
import re
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


# hooks/since-V.json: the events a build put in a file of their own for clients V and newer
_SINCE_FILE = re.compile(r"hooks/since-(\d+\.\d+\.\d+)\.json")


def built_for_newer_client(root: Path, record: dict[str, Any], hooks_file: Path) -> str | None:
    """The client version V of `hooks_file` when it is a per-version hooks file hookman built
    into the plugin at `root` (hooks/since-V.json, named in the record) and unchanged since
    (its digest is the record's); None for anything else, a hand-edited file included."""
    relative = unchanged_built_file(root, record, hooks_file)
    match = None if relative is None else _SINCE_FILE.fullmatch(relative)
    return None if match is None else match.group(1)


def unchanged_built_file(root: Path, record: dict[str, Any], path: Path) -> str | None:
    """`path` relative to the plugin `root` when the build wrote it and it is unchanged
    since (its digest is the record's); None otherwise."""
    try:
        relative = path.relative_to(root).as_posix()
        digest = record["files"].get(relative)
        text = path.read_text(encoding="utf-8") if isinstance(digest, str) else None
    except (ValueError, OSError, UnicodeDecodeError):
        return None
    import hashlib  # here: OpenSSL costs doctor milliseconds, and most projects have no plugin

    if text is None or hashlib.sha256(text.encode("utf-8")).hexdigest() != digest:
        return None
    return relative
