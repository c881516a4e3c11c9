"""A stand-in `codex` for unit tests: `--version`, and an `app-server` speaking the JSON-RPC
that hookman/agents/codex_app_server.py uses (as measured on Codex 0.150.0 and 0.171.0).

It lists the hooks of `<cwd>/.codex/hooks.json` when `$CODEX_HOME/trusted-projects` names
the cwd, and those of the user layer's `$CODEX_HOME/hooks.json` always (as Codex does), with a
hash of each handler's command (a stand-in: hookman never computes it), and
records `config/batchWrite` upserts of `hooks.state` in `$CODEX_HOME/hooks-state.json`.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from pathlib import Path

VERSION = "0.171.0"


def install_fake_codex(bin_dir: Path, codex_home: Path) -> Path:
    """Write the `codex` program into `bin_dir`; return it."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    codex_home.mkdir(parents=True, exist_ok=True)
    program = bin_dir / "codex"
    program.write_text(f"#!{sys.executable}\n" + Path(__file__).read_text(), encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program


def trust_project(codex_home: Path, project: Path) -> None:
    with (codex_home / "trusted-projects").open("a") as handle:
        handle.write(f"{project}\n")


def trust_state(codex_home: Path) -> dict[str, str]:
    path = codex_home / "hooks-state.json"
    return json.loads(path.read_text()) if path.exists() else {}


def _hooks(cwd: str, home: Path) -> list[dict[str, object]]:
    trusted_projects = home / "trusted-projects"
    projects = trusted_projects.read_text().split("\n") if trusted_projects.exists() else []
    files = [home / "hooks.json"]
    if cwd in projects:
        files.append(Path(cwd) / ".codex" / "hooks.json")
    return [hook for path in files if path.exists() for hook in _file_hooks(path, home)]


def _file_hooks(path: Path, home: Path) -> list[dict[str, object]]:
    state = trust_state(home)
    found = []
    events = json.loads(path.read_text()).get("hooks", {})
    for event, groups in events.items():
        snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in event).lstrip("_")
        for g, group in enumerate(groups):
            for h, handler in enumerate(group.get("hooks", [])):
                key = f"{path}:{snake}:{g}:{h}"
                digest = "sha256:" + hashlib.sha256(handler["command"].encode()).hexdigest()
                found.append(
                    {
                        "key": key,
                        "eventName": event[0].lower() + event[1:],
                        "command": handler["command"],
                        "sourcePath": str(path),
                        "currentHash": digest,
                        "trustStatus": "trusted" if state.get(key) == digest else "untrusted",
                    }
                )
    return found


def main() -> int:
    home = Path(os.environ.get("CODEX_HOME", Path.home() / ".codex"))
    if sys.argv[1:] == ["--version"]:
        print(f"codex-cli {VERSION}")
        return 0
    if sys.argv[1:] != ["app-server"]:
        return 2
    for line in sys.stdin:
        message = json.loads(line)
        method, ident = message.get("method"), message.get("id")
        if ident is None:
            continue
        print(json.dumps({"method": "configWarning", "params": {"summary": "noise"}}), flush=True)
        if method == "initialize":
            result: dict[str, object] = {"userAgent": "fake", "codexHome": str(home)}
        elif method == "hooks/list":
            cwd = message["params"]["cwds"][0]
            result = {"data": [{"cwd": cwd, "hooks": _hooks(cwd, home), "errors": []}]}
        elif method == "config/batchWrite":
            state = trust_state(home)
            for edit in message["params"]["edits"]:
                assert edit["keyPath"] == "hooks.state" and edit["mergeStrategy"] == "upsert"
                for key, value in edit["value"].items():
                    state[key] = value["trusted_hash"]
            (home / "hooks-state.json").write_text(json.dumps(state))
            result = {"status": "ok", "filePath": str(home / "config.toml")}
        else:
            print(json.dumps({"id": ident, "error": {"message": "unknown method"}}), flush=True)
            continue
        print(json.dumps({"id": ident, "result": result}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
