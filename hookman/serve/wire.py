"""What the warm hook server (`hookman serve`) and the settings entries that reach it agree on:
the address, the request's headers, the per-user secret and the proofs made from it.

Claude Code's `type: "http"` entries POST the hook's input JSON to
`http://127.0.0.1:PORT/v1/hook/EVENT` with two headers install writes into the entry:
`X-Hookman-Manifest` (the installed manifest the runner would read, `--manifest PATH` of the
command entries) and `Authorization: Bearer TOKEN`, TOKEN = HMAC-SHA256(secret, manifest path).
Any local process can reach loopback: the server answers only a request whose token matches,
so the secret (0600 in hookman's per-user state directory) never leaves the user's files, and
a token read from one project's settings opens that project's hooks only.

The server proves itself to hookman's own commands (the prompt gate, `doctor`, `hookman serve
status`) at `GET /v1/identity?nonce=HEX`, answering `{"hookman": VERSION, "proof": P}` with
P = HMAC-SHA256(secret, "identity:PORT:" + nonce): another process on the port cannot, nor
hookman's own server on another port relayed.

A project whose entries reach the server says so in its installed manifest:
`"serve": {"port": PORT}` (the runner's prompt gate checks that server, and starts it).

Lean: the standard library only. The parts the runner's prompt gate needs too (the secret's
place, the identity proof, the check) live in hookman/bridge/serve_proof.py, below the server
in the house, and are named here as well."""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

from hookman.bridge.serve_proof import (
    ASYNC_QUERY,
    HOOK_PATH_PREFIX,
    HOST,
    IDENTITY_LABEL,
    IDENTITY_PATH,
    KEEPER_PID_NAME,
    KEPT_LABEL,
    LISTENING_NAME,
    MANIFEST_SERVE_KEY,
    PORT_NAME,
    SECRET_BYTES,
    SECRET_NAME,
    SERVER_PID_NAME,
    constant_time_equal,
    hmac_sha256_hex,
    identity_proof,
    live_pid,
    process_runs,
    read_port,
    read_secret,
    secret_path,
    secret_state,
    serve_dir,
    zombie,
)

if TYPE_CHECKING:
    from hookman.errors import HookmanError

__all__ = [
    "ASYNC_QUERY",
    "HOOK_PATH_PREFIX",
    "HOST",
    "IDENTITY_LABEL",
    "IDENTITY_PATH",
    "KEEPER_PID_NAME",
    "KEPT_LABEL",
    "LISTENING_NAME",
    "MANIFEST_SERVE_KEY",
    "PORT_NAME",
    "SECRET_BYTES",
    "SECRET_NAME",
    "SERVER_PID_NAME",
    "identity_proof",
    "live_pid",
    "process_runs",
    "read_port",
    "read_secret",
    "secret_path",
    "secret_state",
    "serve_dir",
    "zombie",
]

MANIFEST_HEADER = "X-Hookman-Manifest"
TOKEN_HEADER = "Authorization"
TOKEN_SCHEME = "Bearer "
# Optional: the client's project directory (an http entry's header `"$CLAUDE_PROJECT_DIR"`,
# with `allowedEnvVars: ["CLAUDE_PROJECT_DIR"]`): the runner's foreign-project check, as the
# command entries' environment gives it.
PROJECT_HEADER = "X-Hookman-Project"
# The per-user port when none is recorded yet: one of 500 above PORT_BASE, by uid, so two
# users of one machine rarely pick the same one (the server refuses to run on a taken port).
PORT_BASE = 47300
PORT_SPAN = 500


def hook_url(port: int, event: str, run_async: bool = False) -> str:
    url = f"http://{HOST}:{port}{HOOK_PATH_PREFIX}{event}"
    return f"{url}?{ASYNC_QUERY}" if run_async else url


def project_token(secret: bytes, manifest_path: str) -> str:
    """The bearer token of one project's entries (its installed manifest's path)."""
    message = b"manifest:" + manifest_path.encode("utf-8", "surrogateescape")
    return hmac_sha256_hex(secret, message)  # hmac + hashlib cost install ~4.5 ms


def entry_headers(secret: bytes, manifest_path: str) -> dict[str, str]:
    """The headers an http entry sends: which project, and the proof it may ask."""
    return {
        MANIFEST_HEADER: manifest_path,
        TOKEN_HEADER: TOKEN_SCHEME + project_token(secret, manifest_path),
    }


def token_matches(secret: bytes, manifest_path: str, authorization: str | None) -> bool:
    """Whether a request's Authorization header carries this manifest's token."""
    if not authorization or not authorization.startswith(TOKEN_SCHEME):
        return False
    given = authorization[len(TOKEN_SCHEME) :].strip()
    return constant_time_equal(given, project_token(secret, manifest_path))


def ensure_secret() -> bytes:
    """The per-user secret, made on first use (hex, mode 0600, never replaced): written whole
    under a name of this process, then linked into place, so no reader ever sees it cut
    short. One that cannot be used is refused (HookmanError), never silently replaced: the
    tokens in every project's entries come from it."""
    secret, problem = secret_state()
    if secret is not None:
        return secret
    if problem is not None:
        raise unusable_secret(problem)
    from hookman.bridge.private_dir import make_private_dir

    directory, problem = make_private_dir(serve_dir())
    if problem is not None:
        raise OSError(problem)
    path = os.path.join(directory, SECRET_NAME)
    temporary = f"{path}.{os.getpid()}.tmp"
    made = os.urandom(SECRET_BYTES).hex().encode("ascii")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(made)
        os.link(temporary, path)
    except FileExistsError:  # another process made it first: theirs is the one
        secret, problem = secret_state()
        if secret is None:
            raise unusable_secret(problem or f"{path} appeared and went again") from None
        return secret
    finally:
        os.unlink(temporary)
    return made


def unusable_secret(problem: str) -> HookmanError:
    from hookman.errors import HookmanError

    return HookmanError(
        f"hookman cannot use the warm hook server's secret: {problem}.",
        f"remove it (`rm {secret_path()}`), then run `hookman serve enable` and `hookman "
        "install` in each project that uses the server.",
    )


def default_port(uid: int | None = None) -> int:
    return PORT_BASE + (os.getuid() if uid is None else uid) % PORT_SPAN


USE_NAME = "use"  # present: the user opted in (`hookman serve enable`); install reads it


def opted_in() -> bool:
    """Whether the user chose the server for the entries it may serve (`hookman serve
    enable`): install then writes http entries where the client's version allows."""
    return os.path.isfile(os.path.join(serve_dir(), USE_NAME))


def names_hookman(pid: int) -> bool:
    """Whether process `pid` is hookman's (its command line names it), where /proc tells:
    a pid file left by a process that died may name a process that took its number since."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"hookman" in handle.read()
    except FileNotFoundError:
        return not os.path.isdir("/proc/self")  # no /proc (macOS): the pid file decides
    except OSError:
        return False


def write_pid(name: str, pid: int) -> None:
    from hookman.bridge.state_file import replace_file

    replace_file(os.path.join(serve_dir(), name), f"{pid}\n")


def remove_own_pid(name: str) -> None:
    """Remove the pid file `name` when it names this process (a newer one's stays)."""
    if live_pid(name) == os.getpid():
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(serve_dir(), name))
