"""The warm server's proofs are made without hmac or hashlib (bridge/serve_proof.py: the
runner's gate and install stay light): they must be exactly HMAC-SHA256, or the tokens
install writes and the server checks, and the identity proofs, would part ways."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge import serve_proof
from hookman.bridge.serve_proof import constant_time_equal, hmac_sha256_hex, identity_proof
from hookman.serve import wire


@given(st.binary(max_size=200), st.binary(max_size=300))
def test_hmac_is_the_standard_one(key: bytes, message: bytes) -> None:
    assert hmac_sha256_hex(key, message) == hmac.new(key, message, hashlib.sha256).hexdigest()


@given(st.text(max_size=40), st.text(max_size=40))
def test_constant_time_equal_is_equality(left: str, right: str) -> None:
    assert constant_time_equal(left, right) == (left == right)
    assert constant_time_equal(left, left)


def test_a_token_opens_its_manifest_only_and_a_proof_its_port_only() -> None:
    secret = b"ab" * 32
    token = wire.TOKEN_SCHEME + wire.project_token(secret, "/state/a/manifest.json")
    assert wire.token_matches(secret, "/state/a/manifest.json", token)
    assert not wire.token_matches(secret, "/state/b/manifest.json", token)
    assert not wire.token_matches(b"cd" * 32, "/state/a/manifest.json", token)
    assert identity_proof(secret, "00ff", 47300) != identity_proof(secret, "00ff", 47301)


def _answer(body: dict[str, object]) -> bytes:
    text = json.dumps(body)
    return f"HTTP/1.1 200 OK\r\nContent-Length: {len(text)}\r\n\r\n{text}".encode()


@pytest.mark.parametrize(
    ("kept", "state"),
    [(True, serve_proof.KEPT), (None, serve_proof.OURS), ("true", serve_proof.OURS)],
)
def test_a_proven_answer_marked_kept_is_the_port_keeper(kept: object, state: str) -> None:
    secret, nonce, port = b"k" * 64, "ab12", 47400
    body: dict[str, object] = {
        "hookman": "1.0",
        "proof": serve_proof.identity_proof(secret, nonce, port),
    }
    if kept is not None:
        body["kept"] = kept
    found = serve_proof._judge(_answer(body), secret, nonce, port)
    assert (found.state, found.version) == (state, "1.0")


def test_a_keepers_mark_without_the_proof_is_another_process() -> None:
    body = {"hookman": "1.0", "proof": "0" * 64, "kept": True}
    found = serve_proof._judge(_answer(body), b"k" * 64, "ab12", 47400)
    assert found.state == serve_proof.OTHER
