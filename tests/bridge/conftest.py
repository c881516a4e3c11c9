"""A project with hook files and a manifest written by hand (the manifest is a contract),
and a way to run `python -m hookman run` on it exactly as Claude Code does."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from hookman.catalog.client_version import parse_version
from hookman.catalog.event_catalog import guarded_events
from hookman.project.launcher import LAUNCHER_NAME, launcher_text
from hookman.project.manifest import client_facts
from hookman.project.settings_entries import build_command
from tests.direct_command import RUNNER_CODE

SAMPLES = Path(__file__).resolve().parents[2] / "hookman" / "catalog" / "payloads"


def client_section(version: str | None) -> dict[str, Any]:
    """The manifest's `client` facts as `install` writes them for `version`."""
    return client_facts(None if version is None else parse_version(version))


def sample_payload(event: str, project_dir: Path, **overrides: Any) -> dict[str, Any]:
    text = (SAMPLES / f"{event}.json").read_text(encoding="utf-8")
    text = text.replace("<WORK>/proj", str(project_dir)).replace("<WORK>", str(project_dir.parent))
    return {**json.loads(text), **overrides}


class RunnerProject:
    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.state_dir = home / "state" / "projects" / "proj-test"
        self.log_path = home / "log" / "firing.jsonl"
        self.manifest_path = self.state_dir / "manifest.json"
        self.hooks: list[dict[str, Any]] = []
        self.entries: dict[str, dict[str, Any]] = {}
        self.async_entries: dict[str, dict[str, Any]] = {}
        self.claude_version: str | None = "2.1.328"
        self.with_client_facts = True  # False: a manifest written before they existed
        self.launcher_path = self.state_dir / LAUNCHER_NAME
        self.launcher_python = sys.executable  # the interpreter the launcher names
        self.launcher_root: str | None = None  # hookman's directory it names (None: this one)

    def add_hook(
        self,
        name: str,
        source: str,
        events: list[str],
        claude_events: list[str],
        tools: dict[str, list[str]] | None = None,
        *,
        is_async: bool = False,
    ) -> Path:
        path = self.root / "hooks" / f"{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        self.hooks.append(
            {
                "name": name,
                "path": str(path),
                "events": events,
                "claude_events": claude_events,
                "tools": tools or {},
                "timeout": None,
                "async": is_async,
            }
        )
        for event in claude_events:
            (self.async_entries if is_async else self.entries).setdefault(
                event, {"matcher": None, "timeout": 30, "deadline": 27.0}
            )
        self.write_manifest()
        return path

    def write_manifest(self) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        manifest = {
            "format": 1,
            "hookman_version": "0.1.0",
            "project_dir": str(self.root),
            "config_path": str(self.root / ".claude" / "hookman.toml"),
            "state_dir": str(self.state_dir),
            "log_path": str(self.log_path),
            "claude_version": self.claude_version,
            "hooks": self.hooks,
            "entries": self.entries,
            "async_entries": self.async_entries,
            "held_back": {},
        }
        if self.with_client_facts:
            manifest["client"] = client_section(self.claude_version)
        self.manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
        self.write_launcher()

    def write_launcher(self) -> None:
        """The launcher exactly as install writes it (hookman/project/launcher.py)."""
        python = self.launcher_python
        timeouts = {
            event: entry["timeout"]
            for event, entry in self.entries.items()
            if isinstance(entry, dict) and isinstance(entry.get("timeout"), (int, float))
        }
        text = launcher_text(
            python, self.manifest_path, guarded_events(), root=self.launcher_root, timeouts=timeouts
        )
        self.launcher_path.write_text(text, encoding="utf-8")

    def command(self, event: str, *, run_async: bool = False, agent: str | None = None) -> str:
        """The settings command install writes for `event` (`agent` "codex": Codex CLI's)."""
        guarded = event in guarded_events()
        return build_command(
            event, self.launcher_path, guarded=guarded, run_async=run_async, agent=agent
        )

    def run_installed(
        self,
        event: str,
        payload: dict[str, Any] | str | bytes,
        *,
        run_async: bool = False,
        timeout: float = 60,
        env: dict[str, str] | None = None,
        agent: str | None = None,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run the exact settings command through a shell, as Claude Code does."""
        if isinstance(payload, dict):
            payload = json.dumps(payload)
        stdin = payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) else payload
        command = ["bash", "-c", self.command(event, run_async=run_async, agent=agent)]
        with subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self.root,
            env={**os.environ, **(env or {})},
            start_new_session=True,  # a runner left running by a failing test is killed
        ) as process:
            try:
                stdout, stderr = process.communicate(stdin, timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                raise
        return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)

    def answer_installed(
        self, event: str, payload: dict[str, Any] | str | bytes, **options: Any
    ) -> dict[str, Any]:
        """The JSON answer of the installed command; exit 0, one line, nothing else."""
        done = self.run_installed(event, payload, **options)
        assert done.returncode == 0, done
        text = done.stdout.decode("utf-8")
        assert text.endswith("\n") and text.count("\n") == 1, done
        answer = json.loads(text)
        assert isinstance(answer, dict)
        return answer

    def run(
        self,
        event: str,
        payload: dict[str, Any] | str,
        *,
        manifest: Path | None = None,
        run_async: bool = False,
    ) -> subprocess.CompletedProcess[str]:
        stdin = payload if isinstance(payload, str) else json.dumps(payload)
        safe_path = ["-P"] if sys.version_info >= (3, 11) else []
        command = [sys.executable, *safe_path, "-c", RUNNER_CODE, "run", event]
        command += ["--async", "--manifest"] if run_async else ["--manifest"]
        return subprocess.run(
            [*command, str(manifest or self.manifest_path)],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=self.root,
            timeout=60,
            check=False,
        )

    def answer(self, event: str, payload: dict[str, Any] | str) -> dict[str, Any]:
        """Run and return the JSON answer, asserting the runner's channel rules."""
        done = self.run(event, payload)
        assert done.returncode == 0, done
        assert done.stderr == ""
        assert done.stdout.endswith("\n") and done.stdout.count("\n") == 1
        return json.loads(done.stdout)

    def payload(self, event: str, **overrides: Any) -> dict[str, Any]:
        return sample_payload(event, self.root, **overrides)

    def wait_for_log_records(self, count: int, seconds: float = 20.0) -> list[dict[str, Any]]:
        """The log once it holds `count` records (a detached async run logs after answering)."""
        deadline = time.monotonic() + seconds
        while len(self.log_records()) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.log_records()

    def log_records(self) -> list[dict[str, Any]]:
        if not self.log_path.exists():
            return []
        return [json.loads(line) for line in self.log_path.read_text().splitlines()]


@pytest.fixture
def runner_project(project: Path, hookman_home: Path) -> RunnerProject:
    return RunnerProject(project, hookman_home)
