"""When the client started the command (hookman/bridge/command_start.py): the oldest of the
runner's parents that name this install's launcher, never the client itself, whatever the
chain of parents looks like."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from hookman.bridge import command_start
from hookman.bridge.command_start import (
    KINFO_PPID_OFFSET,
    KINFO_SIZE,
    command_ages,
    kinfo_start_and_parent,
    launcher_marks,
    oldest_launcher_age,
    procargs_command_line,
)

DIR = "/home/u/.local/state/hookman/projects/p-1"
LAUNCHER = f"{DIR}/hookman-run.sh".encode()
OUTER = b"sh\0-c\0[ -f " + LAUNCHER + b" ] && sh " + LAUNCHER + b" PreToolUse && false || ..."
LAUNCHED = b"sh\0" + LAUNCHER + b"\0PreToolUse"
CLIENT = b"node\0/usr/lib/claude/cli.js"
SHIM = b"bash\0/home/u/.pyenv/shims/python3\0-I\0-S\0-c\0..."


def _reader(chain: dict[int, tuple[float, int, bytes]]) -> command_start.Reader:
    return chain.get


def _age(chain: dict[int, tuple[float, int, bytes]], first: int = 10) -> float | None:
    return oldest_launcher_age(first, launcher_marks(DIR), _reader(chain))


def test_the_client_s_shell_counts_not_the_launcher_nor_the_client() -> None:
    chain = {10: (1.0, 11, LAUNCHED), 11: (3.0, 12, OUTER), 12: (3600.0, 1, CLIENT)}
    assert _age(chain) == 3.0


def test_an_exec_optimised_shell_is_one_process_that_counts() -> None:
    # the client's `sh -c` exec'd the launcher: one process, the client's child
    chain = {10: (2.0, 12, LAUNCHED), 12: (3600.0, 1, CLIENT)}
    assert _age(chain) == 2.0


def test_a_shim_that_forks_is_passed_over() -> None:
    chain = {
        10: (0.1, 11, SHIM),
        11: (1.0, 12, b"bash\0/home/u/.pyenv/libexec/pyenv\0exec\0python3"),
        12: (4.0, 13, LAUNCHED),
        13: (4.5, 14, OUTER),
        14: (3600.0, 1, CLIENT),
    }
    assert _age(chain) == 4.5


def test_a_runner_started_by_hand_counts_from_its_own_start() -> None:
    chain = {
        10: (100.0, 11, b"-bash"),
        11: (3600.0, 12, b"sshd: u@pts/0"),
        12: (7200.0, 13, b"sshd"),
        13: (9000.0, 1, b"/sbin/init"),
    }
    assert _age(chain) is None


def test_too_many_unnamed_parents_stop_the_walk() -> None:
    chain = {
        10: (0.1, 11, SHIM),
        11: (0.2, 12, SHIM),
        12: (0.3, 13, SHIM),
        13: (0.4, 14, SHIM),
        14: (9.0, 1, OUTER),
    }
    assert _age(chain) is None


def test_an_old_process_that_names_the_launcher_above_the_client_is_not_reached() -> None:
    # a loop in a terminal that runs the client, whose command line names the launcher
    chain = {
        10: (1.0, 11, LAUNCHED),
        11: (1.5, 12, OUTER),
        12: (3600.0, 13, CLIENT),
        13: (7200.0, 1, b"bash\0-c\0while :; do claude; done # " + LAUNCHER),
    }
    assert _age(chain) == 1.5


def test_a_plugin_s_outer_command_names_its_root_literally() -> None:
    plugin_dir = "/home/u/.claude/plugins/cache/m/p/1.0/hookman-runner"
    outer = b'sh\0-c\0[ -f "${CLAUDE_PLUGIN_ROOT}/hookman-runner/run.sh" ] && sh ...'
    launched = b"sh\0" + plugin_dir.encode() + b"/run.sh\0PreToolUse"
    chain = {10: (1.0, 11, launched), 11: (2.0, 12, outer), 12: (3600.0, 1, CLIENT)}
    assert oldest_launcher_age(10, launcher_marks(plugin_dir), _reader(chain)) == 2.0


def test_another_install_s_launcher_does_not_count() -> None:
    other = b"sh\0/home/u/.local/state/hookman/projects/p-2/hookman-run.sh\0PreToolUse"
    chain = {10: (1.0, 11, other), 11: (3600.0, 1, CLIENT)}
    assert _age(chain) is None


def test_an_unreadable_parent_ends_the_walk() -> None:
    chain = {10: (1.0, 11, LAUNCHED)}  # 11 gone, or another user's
    assert _age(chain) == 1.0


def test_the_darwin_kinfo_proc_fields() -> None:
    raw = bytearray(KINFO_SIZE)
    raw[0:8] = (1_700_000_000).to_bytes(8, sys.byteorder)
    raw[8:12] = (250_000).to_bytes(4, sys.byteorder)
    raw[KINFO_PPID_OFFSET : KINFO_PPID_OFFSET + 4] = (4321).to_bytes(4, sys.byteorder)
    assert kinfo_start_and_parent(bytes(raw)) == (1_700_000_000.25, 4321)
    assert kinfo_start_and_parent(bytes(raw[:100])) is None
    assert kinfo_start_and_parent(bytes(KINFO_SIZE)) is None  # no start time: unreadable


def test_the_darwin_procargs_words_leave_the_environment_out() -> None:
    raw = (3).to_bytes(4, sys.byteorder) + b"/bin/sh\0\0\0\0sh\0-c\0cmd\0HOME=/x\0PATH=/y\0"
    assert procargs_command_line(raw) == b"sh\0-c\0cmd"
    assert procargs_command_line(b"\1") == b""
    assert procargs_command_line((1).to_bytes(4, sys.byteorder) + b"noend") == b""


def test_elsewhere_the_clock_starts_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(command_start.sys, "platform", "win32")
    assert command_ages(DIR) == (0.0, 0.0)


_REPORT = "from hookman.bridge.command_start import command_ages; print(*command_ages({dir!r}))"


def _fake_launcher(tmp_path: Path) -> Path:
    """A `hookman-run.sh` that runs python to report command_ages for its own directory."""
    directory = tmp_path / "state"
    directory.mkdir()
    code = _REPORT.format(dir=str(directory))
    launcher = directory / "hookman-run.sh"
    launcher.write_text(f"{sys.executable} -c {code!r}\ntrue\n", encoding="utf-8")
    return launcher


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_client_that_has_run_for_long_does_not_make_the_command_old(tmp_path: Path) -> None:
    launcher = _fake_launcher(tmp_path)
    # the client's own command line does not name the launcher (it takes the command from
    # its environment, as a client takes it from a settings file)
    client = textwrap.dedent(
        """
        import os, subprocess, time
        time.sleep(3)
        subprocess.run(["sh", "-c", os.environ["COMMAND"]])
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", client],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={**os.environ, "COMMAND": f"sleep 1; sh {launcher} PreToolUse; true"},
    )
    own, command = (float(word) for word in done.stdout.split())
    assert own < 1.0 <= command < 3.0, done.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_runner_run_by_hand_counts_from_its_own_start(tmp_path: Path) -> None:
    launcher = _fake_launcher(tmp_path)
    code = _REPORT.format(dir=str(launcher.parent))
    started = time.monotonic()
    done = subprocess.run(
        ["sh", "-c", f"sleep 1; {sys.executable} -c {code!r}; true"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    own, command = (float(word) for word in done.stdout.split())
    assert own == command < time.monotonic() - started - 0.5, done.stdout


class _FakeDarwin:
    """sysctl as macOS answers it, for processes given as (start, parent, argv)."""

    def __init__(self, processes: dict[int, tuple[float, int, list[bytes]]]) -> None:
        self.processes = processes

        def sysctl(*args: Any) -> int:  # a function: ctypes sets argtypes on it
            return self.answer(*args)

        self.sysctl = sysctl

    def answer(self, mib: Any, count: int, buffer: Any, length: Any, new: Any, size: int) -> int:
        import ctypes

        name = list(mib)[:count]
        room = length._obj
        if name == [1, 8]:  # KERN_ARGMAX
            data = (65536).to_bytes(4, sys.byteorder)
        elif name[:3] == [1, 14, 1] and name[3] in self.processes:
            start, parent, _ = self.processes[name[3]]
            raw = bytearray(KINFO_SIZE)
            raw[0:8] = int(start).to_bytes(8, sys.byteorder)
            raw[8:12] = round((start % 1) * 1e6).to_bytes(4, sys.byteorder)
            raw[KINFO_PPID_OFFSET : KINFO_PPID_OFFSET + 4] = parent.to_bytes(4, sys.byteorder)
            data = bytes(raw)
        elif name[:2] == [1, 49] and name[2] in self.processes:
            words = self.processes[name[2]][2]
            data = len(words).to_bytes(4, sys.byteorder) + b"/bin/sh\0\0\0"
            data += b"\0".join(words) + b"\0ENV=" + LAUNCHER + b"\0"
        else:
            return -1
        if len(data) > room.value:
            return -1
        ctypes.memmove(buffer, data, len(data))
        room.value = len(data)
        return 0


def test_the_darwin_reader_walks_up_through_sysctl(monkeypatch: pytest.MonkeyPatch) -> None:
    import ctypes

    now = time.time()
    me = os.getpid()
    fake = _FakeDarwin(
        {
            me: (now - 0.5, 501, [b"python3", b"-c", b"..."]),
            501: (now - 1.0, 502, LAUNCHED.split(b"\0")),
            502: (now - 4.0, 503, OUTER.split(b"\0")),
            503: (now - 3600.0, 1, CLIENT.split(b"\0")),
        }
    )
    monkeypatch.setattr(ctypes, "CDLL", lambda name, use_errno=False: fake)
    monkeypatch.setattr(command_start.sys, "platform", "darwin")
    own, command = command_ages(DIR)
    assert 0.4 < own < 1.5 and 3.9 < command < 5.0, (own, command)
    fake.processes[me] = (now - 0.5, 503, [b"python3"])  # run by hand from the client
    own, command = command_ages(DIR)
    assert own == command, (own, command)
