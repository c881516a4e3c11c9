"""serve/workers.py's choice of a worker, without a server: a worker that has given its
run's answer and only logs is waited for (by as many requests as there are such workers),
for FINISHING_S at most; one still running its hooks, or idle, is not "finishing". A run
nothing waits for any more (answered) that goes on past its deadline is the server's to end."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from hookman.serve.workers import FINISHING_S, Worker, Workers

MANIFEST = "/state/projects/p/manifest.json"
NOW = 1000.0


@pytest.fixture
def workers() -> Iterator[Workers]:
    pool = Workers(4)
    yield pool
    for worker in pool.all():
        pool.drop(worker)


def _worker(pool: Workers, pid: int, *, busy: bool, answered_at: float | None) -> Worker:
    ours, theirs = socket.socketpair()
    theirs.close()
    worker = Worker(pid, ours, MANIFEST, NOW - 10)
    worker.idle_since = None if busy else NOW - 1
    worker.answered_at = answered_at
    pool.add(worker)
    return worker


def test_a_worker_that_answered_just_now_is_waited_for(workers: Workers) -> None:
    _worker(workers, 1, busy=True, answered_at=NOW - 0.001)
    assert workers.finishing(MANIFEST, NOW, waiting=0)


def test_one_finishing_worker_is_waited_for_by_one_request(workers: Workers) -> None:
    _worker(workers, 1, busy=True, answered_at=NOW - 0.001)
    assert not workers.finishing(MANIFEST, NOW, waiting=1)
    _worker(workers, 2, busy=True, answered_at=NOW - 0.002)
    assert workers.finishing(MANIFEST, NOW, waiting=1)
    assert not workers.finishing(MANIFEST, NOW, waiting=2)


def test_a_worker_stuck_after_its_answer_is_waited_for_no_longer(workers: Workers) -> None:
    _worker(workers, 1, busy=True, answered_at=NOW - FINISHING_S)
    assert workers.finishing(MANIFEST, NOW, waiting=0)
    assert not workers.finishing(MANIFEST, NOW + 0.001, waiting=0)


def test_a_worker_running_its_hooks_is_not_finishing(workers: Workers) -> None:
    _worker(workers, 1, busy=True, answered_at=None)
    assert not workers.finishing(MANIFEST, NOW, waiting=0)


def test_an_idle_worker_is_not_finishing(workers: Workers) -> None:
    _worker(workers, 1, busy=False, answered_at=NOW - 0.001)
    assert not workers.finishing(MANIFEST, NOW, waiting=0)


def test_another_projects_worker_is_not_waited_for(workers: Workers) -> None:
    _worker(workers, 1, busy=True, answered_at=NOW - 0.001)
    assert not workers.finishing("/state/projects/q/manifest.json", NOW, waiting=0)


def test_a_run_nothing_waits_for_is_past_its_deadline_once_it_passed(workers: Workers) -> None:
    answered = _worker(workers, 1, busy=True, answered_at=NOW - 40)
    answered.deadline = NOW - 0.001
    assert workers.unwaited_past_deadline(NOW) == [answered]


def test_a_run_within_its_deadline_a_waited_run_and_an_idle_worker_are_not(
    workers: Workers,
) -> None:
    within = _worker(workers, 1, busy=True, answered_at=NOW - 1)
    within.deadline = NOW + 0.001
    waited = _worker(workers, 2, busy=True, answered_at=None)
    waited.deadline = NOW - 1
    waited.connection = object()  # its request waits: the server's own deadline answers it
    idle = _worker(workers, 3, busy=False, answered_at=None)
    idle.deadline = NOW - 1
    assert workers.unwaited_past_deadline(NOW) == []
