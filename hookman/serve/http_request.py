"""One HTTP/1.x request read from a connection, bytes at a time, within limits.

The server reads without blocking: `RequestReader.feed` takes what arrived and says whether
the request is complete, still incomplete, or bad (with the status to answer). Only what the
server serves is understood: a request line, headers, and a body of Content-Length bytes or
chunked; anything else is a 400 (or 413 past the limits), never an exception."""

from __future__ import annotations

HEAD_LIMIT = 16 * 1024  # bytes of request line and headers
BODY_LIMIT = 32 * 1024 * 1024  # bytes of payload (a PostToolUse of a large tool output)
HEADER_COUNT_LIMIT = 64
CHUNK_LINE_LIMIT = 64  # bytes of one chunk-size line, extensions included
CHUNK_COUNT_LIMIT = 4096  # chunks of one body: each feed parses them again from the start
INCOMPLETE = "incomplete"
COMPLETE = "complete"
BAD = "bad"


class Request:
    __slots__ = ("body", "headers", "method", "path", "query")

    def __init__(self, method: str, target: str, headers: dict[str, str]) -> None:
        self.method = method
        self.path, _, self.query = target.partition("?")
        self.headers = headers  # names in lower case
        self.body = b""

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


class BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class RequestReader:
    """Feeds on a connection's bytes until one request is whole."""

    __slots__ = ("_body_length", "_buffer", "_chunked", "problem", "request", "state", "status")

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._body_length = -1
        self._chunked = False
        self.request: Request | None = None
        self.state = INCOMPLETE
        self.status = 0
        self.problem = ""

    def feed(self, data: bytes) -> str:
        if self.state != INCOMPLETE:
            return self.state
        self._buffer += data
        try:
            self._advance()
        except BadRequest as error:
            self.state, self.status, self.problem = BAD, error.status, error.message
        return self.state

    def head_of_bad_request(self) -> Request | None:
        """The request line and headers, when they were read before the body went wrong."""
        return self.request

    def _advance(self) -> None:
        if self.request is None:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self._buffer) > HEAD_LIMIT:
                    raise BadRequest(431, "the request's headers are too large")
                return
            if end > HEAD_LIMIT:
                raise BadRequest(431, "the request's headers are too large")
            self.request = parse_head(bytes(self._buffer[:end]))
            del self._buffer[: end + 4]
            self._body_length, self._chunked = body_framing(self.request)
        assert self.request is not None
        if self._chunked:
            body = dechunk(self._buffer)
            if body is None:
                return
            self.request.body = body
        else:
            if len(self._buffer) < self._body_length:
                return
            self.request.body = bytes(self._buffer[: self._body_length])
        self.state = COMPLETE


def parse_head(head: bytes) -> Request:
    try:
        text = head.decode("latin-1")
    except UnicodeDecodeError:  # latin-1 decodes every byte; kept for clarity
        raise BadRequest(400, "the request's head is not text") from None
    lines = text.split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1.") or not parts[1].startswith("/"):
        raise BadRequest(400, "the request line is not HTTP/1.x")
    if len(lines) - 1 > HEADER_COUNT_LIMIT:
        raise BadRequest(431, "the request has too many headers")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip() or not _token(name):
            raise BadRequest(400, "a request header is malformed")
        headers[name.lower()] = value.strip(" \t")
    return Request(parts[0], parts[1], headers)


_SEPARATORS = '()<>@,;:\\"/[]?={}'
_TOKEN_CHARS = "".join(chr(code) for code in range(33, 127) if chr(code) not in _SEPARATORS)


def _token(name: str) -> bool:
    """Whether a header name is an RFC 9110 token (strip() removes every allowed character)."""
    return not name.strip(_TOKEN_CHARS)


def body_framing(request: Request) -> tuple[int, bool]:
    """(Content-Length, chunked) of the request's body."""
    encoding = request.header("transfer-encoding")
    if encoding is not None:
        if encoding.lower() != "chunked":
            raise BadRequest(400, f"the transfer encoding {encoding[:40]!r} is not served")
        return -1, True
    length = request.header("content-length")
    if length is None:
        if request.method in ("POST", "PUT"):
            raise BadRequest(411, "the request has no Content-Length")
        return 0, False
    if not length.isdigit() or len(length) > 18:
        raise BadRequest(400, "the request's Content-Length is not a number")
    if int(length) > BODY_LIMIT:
        raise BadRequest(413, f"the request's body is larger than {BODY_LIMIT} bytes")
    return int(length), False


def dechunk(buffer: bytearray) -> bytes | None:
    """The body of a complete chunked encoding in `buffer`, None while incomplete."""
    body = bytearray()
    offset = 0
    chunks = 0
    while True:
        end = buffer.find(b"\r\n", offset)
        if end < 0 or end - offset > CHUNK_LINE_LIMIT:
            if len(buffer) - offset > CHUNK_LINE_LIMIT:
                raise BadRequest(400, "a chunk size line is malformed")
            return None
        chunks += 1
        if chunks > CHUNK_COUNT_LIMIT:
            raise BadRequest(
                400, f"the request's body comes in more than {CHUNK_COUNT_LIMIT} chunks"
            )
        size_text = bytes(buffer[offset:end]).split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise BadRequest(400, "a chunk size is not hexadecimal") from None
        if size < 0 or len(body) + size > BODY_LIMIT:
            raise BadRequest(413, f"the request's body is larger than {BODY_LIMIT} bytes")
        start = end + 2
        if size == 0:
            trailer_end = buffer.find(b"\r\n\r\n", end)
            if buffer[start : start + 2] == b"\r\n":
                return bytes(body)
            if trailer_end < 0:
                if len(buffer) - start > HEAD_LIMIT:
                    raise BadRequest(431, "the request's trailer is too large")
                return None
            if trailer_end - start > HEAD_LIMIT:
                raise BadRequest(431, "the request's trailer is too large")
            return bytes(body)
        if len(buffer) < start + size + 2:
            return None
        if buffer[start + size : start + size + 2] != b"\r\n":
            raise BadRequest(400, "a chunk does not end where its size says")
        body += buffer[start : start + size]
        offset = start + size + 2
