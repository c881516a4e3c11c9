"""The serve tests' shared fixture: one project installed by the real `hookman install`, its
warm server started, for a whole test module (tests/serve/served.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .served import Served


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    project = Served(tmp_path_factory.mktemp("served"))
    project.install()
    project.start()
    yield project
    project.stop()
