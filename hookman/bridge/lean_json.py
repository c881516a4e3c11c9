"""`json.loads` and `json.dumps` for the runner, without importing the `json` package.

`import json` imports `re` and `enum` and compiles six patterns: about 7 ms of every runner's
start on a 2-CPU machine, more than all of hookman's own modules. The work itself is done by
the C accelerator `_json` in both cases (json.dumps and json.loads call it when it is there);
this module calls it directly, with the arguments the `json` package passes, so the text out
and the values in are the same. Whatever the fast path does not cover (no `_json`, a byte
string in UTF-16 or UTF-32, a BOM, any error) goes to the `json` package itself, so every
error and its message are exactly json's.
"""

from __future__ import annotations

try:
    from _json import encode_basestring, encode_basestring_ascii, make_encoder, make_scanner
except ImportError:  # pragma: no cover - a Python without the accelerator
    make_encoder = make_scanner = None

TYPE_CHECKING = False  # not `typing`: this module is on the runner's start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

_WHITESPACE = " \t\n\r"  # json's WHITESPACE pattern, [ \t\n\r]*
_UTF8_BOM = b"\xef\xbb\xbf"


def loads(data: str | bytes | bytearray) -> object:
    """As `json.loads(data)`."""
    if isinstance(data, (bytes, bytearray)):
        if not _plain_utf8(data):
            return _json_package().loads(data)
        data = data.decode("utf-8", "surrogatepass")  # what json.loads does for UTF-8
    if _scan is None or not isinstance(data, str) or data.startswith("\ufeff"):
        return _json_package().loads(data)
    end = len(data)
    index = 0
    while index < end and data[index] in _WHITESPACE:
        index += 1
    try:
        value, index = _scan(data, index)
    except Exception:  # json says what is wrong, and where
        # StopIteration for "Expecting value"; elsewhere the scanner raises json.decoder's
        # error, which it finds only when json is imported (else a SystemError): json's
        # own run over the same text raises the error json would have raised.
        return _json_package().loads(data)
    while index < end and data[index] in _WHITESPACE:
        index += 1
    if index != end:  # "Extra data"
        return _json_package().loads(data)
    return value


def dumps(
    value: object,
    *,
    ensure_ascii: bool = True,
    allow_nan: bool = True,
    sort_keys: bool = False,
    default: Callable[[object], object] | None = None,
) -> str:
    """As `json.dumps(value, ...)` with the same keyword arguments (no indent, default
    separators, circular references checked)."""
    if make_encoder is None:
        return _json_package().dumps(
            value, ensure_ascii=ensure_ascii, allow_nan=allow_nan, sort_keys=sort_keys,
            default=default,
        )  # fmt: skip
    encode = make_encoder(
        {},  # markers: check_circular
        default or _not_serializable,
        encode_basestring_ascii if ensure_ascii else encode_basestring,
        None,  # indent
        ": ",
        ", ",
        sort_keys,
        False,  # skipkeys
        allow_nan,
    )
    return "".join(encode(value, 0))


def _plain_utf8(data: bytes | bytearray) -> bool:
    """Whether json.detect_encoding would say plain 'utf-8' (no BOM, no NUL in the first
    two bytes, which json reads as UTF-16 or UTF-32)."""
    if data.startswith(_UTF8_BOM) or data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return False
    return len(data) < 2 or len(data) == 3 or (data[0] != 0 and data[1] != 0)


def _not_serializable(value: object) -> object:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


class _DecoderSettings:
    """The attributes the C scanner reads, as json.JSONDecoder() sets them."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {
        "-Infinity": float("-inf"),
        "Infinity": float("inf"),
        "NaN": float("nan"),
    }.__getitem__


def _encoder_works() -> bool:
    """Whether this Python's C encoder takes the arguments above (they have held from 3.6 to
    3.13; a change falls back to the json package, never a wrong text)."""
    try:
        encode = make_encoder({}, _not_serializable, encode_basestring, None, ": ", ", ",
                              False, False, True)  # fmt: skip
        return "".join(encode([1, "\u00e9"], 0)) == '[1, "\u00e9"]'
    except Exception:
        return False


if make_encoder is not None and not _encoder_works():  # pragma: no cover - other Pythons
    make_encoder = None
_scan = make_scanner(_DecoderSettings()) if make_scanner is not None else None


def _json_package() -> ModuleType:
    import json

    return json
