"""Loads every hook of a staged plugin the way the plugin's runner will, before build moves
it in: a child `python -I -S` with the plugin's own `lib/` first, then the site read as the
runner reads it (this interpreter's site-packages stand for the machine's), the plugin's
manifest read by the runner's reader, each hook loaded by the runtime loader (a repository
hook through the digest check). What fails to load there, or loads a
module from the project (which the plugin does not carry), is refused at build with one
sentence naming the hook; nothing is written.

Loading tells what a hook imports: no import parser guesses at it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from hookman.errors import HookmanError

CHECK_TIMEOUT_S = 20.0

# Runs in the child: argv = lib directory, manifest path. One JSON document on the real
# stdout; whatever a hook prints goes to stderr.
_CHILD_CODE = r"""
import json, os, sys
answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
sys.stdout = sys.stderr
lib, manifest_path = sys.argv[1:3]
sys.path.insert(0, lib)
from hookman.bridge.manifest_reader import read_manifest
from hookman.bridge.site_start import start_site
from hookman.runtime.loader import load_hooks
start_site()  # as the plugin's runner does once its clock runs: the machine's site-packages
manifest = read_manifest(manifest_path)
found = []
for hook in manifest.hooks:
    before = set(sys.modules)
    result = load_hooks([hook.path], os.getcwd(), hook.package_root, digests=hook.digests)
    sources = sorted({getattr(sys.modules[name], "__file__", None) or ""
                      for name in list(sys.modules) if name not in before} - {""})
    found.append({"name": hook.name, "errors": [e.error for e in result.errors],
                  "sources": sources})
json.dump(found, answer)
answer.flush()
"""


@dataclass
class HookLoad:
    name: str
    errors: list[str]
    sources: list[str]


def check_plugin_loads(runner_dir: Path, manifest_name: str, lib_dir: str, cwd: Path) -> None:
    """Refuse (HookmanError) a staged plugin whose hooks do not load from its own files."""
    loads = _run_child(runner_dir, manifest_name, lib_dir, cwd)
    for load in loads:
        if load.errors:
            raise _cannot_load(load.name, load.errors[0])
        outside = [path for path in load.sources if _outside(Path(path), runner_dir, cwd)]
        if outside:
            raise HookmanError(
                f"the hook {load.name!r} imports {outside[0]}, a module of the project that "
                "a plugin does not carry; no plugin was built.",
                "move the module into a hook repository with the hook (`hookman new NAME "
                "--repo DIR`; a plugin carries a repository hook's whole repository), or "
                "leave the hook out with --hooks.",
            )


def _cannot_load(name: str, error: str) -> HookmanError:
    from hookman.runtime.loader import LOAD_FAILED_PREFIX

    shown = error.removeprefix(LOAD_FAILED_PREFIX)
    shown = shown if len(shown) <= 400 else shown[:399] + "…"
    return HookmanError(
        f"the hook {name!r} does not load from the plugin's own files ({shown}); no plugin "
        "was built.",
        "a plugin carries a path hook's module alone and a repository hook's whole "
        "repository: put the modules a hook imports in a hook repository with it "
        "(`hookman new NAME --repo DIR`), or leave the hook out with --hooks.",
    )


def _outside(path: Path, runner_dir: Path, project_dir: Path) -> bool:
    """A module file under the project but not in the plugin (the stdlib and site-packages
    of the machine are the user's python3's, warned about by carry.py)."""
    resolved = path.resolve()
    for base in (runner_dir.resolve(), Path(sys.prefix).resolve(), Path(sys.base_prefix)):
        if resolved.is_relative_to(base.resolve()):
            return False
    return resolved.is_relative_to(project_dir.resolve())


def _run_child(runner_dir: Path, manifest_name: str, lib_dir: str, cwd: Path) -> list[HookLoad]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    env["CLAUDE_PROJECT_DIR"] = str(cwd)
    command = [
        sys.executable,
        "-I",
        "-S",
        "-B",
        "-c",
        _CHILD_CODE,
        str(runner_dir / lib_dir),
        str(runner_dir / manifest_name),
    ]
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=CHECK_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        out, err = b"", f"loading took over {CHECK_TIMEOUT_S:g} s".encode()
    finally:
        _kill_group(process.pid)
        if process.poll() is None:
            process.kill()
            process.wait()
    try:
        data = json.loads(out.decode("utf-8"))
        return [HookLoad(str(d["name"]), list(d["errors"]), list(d["sources"])) for d in data]
    except (ValueError, KeyError, TypeError):
        last = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no answer"]
        raise HookmanError(
            f"hookman could not load the plugin's hooks to check them ({last[0]}); no plugin "
            "was built.",
            "check each hook with `hookman fire PreToolUse`, then build again.",
        ) from None


def _kill_group(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
