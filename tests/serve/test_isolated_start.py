"""The server's start is isolated: whatever starts it (the prompt gate, `hookman serve
start`, `hookman serve run`), a `hookman` package in the starting directory or on PYTHONPATH
is never the server (a project's own would answer every project's guards), and the hooks of
its children still import from the interpreter's site-packages."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookman.bridge.serve_proof import OURS
from tests.client_shell import as_client

from .served import GUARD, START_WAIT_S, Served, deny_reason

# A planted `hookman.serve.daemon`: notes that it ran, then answers nothing.
PLANTED = """
import os
with open(os.environ["PLANTED_MARKER"], "a") as marker:
    marker.write("planted daemon ran\\n")
def main(argv=None):
    return 0
def foreground_words(port):
    return []
"""

# A hook that imports a package only the interpreter's site-packages holds (tomlkit, one of
# hookman's own dependencies: not in hookman's source directory of an editable install).
IMPORTS_SITE = """
def after(event, ctx):
    import tomlkit
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                   "additionalContext": "imported " + tomlkit.__name__}}


def hook(pi):
    pi.on("PostToolUse", after)
"""

TOML = """
[[hooks]]
name = "guard"
path = "hooks/guard.py"

[[hooks]]
name = "site"
path = "hooks/site.py"
"""


@pytest.fixture
def planted(tmp_path: Path) -> Iterator[Served]:
    """An opted-in project whose own directory holds a `hookman` package with a planted
    `hookman.serve.daemon`, on PYTHONPATH too, as a session's environment may put it."""
    project = Served(tmp_path)
    project.install({"guard": GUARD, "site": IMPORTS_SITE}, TOML)
    project.hookman("serve", "enable", "--port", str(project.port))
    project.hookman("install", "--claude-version", "2.1.332")
    package = project.root / "hookman" / "serve"
    package.mkdir(parents=True)
    (project.root / "hookman" / "__init__.py").write_text("", encoding="utf-8")
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "daemon.py").write_text(PLANTED, encoding="utf-8")
    project.environment["PYTHONPATH"] = str(project.root)
    project.environment["PLANTED_MARKER"] = str(tmp_path / "planted.txt")
    yield project
    project.hookman("serve", "stop", check=False, isolated=True)
    project.hookman("serve", "disable", check=False, isolated=True)


def _served_by_hookman(project: Served) -> None:
    deadline = time.monotonic() + START_WAIT_S
    while project.identity() != OURS and time.monotonic() < deadline:
        time.sleep(0.05)
    marker = Path(project.environment["PLANTED_MARKER"])
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert project.identity() == OURS
    status, body = project.post("PreToolUse", project.bash("PreToolUse", "rm -rf victim"))
    assert status == 200
    assert deny_reason(body) is not None and "no rm -rf" in str(deny_reason(body))
    status, body = project.post("PostToolUse", project.bash("PostToolUse", "ls", tool_response={}))
    assert status == 200
    assert body["hookSpecificOutput"]["additionalContext"] == "imported tomlkit"


def test_the_prompt_gate_starts_hookmans_server_not_the_projects(planted: Served) -> None:
    launcher = Path(planted.manifest).parent / "hookman-run.sh"
    payload = planted.payload("UserPromptSubmit", prompt="hello")
    done = subprocess.run(
        as_client("sh", str(launcher), "UserPromptSubmit"),
        input=json.dumps(payload),
        cwd=planted.root,
        env={**planted.environment, "CLAUDE_PROJECT_DIR": str(planted.root)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    _served_by_hookman(planted)


def test_serve_start_in_the_project_starts_hookmans_server(planted: Served) -> None:
    planted.hookman("serve", "start", isolated=True)
    _served_by_hookman(planted)


def test_serve_run_in_the_project_runs_hookmans_server(planted: Served) -> None:
    process = subprocess.Popen(
        [sys.executable, "-I", "-m", "hookman", "serve", "run", "--port", str(planted.port)],
        cwd=planted.root,
        env=planted.environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _served_by_hookman(planted)
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_server_reads_no_pythonpath_for_its_hooks(planted: Served, tmp_path: Path) -> None:
    """One server answers every project: the PYTHONPATH of the session that started it
    is no project's (a module only PYTHONPATH holds is not found by a served hook)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "only_on_pythonpath.py").write_text("NAME = 'found'\n", encoding="utf-8")
    planted.environment["PYTHONPATH"] = str(elsewhere)
    (planted.root / "hooks" / "site.py").write_text(
        IMPORTS_SITE.replace("import tomlkit", "import tomlkit, only_on_pythonpath"),
        encoding="utf-8",
    )
    planted.hookman("serve", "start", isolated=True)
    status, body = planted.post("PostToolUse", planted.bash("PostToolUse", "ls", tool_response={}))
    assert status == 200
    assert "only_on_pythonpath" in json.dumps(body), body
