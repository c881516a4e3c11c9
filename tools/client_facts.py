#!/usr/bin/env python3
"""Read hook facts out of Claude Code client binaries and diff them against hookman/catalog/.

The facts are literals in the client's JavaScript (plain text inside the native binary from
2.1.113, cli.js before): the hook event list, each event's hookSpecificOutput answer schema,
the top-level answer schema, each event's payload schema (SessionStart's sources among them)
and the exact-list matcher pattern. Each is found from an anchor (the array naming
"PreToolUse", "PostToolUse", ...; zod objects holding `hookEventName: literal("E")`; the
object holding `hookSpecificOutput: union([...])`), never from an offset. An anchor not found
is reported as such and fails the run: a lost anchor must not read as agreement.

    python tools/client_facts.py                      # the pinned clients
    python tools/client_facts.py --client 2.1.332     # one pinned version
    python tools/client_facts.py --client /tmp/x/node_modules/@anthropic-ai/claude-code-linux-x64
    python tools/client_facts.py --json --catalog DIR # another catalog directory

Exit 0 when every client agrees with the catalog, 1 on a difference or a lost anchor, 2 when a
client cannot be read. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

PINNED_VERSIONS = ("2.1.197", "2.1.328", "2.1.332")
CATALOG_DIR = Path(__file__).resolve().parent.parent / "hookman" / "catalog"
CATALOG_ENV = "HOOKMAN_CATALOG_DIR"
WINDOW = 16_000  # bytes read on each side of an anchor to parse the object around it
EVENT_NAME_KEY = "hookEventName"
PAYLOAD_EVENT_KEY = "hook_event_name"
# Fields every payload carries (the base schema the event schemas extend), besides the
# event's own: samples may hold them without the event schema naming them.
BASE_PAYLOAD_ANCHORS = ("session_id", "transcript_path", "cwd")


class ClientError(Exception):
    """One sentence about why a client could not be read."""


# --- reading JavaScript -------------------------------------------------------------------

_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^")


def _skip_string(text: str, i: int) -> int:
    """Index just past the string literal starting at text[i] (', " or `)."""
    quote = text[i]
    i += 1
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == quote:
            return i + 1
        if quote == "`" and text.startswith("${", i):
            i = _skip_balanced(text, i + 1)
            continue
        i += 1
    return i


def _skip_regex(text: str, i: int) -> int:
    i += 1
    in_class = False
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "/" and not in_class:
            i += 1
            while i < len(text) and text[i].isalpha():
                i += 1
            return i
        elif char == "\n":
            return i
        i += 1
    return i


def _previous_significant(text: str, i: int) -> str:
    j = i - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    return text[j] if j >= 0 else "("


def _skip_balanced(text: str, i: int) -> int:
    """Index just past the bracket group opening at text[i] ({, [ or ()."""
    closing = {"{": "}", "[": "]", "(": ")"}
    stack = [closing[text[i]]]
    i += 1
    while i < len(text) and stack:
        char = text[i]
        if char in "'\"`":
            i = _skip_string(text, i)
            continue
        if char == "/" and _previous_significant(text, i) in _REGEX_BEFORE:
            if text.startswith("//", i) or text.startswith("/*", i):
                i += 2
                continue
            i = _skip_regex(text, i)
            continue
        if char in closing:
            stack.append(closing[char])
        elif char in ")]}":
            if char != stack[-1]:
                raise ValueError(f"unbalanced {char!r} at {i}")
            stack.pop()
        i += 1
    if stack:
        raise ValueError("object runs past the window")
    return i


def object_keys(text: str, start: int) -> tuple[dict[str, str], int]:
    """The keys of the object literal opening at text[start] ('{'), each with the text of its
    value, and the index just past the object. Spreads are kept as '...name' keys."""
    if text[start] != "{":
        raise ValueError("not an object")
    end = _skip_balanced(text, start)
    keys: dict[str, str] = {}
    i = start + 1
    while i < end - 1:
        while i < end - 1 and text[i] in " \t\r\n,":
            i += 1
        if i >= end - 1:
            break
        if text[i] in "'\"":
            key_end = _skip_string(text, i)
            key = text[i + 1 : key_end - 1]
        elif text.startswith("...", i):
            name = _IDENT.match(text, i + 3)
            key_end = name.end() if name else i + 3
            key = "..." + (name.group() if name else "")
        else:
            name = _IDENT.match(text, i)
            if name is None:
                raise ValueError(f"no key at {i}")
            key, key_end = name.group(), name.end()
        value_start = key_end
        if text.startswith(":", key_end):
            value_start = key_end + 1
        value_end = _value_end(text, value_start, end - 1)
        keys[key] = text[value_start:value_end]
        i = value_end + 1
    return keys, end


def _value_end(text: str, i: int, limit: int) -> int:
    """Index of the ',' (or the closing brace) that ends the value starting at text[i]."""
    while i < limit:
        char = text[i]
        if char == ",":
            return i
        if char in "'\"`":
            i = _skip_string(text, i)
        elif char in "{[(":
            i = _skip_balanced(text, i)
        elif char == "/" and _previous_significant(text, i) in _REGEX_BEFORE:
            i = _skip_regex(text, i)
        else:
            i += 1
    return limit


def enclosing_object(text: str, position: int, key: str) -> dict[str, str] | None:
    """The keys of the innermost object literal around `position` that has `key` as one of
    its own keys, or None."""
    candidate = text.rfind("{", 0, position)
    while candidate != -1:
        try:
            keys, end = object_keys(text, candidate)
        except ValueError:
            keys, end = {}, -1
        if end > position and key in keys:
            return keys
        candidate = text.rfind("{", 0, candidate)
    return None


def string_literals(value: str) -> list[str]:
    return [match.group(2) for match in re.finditer(r"(['\"])([^'\"\\]*)\1", value)]


# --- facts out of a client ---------------------------------------------------------------


@dataclass
class ClientFacts:
    """What one client's code says; `lost` names each anchor that was not found."""

    events: list[str] = field(default_factory=list)
    specific_output: dict[str, set[str]] = field(default_factory=dict)
    top_level_output: set[str] = field(default_factory=set)
    payload_fields: dict[str, dict[str, bool]] = field(default_factory=dict)  # name -> required
    base_payload_fields: set[str] = field(default_factory=set)
    session_start_sources: list[str] = field(default_factory=list)
    exact_list_chars: set[str] = field(default_factory=set)
    session_end_budget_ms: tuple[int, int] | None = None  # (default, cap raised up to)
    lost: list[str] = field(default_factory=list)


def _windows(data: bytes, pattern: re.Pattern[bytes]) -> Iterator[tuple[str, int, re.Match[str]]]:
    """Each match of `pattern`, as (decoded window, offset of the match in it, the match)."""
    for match in pattern.finditer(data):
        start = max(0, match.start() - WINDOW)
        window = data[start : match.end() + WINDOW].decode("latin-1")
        local = re.compile(pattern.pattern.decode("latin-1")).match(window, match.start() - start)
        if local is not None:
            yield window, match.start() - start, local


_EVENT_ARRAY = re.compile(rb'\[(?:"[A-Z][A-Za-z]+",){3,}"[A-Z][A-Za-z]+"\]')
_SPECIFIC = re.compile(rb'hookEventName:[\w$.]+\("([A-Z][A-Za-z]+)"\)')
_PAYLOAD = re.compile(rb'hook_event_name:[\w$.]+\("([A-Z][A-Za-z]+)"\)')
_TOP_LEVEL = re.compile(rb"hookSpecificOutput:[\w$.]+\(\[")
_BASE_PAYLOAD = re.compile(rb"session_id:[\w$.]+\(\)")
_EXACT_LIST = re.compile(rb"/\^\[([^\]/\\]{1,40})\]\+\$/")


def extract(data: bytes) -> ClientFacts:
    facts = ClientFacts()
    _extract_events(data, facts)
    _extract_specific_output(data, facts)
    _extract_top_level(data, facts)
    _extract_payloads(data, facts)
    _extract_exact_list(data, facts)
    _extract_session_end_budget(data, facts)
    return facts


def _extract_events(data: bytes, facts: ClientFacts) -> None:
    best: list[str] = []
    for match in _EVENT_ARRAY.finditer(data):
        names = re.findall(r'"(\w+)"', match.group().decode("latin-1"))
        if {"PreToolUse", "PostToolUse", "SessionStart", "Stop"} <= set(names) and len(names) > len(
            best
        ):
            best = names
    if best:
        facts.events = best
    else:
        facts.lost.append(
            "the hook event list (an array naming PreToolUse, PostToolUse, SessionStart, Stop)"
        )


def _extract_specific_output(data: bytes, facts: ClientFacts) -> None:
    for window, offset, match in _windows(data, _SPECIFIC):
        keys = enclosing_object(window, offset, EVENT_NAME_KEY)
        if keys is None:
            continue
        fields = {key for key in keys if key != EVENT_NAME_KEY and not key.startswith("...")}
        facts.specific_output.setdefault(match.group(1), set()).update(fields)
    if not facts.specific_output:
        facts.lost.append(
            "the hookSpecificOutput schemas (objects holding hookEventName: literal(EVENT))"
        )


def _extract_top_level(data: bytes, facts: ClientFacts) -> None:
    for window, offset, _match in _windows(data, _TOP_LEVEL):
        keys = enclosing_object(window, offset, "hookSpecificOutput")
        if keys is not None and "continue" in keys:
            facts.top_level_output.update(key for key in keys if not key.startswith("..."))
    if not facts.top_level_output:
        facts.lost.append(
            "the answer schema (an object holding continue and hookSpecificOutput: union([...]))"
        )


def _extract_payloads(data: bytes, facts: ClientFacts) -> None:
    for window, offset, match in _windows(data, _PAYLOAD):
        keys = enclosing_object(window, offset, PAYLOAD_EVENT_KEY)
        if keys is None:
            continue
        fields = facts.payload_fields.setdefault(match.group(1), {})
        for key, value in keys.items():
            if key.startswith("..."):
                continue
            required = ".optional()" not in value and ".nullish()" not in value
            fields[key] = fields.get(key, True) and required
        if match.group(1) == "SessionStart" and "source" in keys:
            for source in string_literals(keys["source"]):
                if source not in facts.session_start_sources:
                    facts.session_start_sources.append(source)
    for window, offset, _match in _windows(data, _BASE_PAYLOAD):
        keys = enclosing_object(window, offset, "session_id")
        if keys is not None and set(BASE_PAYLOAD_ANCHORS) <= set(keys):
            facts.base_payload_fields.update(key for key in keys if not key.startswith("..."))
    if not facts.payload_fields:
        facts.lost.append("the payload schemas (objects holding hook_event_name: literal(EVENT))")
    if not facts.session_start_sources:
        facts.lost.append("SessionStart's sources (the payload schema's source: enum([...]))")
    if not facts.base_payload_fields:
        facts.lost.append("the common payload schema (session_id, transcript_path, cwd)")


def _extract_exact_list(data: bytes, facts: ClientFacts) -> None:
    """The widest exact-list matcher class: a /^[...]+$/ holding | and 0-9 whose test is
    followed by a split of the matcher."""
    for match in _EXACT_LIST.finditer(data):
        chars = match.group(1).decode("latin-1")
        after = data[match.end() : match.end() + 200]
        if "|" not in chars or "0-9" not in chars or b".split(" not in after:
            continue
        expanded = expand_char_class(chars)
        if len(expanded) > len(facts.exact_list_chars):
            facts.exact_list_chars = expanded
    if not facts.exact_list_chars:
        facts.lost.append("the exact-list matcher pattern (/^[a-zA-Z0-9_|...]+$/ then .split)")


# SessionEnd's budget: the largest SessionEnd timeout, clamped: Math.max(DEFAULT,
# Math.min(largest, CAP)) right after the loop that finds the largest.
_SESSION_END = re.compile(
    rb"timeout\*1000>([\w$]+)\)\1=[\w$.]+\.timeout\*1000;"
    rb"return Math\.max\(([\w$]+),Math\.min\(\1,([\w$]+)\)"
)


def _extract_session_end_budget(data: bytes, facts: ClientFacts) -> None:
    for match in _SESSION_END.finditer(data):
        default = _constant(data, match.group(2), match.start())
        cap = _constant(data, match.group(3), match.start())
        if default is not None and cap is not None:
            facts.session_end_budget_ms = (default, cap)
            return
    facts.lost.append("the SessionEnd budget (Math.max(DEFAULT, Math.min(largest timeout, CAP)))")


def _constant(data: bytes, name: bytes, near: int) -> int | None:
    """The number a minified name is set to (`NAME=1500`): the definition nearest `near`,
    since a bundle reuses short names in other modules."""
    found = [
        (abs(match.start() - near), match.group(1))
        for match in re.finditer(rb"[,;{ (]" + re.escape(name) + rb"=(\d+)[,;)]", data)
    ]
    return int(min(found)[1]) if found else None


def expand_char_class(chars: str) -> set[str]:
    """The characters of a regex character class body such as 'A-Za-z0-9_|, -'."""
    found: set[str] = set()
    i = 0
    while i < len(chars):
        if i + 2 < len(chars) and chars[i + 1] == "-":
            found.update(chr(code) for code in range(ord(chars[i]), ord(chars[i + 2]) + 1))
            i += 3
        else:
            found.add(chars[i])
            i += 1
    return found


# --- facts out of the catalog ------------------------------------------------------------


def parse_version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def for_version(forms: dict[str, object], version: str) -> object:
    """As hookman/doctor/facts.py: the newest form at or below `version`."""
    ordered = sorted(forms.items(), key=lambda item: parse_version(item[0]))
    chosen = ordered[0][1]
    for measured, value in ordered:
        if parse_version(measured) <= parse_version(version):
            chosen = value
    return chosen


@dataclass
class CatalogFacts:
    events: set[str]
    specific_output: dict[str, set[str]]
    top_level_output: set[str]
    payload_samples: dict[str, set[str]]
    samples_are_current: bool  # the samples are payloads of the newest checked client
    session_start_sources: set[str]
    exact_list_chars: set[str]
    session_end_budget_ms: tuple[int, int]


def catalog_facts(catalog_dir: Path, version: str) -> CatalogFacts:
    """What the catalog says client `version` has."""
    events_data = json.loads((catalog_dir / "claude_code_events.json").read_text("utf-8"))
    doctor = json.loads((catalog_dir / "doctor_facts.json").read_text("utf-8"))
    target = parse_version(version)

    def known(since: object) -> bool:
        return isinstance(since, str) and parse_version(since) <= target

    events = {name for name, facts in events_data["events"].items() if known(facts.get("since"))}
    specific: dict[str, set[str]] = {}
    for name in events:
        facts = events_data["events"][name]
        since = facts.get("hook_specific_output_since", {})
        specific[name] = {
            field_name
            for field_name in facts.get("hook_specific_output", [])
            if field_name not in since or known(since[field_name])
        }
    top_since = events_data.get("top_level_output_since", {})
    top_level = {
        name
        for name in events_data["output_field_types"]
        if name not in top_since or known(top_since[name])
    }
    samples: dict[str, set[str]] = {}
    for sample in sorted((catalog_dir / "payloads").glob("*.json")):
        payload = json.loads(sample.read_text("utf-8"))
        name = payload.get(PAYLOAD_EVENT_KEY, sample.name.split(".")[0])
        samples.setdefault(name, set()).update(payload)
    sources = doctor["matcher"]["values_by_event"].get("SessionStart", {})
    if isinstance(sources, dict):
        sources = for_version(sources, version)
    chars = for_version(doctor["matcher"]["exact_list_syntax"], version)
    return CatalogFacts(
        events=events,
        specific_output=specific,
        top_level_output=top_level,
        payload_samples=samples,
        samples_are_current=target >= parse_version(events_data["newest_checked_version"]),
        session_start_sources=set(sources),
        exact_list_chars=expand_char_class(chars["chars"]),  # type: ignore[index]
        session_end_budget_ms=(
            events_data["session_end_budget"]["default_ms"],
            events_data["session_end_budget"]["raised_by_largest_timeout_up_to_ms"],
        ),
    )


# --- the diff ----------------------------------------------------------------------------


def differences(client: ClientFacts, catalog: CatalogFacts) -> list[str]:
    """Each way the client and the catalog disagree, one sentence each (lost anchors first)."""
    found = [f"anchor not found: {what}" for what in client.lost]
    if client.events:
        found += _set_diff("event", set(client.events), catalog.events)
    for event in sorted(set(client.specific_output) & catalog.events):
        found += _set_diff(
            f"answer field (hookSpecificOutput) for {event}:",
            client.specific_output[event],
            catalog.specific_output.get(event, set()),
        )
    if client.specific_output:
        for event in sorted(catalog.events & set(client.events)):
            if catalog.specific_output.get(event) and event not in client.specific_output:
                found.append(
                    f"{event}: the catalog lists hookSpecificOutput fields, the binary has no "
                    "hookSpecificOutput schema for it"
                )
    if client.top_level_output:
        found += _set_diff(
            "top-level answer field", client.top_level_output, catalog.top_level_output
        )
    if client.session_start_sources:
        found += _set_diff(
            "SessionStart source", set(client.session_start_sources), catalog.session_start_sources
        )
    for event in sorted(set(catalog.payload_samples) & set(client.payload_fields)):
        schema = client.payload_fields[event]
        sample = catalog.payload_samples[event]
        newer = sample - set(schema) - client.base_payload_fields
        # The samples are payloads as the newest checked client sends them: an older
        # client may lack some of their fields.
        for name in sorted(newer if catalog.samples_are_current else ()):
            found.append(
                f"payload field {name} for {event}: in the catalog's sample, not in binary"
            )
        for name in sorted(k for k, required in schema.items() if required and k not in sample):
            found.append(
                f"payload field {name} for {event}: required in binary, not in the catalog's sample"
            )
    if client.exact_list_chars:
        extra = "".join(sorted(client.exact_list_chars - catalog.exact_list_chars))
        missing = "".join(sorted(catalog.exact_list_chars - client.exact_list_chars))
        if extra:
            found.append(f"exact-list matcher characters {extra!r}: in binary, not in catalog")
        if missing:
            found.append(f"exact-list matcher characters {missing!r}: in catalog, not in binary")
    if (
        client.session_end_budget_ms
        and client.session_end_budget_ms != catalog.session_end_budget_ms
    ):
        binary, kept = client.session_end_budget_ms, catalog.session_end_budget_ms
        found.append(f"SessionEnd budget (default, cap) in ms: binary {binary}, catalog {kept}")
    return found


def _set_diff(what: str, client: set[str], catalog: set[str]) -> list[str]:
    return [f"{what} {name}: in binary, not in catalog" for name in sorted(client - catalog)] + [
        f"{what} {name}: in catalog, not in binary" for name in sorted(catalog - client)
    ]


# --- finding a client --------------------------------------------------------------------


def cache_root() -> Path:
    """Where tools/install_claude_clients.py puts the pinned clients."""
    override = os.environ.get("HOOKMAN_E2E_CACHE")
    return Path(override).expanduser() if override else Path.home() / ".cache" / "hookman-e2e"


@dataclass(frozen=True)
class Client:
    label: str
    version: str
    code: Path  # the native binary or cli.js


def find_client(spec: str) -> Client:
    """A pinned version (looked up in the cache) or a path: a binary, cli.js, or a directory
    holding one (a package dir, node_modules, an npm prefix)."""
    path = Path(spec).expanduser()
    if not path.exists() and re.fullmatch(r"\d+\.\d+\.\d+", spec):
        path = cache_root() / f"claude-{spec}"
        if not path.exists():
            raise ClientError(
                f"Claude Code {spec} is not installed at {path}; "
                "run `python tools/install_claude_clients.py`"
            )
    if not path.exists():
        raise ClientError(f"{spec} is neither a pinned version nor an existing path.")
    code = path if path.is_file() else _code_in(path)
    if code is None:
        raise ClientError(f"No Claude Code binary or cli.js under {path}.")
    version = _version_of(code) or spec
    return Client(label=version, version=version, code=code)


def _code_in(directory: Path) -> Path | None:
    patterns = (
        "claude",
        "cli.js",
        "claude-code-*/claude",
        "@anthropic-ai/claude-code-*/claude",
        "node_modules/@anthropic-ai/claude-code-*/claude",
        "claude-code/cli.js",
        "@anthropic-ai/claude-code/cli.js",
        "node_modules/@anthropic-ai/claude-code/cli.js",
    )
    for pattern in patterns:
        for candidate in sorted(directory.glob(pattern)):
            if candidate.is_file() and candidate.stat().st_size > 1_000_000:
                return candidate
    return None


def _version_of(code: Path) -> str | None:
    manifest = code.parent / "package.json"
    try:
        version = json.loads(manifest.read_text("utf-8")).get("version")
    except (OSError, ValueError):
        return None
    return version if isinstance(version, str) else None


# --- the command -------------------------------------------------------------------------


def check(client: Client, catalog_dir: Path) -> dict[str, object]:
    try:
        data = client.code.read_bytes()
    except OSError as error:
        raise ClientError(f"Cannot read {client.code}: {error.strerror}.") from error
    facts = extract(data)
    diff = differences(facts, catalog_facts(catalog_dir, client.version))
    return {
        "client": client.label,
        "code": str(client.code),
        "agrees": not diff,
        "differences": diff,
        "facts": {
            "events": facts.events,
            "top_level_output": sorted(facts.top_level_output),
            "hook_specific_output": {
                k: sorted(v) for k, v in sorted(facts.specific_output.items())
            },
            "session_start_sources": facts.session_start_sources,
            "exact_list_chars": "".join(sorted(facts.exact_list_chars)),
            "session_end_budget_ms": facts.session_end_budget_ms,
        },
    }


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--client",
        action="append",
        metavar="PATH_OR_VERSION",
        help="a pinned version or a path to a binary, cli.js or package dir (repeatable; "
        "default: the pinned clients)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--catalog",
        type=Path,
        default=Path(os.environ.get(CATALOG_ENV) or CATALOG_DIR),
        metavar="DIR",
        help=f"the catalog directory (default: hookman/catalog, or ${CATALOG_ENV})",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    results: list[dict[str, object]] = []
    unreadable = False
    for spec in args.client or PINNED_VERSIONS:
        label = spec
        try:
            client = find_client(spec)
            label = client.label
            results.append(check(client, args.catalog))
        except ClientError as error:
            unreadable = True
            results.append({"client": label, "error": str(error)})
        except OSError as error:
            unreadable = True
            where = error.filename or args.catalog
            results.append({"client": label, "error": f"Cannot read {where}: {error.strerror}."})
        except (ValueError, KeyError) as error:
            unreadable = True
            problem = f"The catalog in {args.catalog} is not as expected: {error}."
            results.append({"client": label, "error": problem})
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for result in results:
            print(_human(result))
    if unreadable:
        return 2
    return 0 if all(result["agrees"] for result in results) else 1


def _human(result: dict[str, object]) -> str:
    name = result["client"]
    if "error" in result:
        return f"{name}: error: {result['error']}"
    if result["agrees"]:
        return f"{name}: agrees with the catalog"
    return "\n".join(f"{name}: {line}" for line in result["differences"])  # type: ignore[union-attr]


if __name__ == "__main__":
    sys.exit(main())
