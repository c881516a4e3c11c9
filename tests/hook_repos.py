"""Real git hook repositories for the tests (local paths and file:// URLs; no network)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

MANIFEST = """\
[[hooks]]
name = "no-rm-rf"
path = "guards/no_rm_rf.py"
description = "Denies rm -rf."
"""

# Imports its sibling relatively: the words it refuses live in guards/words.py.
GUARD = """\
from .words import REFUSED


def hook(pi):
    def check(event, ctx):
        if REFUSED in event["input"].get("command", ""):
            return {"block": True, "reason": "WORDS"}
    pi.on("tool_call", check, tools=["Bash"])
"""


def git(cwd: Path, *args: str) -> str:
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
        GIT_CONFIG_NOSYSTEM="1",
        HOME=str(cwd),
    )
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


def make_repo(root: Path, *, reason: str = "repo says no", refused: str = "rm -rf") -> Path:
    """A hook repository offering `no-rm-rf` (a guard importing a sibling), tagged v1.0.0."""
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    (root / "hookman-hooks.toml").write_text(MANIFEST)
    (root / "guards").mkdir()
    (root / "guards" / "no_rm_rf.py").write_text(GUARD.replace("WORDS", reason))
    (root / "guards" / "words.py").write_text(f"REFUSED = {refused!r}\n")
    commit(root, "v1.0.0")
    return root


def commit(root: Path, tag: str | None = None, *, annotated: bool = False) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", tag or "change")
    if tag is not None:
        if annotated:
            git(root, "tag", "-a", "-m", tag, tag)
        else:
            git(root, "tag", tag)
    return git(root, "rev-parse", "HEAD")


def release(root: Path, tag: str, *, reason: str, annotated: bool = False) -> str:
    """A new release whose guard denies with `reason`."""
    (root / "guards" / "no_rm_rf.py").write_text(GUARD.replace("WORDS", reason))
    return commit(root, tag, annotated=annotated)
