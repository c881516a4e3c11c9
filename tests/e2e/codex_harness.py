"""Drive the real Codex CLI against the mock Responses API, in an isolated temp project.

    e2e = CodexProject(client, mock, isolation, tmp_path)
    e2e.write_hook("guard", GUARD_SOURCE)
    e2e.hookman("install", "hooks/guard.py", "--agent", "codex")
    run = e2e.run_codex("clean up", turns=[shell("rm -rf x"), say("done")])
    assert "blocked" in run.tool_outputs()[0]

Each project has its own HOME and CODEX_HOME (Codex reads ~/.codex otherwise), trusted as a
project in CODEX_HOME/config.toml the way a user does once (Codex reads the project's .codex/
only then). Hook trust is hookman's job: `hookman install` records it through Codex's app
server. The client runs `codex exec` with a model provider whose base URL is the mock, inside
the same private network namespace as the Claude Code suite (harness.py, netns_relay.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from .harness import E2EProject, NetworkIsolation, find_installed
from .mock_openai import MockOpenAI, RecordedRequest, Turn

CODEX_VERSIONS = ("0.171.0", "0.150.0")
CODEX_RUN_TIMEOUT_S = 120
# The hosts Codex 0.150.0 and 0.171.0 look up on their own during `codex exec` (strace)
CODEX_OWN_HOSTS = ("api.github.com", "chatgpt.com", "ab.chatgpt.com")


@cache
def _mounts_in(namespace_prefix: tuple[str, ...]) -> bool:
    """Whether a mount namespace can be made inside the private network namespace."""
    probe = [*namespace_prefix, "unshare", "-m", "true"]
    return subprocess.run(probe, capture_output=True, timeout=30, check=False).returncode == 0


@dataclass(frozen=True)
class CodexClient:
    version: str
    binary: Path

    @property
    def bin_dir(self) -> Path:
        return self.binary.parent


def find_codex(version: str) -> CodexClient | str:
    """The installed client, or the reason it cannot be used."""
    found = find_installed("codex", "Codex CLI", version, "install_codex_clients.py")
    return found if isinstance(found, str) else CodexClient(version, found)


@dataclass(repr=False)
class CodexRun:
    """What one `codex exec` run did: the model requests the mock received, and its output."""

    returncode: int
    requests: list[RecordedRequest]
    stdout: str
    stderr: str
    turns_left: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def tool_outputs(self) -> list[str]:
        """The function-call outputs the model was sent, each once, in order."""
        seen: dict[str, str] = {}
        for request in self.requests:
            for item in request.input_items:
                if item.get("type") == "function_call_output":
                    output = item.get("output")
                    text = output if isinstance(output, str) else json.dumps(output)
                    seen.setdefault(str(item.get("call_id")), text)
        return list(seen.values())

    def model_saw(self, text: str) -> bool:
        return any(text in request.text() for request in self.requests)

    def developer_texts(self) -> list[str]:
        return [text for request in self.requests[-1:] for text in request.developer_texts()]

    def describe(self) -> str:
        lines = [f"exit {self.returncode}; turns left {self.turns_left}"]
        for index, request in enumerate(self.requests):
            lines.append(f"--- request {index}: {json.dumps(request.input_items[-2:])[:1500]}")
        lines.append("--- stderr: " + self.stderr[-2500:])
        return "\n".join(lines)


class CodexProject(E2EProject):
    """A temp project with an isolated home and CODEX_HOME, run against one Codex version
    (and, through the inherited `run_claude`, against Claude Code when given a client)."""

    def __init__(
        self,
        codex: CodexClient,
        mock: MockOpenAI,
        isolation: NetworkIsolation,
        workdir: Path,
        claude: Any = None,
        claude_mock: Any = None,
    ) -> None:
        super().__init__(claude, claude_mock, isolation, workdir)  # type: ignore[arg-type]
        self.codex = codex
        self.openai = mock
        self.codex_home = self.home / ".codex"
        self.codex_home.mkdir(parents=True, exist_ok=True)
        self.trust_project()
        self.codex_runs: list[CodexRun] = []

    @property
    def hooks_path(self) -> Path:
        return self.root / ".codex" / "hooks.json"

    def trust_project(self) -> None:
        """What the user does once in Codex: trust the project (its .codex/ layer)."""
        config = self.codex_home / "config.toml"
        text = config.read_text(encoding="utf-8") if config.exists() else ""
        entry = f'[projects."{self.root}"]\ntrust_level = "trusted"\n'
        if entry not in text:
            config.write_text(entry + "\n" + text, encoding="utf-8")

    def env(self) -> dict[str, str]:
        if self.client is not None:
            base = super().env()
        else:
            path = os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"])
            base = {
                "PATH": path,
                "HOME": str(self.home),
                "TMPDIR": str(self.scratch / "tmp"),
                "XDG_RUNTIME_DIR": str(self.scratch / "runtime"),
                "HOOKMAN_HOME": os.environ.get("HOOKMAN_HOME", str(self.scratch / "hookman_home")),
                "LANG": "C.UTF-8",
            }
        base["PATH"] = os.pathsep.join([str(self.codex.bin_dir), base["PATH"]])
        base.update(CODEX_HOME=str(self.codex_home), MOCK_KEY="mock-key", NO_COLOR="1")
        base.update(self.extra_env)
        return base

    @cached_property
    def _local_hosts(self) -> list[str]:
        """Codex looks up hosts of its own (api.github.com, chatgpt.com) that the private
        network cannot reach, and its resolver waits 2 x 2.5 s on each before Codex exits.
        This prefix runs Codex in a mount namespace of its own whose /etc/hosts is the
        machine's plus a line naming them 127.0.0.1, so each try fails at once; where a mount
        namespace is refused it is empty, and the run is only slower."""
        if self.isolation.prefix is None or not _mounts_in(self.isolation.prefix):
            return []
        hosts = self.scratch / "hosts"
        try:
            machine_hosts = Path("/etc/hosts").read_text(encoding="utf-8").rstrip("\n") + "\n"
        except (OSError, UnicodeDecodeError):
            machine_hosts = "127.0.0.1 localhost\n"
        own_hosts = "127.0.0.1 " + " ".join(CODEX_OWN_HOSTS) + "\n"
        hosts.write_text(machine_hosts + own_hosts, encoding="utf-8")
        mount = 'mount --bind "$0" /etc/hosts 2>/dev/null; exec "$@"'
        return ["unshare", "-m", "sh", "-c", mount, str(hosts)]

    def run_codex(
        self,
        prompt: str,
        turns: Sequence[Turn] = (),
        *,
        extra_args: Sequence[str] = (),
        router: Any = None,
    ) -> CodexRun:
        """One `codex exec` run: the model answers from `turns` (or `router(request)`)."""
        self.openai.script(turns)
        if router is not None:
            self.openai.route(router)
        provider = (
            f'model_providers.mock={{name="mock",base_url="{self.openai.url}/v1",'
            'wire_api="responses",env_key="MOCK_KEY"}'
        )
        command = [str(self.codex.binary), "exec", "--skip-git-repo-check"]
        command += ["-c", 'model_provider="mock"', "-c", provider, "-c", 'model="mock-model"']
        command += ["--dangerously-bypass-approvals-and-sandbox", *extra_args, prompt]
        try:
            done = subprocess.run(
                self._isolated_for(self.openai, [*self._local_hosts, *command]),
                cwd=self.root,
                env=self.env(),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=CODEX_RUN_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired as expired:
            raise AssertionError(
                f"codex {self.codex.version} did not finish in {CODEX_RUN_TIMEOUT_S}s"
            ) from expired
        run = CodexRun(
            returncode=done.returncode,
            requests=self.openai.model_requests,
            stdout=done.stdout,
            stderr=done.stderr,
            turns_left=self.openai.remaining_turns(),
        )
        self.codex_runs.append(run)
        return run
