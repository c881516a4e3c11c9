"""A small client of `codex app-server`: which hooks Codex sees, and recording trust in them.

Codex runs a non-managed hook only when CODEX_HOME/config.toml trusts its current
definition (`[hooks.state."<key>"] trusted_hash = ...`); an untrusted hook is skipped
silently. hookman never computes that hash: it asks Codex, through the app server's
supported JSON-RPC interface (one JSON object per line on stdin/stdout), measured on Codex
0.150.0 and 0.171.0:

- `initialize` (params `{"clientInfo": {"name", "version"}}`), then the `initialized`
  notification: the handshake every session starts with;
- `hooks/list` (params `{"cwds": [DIR]}`): per cwd, the hooks Codex would load there, each
  with `key` ("<hooks.json path>:<event_snake>:<group index>:<handler index>"), `command`,
  `sourcePath`, `currentHash` and `trustStatus` ("trusted", "untrusted", ...). A project
  Codex does not trust lists no project hooks at all;
- `config/batchWrite` (params `{"edits": [{"keyPath": "hooks.state", "value": {KEY:
  {"trusted_hash": HASH}}, "mergeStrategy": "upsert"}]}`): records trust in the user's
  config.toml, as Codex's own review does.

The API (stable; doctor builds on it):

    list_hooks(cwd) -> list[CodexHook]       # key, command, source_path, current_hash,
                                             # trust_status, event_name
    trust([(key, current_hash), ...]) -> str # the config file Codex wrote

Both raise CodexAppServerError (one sentence) when Codex is not on PATH, does not answer in
time, or answers with an error. `codex` is found on PATH (or given as `program`), and runs
with the caller's environment (CODEX_HOME chooses the config it reads and writes).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from collections.abc import Sequence
from typing import Any, NamedTuple

TIMEOUT_S = 30.0
CLIENT_NAME = "hookman"
TRUSTED = "trusted"


class CodexAppServerError(Exception):
    """Codex's app server could not answer: one sentence saying why."""


class CodexHook(NamedTuple):
    """One hook as `hooks/list` reports it."""

    key: str
    command: str
    source_path: str
    current_hash: str
    trust_status: str
    event_name: str

    @property
    def trusted(self) -> bool:
        return self.trust_status == TRUSTED


def find_codex(program: str | None = None) -> str | None:
    """The `codex` program to run (None when it is not on PATH)."""
    return program if program is not None else shutil.which("codex")


def list_hooks(cwd: str, *, program: str | None = None) -> list[CodexHook]:
    """The hooks Codex would load in `cwd` (all sources: user, project, plugins)."""
    with _Session(program, cwd) as session:
        result = session.call("hooks/list", {"cwds": [cwd]})
    hooks: list[CodexHook] = []
    for entry in _records(result.get("data")):
        for item in _records(entry.get("hooks")):
            hooks.append(
                CodexHook(
                    key=str(item.get("key") or ""),
                    command=str(item.get("command") or ""),
                    source_path=str(item.get("sourcePath") or ""),
                    current_hash=str(item.get("currentHash") or ""),
                    trust_status=str(item.get("trustStatus") or ""),
                    event_name=str(item.get("eventName") or ""),
                )
            )
    return hooks


def trust(keys_hashes: Sequence[tuple[str, str]], *, program: str | None = None) -> str:
    """Record trust in each (key, current hash) from `list_hooks`; the config file written."""
    if not keys_hashes:
        return ""
    value = {key: {"trusted_hash": current_hash} for key, current_hash in keys_hashes}
    edit = {"keyPath": "hooks.state", "value": value, "mergeStrategy": "upsert"}
    with _Session(program, os.getcwd()) as session:
        result = session.call("config/batchWrite", {"edits": [edit]})
    if result.get("status") != "ok":
        raise CodexAppServerError(f"Codex did not record the trust ({result.get('status')!r}).")
    return str(result.get("filePath") or "")


def _records(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


class _Session:
    """One `codex app-server` process, handshake done, for a few calls."""

    def __init__(self, program: str | None, cwd: str) -> None:
        found = find_codex(program)
        if found is None:
            raise CodexAppServerError("no `codex` program is on PATH.")
        self._program = found
        self._cwd = cwd
        self._next_id = 0
        self._process: subprocess.Popen[str] | None = None
        self._timer: threading.Timer | None = None

    def __enter__(self) -> _Session:
        try:
            self._process = subprocess.Popen(
                [self._program, "app-server"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="replace",
                cwd=self._cwd if os.path.isdir(self._cwd) else None,
                env=_environment(),
            )
        except OSError as error:
            raise CodexAppServerError(
                f"`{self._program} app-server` could not start: {error.strerror or error}."
            ) from error
        self._timer = threading.Timer(TIMEOUT_S, self._process.kill)
        self._timer.daemon = True
        self._timer.start()
        self.call("initialize", {"clientInfo": {"name": CLIENT_NAME, "version": _version()}})
        self._send({"jsonrpc": "2.0", "method": "initialized"})
        return self

    def __exit__(self, *exc: object) -> None:
        process = self._process
        if process is None:
            return
        if self._timer is not None:
            self._timer.cancel()
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._next_id += 1
        request_id = self._next_id
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if not isinstance(message, dict) or message.get("id") != request_id:
                continue  # a notification (warnings, status) or another answer
            if "error" in message:
                error = message["error"]
                text = error.get("message") if isinstance(error, dict) else error
                raise CodexAppServerError(f"Codex refused `{method}`: {text}.")
            result = message.get("result")
            return result if isinstance(result, dict) else {}
        raise CodexAppServerError(
            f"Codex's app server ended (or took over {TIMEOUT_S:g} s) before answering `{method}`."
        )

    def _send(self, message: dict[str, Any]) -> None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps(message) + "\n")
            self._process.stdin.flush()
        except OSError as error:
            raise CodexAppServerError(
                f"Codex's app server stopped reading ({error.strerror or error})."
            ) from error


def _environment() -> dict[str, str]:
    """The caller's environment, with CODEX_HOME as hookman reads it (paths.codex_home: a ~
    or a relative path would otherwise mean another directory to a Codex started in `cwd`)."""
    environment = dict(os.environ)
    if environment.get("CODEX_HOME"):
        from hookman.paths import codex_home

        environment["CODEX_HOME"] = str(codex_home())
    return environment


def _version() -> str:
    from hookman import __version__

    return __version__
