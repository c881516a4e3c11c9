"""lean_json gives what the json package gives: the same text out, the same values in, and
json's own errors (it hands every case it does not cover to json)."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.bridge import lean_json

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text()
    | st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF))
)
VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "ensure_ascii": st.booleans(),
        "allow_nan": st.booleans(),
        "sort_keys": st.booleans(),
    },
)


def _outcome(call: object) -> tuple[str, object]:
    try:
        return "value", call()  # type: ignore[operator]
    except (ValueError, TypeError, RecursionError, UnicodeDecodeError) as error:
        return type(error).__name__, str(error)


def _same(left: tuple[str, object], right: tuple[str, object]) -> bool:
    """Equal outcomes, NaN equal to NaN (json reads NaN back as a float that is not itself)."""
    return repr(left) == repr(right)


@given(VALUES, OPTIONS)
def test_dumps_writes_what_json_dumps_writes(value: object, options: dict[str, bool]) -> None:
    assert _outcome(lambda: lean_json.dumps(value, **options)) == _outcome(
        lambda: json.dumps(value, **options)
    )


@given(st.dictionaries(st.text(max_size=3), st.sampled_from([set(), object, b"x"]), min_size=1))
def test_default_is_called_for_what_json_cannot_write(value: dict[str, object]) -> None:
    assert lean_json.dumps(value, default=repr) == json.dumps(value, default=repr)
    assert _outcome(lambda: lean_json.dumps(value)) == _outcome(lambda: json.dumps(value))


def test_a_circular_value_is_refused_as_json_refuses_it() -> None:
    loop: list[object] = []
    loop.append(loop)
    assert _outcome(lambda: lean_json.dumps(loop)) == _outcome(lambda: json.dumps(loop))
    assert _outcome(lambda: lean_json.dumps(loop))[0] == "ValueError"


@given(VALUES, OPTIONS)
def test_loads_reads_back_what_json_reads(value: object, options: dict[str, bool]) -> None:
    try:
        text = json.dumps(value, **options)
    except (ValueError, TypeError):
        return
    assert _same(_outcome(lambda: lean_json.loads(text)), _outcome(lambda: json.loads(text)))
    data = text.encode("utf-8", "surrogatepass")
    assert _same(_outcome(lambda: lean_json.loads(data)), _outcome(lambda: json.loads(data)))


JSONISH = st.text(alphabet=' \t\n\r{}[]",:0123456789.eE+-tfnrulasNIaiy\\u\ufeffé', max_size=30)


@given(JSONISH)
def test_any_text_reads_as_json_reads_it(text: str) -> None:
    assert _same(_outcome(lambda: lean_json.loads(text)), _outcome(lambda: json.loads(text)))


@given(st.binary(max_size=12) | JSONISH.map(lambda text: text.encode("utf-8")))
def test_any_bytes_read_as_json_reads_them(data: bytes) -> None:
    assert _same(_outcome(lambda: lean_json.loads(data)), _outcome(lambda: json.loads(data)))


@pytest.mark.parametrize(
    "data",
    [
        b'\xef\xbb\xbf{"a": 1}',
        '{"a": 1}'.encode("utf-16"),
        '{"a": 1}'.encode("utf-16-le"),
        '{"a": 1}'.encode("utf-32-be"),
        b"[]",
        b"1",
        b"",
        b"  ",
        "\ufeff{}",
        "{} x",
        "[1,]",
        '"\\ud800"',
        "NaN",
        "-Infinity",
    ],
)
def test_encodings_boms_and_errors_are_jsons(data: str | bytes) -> None:
    assert _same(_outcome(lambda: lean_json.loads(data)), _outcome(lambda: json.loads(data)))


def test_nesting_too_deep_is_a_recursion_error_as_in_json() -> None:
    text = "[" * 100_000 + "]" * 100_000
    assert _outcome(lambda: lean_json.loads(text))[0] == "RecursionError"


def test_infinity_and_nan_read_as_floats() -> None:
    values = lean_json.loads("[NaN, Infinity, -Infinity]")
    assert isinstance(values, list)
    assert math.isnan(values[0]) and values[1:] == [math.inf, -math.inf]


def test_the_runner_modules_never_import_the_json_package() -> None:
    code = (
        "import sys; from hookman.bridge import run_command, dispatch, lean_json; "
        "lean_json.loads(lean_json.dumps({'a': [1, 2.5, None, 'é']})); "
        "print(sorted(name for name in ('json', 're', 'enum') if name in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", f"import sys; sys.path[:0] = {sys.path!r}; {code}"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]"


BAD_TEXTS = ['{"a": [1, 2', '{"a": tru', '{"a"', "[1,", '"abc', '{"a": 1} x', "", "[" * 5000]


def test_errors_are_jsons_in_a_runner_that_never_imported_json() -> None:
    """The C scanner finds json's error class only once json is imported: in the runner it
    is not, and the error must still be json's, with json's message."""
    code = (
        "from hookman.bridge import lean_json\n"
        f"for text in {BAD_TEXTS!r}:\n"
        "    try:\n"
        "        lean_json.loads(text)\n"
        "    except BaseException as error:\n"
        "        print(type(error).__name__, str(error)[:80])\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", f"import sys; sys.path[:0] = {sys.path!r}\n{code}"],
        capture_output=True,
        text=True,
        check=True,
    )
    expected = []
    for text in BAD_TEXTS:
        kind, message = _outcome(lambda: json.loads(text))  # noqa: B023
        expected.append(f"{'JSONDecodeError' if kind == 'ValueError' else kind} {message[:80]}")
    assert done.stdout.splitlines() == expected
