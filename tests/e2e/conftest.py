"""Fixtures for the real-client suite: one session-scoped mock API, and `e2e`, a temp project
run against each pinned Claude Code version (skipped loudly when a client is missing, failed
instead when CI=true)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from . import notes
from .agents_harness import AGENTS, AgentClient, AgentProject, find_agent
from .codex_harness import CODEX_VERSIONS, CodexClient, CodexProject, find_codex
from .harness import (
    ClaudeClient,
    E2EProject,
    NetworkIsolation,
    active_client_versions,
    detect_network_isolation,
    find_client,
)
from .mock_anthropic import MockAnthropic
from .mock_openai import MockOpenAI


@cache
def _client(version: str) -> ClaudeClient | str:
    return find_client(version)


def _served(mock_class: Any) -> Iterator[Any]:
    # A short directory: Unix socket paths are limited to about 108 bytes.
    socket_dir = Path(tempfile.mkdtemp(prefix="hm-e2e-"))
    mock = mock_class(unix_socket=socket_dir / "api.sock").start()
    yield mock
    mock.stop()
    shutil.rmtree(socket_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def mock_api() -> Iterator[MockAnthropic]:
    yield from _served(MockAnthropic)


@pytest.fixture(scope="session")
def network_isolation(mock_api: MockAnthropic) -> NetworkIsolation:
    isolation = detect_network_isolation(mock_api)
    notes.ISOLATION.append(isolation.description)
    return isolation


def _installed_or_skip(found: Any, version: str, missing: dict[str, str]) -> Any:
    """The client, or a loud skip (a failure when CI=true) naming why it is missing."""
    if isinstance(found, str):
        missing[version] = found
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"E2E CLIENT MISSING IN CI: {found}", pytrace=False)
        pytest.skip(f"E2E SKIPPED, REAL CLIENT NOT INSTALLED: {found}")
    return found


ACTIVE_CLIENTS = active_client_versions()


@pytest.fixture(params=ACTIVE_CLIENTS, ids=[f"claude-{v}" for v in ACTIVE_CLIENTS])
def claude_client(request: pytest.FixtureRequest) -> ClaudeClient:
    return _installed_or_skip(_client(request.param), request.param, notes.MISSING_CLAUDE)


@pytest.fixture
def e2e(
    claude_client: ClaudeClient,
    mock_api: MockAnthropic,
    network_isolation: NetworkIsolation,
    tmp_path: Path,
) -> E2EProject:
    return E2EProject(claude_client, mock_api, network_isolation, tmp_path)


# Codex CLI (tests/e2e/test_codex.py): the same isolation, a mock of the Responses API.


@cache
def _codex(version: str) -> CodexClient | str:
    return find_codex(version)


@pytest.fixture(scope="session")
def mock_openai() -> Iterator[MockOpenAI]:
    yield from _served(MockOpenAI)


@pytest.fixture(scope="session")
def openai_isolation(mock_openai: MockOpenAI) -> NetworkIsolation:
    return detect_network_isolation(mock_openai)  # type: ignore[arg-type]


@pytest.fixture(params=CODEX_VERSIONS, ids=[f"codex-{v}" for v in CODEX_VERSIONS])
def codex_client(request: pytest.FixtureRequest) -> CodexClient:
    return _installed_or_skip(_codex(request.param), request.param, notes.MISSING_CODEX)


@pytest.fixture
def codex_e2e(
    codex_client: CodexClient,
    mock_openai: MockOpenAI,
    openai_isolation: NetworkIsolation,
    tmp_path: Path,
) -> CodexProject:
    return CodexProject(codex_client, mock_openai, openai_isolation, tmp_path)


# GitHub Copilot CLI, Qwen Code and Factory droid (tests/e2e/test_agents_*.py): the same
# isolation; Copilot speaks to the Anthropic mock, Qwen and droid to the OpenAI one.


@cache
def _agent(agent: str) -> AgentClient | str:
    return find_agent(agent)


def agent_client_or_skip(agent: str) -> AgentClient:
    return _installed_or_skip(_agent(agent), agent, notes.MISSING_AGENTS)


@pytest.fixture(params=AGENTS)
def agent_client(request: pytest.FixtureRequest) -> AgentClient:
    return agent_client_or_skip(request.param)


@pytest.fixture
def agent_e2e(
    agent_client: AgentClient,
    mock_api: MockAnthropic,
    mock_openai: MockOpenAI,
    network_isolation: NetworkIsolation,
    tmp_path: Path,
) -> AgentProject:
    return AgentProject(agent_client, mock_api, mock_openai, network_isolation, tmp_path)
