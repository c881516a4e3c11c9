"""The warm hook server's identity, as the runner's prompt gate checks it: where the per-user
secret lives, the proof made from it, and the one request that asks a port for it.

hookman/serve/wire.py is the interface install and the server share; these are the parts
the runner needs too, kept here so the runner (below the server in the house) can import
them: the standard library only, and not even hashlib, hmac or socket (OpenSSL and the
socket module are ~20 ms of a start): HMAC-SHA256 over the built-in sha256, `_socket`."""

from __future__ import annotations

import os
from _operator import _compare_digest  # hmac.compare_digest itself, a built-in module

from hookman.bridge.project_moved import sha256_hex
from hookman.bridge.protocol import MANIFEST_SERVE_KEY

__all__ = ["MANIFEST_SERVE_KEY"]

HOST = "127.0.0.1"
IDENTITY_PATH = "/v1/identity"
HOOK_PATH_PREFIX = "/v1/hook/"  # + EVENT: where an http entry POSTs
# `?async=1` after the hook path: an async entry's event (answered `{}` at once, the hooks
# run on in the server's child).
ASYNC_QUERY = "async=1"
SECRET_NAME = "secret"
SERVER_PID_NAME = "pid"  # the running server's pid
KEEPER_PID_NAME = "keeper.pid"  # the port keeper's pid (serve/keeper.py)
KEEPER_WORDS = "hookman's port keeper"
# What to do when hookman's own server holds the port without answering (own_holder).
UNRESPONSIVE_FIX = "`hookman serve stop`, then `hookman serve start`"
LISTENING_NAME = "listening"  # the port the running server listens on
PORT_NAME = "port"  # the recorded per-user port (`hookman serve enable --port N`)
SECRET_BYTES = 32
IDENTITY_LABEL = "hookman"  # the identity answer's key holding the server's version
# What a port holds, as the identity check finds it.
OURS = "ours"  # hookman's server, proven with this user's secret
NOTHING = "nothing"  # nothing listens (connection refused)
OTHER = "other"  # something listens and cannot prove it is hookman's server
KEPT = "kept"  # hookman's port keeper, proven with this user's secret: the server is not running
KEPT_LABEL = "kept"  # the identity answer's key saying the keeper answered (true)
IDENTITY_READ_LIMIT = 4096
_BLOCK = 64
_INNER_PAD = int.from_bytes(b"\x36" * _BLOCK, "big")
_OUTER_PAD = int.from_bytes(b"\x5c" * _BLOCK, "big")


def serve_dir() -> str:
    """The server's per-user directory (secret, port, pid, its own log). Only a full install
    asks (the server, install, the prompt gate of a project that opted in): a plugin carries no
    user_dirs (plugin/carry.py FULL_INSTALL_ONLY), and its runner never serves."""
    from hookman.user_dirs import user_dir

    return os.path.join(user_dir("state"), "serve")


def hmac_sha256_hex(key: bytes, message: bytes) -> str:
    """HMAC-SHA256 (RFC 2104), the same hex digest as `hmac.new(key, message, sha256)`."""
    if len(key) > _BLOCK:
        key = bytes.fromhex(sha256_hex(key))
    key_number = int.from_bytes(key.ljust(_BLOCK, b"\0"), "big")
    inner = (key_number ^ _INNER_PAD).to_bytes(_BLOCK, "big") + message
    outer = (key_number ^ _OUTER_PAD).to_bytes(_BLOCK, "big") + bytes.fromhex(sha256_hex(inner))
    return sha256_hex(outer)


def identity_proof(secret: bytes, nonce: str, port: int) -> str:
    """The server's answer to `nonce` on `port`: bound to the port, so hookman's own server
    on another port (a user service's `--port`) cannot be relayed as this port's."""
    return hmac_sha256_hex(secret, f"identity:{port}:{nonce}".encode("ascii"))


def read_secret() -> bytes | None:
    """The per-user secret, or None when there is none or it cannot be used (secret_state)."""
    return secret_state()[0]


def server_listening() -> tuple[int, int | None] | None:
    """(pid, port) of the server its pid file names when that process runs (zombies do not),
    the port from its `listening` file (None: the file is missing or not a port, a server
    of an older hookman); None when no server runs. Read without the lock: a hint, which
    `hookman serve status` checks."""
    pid = live_pid(SERVER_PID_NAME)
    if pid is None:
        return None
    return pid, _read_number(os.path.join(serve_dir(), LISTENING_NAME))


def server_elsewhere(port: int) -> tuple[int, int | None] | None:
    """(pid, port or None) of the running server (server_listening) when it does not listen
    on `port`, or does not say where (one of an older hookman); None otherwise."""
    found = server_listening()
    return None if found is None or found[1] == port else found


def own_holder(port: int) -> str | None:
    """The words naming hookman's server or port keeper ("hookman's server (pid N)") when
    a process that holds `port` is the one this user's pid file names: it holds the port yet
    did not prove itself (stopped, or too busy to answer in time), and is no impostor. None
    otherwise."""
    from hookman.bridge.port_holder import port_holders

    holders = port_holders(port)
    for name, who in ((SERVER_PID_NAME, "hookman's server"), (KEEPER_PID_NAME, KEEPER_WORDS)):
        pid = live_pid(name)
        if pid is not None and pid in holders:
            return f"{who} (pid {pid})"
    return None


def unresponsive_problem(holder: str, port: int) -> str:
    """The sentence for hookman's own process holding `port` without proving itself."""
    return (
        f"{holder} holds port {port} but did not prove itself in time: it is stopped, or too "
        "busy to answer"
    )


def live_pid(name: str) -> int | None:
    """The pid in the serve directory's file `name` (the server's `pid`, the port keeper's
    `keeper.pid`) when that process still runs, else None."""
    pid = _read_number(os.path.join(serve_dir(), name))
    return pid if pid is not None and process_runs(pid) else None


def read_port() -> int | None:
    """The recorded per-user port, or None when none is recorded yet."""
    port = _read_number(os.path.join(serve_dir(), PORT_NAME))
    return port if port is not None and 0 < port < 65536 else None


def _read_number(path: str) -> int | None:
    """The number in a state file (never blocking on a planted FIFO, nor following a link)."""
    from hookman.bridge.state_file import read_text

    text = (read_text(path) or "").strip()
    return int(text) if text.isdigit() and len(text) < 12 else None


def process_runs(pid: int) -> bool:
    """Whether process `pid` runs (a zombie does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: it runs
    return not zombie(pid)


def zombie(pid: int) -> bool:
    """Whether process `pid` has ended but was not reaped yet (a server whose parent, e.g. a
    container's init, does not reap it), where /proc tells."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[-1].split()[:1] == [b"Z"]
    except OSError:
        return False


def secret_path() -> str:
    return os.path.join(serve_dir(), SECRET_NAME)


def secret_state() -> tuple[bytes | None, str | None]:
    """(the secret, None); (None, None) when there is none yet; (None, why it cannot be used)
    when the file is there but is no private regular file of this user's holding a whole
    secret: a symlink, a FIFO, another user's, readable by others (then anyone who read it
    could forge tokens and proofs), or cut short (a crash while it was made)."""
    from hookman.bridge.state_file import NotRegularFile, open_regular

    path = secret_path()
    try:
        descriptor = open_regular(path, os.O_RDONLY)
    except FileNotFoundError:
        return None, None
    except NotRegularFile as error:  # a directory, a FIFO...: the error says so
        return None, str(error)
    except OSError as error:  # a symlink (O_NOFOLLOW), no permission...
        return None, f"{path} is not a regular file ({error.strerror or error})"
    try:
        info = os.fstat(descriptor)
        data = os.read(descriptor, SECRET_BYTES * 2 + 1)
    except OSError as error:
        return None, f"{path} cannot be read ({error.strerror or error})"
    finally:
        os.close(descriptor)
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return None, f"{path} belongs to another user"
    if info.st_mode & 0o077:
        return None, f"{path} can be read by other users (mode {oct(info.st_mode & 0o777)})"
    if len(data) != SECRET_BYTES * 2 or data.strip(b"0123456789abcdef"):
        return None, f"{path} does not hold a whole secret"
    return data, None


def constant_time_equal(left: str, right: str) -> bool:
    """Whether two texts are equal, in a time that does not tell how much of them is."""
    return _compare_digest(left.encode("utf-8", "replace"), right.encode("utf-8", "replace"))


class Identity:
    """What the identity check found on a port: OURS (with the server's version), KEPT
    (hookman's port keeper: the server is not running), NOTHING or OTHER (with what it
    answered, for the message)."""

    __slots__ = ("detail", "state", "version")

    def __init__(self, state: str, version: str | None = None, detail: str = "") -> None:
        self.state = state
        self.version = version
        self.detail = detail


def check_identity(port: int, secret: bytes | None, timeout: float = 0.5) -> Identity:
    """Ask the server on `port` to prove it holds this user's secret."""
    import _socket

    nonce = os.urandom(16).hex()
    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        try:
            sock.connect((HOST, port))
        except ConnectionRefusedError:
            return Identity(NOTHING)
        except OSError as error:
            return Identity(OTHER, detail=f"the connection failed ({error.strerror or error})")
        request = f"GET {IDENTITY_PATH}?nonce={nonce} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
        sock.sendall((request + "Connection: close\r\n\r\n").encode("ascii"))
        raw = _read_all(sock)
    except OSError as error:
        return Identity(OTHER, detail=f"it did not answer ({error.strerror or error})")
    finally:
        sock.close()
    return _judge(raw, secret, nonce, port)


def _read_all(sock: object) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size <= IDENTITY_READ_LIMIT:
        chunk = sock.recv(IDENTITY_READ_LIMIT)  # type: ignore[attr-defined]
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _judge(raw: bytes, secret: bytes | None, nonce: str, port: int) -> Identity:
    from hookman.bridge import lean_json

    head, _, body = raw.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.") or b" 200 " not in head.split(b"\r\n", 1)[0] + b" ":
        first = head.split(b"\r\n", 1)[0][:80].decode("latin-1")
        return Identity(OTHER, detail=f"it answered {first!r}" if first else "it said nothing")
    try:
        answer = lean_json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return Identity(OTHER, detail="its identity answer is not JSON")
    if not isinstance(answer, dict) or not isinstance(answer.get("proof"), str):
        return Identity(OTHER, detail="its answer holds no proof")
    version = answer.get(IDENTITY_LABEL)
    if secret is None:
        return Identity(OTHER, detail="this user has no hookman secret to check its proof with")
    if not constant_time_equal(answer["proof"], identity_proof(secret, nonce, port)):
        return Identity(OTHER, detail="its proof does not match this user's secret")
    state = KEPT if answer.get(KEPT_LABEL) is True else OURS
    return Identity(state, version=version if isinstance(version, str) else None)
