from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookman.catalog.client_version import parse_version
from hookman.doctor.matchers import compile_js_regex, permission_rule, read_matcher

V = parse_version


@pytest.mark.parametrize("text", [None, "", "*", ".*"])
def test_missing_empty_star_and_dot_star_match_everything(text: str | None) -> None:
    assert read_matcher(text, V("2.1.328")).kind == "all"


@pytest.mark.parametrize(
    ("text", "version", "kind", "names"),
    [
        ("Edit,Write", "2.1.328", "exact", ("Edit", "Write")),
        ("Edit, Write", "2.1.191", "exact", ("Edit", "Write")),
        ("Edit, Write", "2.1.190", "regex", ()),
        ("Write|Edit", "2.1.100", "exact", ("Write", "Edit")),
        ("code-reviewer", "2.1.195", "exact", ("code-reviewer",)),
        ("code-reviewer", "2.1.194", "regex", ()),
        ("Edit.*", "2.1.328", "regex", ()),
        ("^Bash$", "2.1.328", "regex", ()),
    ],
)
def test_exact_list_or_regex_depends_on_characters_and_version(
    text: str, version: str, kind: str, names: tuple[str, ...]
) -> None:
    matcher = read_matcher(text, V(version))
    assert (matcher.kind, matcher.names) == (kind, names)


def test_an_exact_list_is_case_sensitive_and_a_regex_is_unanchored() -> None:
    assert not read_matcher("bash", V("2.1.328")).matches("Bash")
    assert not read_matcher("Ed", V("2.1.328")).matches("Edit")
    edit = read_matcher("Edit.*", V("2.1.328"))
    assert edit.matches("NotebookEdit") and edit.matches("Edit")
    assert not read_matcher("^Edit$", V("2.1.328")).matches("NotebookEdit")


def test_before_2_1_195_a_dashed_name_is_a_regex_matching_longer_names() -> None:
    assert read_matcher("code-reviewer", V("2.1.194")).matches("senior-code-reviewer")
    assert not read_matcher("code-reviewer", V("2.1.195")).matches("senior-code-reviewer")


@pytest.mark.parametrize("text", ["Bash(", "a)", "[abc", "*Bash", "a**", "[z-a]", "a{3,1}"])
def test_patterns_javascript_rejects_too_are_invalid(text: str) -> None:
    assert compile_js_regex(text)[1] is not None
    assert read_matcher(text, V("2.1.328")).kind == "invalid"


@pytest.mark.parametrize(
    "text", ["(?<tool>Bash)", r"\k<x>(?<x>a)", r"\q", "[^]", "(?<=a)b+", r"Bash\/x", "[]"]
)
def test_javascript_only_syntax_is_never_called_invalid(text: str) -> None:
    assert compile_js_regex(text)[1] is None
    assert read_matcher(text, V("2.1.328")).kind == "regex"


def test_named_groups_are_translated_so_the_pattern_still_matches() -> None:
    assert read_matcher("^(?<tool>Bash)$", V("2.1.328")).matches("Bash")


def test_permission_rule_syntax_is_recognised() -> None:
    assert permission_rule("Bash(echo *)") == ("Bash", "echo *")
    assert permission_rule("(Edit|Write)") is None
    assert permission_rule("Bash") is None


@given(st.text(max_size=30), st.sampled_from(["2.1.100", "2.1.191", "2.1.195", "2.1.328"]))
def test_reading_any_matcher_never_raises(text: str, version: str) -> None:
    matcher = read_matcher(text, V(version))
    matched = [matcher.matches(tool) for tool in ("Bash", "Edit", "mcp__x__y")]
    assert all(isinstance(answer, bool) for answer in matched) and len(matched) == 3
    assert matcher.kind in ("all", "exact", "regex", "invalid")
    assert matcher.kind != "invalid" or matched == [False, False, False]


@given(st.lists(st.from_regex(r"[A-Za-z0-9_]{1,8}", fullmatch=True), min_size=1, max_size=4))
def test_plain_names_joined_by_bar_are_an_exact_list_on_every_version(names: list[str]) -> None:
    for version in ("2.0.0", "2.1.191", "2.1.328"):
        matcher = read_matcher("|".join(names), V(version))
        assert matcher.kind == "exact" and matcher.names == tuple(names)
        assert all(matcher.matches(name) for name in names)
        assert not matcher.matches(names[0] + "X")
