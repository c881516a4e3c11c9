"""Drive the real Claude Code CLI against the mock API, in an isolated temp project.

A scenario is a few lines:

    e2e.write_hook("guard", GUARD_SOURCE)
    e2e.hookman("install", "hooks/guard.py")
    run = e2e.run_claude("clean up", turns=[bash("rm -rf /tmp/x"), say("done")])
    assert run.model_saw("blocked by guard")
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .mock_anthropic import MockAnthropic, RecordedRequest, Turn

CLIENT_VERSIONS = ("2.1.328", "2.1.197", "2.1.332")
# The default run drives the newest pinned client; the older ones run in CI's second pass
# (HOOKMAN_E2E_CLIENTS=2.1.197,2.1.328, .ci/run), to keep the default run under 10 minutes
# on two cores with the five agents' E2E beside it.
DEFAULT_CLIENT_VERSIONS = ("2.1.332",)


def active_client_versions() -> tuple[str, ...]:
    """The pinned clients this run drives: HOOKMAN_E2E_CLIENTS (comma-separated, each one
    of CLIENT_VERSIONS), else the default pair."""
    import os

    named = os.environ.get("HOOKMAN_E2E_CLIENTS", "").split(",")
    chosen = tuple(version.strip() for version in named if version.strip())
    unknown = [version for version in chosen if version not in CLIENT_VERSIONS]
    if unknown:
        raise ValueError(f"HOOKMAN_E2E_CLIENTS names unpinned clients: {unknown}")
    return chosen or DEFAULT_CLIENT_VERSIONS


RELAY_SCRIPT = Path(__file__).with_name("netns_relay.py")
CLAUDE_RUN_TIMEOUT_S = 90
HOOKMAN_TIMEOUT_S = 60


def client_cache_root() -> Path:
    """Where tools/install_claude_clients.py puts the clients (keep the two in step)."""
    override = os.environ.get("HOOKMAN_E2E_CACHE")
    return Path(override) if override else Path.home() / ".cache" / "hookman-e2e"


@dataclass(frozen=True)
class ClaudeClient:
    version: str
    binary: Path

    @property
    def bin_dir(self) -> Path:
        return self.binary.parent


def _user_site_env() -> dict[str, str]:
    """Where this interpreter's user site is, kept under the client's own HOME: hookman and
    its dependencies installed with `pip install --user` (outside a venv) stay importable for
    the hookman CLI and the runner, as they are in the user's own session."""
    if not site.ENABLE_USER_SITE or not os.path.isdir(site.getusersitepackages()):
        return {}
    return {"PYTHONUSERBASE": site.getuserbase()}


def find_client(version: str) -> ClaudeClient | str:
    """The installed client, or the reason it cannot be used."""
    found = find_installed("claude", "Claude Code", version, "install_claude_clients.py")
    return found if isinstance(found, str) else ClaudeClient(version, found)


def find_installed(name: str, title: str, version: str, tool: str) -> Path | str:
    """The binary of an npm client that tools/`tool` installed (`name-version` in the cache)
    and that answers `--version` with `version`, or the reason it cannot be used."""
    binary = client_cache_root() / f"{name}-{version}" / "node_modules" / ".bin" / name
    if not binary.exists():
        return f"{title} {version} is not installed at {binary}; run `python tools/{tool}`"
    try:
        answer = subprocess.run(
            [str(binary), "--version"], capture_output=True, text=True, timeout=60, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{title} at {binary} does not run: {error}"
    if version not in answer.split():
        return f"{binary} reports version {answer.strip()!r}, expected {version}"
    return binary


@dataclass(frozen=True)
class NetworkIsolation:
    """How client runs are cut off from the network: a command prefix, or None + why not."""

    prefix: tuple[str, ...] | None
    description: str


def detect_network_isolation(mock: MockAnthropic) -> NetworkIsolation:
    if mock.unix_socket is None:
        return NetworkIsolation(None, "loopback only: the mock has no Unix socket")
    if shutil.which("unshare") is None:
        return NetworkIsolation(None, "loopback only: `unshare` is not available")
    failures = []
    for prefix in (("unshare", "-n"), ("unshare", "-rn")):
        probe = [*prefix, sys.executable, str(RELAY_SCRIPT), str(mock.port), str(mock.unix_socket)]
        probe += ["--", sys.executable, "-c", _PROBE_SCRIPT, str(mock.port)]
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30, check=False)
        if done.returncode == 0:
            return NetworkIsolation(prefix, f"private network namespace (`{' '.join(prefix)}`)")
        failures.append(f"`{' '.join(prefix)}`: {(done.stderr.strip() or 'failed')[-200:]}")
    return NetworkIsolation(None, "loopback only: " + "; ".join(failures))


# Inside the namespace: the mock answers through the relay (any HTTP status will do).
_PROBE_SCRIPT = """
import sys, urllib.request, urllib.error
try:
    urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/probe", timeout=10)
except urllib.error.HTTPError:
    pass
"""


@dataclass(repr=False)
class ClaudeRun:
    """What one `claude -p` run did: requests the mock received, stream-json events, logs."""

    returncode: int
    requests: list[RecordedRequest]
    events: list[dict[str, Any]]
    debug_log: str
    stderr: str
    turns_left: dict[str, int] = field(default_factory=dict)

    @property
    def conversation_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.route != "side"]

    @property
    def main_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.route == "main"]

    @property
    def subagent_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.route == "subagent"]

    def __repr__(self) -> str:
        routes = [request.route for request in self.requests]
        return f"ClaudeRun(exit={self.returncode}, requests={routes}, events={len(self.events)})"

    def stopped_by_hook(self) -> str:
        """What the user read when a hook stopped the prompt (`continue: false` on
        UserPromptSubmit: `Operation stopped by hook: REASON`, measured on 2.1.197 and
        2.1.332), or "" when none did."""
        for event in self.events:
            if event.get("subtype") == "informational" and event.get("prevent_continuation"):
                return str(event.get("content", ""))
        return ""

    def model_saw(self, text: str) -> bool:
        """Whether `text` appears in any conversation message sent to the model."""
        return text in self.all_message_text()

    def all_message_text(self) -> str:
        """Every text of every conversation message the model was sent, joined."""
        return "\n".join(request.message_text() for request in self.conversation_requests)

    def tool_results(self) -> list[dict[str, Any]]:
        """Every tool_result block the main conversation sent, in order, each once."""
        seen: dict[str, dict[str, Any]] = {}
        for request in self.main_requests:
            for message in request.messages:
                content = message.get("content")
                if message.get("role") != "user" or not isinstance(content, list):
                    continue
                for block in content:
                    if block.get("type") == "tool_result":
                        seen.setdefault(str(block.get("tool_use_id")), block)
        return list(seen.values())

    def tool_result_texts(self) -> list[str]:
        return [tool_result_text(block) for block in self.tool_results()]

    @cached_property
    def result(self) -> dict[str, Any]:
        """The final `result` event of the stream (empty when the run produced none)."""
        finals = [event for event in self.events if event.get("type") == "result"]
        return finals[-1] if finals else {}

    def compaction_status(self) -> dict[str, Any]:
        """The stream's status event that reports how /compact ended (empty when none)."""
        for event in self.events:
            if event.get("subtype") == "status" and "compact_result" in event:
                return event
        return {}

    def describe(self) -> str:
        """A compact dump for assertion messages: what went wrong, with the evidence."""
        lines = [f"exit {self.returncode}; turns left {self.turns_left}"]
        for index, request in enumerate(self.requests):
            lines.append(f"--- request {index} [{request.route}] {request.method} {request.path}")
            if request.messages:
                lines.append(json.dumps(request.messages[-1])[:2000])
        hook_lines = [line for line in self.debug_log.splitlines() if "hook" in line.lower()]
        lines.append("--- debug log (hook lines):")
        lines.extend(line[:300] for line in hook_lines[-25:])
        if self.stderr.strip():
            lines.append("--- stderr: " + self.stderr[-1500:])
        return "\n".join(lines)


def tool_result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(item.get("text", "")) for item in content if isinstance(item, dict))
    return ""


class E2EProject:
    """A temp project with an isolated home, run against one real client version."""

    def __init__(
        self,
        client: ClaudeClient,
        mock: MockAnthropic,
        isolation: NetworkIsolation,
        workdir: Path,
    ) -> None:
        self.client = client
        self.mock = mock
        self.isolation = isolation
        self.root = workdir / "project"
        self.home = workdir / "home"
        self.scratch = workdir / "scratch"
        for directory in (self.root / ".claude", self.home, self.scratch / "tmp"):
            directory.mkdir(parents=True, exist_ok=True)
        (self.scratch / "runtime").mkdir(mode=0o700, exist_ok=True)
        self.runs: list[ClaudeRun] = []
        self.extra_env: dict[str, str] = {}  # what a test adds to the client's environment
        self.client_prefix: list[str] = []  # words run before the client (e.g. a mount)

    @property
    def version(self) -> str:
        return self.client.version

    @property
    def settings_path(self) -> Path:
        return self.root / ".claude" / "settings.local.json"

    def env(self) -> dict[str, str]:
        """The client's whole environment: nothing leaks in from the developer's session."""
        path = os.pathsep.join(
            [str(self.client.bin_dir), str(Path(sys.executable).parent), "/usr/bin", "/bin"]
        )
        return {
            "PATH": path,
            "HOME": str(self.home),
            "TMPDIR": str(self.scratch / "tmp"),
            "CLAUDE_CODE_TMPDIR": str(self.scratch / "tmp"),
            "XDG_RUNTIME_DIR": str(self.scratch / "runtime"),
            "HOOKMAN_HOME": os.environ.get("HOOKMAN_HOME", str(self.scratch / "hookman_home")),
            "LANG": "C.UTF-8",
            "ANTHROPIC_BASE_URL": self.mock.url,
            "ANTHROPIC_API_KEY": "sk-ant-mock-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "IS_SANDBOX": "1",
            **_user_site_env(),
            **self.extra_env,
        }

    def write(self, relative: str, text: str) -> Path:
        """Write a project file (dedented)."""
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return target

    def write_hook(self, name: str, source: str) -> str:
        """Write hooks/<name>.py; return its project-relative path for `hookman install`."""
        relative = f"hooks/{name}.py"
        self.write(relative, source)
        return relative

    def hookman(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run the real hookman CLI in the project, with the client's environment."""
        done = subprocess.run(
            [sys.executable, "-m", "hookman", *args],
            cwd=self.root,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=HOOKMAN_TIMEOUT_S,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"hookman {' '.join(args)} exited {done.returncode}\n"
                f"stdout: {done.stdout}\nstderr: {done.stderr}"
            )
        return done

    def claude_cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run a non-conversation client command (e.g. `plugin disable`), isolated like a run."""
        command = self._isolated([str(self.client.binary), *args])
        done = subprocess.run(
            command,
            cwd=self.root,
            env=self.env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=CLAUDE_RUN_TIMEOUT_S,
            check=False,
        )
        if done.returncode != 0:
            raise AssertionError(
                f"claude {' '.join(args)} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
            )
        return done

    def _isolated(self, command: list[str]) -> list[str]:
        return self._isolated_for(self.mock, command)

    def _isolated_for(self, mock: Any, command: list[str]) -> list[str]:
        """`command` in the private network namespace whose 127.0.0.1:PORT is `mock` (any
        mock with `port` and `unix_socket`: the Anthropic one, the OpenAI one)."""
        if self.isolation.prefix is None:
            return command
        relay = [sys.executable, str(RELAY_SCRIPT), str(mock.port)]
        return [*self.isolation.prefix, *relay, str(mock.unix_socket), "--", *command]

    def settings(self) -> dict[str, Any]:
        return json.loads(self.settings_path.read_text(encoding="utf-8"))

    def write_settings(self, settings: dict[str, Any]) -> None:
        self.settings_path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")

    def run_claude(
        self,
        prompt: str,
        turns: Sequence[Turn] = (),
        *,
        subagents: dict[str, Sequence[Turn]] | None = None,
        extra_args: Sequence[str] = (),
        continue_session: bool = False,
    ) -> ClaudeRun:
        """One `claude -p` run: the model answers from `turns` (and `subagents` by marker)."""
        self.mock.script(turns, subagents)
        debug_file = self.scratch / f"debug-{len(self.runs)}.log"
        command = [str(self.client.binary), "-p", prompt]
        command += ["--output-format", "stream-json", "--verbose"]
        command += ["--permission-mode", "bypassPermissions", "--debug-file", str(debug_file)]
        if continue_session:
            command.append("--continue")
        command += list(extra_args)
        try:
            done = subprocess.run(
                self._isolated([*self.client_prefix, *command]),
                cwd=self.root,
                env=self.env(),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=CLAUDE_RUN_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired as expired:
            log = debug_file.read_text(errors="replace") if debug_file.exists() else ""
            raise AssertionError(
                f"claude {self.version} did not finish in {CLAUDE_RUN_TIMEOUT_S}s; "
                f"debug log tail:\n{log[-3000:]}"
            ) from expired
        run = ClaudeRun(
            returncode=done.returncode,
            requests=list(self.mock.requests),
            events=_parse_stream(done.stdout),
            debug_log=debug_file.read_text(errors="replace") if debug_file.exists() else "",
            stderr=done.stderr,
            turns_left=self.mock.remaining_turns(),
        )
        self.runs.append(run)
        return run


def _parse_stream(stdout: str) -> list[dict[str, Any]]:
    events = []
    for line in stdout.splitlines():
        try:
            parsed = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(parsed, dict):
            events.append(parsed)
    return events
