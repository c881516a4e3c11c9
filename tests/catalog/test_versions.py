"""The one home of version parsing (catalog/client_version.py): Claude Code's and Codex's
MAJOR.MINOR.PATCH as ClientVersions, and dotted versions of any length (hookman's own, a
repository's release tags and `min_hookman`) as tuples of numbers, ordered alike."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hookman.catalog.client_version import (
    ClientVersion,
    find_version,
    is_dotted_version,
    parse_version,
    version_numbers,
)
from hookman.hooks.repository import HookOffer, needs_newer_hookman
from hookman.hooks.store import release_tags

numbers = st.integers(min_value=0, max_value=10**6)
triples = st.tuples(numbers, numbers, numbers)
dotted = st.lists(numbers, min_size=1, max_size=5).map(tuple)


def _text(parts: tuple[int, ...]) -> str:
    return ".".join(str(part) for part in parts)


@given(triples, st.sampled_from(["", "v"]), st.sampled_from(["", " (Claude Code)"]))
def test_a_written_version_parses_back_to_its_numbers(
    parts: tuple[int, int, int], prefix: str, label: str
) -> None:
    version = parse_version(f"{prefix}{_text(parts)}{label}")
    assert version == ClientVersion(*parts)
    assert parse_version(str(version)) == version


@given(triples, st.text(alphabet="abc -(", max_size=8))
def test_a_version_is_found_in_a_clients_answer(parts: tuple[int, int, int], tail: str) -> None:
    assert find_version(f"codex-cli {_text(parts)} {tail}") == ClientVersion(*parts)


@given(triples, triples)
def test_client_versions_order_as_their_numbers(
    one: tuple[int, int, int], other: tuple[int, int, int]
) -> None:
    assert (ClientVersion(*one) < ClientVersion(*other)) == (one < other)
    assert (ClientVersion(*one) == ClientVersion(*other)) == (one == other)


@given(dotted, st.sampled_from(["", "v"]))
def test_a_dotted_version_of_any_length_is_its_numbers(parts: tuple[int, ...], prefix: str) -> None:
    text = f"{prefix}{_text(parts)}"
    assert version_numbers(text) == parts
    assert is_dotted_version(text, v_prefix=True)
    assert is_dotted_version(text) == (prefix == "")


@given(dotted, dotted)
def test_min_hookman_and_release_tags_order_as_the_numbers(
    one: tuple[int, ...], other: tuple[int, ...]
) -> None:
    offer = HookOffer("h", "h.py", "", _text(one))
    assert needs_newer_hookman(offer, _text(other)) == (one > other)
    refs = {f"refs/tags/v{_text(one)}": "a", f"refs/tags/{_text(other)}": "b"}
    ordered = release_tags(refs)
    assert [version_numbers(tag) for tag in ordered] == sorted([one, other])


@given(st.text(alphabet="0123456789.v-x ", max_size=12))
def test_is_dotted_version_accepts_only_numbers_and_dots(text: str) -> None:
    plain = text[1:] if text.startswith("v") else text
    expected = bool(plain) and all(part.isdigit() for part in plain.split("."))
    assert is_dotted_version(text, v_prefix=True) == expected


def test_text_that_is_no_version() -> None:
    assert version_numbers("") == () and version_numbers("dev") == ()
    assert find_version("no version here") is None
    assert (
        not is_dotted_version("1..2")
        and not is_dotted_version("1.2.")
        and not is_dotted_version("")
    )
