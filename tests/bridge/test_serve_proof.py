"""The warm server's proofs are made without hmac or hashlib (bridge/serve_proof.py: the
runner's gate and install stay light): they must be exactly HMAC-SHA256, or the tokens
install writes and the server checks, and the identity proofs, would part ways."""

from __future__ import annotations

import hashlib
import hmac

from hypothesis import given
from hypothesis import strategies as st

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
