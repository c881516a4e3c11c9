"""Hostile tests of the warm server (issue 26): what a hostile co-user, a broken environment or
a misbehaving hook can make the server or the prompt gate do. Each test asserts the SAFE
behaviour; where the product fails it the test is a strict xfail whose reason says exactly
what the client would read or do. The one question: can a guarded call be let through, one
agent stall the others, another project's hooks be run, the secret leak, the server crash?"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookman.bridge.serve_proof import OURS, identity_proof
from hookman.serve import http_request, wire
from hookman.serve.http_request import BAD, RequestReader

from .attack_support import (
    ATTACK_GUARD,
    Relay,
    body_of,
    gate_manifest,
    hook_head,
    prompt,
    raw_exchange,
    server_fds,
    start_limited,
    try_post,
    wait_for,
)
from .served import Served, deny_reason, free_port

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc, fds")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    project = Served(tmp_path_factory.mktemp("attacked"))
    project.install()
    (project.root / "hooks" / "guard.py").write_text(ATTACK_GUARD, encoding="utf-8")
    project.start()
    yield project
    project.stop()


@pytest.fixture
def own(tmp_path: Path) -> Iterator[Served]:
    """A project and a server of this test alone (for attacks that may kill it)."""
    project = Served(tmp_path)
    project.install()
    yield project
    project.stop()


def _alive(served: Served) -> bool:
    return served.process is not None and served.process.poll() is None


# -- unauthenticated requests (any local process, any co-user) ------------------------------


def test_a_tokenless_oversized_request_naming_a_nested_json_file_does_not_crash(
    own: Served, tmp_path: Path
) -> None:
    own.start()
    planted = tmp_path / "planted.json"
    planted.write_text("[" * 200_000 + "]" * 200_000)
    head = (
        f"POST /v1/hook/PreToolUse HTTP/1.1\r\nX-Hookman-Manifest: {planted}\r\n"
        f"Authorization: Bearer {'0' * 64}\r\nContent-Length: {1 << 40}\r\n\r\n"
    )
    raw_exchange(own.port, head.encode(), timeout=20)
    assert own.post("PreToolUse", own.bash("PreToolUse", "ls"), timeout=20) == (200, {})
    assert _alive(own)


def test_a_co_user_cannot_kill_the_server_and_take_its_port_mid_turn(
    own: Served, tmp_path: Path
) -> None:
    own.start()
    planted = tmp_path / "planted.json"
    planted.write_text("[" * 200_000 + "]" * 200_000)
    head = (
        f"POST /v1/hook/PreToolUse HTTP/1.1\r\nX-Hookman-Manifest: {planted}\r\n"
        f"Content-Length: {1 << 40}\r\n\r\n"
    )
    raw_exchange(own.port, head.encode(), timeout=20)
    wait_for(lambda: not _alive(own), 5)
    try:
        squatter = Relay(own.port, own.port)  # answers every hook request `{}`
    except OSError:  # the port is still hookman's
        squatter = None
    if squatter is None:
        reply = try_post(own, "PreToolUse", own.bash("PreToolUse", "rm -rf /"))
    else:
        with squatter:
            reply = try_post(own, "PreToolUse", own.bash("PreToolUse", "rm -rf /"))
    assert not isinstance(reply, str) and deny_reason(reply[1]) is not None, reply


def test_a_tokenless_request_is_refused_at_its_head(served: Served) -> None:
    head = hook_head(served, "PreToolUse", 30 << 20, token="0" * 64)
    answer = raw_exchange(served.port, head, half_close=True)
    assert answer.startswith(b"HTTP/1.1 401")


def test_idle_connections_past_the_limit_do_not_shut_out_a_real_request(served: Served) -> None:
    assert served.process is not None
    before = server_fds(served.process.pid)
    idle = []
    try:
        for _ in range(540):
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
            sock.sendall(b"POST /v1/hook/PreToolUse HTTP/1.1\r\n")
            idle.append(sock)
        wait_for(lambda: server_fds(served.process.pid) >= before + 500, 10)  # type: ignore[union-attr]
        answer = try_post(served, "PreToolUse", served.bash("PreToolUse", "ls"), timeout=20)
    finally:
        for sock in idle:
            sock.close()
    assert answer == (200, {})


def test_a_slow_client_on_many_connections_does_not_stall_a_real_request(served: Served) -> None:
    """Fewer than the limit: 100 half-sent requests, then a real one is answered."""
    idle = []
    try:
        for _ in range(100):
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
            sock.sendall(b"POST /v1/hook/PreToolUse HTTP/1.1\r\nContent-Length: 9")
            idle.append(sock)
        _, body = served.post("PreToolUse", served.bash("PreToolUse", "rm -rf /"))
    finally:
        for sock in idle:
            sock.close()
    assert deny_reason(body) == "no rm -rf in this project"


def test_the_identity_answer_is_no_token_oracle(served: Served) -> None:
    """The proof is HMAC(secret, "identity:"+nonce), a token HMAC(secret, "manifest:"+path):
    no nonce a stranger sends turns the proof into a project's token."""
    nonce = b"manifest:".hex()
    status, body = served.request("GET", f"{wire.IDENTITY_PATH}?nonce={nonce}")
    assert status == 200
    assert body["proof"] != served.token()
    # non-hex nonces (the way to smuggle the manifest text in) are refused
    status, _ = served.request("GET", f"{wire.IDENTITY_PATH}?nonce=manifest:{served.manifest}")
    assert status == 400


# -- the parser: memory and framing ---------------------------------------------------------


def _chunked_head() -> bytes:
    return b"POST /v1/hook/PreToolUse HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"


def test_chunk_extensions_do_not_grow_the_buffer_past_the_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(http_request, "BODY_LIMIT", 64 * 1024)
    reader = RequestReader()
    reader.feed(_chunked_head())
    state = "incomplete"
    for _ in range(40):  # 40 lines of 30 kB extension, 40 bytes of body
        state = reader.feed(b"1;" + b"a" * 30_000 + b"\r\nX\r\n")
        if state == BAD:
            break
    assert state == BAD


def test_an_endless_trailer_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_request, "BODY_LIMIT", 64 * 1024)
    reader = RequestReader()
    reader.feed(_chunked_head() + b"0\r\n")
    state = "incomplete"
    for _ in range(40):
        state = reader.feed(b"X-Trailer: " + b"a" * 30_000 + b"\r\n")
        if state == BAD:
            break
    assert state == BAD


def test_a_chunked_body_wins_over_a_content_length_and_still_denies(served: Served) -> None:
    payload = json.dumps(served.bash("PreToolUse", "rm -rf /")).encode()
    head = hook_head(served, "PreToolUse", 2).replace(
        b"Content-Length: 2\r\n", b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n"
    )
    raw = head + f"{len(payload):x}\r\n".encode() + payload + b"\r\n0\r\n\r\n"
    answer = raw_exchange(served.port, raw)
    assert deny_reason(body_of(answer)) == "no rm -rf in this project"


def test_a_pipelined_second_request_is_never_answered_on_the_same_connection(
    served: Served,
) -> None:
    """Smuggling: `ls` then `rm -rf` on one connection. One answer (the first request's,
    Connection: close): the client can never read the first answer as the second's."""
    allowed = json.dumps(served.bash("PreToolUse", "ls")).encode()
    denied = json.dumps(served.bash("PreToolUse", "rm -rf /")).encode()
    raw = (
        hook_head(served, "PreToolUse", len(allowed))
        + allowed
        + hook_head(served, "PreToolUse", len(denied))
        + denied
    )
    answer = raw_exchange(served.port, raw)
    assert answer.count(b"HTTP/1.1 ") == 1
    assert b"Connection: close" in answer
    assert body_of(answer) == {}


@pytest.mark.parametrize("shift", ["lower", "http10", "duplicate"])
def test_header_variants_keep_token_and_manifest_together(served: Served, shift: str) -> None:
    payload = json.dumps(served.bash("PreToolUse", "rm -rf /")).encode()
    head = hook_head(served, "PreToolUse", len(payload))
    if shift == "lower":
        head = head.replace(b"X-Hookman-Manifest", b"x-hookman-manifest").replace(
            b"Authorization", b"AUTHORIZATION"
        )
    elif shift == "http10":
        head = head.replace(b"HTTP/1.1", b"HTTP/1.0")
    else:  # another project's manifest first, this one's last: checked and run as one
        head = head.replace(
            b"X-Hookman-Manifest",
            b"X-Hookman-Manifest: /elsewhere/manifest.json\r\nX-Hookman-Manifest",
        )
    answer = raw_exchange(served.port, head + payload)
    assert deny_reason(body_of(answer)) == "no rm -rf in this project"


@pytest.mark.parametrize(
    "manifest",
    ["{m}/../{base}", "{m}\x00", "{m} ", "/tmp/../{m}", "{m}\t"],
)
def test_a_manifest_path_spelled_otherwise_is_refused(served: Served, manifest: str) -> None:
    """The token binds the exact text: `..`, NUL, trailing blanks never reach another file."""
    path = Path(served.manifest)
    spelled = manifest.format(m=served.manifest, base=path.name).replace(
        f"{path}/../{path.name}", f"{path.parent}/../{path.parent.name}/{path.name}"
    )
    payload = json.dumps(served.bash("PreToolUse", "ls")).encode()
    head = hook_head(served, "PreToolUse", len(payload)).replace(
        f"X-Hookman-Manifest: {served.manifest}".encode(),
        f"X-Hookman-Manifest: {spelled}".encode("latin-1"),
    )
    answer = raw_exchange(served.port, head + payload)
    if spelled.strip(" \t") == served.manifest:  # the blanks HTTP strips: the same path
        assert body_of(answer) == {}
    else:
        assert answer.startswith((b"HTTP/1.1 401", b"HTTP/1.1 400"))


# -- payloads on a guarded event -----------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"not json",
        b"\xff\xfe\x00rm -rf /",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"tool_name": "Bash", "tool_input": {"command": "rm -rf / \\ud800"},'
        b' "hook_event_name": "PreToolUse"}',
        b'{"tool_name": "Bash", "tool_input": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5000 + b"}",
        b"[]",
        b"null",
    ],
    ids=["empty", "text", "not-utf8", "nested", "surrogate", "deep-input", "list", "null"],
)
def test_a_payload_the_guard_cannot_judge_is_never_answered_as_success(
    served: Served, body: bytes
) -> None:
    status, answer = served.post("PreToolUse", body)
    assert status == 200
    if answer != {} or b"rm -rf" in body:
        assert deny_reason(answer) is not None, answer
    else:  # an empty answer here means the guard ran and allowed: never for rm -rf
        assert b"rm -rf" not in body


@pytest.mark.parametrize("project", ["/elsewhere", "$CLAUDE_PROJECT_DIR", "", "{root}/../other"])
def test_a_project_header_the_client_did_not_expand_still_guards(
    served: Served, project: str
) -> None:
    payload = json.dumps(served.bash("PreToolUse", "rm -rf /")).encode()
    head = hook_head(served, "PreToolUse", len(payload)).replace(
        f"X-Hookman-Project: {served.root}".encode(),
        f"X-Hookman-Project: {project.format(root=served.root)}".encode(),
    )
    assert deny_reason(body_of(raw_exchange(served.port, head + payload))) is not None


# -- hooks that misbehave --------------------------------------------------------------------


@pytest.mark.parametrize("command", ["echo-empty rm -rf", "daemon rm -rf"])
def test_a_guard_that_writes_or_forks_still_denies(served: Served, command: str) -> None:
    status, body = served.post("PreToolUse", served.bash("PreToolUse", command), timeout=30)
    assert status == 200
    assert deny_reason(body) == "no rm -rf in this project"


@pytest.mark.parametrize(
    "command",
    [
        "flood rm -rf",
        "flood ls",
        "closefds rm -rf",
        "killpg rm -rf",
        "closefds ls",
        "closehigh rm -rf",
        "closehigh ls",
    ],
)
def test_a_guard_that_breaks_its_own_process_denies(served: Served, command: str) -> None:
    status, body = served.post("PreToolUse", served.bash("PreToolUse", command), timeout=30)
    assert status == 200
    assert deny_reason(body) is not None, body


def test_a_forked_daemon_does_not_stall_the_next_requests(served: Served) -> None:
    served.post("PreToolUse", served.bash("PreToolUse", "daemon ls"), timeout=30)
    assert served.post("PreToolUse", served.bash("PreToolUse", "ls"), timeout=30) == (200, {})


# -- a broken environment ---------------------------------------------------------------------


def test_descriptor_exhaustion_at_a_request_does_not_kill_the_server(own: Served) -> None:
    limit = 48
    start_limited(own, limit)
    assert own.process is not None
    pid = own.process.pid
    assert own.post("PreToolUse", own.bash("PreToolUse", "ls")) == (200, {})  # manifest cached
    assert wait_for(lambda: server_fds(pid) <= limit - 8)
    idle: list[socket.socket] = []
    try:
        while server_fds(pid) < limit - 1:  # one at a time: each accepted before the next
            held = server_fds(pid)
            sock = socket.create_connection(("127.0.0.1", own.port), timeout=10)
            sock.sendall(b"POST /v1/hook/PreToolUse HTTP/1.1\r\n")
            idle.append(sock)
            if not wait_for(lambda held=held: server_fds(pid) > held, 10):
                break  # the server let an idle connection go to take this one: at its limit
        # the last free descriptor is this request's connection
        answer = try_post(own, "PreToolUse", own.bash("PreToolUse", "rm -rf /"), timeout=20)
    finally:
        for sock in idle:
            sock.close()
    wait_for(lambda: not _alive(own), 2)  # a server that dies of it has died by now
    assert _alive(own)
    assert not isinstance(answer, str) and deny_reason(answer[1]) is not None, answer


def test_a_low_soft_descriptor_limit_is_raised_to_the_hard_one(own: Served) -> None:
    start_limited(own, 64, hard=False)
    assert own.process is not None
    limits = Path(f"/proc/{own.process.pid}/limits").read_text(encoding="ascii")
    soft, hard = next(
        line.split()[3:5] for line in limits.splitlines() if line.startswith("Max open files")
    )
    assert soft == hard != "64"


def test_requests_that_are_no_hooks_are_answered_from_their_head(served: Served) -> None:
    """More connections than the server keeps, each with a whole head that promises a body
    it never sends (no token needed: no hook path): each is answered at once, and a real
    request is answered as ever."""
    flood = []
    try:
        for index in range(600):
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
            path = "/nothing" if index % 2 else wire.IDENTITY_PATH + "?nonce=00"
            sock.sendall(f"POST {path} HTTP/1.1\r\nContent-Length: 10000000\r\n\r\n{{".encode())
            flood.append(sock)
        _, body = served.post("PreToolUse", served.bash("PreToolUse", "rm -rf /"), timeout=20)
        answered = flood[1].recv(64)
    finally:
        for sock in flood:
            sock.close()
    assert deny_reason(body) == "no rm -rf in this project"
    assert answered.startswith(b"HTTP/1.1 404")


def test_no_descriptor_left_rests_the_listener_instead_of_spinning(own: Served) -> None:
    """Every descriptor held by a request under way (each with the project's token, its body
    still coming): accepting fails, and the server waits for the next second instead of
    trying again at once, round after round (a loop that spun wrote its log without end)."""
    start_limited(own, 48)
    assert own.process is not None
    pid = own.process.pid
    assert own.post("PreToolUse", own.bash("PreToolUse", "ls")) == (200, {})
    held: list[socket.socket] = []
    try:
        for _ in range(60):
            sock = socket.create_connection(("127.0.0.1", own.port), timeout=10)
            sock.sendall(hook_head(own, "PreToolUse", 1000) + b"{")
            held.append(sock)
        wait_for(lambda: "accept failed" in own.server_log(), 10)
        time.sleep(2.5)  # the ticks of 2.5 s: each tries once
        failures = own.server_log().count("accept failed")
    finally:
        for sock in held:
            sock.close()
    assert 1 <= failures <= 5, own.server_log()[-2000:]
    assert wait_for(lambda: server_fds(pid) <= 40)
    assert deny_reason(own.post("PreToolUse", own.bash("PreToolUse", "rm -rf /"))[1])


@pytest.mark.parametrize(
    "planted",
    [
        "symlink",
        "empty-secret",
        "fifo-port",
    ],
)
def test_planted_files_in_the_serve_directory(own: Served, tmp_path: Path, planted: str) -> None:
    serve = own.home / "state" / "serve"
    serve.mkdir(parents=True, exist_ok=True, mode=0o700)
    if planted == "symlink":
        target = tmp_path / "someone-elses"
        target.write_text("a" * 64)
        (serve / "secret").symlink_to(target)
        done = own.hookman("serve", "run", "--port", str(own.port), check=False)
        assert done.returncode != 0
        assert "Traceback" not in done.stderr and done.stderr.startswith("hookman:")
        assert target.read_text() == "a" * 64
    elif planted == "empty-secret":  # what a crash mid-ensure_secret leaves: refused, said
        (serve / "secret").write_text("")
        (serve / "secret").chmod(0o600)
        done = own.hookman("serve", "start", check=False)
        assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    else:
        os.mkfifo(serve / "port")
        done = own.hookman("serve", "status", check=False)  # must not wait for a writer
        assert "Traceback" not in done.stderr


def test_a_secret_others_can_read_is_not_trusted(own: Served) -> None:
    own.hookman("serve", "enable", "--port", str(own.port))
    serve = own.home / "state" / "serve"
    serve.chmod(0o755)
    (serve / "secret").chmod(0o644)
    done = own.hookman("serve", "start", check=False)
    try:
        assert own.identity() != OURS or "secret" in (done.stdout + done.stderr).lower()
        assert done.returncode != 0
    finally:
        own.hookman("serve", "stop", check=False)


def _command_line(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _parent(pid: str) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]


def test_two_concurrent_starts_leave_one_server(own: Served) -> None:
    own.hookman("serve", "enable", "--port", str(own.port))
    command = [sys.executable, "-m", "hookman", "serve", "start"]
    runs = [
        subprocess.Popen(
            command,
            env=own.environment,
            cwd=own.root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        results = [run.communicate(timeout=60) for run in runs]
        assert [run.returncode for run in runs] == [0, 0], results
        assert own.identity() == OURS
        pid = (own.home / "state" / "serve" / "pid").read_text().strip()
        keeper = (own.home / "state" / "serve" / "keeper.pid").read_text().strip()

        def servers() -> list[str]:
            return sorted(
                entry
                for entry in os.listdir("/proc")
                if entry.isdigit()
                and b"hookman.serve.daemon" in _command_line(entry)
                and str(own.home).encode() in _environ(entry)
            )

        # The losing start's daemon leaves once it finds the lock taken (it may still be
        # on its way out when both starts have returned).
        wait_for(lambda: servers() == sorted([pid, keeper]), seconds=20)
        assert servers() == sorted([pid, keeper])  # the server and its port keeper
        assert _parent(keeper) == pid
    finally:
        own.hookman("serve", "stop", check=False)


SLOW_WINNER = """
import time
from hookman.serve import lifecycle
held = lifecycle._take_lock()
print("locked", flush=True)
lifecycle._take_lock = lambda: held  # the server below starts with the lock it holds
time.sleep(2)  # a start slow to listen: the loser of the lock has long left
lifecycle.run(quiet_when_running=True)
"""


def test_a_start_that_loses_the_lock_waits_for_the_winner_to_listen(own: Served) -> None:
    own.hookman("serve", "enable", "--port", str(own.port))
    winner = subprocess.Popen(
        [sys.executable, "-c", SLOW_WINNER],
        env=own.environment,
        cwd=own.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert winner.stdout is not None and winner.stdout.readline() == "locked\n"
        started = own.hookman("serve", "start", check=False)
        assert started.returncode == 0, started.stderr
        assert "already" in started.stdout, started.stdout
        assert own.identity() == OURS
    finally:
        own.hookman("serve", "stop", check=False)
        winner.kill()
        winner.wait()


def _environ(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return b""


def test_stop_leaves_an_unrelated_process_named_in_a_stale_pid_file(own: Served) -> None:
    own.hookman("serve", "enable", "--port", str(own.port))
    bystander = subprocess.Popen(["sleep", "60"])
    try:
        (own.home / "state" / "serve" / "pid").write_text(f"{bystander.pid}\n")
        own.hookman("serve", "stop", check=False)
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


def test_stop_leaves_a_bystander_whose_command_line_mentions_hookman(own: Served) -> None:
    own.hookman("serve", "enable", "--port", str(own.port))
    bystander = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)", ".claude/hookman.toml"]
    )
    try:
        (own.home / "state" / "serve" / "pid").write_text(f"{bystander.pid}\n")
        own.hookman("serve", "stop", check=False)
        time.sleep(0.2)
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


# -- impostors and the prompt gate ------------------------------------------------------------


def test_an_impostor_replaying_a_captured_proof_stops_the_prompt(own: Served) -> None:
    own.hookman("serve", "enable", "--port", str(own.port))
    gate_manifest(own, own.port)
    captured = identity_proof(own.secret(), "00" * 16, own.port)
    body = json.dumps({"hookman": "0", "proof": captured}).encode()
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", own.port))
    listener.listen()
    import threading

    def answer() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with connection:
                connection.recv(65536)
                connection.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
                )

    threading.Thread(target=answer, daemon=True).start()
    try:
        result = prompt(own)
    finally:
        listener.close()
    assert result.get("continue") is False
    assert f"port {own.port}" in str(result.get("stopReason"))


def test_a_stopped_server_never_lets_the_prompt_go_on_unchecked(own: Served) -> None:
    """SIGSTOP: the identity check times out; the prompt stops (or the server answers)."""
    own.hookman("serve", "enable", "--port", str(own.port))
    gate_manifest(own, own.port)
    own.start()
    assert own.process is not None
    os.kill(own.process.pid, signal.SIGSTOP)
    try:
        result = prompt(own)
    finally:
        os.kill(own.process.pid, signal.SIGCONT)
    assert result.get("continue") is False


def test_an_impostor_relaying_the_identity_check_stops_the_prompt(own: Served) -> None:
    expected = free_port()
    own.hookman("serve", "enable", "--port", str(expected))
    gate_manifest(own, expected)
    own.start()  # hookman's server, on another port (own.port)
    with Relay(expected, own.port) as relay:
        result = prompt(own)
        # What the guarded http entry reads from the port its manifest names:
        real_port, own.port = own.port, expected
        try:
            leaked = try_post(own, "PreToolUse", own.bash("PreToolUse", "rm -rf /"))
        finally:
            own.port = real_port
    assert relay.hook_requests == 1 and leaked == (200, {})  # the impostor's success
    assert result.get("continue") is False


# -- the secret and the tokens at rest --------------------------------------------------------


def test_the_settings_file_holding_a_token_is_readable_by_its_owner_only(own: Served) -> None:
    own.hookman("serve", "enable", "--port", str(own.port))
    own.hookman("install", "--claude-version", "2.1.332")
    holding = [
        path
        for path in (own.root / ".claude").glob("settings*.json")
        if "Bearer " in path.read_text(encoding="utf-8")
    ]
    assert holding, "install wrote no http entry"
    for path in holding:
        assert path.stat().st_mode & 0o077 == 0, (path, oct(path.stat().st_mode))


def test_the_secret_is_made_private(own: Served) -> None:
    own.hookman("serve", "enable", "--port", str(own.port))
    secret = own.home / "state" / "serve" / "secret"
    assert secret.stat().st_mode & 0o077 == 0
    assert (own.home / "state" / "serve").stat().st_mode & 0o077 == 0


@pytest.mark.xfail(
    strict=True,
    reason="the client sends no project directory with an http entry (it does not expand "
    "$CLAUDE_PROJECT_DIR in headers) and the payload's `cwd` may leave the project, so a call "
    "through the server cannot tell a copy of the project from the project: the copy's first "
    "prompt is stopped by the prompt gate (a command entry, which sees the directory), but a "
    "request posted directly, as here, is answered by the original's guards",
)
def test_a_copied_project_is_denied_as_the_command_entry_denies(
    served: Served, tmp_path: Path
) -> None:
    copy = tmp_path / "copied-project"
    copy.mkdir()
    payload = served.bash("PreToolUse", "ls")
    payload["cwd"] = str(copy)
    body = json.dumps(payload).encode()
    head = hook_head(served, "PreToolUse", len(body)).replace(
        f"X-Hookman-Project: {served.root}\r\n".encode(), b""
    )
    assert b"X-Hookman-Project" not in head  # as install writes the entry
    assert deny_reason(body_of(raw_exchange(served.port, head + body))) is not None
