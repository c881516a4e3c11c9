"""`.claude/hookman-pins.json`: the commit each hook repository's `rev` resolved to.

Committed beside hookman.toml, so a teammate's `hookman install` fetches the very commit
the first install ran, never what the tag names today: a tag moved on the server changes
nothing until someone runs `hookman autoupdate` (or edits the rev). One record per
(repo, rev) that hookman.toml uses; install drops the others.

    {"format": 1, "pins": [{"repo": "https://...", "rev": "v1.2.0",
                            "commit": "<40 hex>", "ref": "tag"}]}

`ref` is what the rev was when resolved: "tag", "branch" (not pinned: doctor says so) or
"commit" (a full SHA in hookman.toml).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from hookman.atomic_file import write_text_if_changed
from hookman.errors import HookmanError
from hookman.project.location import CLAUDE_DIR

PINS_NAME = "hookman-pins.json"
PINS_FORMAT = 1
_DISPLAY = f"{CLAUDE_DIR}/{PINS_NAME}"
_SHA_CHARS = frozenset("0123456789abcdef")


class Pin(NamedTuple):
    repo: str
    rev: str
    commit: str
    ref: str


def pins_path(project_dir: Path) -> Path:
    return project_dir / CLAUDE_DIR / PINS_NAME


def read_pins(project_dir: Path) -> dict[tuple[str, str], Pin]:
    """(repo, rev) -> its pin; {} when there is no file. A file that is not a pins file is
    refused (never rewritten)."""
    path = pins_path(project_dir)
    from hookman.bridge.state_file import read_regular

    try:
        text = read_regular(str(path), follow=True).decode("utf-8")  # a FIFO never stalls it
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise HookmanError(f"cannot read {_DISPLAY}: {error}.", "check the file.") from None
    try:
        data = json.loads(text)
        records = data["pins"] if data.get("format") == PINS_FORMAT else None
        pins = [_pin(record) for record in records]  # type: ignore[union-attr]
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise HookmanError(
            f"{_DISPLAY} is not a hookman pins file.",
            f"restore it from git (`git checkout -- {_DISPLAY}`), or delete it and run "
            "`hookman install` to pin each rev again.",
        ) from None
    return {(pin.repo, pin.rev): pin for pin in pins}


def _pin(record: dict[str, str]) -> Pin:
    pin = Pin(str(record["repo"]), str(record["rev"]), str(record["commit"]), str(record["ref"]))
    if len(pin.commit) != 40 or not set(pin.commit) <= _SHA_CHARS:
        raise ValueError(pin.commit)
    return pin


def pins_text(pins: dict[tuple[str, str], Pin]) -> str:
    records = [pin._asdict() for _, pin in sorted(pins.items())]
    return json.dumps({"format": PINS_FORMAT, "pins": records}, indent=2) + "\n"


def write_pins(project_dir: Path, pins: dict[tuple[str, str], Pin]) -> bool:
    """Write the pins (the file is removed when there are none); whether anything changed."""
    path = pins_path(project_dir)
    if not pins:
        if path.exists():
            path.unlink()
            return True
        return False
    try:
        return write_text_if_changed(path, pins_text(pins))
    except OSError as error:
        raise HookmanError(
            f"hookman cannot write {_DISPLAY}: {error.strerror or error}.",
            "check that .claude/ is writable, then run the command again.",
        ) from error
