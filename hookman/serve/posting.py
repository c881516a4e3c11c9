"""The projects whose Claude Code entries still post to a port: this user's installed
manifest of the project records the port (`"serve": {"port": PORT}`, written by install while
the user opts in) and the project's settings.local.json still holds an http entry for it.

While any project does, the port stays this user's (serve/keeper.py), even once the user
opted out (`hookman serve disable`): an entry posting to a free port would let any process
that takes it answer the project's guarded calls with `{}`. `hookman install` in the project
moves its entries back to command entries (and its manifest forgets the port)."""

from __future__ import annotations

import os

from hookman.bridge import lean_json
from hookman.bridge.protocol import MANIFEST_SERVE_KEY
from hookman.bridge.state_file import read_regular
from hookman.serve import wire

SETTINGS = os.path.join(".claude", "settings.local.json")


def posting_projects(port: int) -> list[str]:
    """The directories of the projects whose entries post to `port`, in name order."""
    from hookman.user_dirs import user_dir

    projects = os.path.join(user_dir("state"), "projects")
    try:
        names = sorted(os.listdir(projects))
    except OSError:
        return []
    found = []
    for name in names:
        project = _posting_project(os.path.join(projects, name, "manifest.json"), port)
        if project is not None:
            found.append(project)
    return found


def _posting_project(manifest_path: str, port: int) -> str | None:
    try:
        data = read_regular(manifest_path)
    except OSError:
        return None
    if f'"{MANIFEST_SERVE_KEY}"'.encode() not in data:
        return None  # (most manifests: no parse)
    try:
        manifest = lean_json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(manifest, dict):
        return None
    section, project = manifest.get(MANIFEST_SERVE_KEY), manifest.get("project_dir")
    if not isinstance(section, dict) or section.get("port") != port:
        return None
    if not isinstance(project, str) or not _posts_to(project, port):
        return None
    return project


def _posts_to(project: str, port: int) -> bool:
    """Whether the project's settings.local.json holds an http entry for `port` (its bytes
    name the entry's URL; a file that cannot be read holds none the client could run)."""
    try:
        text = read_regular(os.path.join(project, SETTINGS), follow=True)
    except OSError:
        return False
    return wire.hook_url(port, "").encode() in text
