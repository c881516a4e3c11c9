from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from hookman.doctor.handlers import key_path
from hookman.doctor.locate import json_line, path_steps

TEXT = """{
  "hooks": {
    "PostToolUze": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "x"},
        {"type": "bogus"}
      ]}
    ],
    "Stop": []
  }
}
"""


def test_lines_of_keys_groups_and_handlers() -> None:
    assert json_line(TEXT, "hooks.PostToolUze") == 3
    assert json_line(TEXT, "hooks.PostToolUze[0].matcher") == 4
    assert json_line(TEXT, "hooks.PostToolUze[0].hooks[1]") == 6
    assert json_line(TEXT, 'hooks["Stop"]') == 9


def test_paths_that_are_not_there_have_no_line() -> None:
    assert json_line(TEXT, "hooks.Nope") is None
    assert json_line(TEXT, "hooks.PostToolUze[3]") is None
    assert json_line(TEXT, "hooks.Stop.x") is None
    assert json_line("{not json", "hooks") is None
    assert path_steps("hooks..x") is None


@given(
    st.text(max_size=12), st.integers(min_value=0, max_value=4), st.sampled_from([None, 1, 4, "\t"])
)
def test_any_key_round_trips_and_is_found_on_its_line(
    key: str, before: int, indent: object
) -> None:
    path = key_path("hooks", key)
    assert path_steps(path) == ["hooks", key]
    hooks = {f"k{i}": [i] for i in range(before) if f"k{i}" != key}
    hooks[key] = []
    text = json.dumps({"hooks": hooks}, indent=indent)  # type: ignore[arg-type]
    line = json_line(text, path)
    assert line is not None
    assert json.dumps(key) in text.splitlines()[line - 1]
