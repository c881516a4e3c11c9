"""The team of tests/e2e/test_team_flow.py: machines with homes of their own, the hook
repository they share, and what `list`, `doctor` and `fire` say in each state of the flow.

A `Machine` is a teammate's computer in effect: a HOME of its own holding everything a user
has (the XDG directories, so hookman's state, firing log and store of fetched repositories;
CLAUDE_CONFIG_DIR; CODEX_HOME; git's global config), no HOOKMAN_HOME, and a clone of the
project pulled from and pushed to one bare "origin". The real `claude` (and, where the
machine has it, `codex`) run there against the suite's mocks, exactly as in harness.py and
codex_harness.py, whose runs this class inherits.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from . import notes
from .codex_harness import CodexClient, CodexProject, CodexRun, find_codex
from .harness import ClaudeClient, ClaudeRun, NetworkIsolation, _user_site_env, find_client
from .mock_anthropic import MockAnthropic
from .mock_openai import MockOpenAI

CLAUDE_VERSION = "2.1.332"  # the newest client hookman has facts for
CODEX_VERSION = "0.171.0"

# The hook repository: `guard` imports its sibling `words` relatively, as
# docs/hook-repositories.md recommends. v2 refuses one word more and gains a subscription.
MANIFEST = """\
[[hooks]]
name = "guard"
path = "guards/guard.py"
description = "Denies the commands guards/words.py lists."
"""
GUARD = """\
from .words import BAD

RELEASE = "{release}"


def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        command = event["input"].get("command", "")
        for word in BAD:
            if word in command:
                reason = f"TEAM-GUARD {{RELEASE}}: {{word}} is not allowed"
                return {{"block": True, "reason": reason}}
{more}"""
ON_DUTY = """
    pi.on("agent_start", lambda event, ctx: pi.send_message("TEAM-GUARD v2 is on duty"))
"""
WORDS_V1 = 'BAD = ("rm -rf", "TEAM-BLOCK-1")\n'
WORDS_V2 = 'BAD = ("rm -rf", "TEAM-BLOCK-1", "TEAM-BLOCK-2")\n'

# The project's own hooks (.claude/hooks/): `notes` gains a subscription in step 5, when
# `hello` arrives as an entry written by hand, without `events`.
NOTES_V1 = """\
def hook(pi):
    pi.on("session_start", lambda event, ctx: pi.send_message("TEAM-NOTES: read the README"))
"""
NOTES_V2 = (
    NOTES_V1
    + '    pi.on("agent_start", lambda event, ctx: pi.send_message("TEAM-NOTES: prompt read"))\n'
)
HELLO = """\
def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        if "TEAM-BLOCK-5" in event["input"].get("command", ""):
            return {"block": True, "reason": "TEAM-HELLO: not before lunch"}
"""
HELLO_ENTRY = """
[[hooks]]
name = "hello"
path = ".claude/hooks/hello.py"
"""

GITCONFIG = (
    "[user]\n\tname = {name}\n\temail = {name}@team.invalid\n[init]\n\tdefaultBranch = main\n"
)


def guard_source(release: str) -> str:
    return GUARD.format(release=release, more=ON_DUTY if release == "v2" else "")


def clean_git_env(home: Path) -> dict[str, str]:
    """git as a user of `home` runs it: that home's global config, no system config, none of
    the caller's GIT_* variables."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
    }


def run_git(cwd: Path, home: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env=clean_git_env(home),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} in {cwd}: {done.stderr}")
    return done.stdout.strip()


def make_home(home: Path, name: str) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text(GITCONFIG.format(name=name), encoding="utf-8")
    return home


class HookRepository:
    """The team's hook repository, on this disk (a file:// URL: no network)."""

    def __init__(self, root: Path, maintainer_home: Path) -> None:
        self.root = root
        self.home = make_home(maintainer_home, "maintainer")
        self.url = f"file://{root}"

    def release(self, tag: str, words: str) -> str:
        guards = self.root / "guards"
        guards.mkdir(parents=True, exist_ok=True)
        if not (self.root / ".git").exists():
            run_git(self.root, self.home, "init", "-q", "-b", "main")
            (self.root / "hookman-hooks.toml").write_text(MANIFEST, encoding="utf-8")
        (guards / "guard.py").write_text(guard_source(tag), encoding="utf-8")
        (guards / "words.py").write_text(words, encoding="utf-8")
        run_git(self.root, self.home, "add", "-A")
        run_git(self.root, self.home, "commit", "-q", "-m", f"release {tag}")
        run_git(self.root, self.home, "tag", tag)
        return run_git(self.root, self.home, "rev-parse", "HEAD")


def client_or_skip(found: Any, version: str, missing: dict[str, str]) -> Any:
    """The client, or a loud skip naming why it is missing (a failure when CI=true), as
    tests/e2e/conftest.py does for the other real-client tests."""
    if isinstance(found, str):
        missing[version] = found
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"E2E CLIENT MISSING IN CI: {found}", pytrace=False)
        pytest.skip(f"E2E SKIPPED, REAL CLIENT NOT INSTALLED: {found}")
    return found


def clients() -> tuple[ClaudeClient, CodexClient]:
    claude = client_or_skip(find_client(CLAUDE_VERSION), CLAUDE_VERSION, notes.MISSING_CLAUDE)
    codex = client_or_skip(find_codex(CODEX_VERSION), CODEX_VERSION, notes.MISSING_CODEX)
    return claude, codex


@dataclass(frozen=True)
class Team:
    """What every machine of the flow shares: the clients, the mocks, the network."""

    workdir: Path
    claude: ClaudeClient
    codex: CodexClient
    mock: MockAnthropic
    openai: MockOpenAI
    isolation: NetworkIsolation
    origin: Path
    hook_repo: HookRepository


class Machine(CodexProject):
    """One teammate's machine and clone (see the module's docstring). `codex_installed`:
    whether `codex` is on its PATH; `hookman_on_path`: whether the venv that has hookman is
    (a plugin user's machine has only the system's python3)."""

    def __init__(
        self,
        team: Team,
        name: str,
        *,
        codex_installed: bool = True,
        hookman_on_path: bool = True,
    ) -> None:
        workdir = team.workdir / name
        super().__init__(
            team.codex,
            team.openai,
            team.isolation,
            workdir,
            claude=team.claude,
            claude_mock=team.mock,
        )
        self.name = name
        self.codex_installed = codex_installed
        self.hookman_on_path = hookman_on_path
        make_home(self.home, name)

    def env(self) -> dict[str, str]:
        home = self.home
        path = [str(self.client.bin_dir)]
        path += [str(self.codex.bin_dir)] if self.codex_installed else []
        path += [str(Path(sys.executable).parent)] if self.hookman_on_path else []
        return {
            "PATH": os.pathsep.join([*path, "/usr/bin", "/bin"]),
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_RUNTIME_DIR": str(self.scratch / "runtime"),
            "TMPDIR": str(self.scratch / "tmp"),
            "CLAUDE_CODE_TMPDIR": str(self.scratch / "tmp"),
            "CLAUDE_CONFIG_DIR": str(home / ".claude"),
            "CODEX_HOME": str(self.codex_home),
            "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "LANG": "C.UTF-8",
            "ANTHROPIC_BASE_URL": self.mock.url,
            "ANTHROPIC_API_KEY": "sk-ant-mock-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "IS_SANDBOX": "1",
            "MOCK_KEY": "mock-key",
            "NO_COLOR": "1",
            **_user_site_env(),
            **self.extra_env,
        }

    # git, as this machine's user

    def git(self, *args: str) -> str:
        return run_git(self.root, self.home, *args)

    def clone(self, origin: Path) -> None:
        """Replace the empty project directory by a clone of `origin`."""
        shutil.rmtree(self.root)
        run_git(self.root.parent, self.home, "clone", "-q", str(origin), self.root.name)

    def commit_and_push(self, message: str) -> list[str]:
        """Commit what git sees under .claude/ (as the docs say: hookman.toml, the pins,
        the hooks) and push; return the committed paths."""
        self.git("add", "-A", ".claude")
        staged = self.git("diff", "--cached", "--name-only").splitlines()
        self.git("commit", "-q", "-m", message)
        self.git("push", "-q", "origin", "HEAD:main")
        return staged

    def pull(self) -> None:
        self.git("pull", "-q", "--ff-only", "origin", "main")

    # the project's files

    def pins(self) -> dict[str, Any]:
        return json.loads((self.root / ".claude" / "hookman-pins.json").read_text())

    def victim(self, name: str) -> Path:
        """A directory outside the project a guarded command would delete."""
        victim = self.scratch / name
        victim.mkdir(parents=True, exist_ok=True)
        return victim

    def payload(self, command: str) -> Path:
        digest = hashlib.sha256(command.encode()).hexdigest()[:12]
        target = self.scratch / f"payload-{digest}.json"
        body = {"tool_name": "Bash", "tool_input": {"command": command}}
        target.write_text(json.dumps(body), encoding="utf-8")
        return target

    # what hookman says

    def json_of(self, *args: str) -> tuple[int, dict[str, Any], str]:
        """Exit status, parsed stdout, and stderr of `hookman ARGS --json`."""
        done = self.hookman(*args, "--json", check=False)
        try:
            parsed = json.loads(done.stdout)
        except json.JSONDecodeError:
            parsed = {"unparsed stdout": done.stdout}
        return done.returncode, parsed, done.stderr

    def story(self, command: str, *, codex_command: str | None = None) -> Story:
        """What `list`, `doctor` and `fire` say now (fire on `command`, and for Codex on
        `codex_command`)."""
        _rc, listed, _err = self.json_of("list")
        doctor_rc, doctor, _err = self.json_of("doctor")
        _rc, fired, _err = self.json_of(
            "fire", "PreToolUse", "--payload", str(self.payload(command))
        )
        fired_codex = None
        if codex_command is not None:
            payload = str(self.payload(codex_command))
            _rc, fired_codex, _err = self.json_of(
                "fire", "PreToolUse", "--payload", payload, "--agent", "codex"
            )
        return Story(listed, doctor_rc, doctor, fired, fired_codex, self.settings_events())

    def settings_events(self) -> set[str]:
        """The events settings.local.json has entries for (only hookman writes there)."""
        if not self.settings_path.exists():
            return set()
        return set(self.settings().get("hooks", {}))


@dataclass
class Story:
    """What hookman's commands say in one state of the flow."""

    listed: dict[str, Any]
    doctor_rc: int
    doctor: dict[str, Any]
    fired: dict[str, Any]
    fired_codex: dict[str, Any] | None = None
    settings_events: set[str] = field(default_factory=set)

    def hook(self, name: str) -> dict[str, Any]:
        found = [hook for hook in self.listed.get("hooks", []) if hook["name"] == name]
        assert len(found) == 1, json.dumps(self.listed, indent=1)[:3000]
        return found[0]

    def listed_written(self) -> set[str]:
        """The Claude Code events `list` says are written, for any hook."""
        return {
            event
            for hook in self.listed.get("hooks", [])
            for event, entry in hook.get("claude_events", {}).items()
            if entry.get("status") == "written"
        }

    def loud(self) -> list[dict[str, Any]]:
        """doctor's errors and warnings."""
        findings = self.doctor.get("findings", [])
        return [f for f in findings if f.get("severity") in ("error", "warning")]

    def fire_reads(self) -> str:
        """What `fire` says the model reads, joined."""
        return "\n".join(self.fired.get("model_sees", []))

    def fire_reads_codex(self) -> str:
        """What `fire --agent codex` says Codex's model reads, joined."""
        assert self.fired_codex is not None, "fire ran for Claude Code only"
        return "\n".join(self.fired_codex.get("codex", {}).get("model_sees", []))


def claude_denial(run: ClaudeRun, index: int = 0) -> str:
    """The text of the run's `index`th tool result, asserting it is an error (a deny)."""
    results = run.tool_results()
    assert len(results) > index, run.describe()
    block = results[index]
    assert block.get("is_error") is True, run.describe()
    content = block.get("content")
    return content if isinstance(content, str) else json.dumps(content)


def codex_output(run: CodexRun, index: int = 0) -> str:
    outputs = run.tool_outputs()
    assert len(outputs) > index, run.describe()
    return outputs[index]


def text_of(value: Any) -> str:
    """Every string in a JSON value, joined: where a sentence sits in a shape may change."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(text_of(item) for item in value.values())
    if isinstance(value, list):
        return "\n".join(text_of(item) for item in value)
    return ""
