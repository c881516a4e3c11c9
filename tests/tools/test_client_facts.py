"""tools/client_facts.py: facts read from the client's code, diffed against the catalog.

The extractor is tested on small JavaScript snippets written the way the minified client
writes its zod schemas; the pinned clients themselves are checked under the e2e marker (CI
fails when one is missing, as in tests/e2e/conftest.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

TOOLS = Path(__file__).resolve().parents[2] / "tools"
CATALOG = Path(__file__).resolve().parents[2] / "hookman" / "catalog"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


tool = _load("client_facts")

EVENTS = (
    '["PreToolUse","PostToolUse","PermissionRequest"];'
    'var Ev=["PreToolUse","PostToolUse","SessionStart","Stop"];'
)
SPECIFIC = (
    'cF=p(()=>u({hookEventName:P("PreToolUse"),permissionDecision:U(["allow","deny"]).optional(),'
    'permissionDecisionReason:r().describe("a }, brace and a comma: {x}").optional(),'
    "updatedInput:Te(r(),de()).optional()})),"
    'hF=p(()=>u({hookEventName:P("SessionStart"),additionalContext:r().refine((e)=>/[}{,]/.test(e))'
    ".optional(),watchPaths:O(r()).optional()})),"
)
TOP_LEVEL = (
    "IF=p(()=>u({continue:M().optional(),terminalSequence:r().optional(),"
    "hookSpecificOutput:dt([cF(),hF()]).optional()}));"
)
PAYLOADS = (
    "D=p(()=>u({session_id:r(),transcript_path:r(),cwd:r(),permission_mode:r().optional()}));"
    'S=p(()=>D().and(u({hook_event_name:P("SessionStart"),source:U(["startup","resume","fork"]),'
    "model:r().optional()})));"
)
MATCHER = "function m(e){if(!/^[a-zA-Z0-9_|, -]+$/.test(e))return;return e.split(/[|,]/)}"
SESSION_END = (
    "var a=5,Cfl=1500,N4i=60000;function F(){let o=0;for(let k of y)for(let C of k.hooks)"
    "if(C.timeout&&C.timeout*1000>o)o=C.timeout*1000;return Math.max(Cfl,Math.min(o,N4i),e)}"
)
CLIENT_JS = EVENTS + SPECIFIC + TOP_LEVEL + PAYLOADS + MATCHER + SESSION_END


def _catalog(root: Path) -> Path:
    """A catalog directory that says what CLIENT_JS says."""
    root.mkdir(parents=True, exist_ok=True)
    events = {
        "newest_checked_version": "2.1.332",
        "session_end_budget": {"default_ms": 1500, "raised_by_largest_timeout_up_to_ms": 60000},
        "output_field_types": {
            "continue": "boolean",
            "terminalSequence": "string",
            "hookSpecificOutput": "object",
        },
        "events": {
            "PreToolUse": {
                "since": "1.0.23",
                "hook_specific_output": [
                    "permissionDecision",
                    "permissionDecisionReason",
                    "updatedInput",
                ],
            },
            "PostToolUse": {"since": "1.0.23", "hook_specific_output": []},
            "SessionStart": {
                "since": "1.0.62",
                "hook_specific_output": ["additionalContext", "watchPaths"],
            },
            "Stop": {"since": "1.0.31", "hook_specific_output": []},
            "FutureEvent": {"since": "9.0.0", "hook_specific_output": ["x"]},
        },
    }
    doctor = {
        "matcher": {
            "exact_list_syntax": {"0.0.0": {"chars": "A-Za-z0-9_|, -"}},
            "values_by_event": {"SessionStart": {"0.0.0": ["startup", "resume", "fork"]}},
        }
    }
    (root / "claude_code_events.json").write_text(json.dumps(events), encoding="utf-8")
    (root / "doctor_facts.json").write_text(json.dumps(doctor), encoding="utf-8")
    (root / "payloads").mkdir(exist_ok=True)
    sample = {
        "session_id": "s",
        "transcript_path": "t",
        "cwd": "c",
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    (root / "payloads" / "SessionStart.json").write_text(json.dumps(sample), encoding="utf-8")
    return root


def _client_dir(root: Path, js: str, version: str = "2.1.332") -> Path:
    """A package directory as npm installs a platform binary: claude + package.json."""
    root.mkdir(parents=True)
    (root / "claude").write_bytes(b"\x00ELF" + b"\x00" * 1_000_000 + js.encode() + b"\x00")
    (root / "package.json").write_text(json.dumps({"version": version}), encoding="utf-8")
    return root


# --- the extractor on snippets ----------------------------------------------------------


def test_each_fact_is_read_from_its_anchor() -> None:
    facts = tool.extract(CLIENT_JS.encode())
    assert facts.lost == []
    assert facts.events == ["PreToolUse", "PostToolUse", "SessionStart", "Stop"]
    assert facts.specific_output == {
        "PreToolUse": {"permissionDecision", "permissionDecisionReason", "updatedInput"},
        "SessionStart": {"additionalContext", "watchPaths"},
    }
    assert facts.top_level_output == {"continue", "terminalSequence", "hookSpecificOutput"}
    assert facts.session_start_sources == ["startup", "resume", "fork"]
    assert facts.payload_fields["SessionStart"] == {
        "hook_event_name": True,
        "source": True,
        "model": False,
    }
    assert {"session_id", "transcript_path", "cwd"} <= facts.base_payload_fields
    assert facts.exact_list_chars == tool.expand_char_class("A-Za-z0-9_|, -")
    assert facts.session_end_budget_ms == (1500, 60000)


def test_a_minified_name_is_read_at_its_nearest_definition() -> None:
    """A bundle reuses short names across modules: the definition nearest the use counts."""
    js = "var Cfl=7;" + "x" * 5000 + SESSION_END + "x" * 100 + "var N4i=9;"
    assert tool.extract(js.encode()).session_end_budget_ms == (1500, 60000)


def test_the_namespace_form_of_the_schema_calls_is_read_too() -> None:
    """2.1.197 calls zod through a namespace object (H.literal, H.enum)."""
    js = 'x=H.object({hookEventName:H.literal("Stop"),additionalContext:H.string().optional()})'
    assert tool.extract(js.encode()).specific_output == {"Stop": {"additionalContext"}}


def test_a_snippet_without_the_anchors_reports_each_as_not_found() -> None:
    near_miss = (
        # an event list without SessionStart and Stop; answers built, not schemas
        'a=["PreToolUse","PostToolUse","PermissionRequest","Notification","Setup"];'
        'b={hookEventName:"PreToolUse",additionalContext:x};'
        'c={hook_event_name:"SessionStart",source:"startup"};'
        "d={continue:!0,hookSpecificOutput:b};"
        "if(/^[a-z]+$/.test(e))e.split(/,/)"
    )
    facts = tool.extract(near_miss.encode())
    assert len(facts.lost) == 8
    lines = tool.differences(facts, tool.catalog_facts(CATALOG, "2.1.332"))
    assert lines and all(line.startswith("anchor not found: ") for line in lines)


def test_a_lost_anchor_fails_the_command(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    client = _client_dir(tmp_path / "client", EVENTS)
    assert tool.main(["--client", str(client), "--catalog", str(_catalog(tmp_path / "c"))]) == 1
    out = capsys.readouterr().out
    assert "2.1.332: anchor not found: the hookSpecificOutput schemas" in out
    assert "agrees" not in out


@given(
    st.dictionaries(
        st.from_regex(r"[A-Za-z_$][\w$]{0,8}", fullmatch=True),
        st.text(st.characters(blacklist_categories=("Cs",)), max_size=20),
        max_size=6,
    )
)
def test_object_keys_survive_any_described_text(fields: dict[str, str]) -> None:
    body = ",".join(
        f"{name}:r().describe({json.dumps(text)}).optional()" for name, text in fields.items()
    )
    keys, end = tool.object_keys("u({" + body + "})", 2)
    assert list(keys) == list(fields)
    assert end == len(body) + 4


# --- the diff ------------------------------------------------------------------------------


def test_a_client_that_says_what_the_catalog_says_agrees(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    client = _client_dir(tmp_path / "client", CLIENT_JS)
    assert tool.main(["--client", str(client), "--catalog", str(_catalog(tmp_path / "c"))]) == 0
    assert capsys.readouterr().out == "2.1.332: agrees with the catalog\n"


def test_a_planted_difference_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = _catalog(tmp_path / "c")
    events = json.loads((catalog / "claude_code_events.json").read_text("utf-8"))
    events["events"]["PreToolUse"]["hook_specific_output"].remove("updatedInput")
    events["events"]["Stop"]["since"] = "9.0.0"
    del events["output_field_types"]["terminalSequence"]
    (catalog / "claude_code_events.json").write_text(json.dumps(events), encoding="utf-8")
    monkeypatch.setenv(tool.CATALOG_ENV, str(catalog))  # the catalog the tool reads
    client = _client_dir(tmp_path / "client", CLIENT_JS)
    assert tool.main(["--client", str(client)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "2.1.332: event Stop: in binary, not in catalog",
        "2.1.332: answer field (hookSpecificOutput) for PreToolUse: updatedInput: "
        "in binary, not in catalog",
        "2.1.332: top-level answer field terminalSequence: in binary, not in catalog",
    ]


def test_catalog_facts_follow_the_target_version(tmp_path: Path) -> None:
    """An event or field newer than the client is not expected in it."""
    catalog = _catalog(tmp_path / "c")
    assert "FutureEvent" not in tool.catalog_facts(catalog, "2.1.332").events
    assert "FutureEvent" in tool.catalog_facts(catalog, "9.0.0").events
    real = tool.catalog_facts(CATALOG, "2.1.197")
    assert "classifierContext" not in real.specific_output["PostToolUse"]
    assert "fork" not in real.session_start_sources
    assert (
        "classifierContext" in tool.catalog_facts(CATALOG, "2.1.332").specific_output["PostToolUse"]
    )


def test_json_output_names_each_client(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    client = _client_dir(tmp_path / "client", CLIENT_JS, version="2.1.400")
    code = tool.main(
        ["--json", "--client", str(client), "--catalog", str(_catalog(tmp_path / "c"))]
    )
    [result] = json.loads(capsys.readouterr().out)
    assert code == 0 and result["client"] == "2.1.400" and result["differences"] == []
    assert result["facts"]["session_start_sources"] == ["startup", "resume", "fork"]


def test_a_missing_client_is_one_sentence_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOKMAN_E2E_CACHE", str(tmp_path))
    assert tool.main(["--client", "2.1.999"]) == 2
    assert capsys.readouterr().out == (
        f"2.1.999: error: Claude Code 2.1.999 is not installed at {tmp_path / 'claude-2.1.999'}; "
        "run `python tools/install_claude_clients.py`\n"
    )


def test_the_pinned_clients_are_the_installers() -> None:
    assert set(tool.PINNED_VERSIONS) == set(_load("install_claude_clients").PINNED_VERSIONS)


# --- the pinned clients (CI fails when one is missing) ---------------------------------------


def _pinned(version: str) -> object:
    try:
        return tool.find_client(version)
    except tool.ClientError as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"E2E CLIENT MISSING IN CI: {error}", pytrace=False)
        pytest.skip(f"E2E SKIPPED, REAL CLIENT NOT INSTALLED: {error}")


@pytest.mark.e2e
@pytest.mark.parametrize("version", tool.PINNED_VERSIONS)
def test_the_catalog_agrees_with_each_pinned_client(version: str) -> None:
    result = tool.check(_pinned(version), CATALOG)
    assert result["differences"] == []


@pytest.mark.e2e
def test_a_field_removed_from_the_catalog_is_found_in_the_newest_pinned_client(
    tmp_path: Path,
) -> None:
    client = _pinned("2.1.332")
    catalog = tmp_path / "catalog"
    shutil.copytree(CATALOG, catalog)
    events = json.loads((catalog / "claude_code_events.json").read_text("utf-8"))
    events["events"]["PostToolUse"]["hook_specific_output"].remove("classifierContext")
    (catalog / "claude_code_events.json").write_text(json.dumps(events), encoding="utf-8")
    assert tool.check(client, catalog)["differences"] == [
        "answer field (hookSpecificOutput) for PostToolUse: classifierContext: "
        "in binary, not in catalog"
    ]


def test_a_catalog_that_cannot_be_read_is_one_sentence_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    client = _client_dir(tmp_path / "client", CLIENT_JS)
    assert tool.main(["--client", str(client), "--catalog", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().out == (
        f"2.1.332: error: Cannot read {tmp_path / 'none' / 'claude_code_events.json'}: "
        "No such file or directory.\n"
    )
