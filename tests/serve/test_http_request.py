"""The server's request reader: whole requests however they are split, and every malformed
one a status (400, 411, 413, 431), never an exception."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from hookman.serve.http_request import BAD, BODY_LIMIT, COMPLETE, INCOMPLETE, RequestReader

HEAD = b"POST /v1/hook/PreToolUse?async=1 HTTP/1.1\r\nX-Hookman-Manifest: /m.json\r\n"


def _read(pieces: list[bytes]) -> RequestReader:
    reader = RequestReader()
    for piece in pieces:
        reader.feed(piece)
    return reader


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({cut % (len(data) + 1) for cut in cuts})
    edges = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(edges)]


@given(st.binary(max_size=2000), st.lists(st.integers(min_value=0), max_size=8))
def test_a_content_length_body_is_read_whole_however_it_arrives(
    body: bytes, cuts: list[int]
) -> None:
    data = HEAD + f"Content-Length: {len(body)}\r\n\r\n".encode() + body
    reader = _read(_split(data, cuts))
    assert reader.state == COMPLETE
    assert reader.request is not None
    assert reader.request.body == body
    assert reader.request.path == "/v1/hook/PreToolUse"
    assert reader.request.query == "async=1"
    assert reader.request.header("x-hookman-manifest") == "/m.json"


@given(
    st.lists(st.binary(min_size=1, max_size=300), max_size=6),
    st.lists(st.integers(min_value=0), max_size=8),
)
def test_a_chunked_body_is_read_whole_however_it_arrives(
    chunks: list[bytes], cuts: list[int]
) -> None:
    encoded = b"".join(f"{len(c):x}\r\n".encode() + c + b"\r\n" for c in chunks) + b"0\r\n\r\n"
    data = HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + encoded
    reader = _read(_split(data, cuts))
    assert reader.state == COMPLETE
    assert reader.request is not None
    assert reader.request.body == b"".join(chunks)


@given(st.binary(max_size=3000))
def test_any_bytes_are_complete_incomplete_or_a_status(data: bytes) -> None:
    reader = _read([data])
    assert reader.state in (COMPLETE, INCOMPLETE, BAD)
    if reader.state == BAD:
        assert reader.status in (400, 411, 413, 431)
        assert reader.problem


def test_the_limits_are_statuses() -> None:
    assert _read([b"GET / HTTP/1.1\r\n" + b"a" * 20000]).status == 431
    too_large = HEAD + f"Content-Length: {BODY_LIMIT + 1}\r\n\r\n".encode()
    assert _read([too_large]).status == 413
    assert _read([HEAD + b"\r\n"]).status == 411
    assert _read([b"NOT HTTP\r\n\r\n"]).status == 400


_SEPARATORS = '()<>@,;:\\"/[]?={}'


@given(
    st.text(
        alphabet=st.characters(max_codepoint=300, blacklist_characters=":\r\n"),
        min_size=1,
        max_size=12,
    )
)
def test_a_header_name_is_taken_exactly_when_it_is_a_token(name: str) -> None:
    """RFC 9110: a field name is one or more visible ASCII characters, no separator (the
    colon ends the name, and CR LF the line, so neither can be in one)."""
    is_token = all(33 <= ord(char) <= 126 and char not in _SEPARATORS for char in name)
    data = HEAD + name.encode("latin-1", "replace") + b": v\r\nContent-Length: 0\r\n\r\n"
    reader = _read([data])
    if is_token:
        assert reader.state == COMPLETE, name
    else:
        assert (reader.state, reader.status) == (BAD, 400), name
