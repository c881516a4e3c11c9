"""What the server itself needs of a project's installed manifest to answer for a child that
gave no answer: whether the event is guarded, and the hard deadline after which it stops
waiting. Read once per manifest version (its stat), as the runner would read it."""

from __future__ import annotations

import os

from hookman.bridge.client_facts import GUARDED_WITHOUT_MANIFEST
from hookman.bridge.manifest_reader import Manifest, read_manifest

# Seconds the server waits for a child when the manifest gives the entry no timeout.
DEFAULT_TIMEOUT_S = 60.0
# Of what is left between the runner's hard stop and the entry's timeout, the part the
# server still waits (the runner's own deadline and hard stop, which say more, come first;
# the client's timeout, counted from before the request reached the server, comes after).
WAIT_PAST_HARD_STOP = 0.5
CACHE_LIMIT = 256


class EventFacts:
    __slots__ = ("guarded", "project_dir", "seconds")

    def __init__(self, guarded: bool, seconds: float, project_dir: str | None = None) -> None:
        self.guarded = guarded
        self.seconds = seconds  # the hard deadline, from the request's arrival
        # The installed project's directory: the CLAUDE_PROJECT_DIR its hooks get (the client
        # sends none with an http entry: docs/claude-code-facts.md). None: no manifest.
        self.project_dir = project_dir


class ManifestFacts:
    """Installed manifests by path, re-read when their stat changes."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[tuple[int, int, int], Manifest | None]] = {}

    def manifest(self, path: str) -> Manifest | None:
        try:
            info = os.stat(path)
            key = (info.st_mtime_ns, info.st_size, info.st_ino)
        except OSError:
            return None
        cached = self._cache.get(path)
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            manifest: Manifest | None = read_manifest(path)
        except Exception:  # a planted file (RecursionError, MemoryError...): no manifest
            manifest = None
        if len(self._cache) >= CACHE_LIMIT:
            self._cache.clear()
        self._cache[path] = (key, manifest)
        return manifest

    def for_event(self, path: str, event: str, run_async: bool) -> EventFacts:
        manifest = self.manifest(path)
        if manifest is None:
            return EventFacts(
                event in GUARDED_WITHOUT_MANIFEST and not run_async, DEFAULT_TIMEOUT_S
            )
        guarded = manifest.client.is_guarded(event) and not run_async
        seconds = hard_deadline(manifest, event, run_async)
        return EventFacts(guarded, seconds, manifest.project_dir)


def hard_deadline(manifest: Manifest, event: str, run_async: bool) -> float:
    """The entry's timeout less a margin: past the runner's hard stop (its own deny names
    the hook that hangs), before the client gives up on the request."""
    timeout = manifest.timeout_for(event, run_async)
    if timeout is None:
        return DEFAULT_TIMEOUT_S
    hard_stop = manifest.hard_stop_for(event, run_async)
    if hard_stop is None:
        return timeout * 0.95
    return hard_stop + (timeout - hard_stop) * WAIT_PAST_HARD_STOP
