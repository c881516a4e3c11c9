"""Drive the real GitHub Copilot CLI, Qwen Code and Factory droid offline against the mock
APIs, each in an isolated temp project.

    e2e = AgentProject(client, anthropic, openai, isolation, tmp_path)
    e2e.install(e2e.write_hook("guard", GUARD))          # hookman install ... --agent <agent>
    run = e2e.run_agent("clean up", turns=[e2e.shell("rm -rf x"), say("done")])
    assert run.tool_results()[0] == e2e.denied("GUARD-E2E: ...")

Each agent runs with a HOME, XDG directories and temp directory of its own (its user layer,
`~/.copilot`, `~/.qwen`, `~/.factory`, is empty but for what the harness writes), and inside
the private network namespace the Claude Code and Codex suites use (harness.py,
netns_relay.py), where 127.0.0.1:PORT is the mock:

- Copilot CLI speaks the Anthropic Messages API to mock_anthropic.py
  (`COPILOT_PROVIDER_TYPE=anthropic`, `COPILOT_PROVIDER_BASE_URL`, `COPILOT_OFFLINE=true`:
  no GitHub login), `copilot -p PROMPT --allow-all-tools --trust-folder` (without trust no
  hook runs at all in `-p`). It unpacks its own package (about 235 MB) into a cache on first
  run: COPILOT_PKG_CACHE_HOME points that cache beside the installed client, shared by every
  run, instead of into each HOME.
- Qwen Code speaks Chat Completions to mock_openai.py
  (`qwen --auth-type openai -m MODEL --yolo PROMPT`, `OPENAI_BASE_URL`).
- droid speaks Chat Completions to mock_openai.py through a `customModels` entry
  (`generic-chat-completion-api`) in `~/.factory/settings.json`, no Factory login
  (`droid exec --auto high -m custom:MODEL PROMPT`).

What each model reads of a hook's deny (measured, see AGENT_FACTS): Copilot
`Denied by preToolUse hook: REASON`, Qwen exactly `REASON`, droid `Error: REASON`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .harness import (
    E2EProject,
    NetworkIsolation,
    _user_site_env,
    client_cache_root,
    tool_result_text,
)
from .mock_anthropic import MockAnthropic, Text, ToolUse
from .mock_anthropic import RecordedRequest as AnthropicRequest
from .mock_openai import MockOpenAI

AGENT_RUN_TIMEOUT_S = 150
MODEL = "gpt-4.1"
COPILOT_MODEL = "claude-sonnet-4.5"


class AgentFacts(NamedTuple):
    """One agent as the suite drives it: its npm package version (the cache directory's
    name, tools/install_agent_clients.py), the version `--version` reports, its title, the
    file hookman writes its entries into, its shell tool and what its model reads of a
    hook's deny (`{reason}`)."""

    package_version: str
    reports: str
    title: str
    hooks_file: str
    shell_tool: str
    denied: str


AGENT_FACTS = {
    "copilot": AgentFacts(
        "1.0.102",
        "1.0.102",
        "GitHub Copilot CLI",
        ".claude/settings.local.json",
        "bash",
        "Denied by preToolUse hook: {reason}",
    ),
    "qwen": AgentFacts(
        "0.24.4", "0.24.4", "Qwen Code", ".qwen/settings.json", "run_shell_command", "{reason}"
    ),
    "droid": AgentFacts(
        "0.225.1", "0.225.2", "Factory droid", ".factory/hooks.json", "Execute", "Error: {reason}"
    ),
}
AGENTS = tuple(AGENT_FACTS)


@dataclass(frozen=True)
class AgentClient:
    agent: str
    version: str  # what the binary reports
    binary: Path

    @property
    def bin_dir(self) -> Path:
        return self.binary.parent

    @property
    def facts(self) -> AgentFacts:
        return AGENT_FACTS[self.agent]


def _copilot_cache_env(binary: Path) -> dict[str, str]:
    """Where Copilot CLI unpacks its package: beside the installed client, once for every
    run (tools/install_agent_clients.py unpacks it there already)."""
    cache = binary.parents[2] / "pkg-cache"
    return {"COPILOT_PKG_CACHE_HOME": str(cache), "COPILOT_AUTO_UPDATE": "false"}


def find_agent(agent: str) -> AgentClient | str:
    """The installed client, or the reason it cannot be used."""
    facts = AGENT_FACTS[agent]
    directory = client_cache_root() / f"{agent}-{facts.package_version}"
    binary = directory / "node_modules" / ".bin" / agent
    title = f"{facts.title} {facts.package_version}"
    if not binary.exists():
        return f"{title} is not installed at {binary}; run `python tools/install_agent_clients.py`"
    try:
        answer = subprocess.run(
            [str(binary), "--version"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, **_copilot_cache_env(binary)},
        ).stdout
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{title} at {binary} does not run: {error}"
    # "GitHub Copilot CLI 1.0.102." ends its sentence with a period.
    if facts.reports not in [word.rstrip(".,") for word in answer.split()]:
        return f"{binary} reports version {answer.strip()!r}, expected {facts.reports}"
    return AgentClient(agent, facts.reports, binary)


def _chat_content(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _all_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _all_strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _all_strings(item)]
    return []


@dataclass(repr=False)
class AgentRun:
    """What one agent run did: the model requests the mock received, its output, its time."""

    agent: str
    returncode: int
    requests: list[Any]  # mock_anthropic's or mock_openai's RecordedRequest, model requests only
    stdout: str
    stderr: str
    seconds: float
    turns_left: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def tool_results(self) -> list[str]:
        """What the model read as the result of each of its tool calls, each once, in order."""
        seen: dict[str, str] = {}
        for request in self.requests:
            if isinstance(request, AnthropicRequest):
                for message in request.messages:
                    content = message.get("content")
                    if message.get("role") != "user" or not isinstance(content, list):
                        continue
                    for block in content:
                        if isinstance(block, dict) and block.get("type") == "tool_result":
                            key = str(block.get("tool_use_id"))
                            seen.setdefault(key, tool_result_text(block))
            else:
                for message in request.messages:
                    if message.get("role") == "tool":
                        key = str(message.get("tool_call_id"))
                        seen.setdefault(key, _chat_content(message.get("content")))
        return list(seen.values())

    def model_text(self, index: int = -1) -> str:
        """Every string of one model request (default: the last): system prompt, messages,
        tool results; what the model 'heard' then."""
        if not self.requests:
            return ""
        request = self.requests[index]
        parts = _all_strings(request.body.get("system")) + _all_strings(request.messages)
        return "\n".join(parts)

    def model_saw(self, text: str) -> bool:
        return any(text in self.model_text(index) for index in range(len(self.requests)))

    def describe(self) -> str:
        lines = [f"{self.agent}: exit {self.returncode} in {self.seconds:.1f} s"]
        lines.append(f"turns left {self.turns_left}; tool results {self.tool_results()}")
        for index, request in enumerate(self.requests):
            lines.append(f"--- request {index}: {json.dumps(request.messages[-2:])[:1500]}")
        lines.append("--- stdout: " + self.stdout[-1500:])
        lines.append("--- stderr: " + self.stderr[-2500:])
        return "\n".join(lines)


class AgentProject(E2EProject):
    """A temp project with an isolated home, run against one of the three agents. `others`
    puts more client bin directories on PATH (a machine with several agents)."""

    def __init__(
        self,
        client: AgentClient,
        anthropic: MockAnthropic,
        openai: MockOpenAI,
        isolation: NetworkIsolation,
        workdir: Path,
        others: Sequence[Path] = (),
    ) -> None:
        super().__init__(None, anthropic, isolation, workdir)  # type: ignore[arg-type]
        self.agent_client = client
        self.anthropic = anthropic
        self.openai = openai
        self.others = list(others)
        self.agent_runs: list[AgentRun] = []
        if client.agent == "droid":
            self._write_droid_models()

    @property
    def agent(self) -> str:
        return self.agent_client.agent

    @property
    def agent_mock(self) -> Any:
        return self.anthropic if self.agent == "copilot" else self.openai

    @property
    def hooks_path(self) -> Path:
        """The file the agent reads hookman's entries from."""
        return self.root / self.agent_client.facts.hooks_file

    def _write_droid_models(self) -> None:
        """What a droid user does once to bring a model of their own (BYOK)."""
        model = {
            "model": MODEL,
            "displayName": "mock",
            "baseUrl": f"{self.openai.url}/v1",
            "apiKey": "mock-key",
            "provider": "generic-chat-completion-api",
            "maxOutputTokens": 4096,
        }
        settings = self.home / ".factory" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({"customModels": [model]}, indent=2), encoding="utf-8")

    def env(self) -> dict[str, str]:
        """The agent's whole environment: nothing leaks in from the developer's session."""
        bins = [self.agent_client.bin_dir, *self.others, Path(sys.executable).parent]
        path = os.pathsep.join([*(str(directory) for directory in bins), "/usr/bin", "/bin"])
        environment = {
            "PATH": path,
            "HOME": str(self.home),
            "TMPDIR": str(self.scratch / "tmp"),
            "XDG_RUNTIME_DIR": str(self.scratch / "runtime"),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "HOOKMAN_HOME": os.environ.get("HOOKMAN_HOME", str(self.scratch / "hookman_home")),
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
            **_user_site_env(),
        }
        if self.agent == "copilot":
            environment.update(
                COPILOT_PROVIDER_BASE_URL=self.anthropic.url,
                COPILOT_PROVIDER_TYPE="anthropic",
                COPILOT_PROVIDER_API_KEY="mock-key",
                COPILOT_OFFLINE="true",
                COPILOT_MODEL=COPILOT_MODEL,
                **_copilot_cache_env(self.agent_client.binary),
            )
        elif self.agent == "qwen":
            environment.update(
                OPENAI_BASE_URL=f"{self.openai.url}/v1",
                OPENAI_API_KEY="mock-key",
                QWEN_CODE_SUPPRESS_YOLO_WARNING="1",
            )
        environment.update(self.extra_env)
        return environment

    # What the model asks for, in the agent's own tool names.

    def shell(self, command: str) -> list[ToolUse | Text]:
        """A model turn that runs one shell command through the agent's shell tool."""
        arguments: dict[str, Any] = {"command": command}
        if self.agent == "droid":  # droid rejects an Execute call without a risk level
            arguments.update(riskLevelReason="a command the test runs", riskLevel="low")
        else:
            arguments["description"] = "run a command"
        return [ToolUse(self.agent_client.facts.shell_tool, arguments)]

    def denied(self, reason: str) -> str:
        """What the agent's model reads when a hook denies a tool call with `reason`."""
        return self.agent_client.facts.denied.format(reason=reason)

    # hookman and the agent's hook file.

    def install(self, *hooks: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return self.hookman("install", *hooks, "--agent", self.agent, check=check)

    def hook_groups(self, event: str) -> list[dict[str, Any]]:
        """The matcher groups of `event` in the agent's hook file (droid's events are top-level
        keys; the others' are under "hooks")."""
        document = json.loads(self.hooks_path.read_text(encoding="utf-8"))
        events = document if self.agent == "droid" else document.get("hooks", {})
        return list(events.get(event, []))

    def hookman_entries(self, event: str) -> list[dict[str, Any]]:
        """hookman's handlers of `event` in the agent's hook file (found by their command)."""
        return [
            handler
            for group in self.hook_groups(event)
            for handler in group.get("hooks", [])
            if "hookman-run.sh" in str(handler.get("command", ""))
        ]

    def write_raw_hooks(self, events: dict[str, list[dict[str, Any]]]) -> None:
        """Write hand-made matcher groups (no hookman) as the agent's whole hook file."""
        document = events if self.agent == "droid" else {"hooks": events}
        self.hooks_path.parent.mkdir(parents=True, exist_ok=True)
        self.hooks_path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")

    def edit_hooks_file(self, change: Any) -> None:
        """Let `change(document)` edit the agent's hook file in place, as a user would."""
        document = json.loads(self.hooks_path.read_text(encoding="utf-8"))
        change(document)
        self.hooks_path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")

    def launcher(self, event: str = "PreToolUse") -> Path:
        """The launcher hookman's entry of `event` runs."""
        command = self.hookman_entries(event)[0]["command"]
        return Path(command.split("[ -f ")[1].split(" ]")[0].strip("'"))

    # One run.

    def agent_command(self, prompt: str, extra_args: Sequence[str]) -> list[str]:
        binary = str(self.agent_client.binary)
        if self.agent == "copilot":
            return [binary, "-p", prompt, "--allow-all-tools", "--trust-folder", *extra_args]
        if self.agent == "qwen":
            return [binary, "--auth-type", "openai", "-m", MODEL, "--yolo", *extra_args, prompt]
        return [binary, "exec", "--auto", "high", "-m", f"custom:{MODEL}", *extra_args, prompt]

    def run_agent(
        self,
        prompt: str,
        turns: Sequence[Sequence[ToolUse | Text]] = (),
        *,
        extra_args: Sequence[str] = (),
    ) -> AgentRun:
        """One non-interactive run: the model answers from `turns`, then with a text."""
        mock = self.agent_mock
        mock.script(turns)
        command = self._isolated_for(mock, self.agent_command(prompt, extra_args))
        started = time.monotonic()
        try:
            done = subprocess.run(
                command,
                cwd=self.root,
                env=self.env(),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=AGENT_RUN_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired as expired:
            raise AssertionError(
                f"{self.agent} {self.agent_client.version} did not finish in {AGENT_RUN_TIMEOUT_S}s"
            ) from expired
        seconds = time.monotonic() - started
        if self.agent == "copilot":
            requests: list[Any] = [r for r in self.anthropic.requests if r.route == "main"]
            left = self.anthropic.remaining_turns()["main"]
        else:
            requests = list(self.openai.model_requests)
            left = self.openai.remaining_turns()
        run = AgentRun(
            self.agent, done.returncode, requests, done.stdout, done.stderr, seconds, left
        )
        self.agent_runs.append(run)
        return run
