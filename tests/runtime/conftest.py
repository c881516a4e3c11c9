"""Helpers for runtime tests: hand-built hooks, a runner, an error collector."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from hookman.runtime import HookError, HookRunner, LoadedHook


def make_hook(
    path: str, **handlers: list[Callable[..., object]] | Callable[..., object]
) -> LoadedHook:
    """A LoadedHook built by hand: `make_hook("a.py", tool_call=[h1, h2], context=h3)`.

    Event names that are not identifiers (`session.compacting`) go through `handlers=`.
    """
    by_event = {
        event: value if isinstance(value, list) else [value] for event, value in handlers.items()
    }
    return LoadedHook(path, by_event)


class ErrorLog:
    """Collects the HookErrors a runner reports."""

    def __init__(self, runner: HookRunner) -> None:
        self.errors: list[HookError] = []
        runner.on_error(self.errors.append)

    def triples(self) -> list[tuple[str, str, str]]:
        return [(error.hook_path, error.event, error.error) for error in self.errors]


@pytest.fixture
def cwd(tmp_path: Path) -> str:
    return str(tmp_path)


@pytest.fixture
def runner_for(cwd: str) -> Callable[..., HookRunner]:
    def build(*hooks: LoadedHook) -> HookRunner:
        return HookRunner(list(hooks), cwd)

    return build
