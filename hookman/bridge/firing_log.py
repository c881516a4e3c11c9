"""The firing log: one JSON line per event handled, size-capped with rotation.

`firing.jsonl` grows to MAX_BYTES, then becomes `firing.jsonl.1` (the older `.1` becomes
`.2`; KEEP_OLD files are kept). Lines are single appends, so concurrent runners interleave
whole lines. Rotation happens under a lock with the size checked again inside it, so runners
that find the log full at the same moment rotate it once, not once each (which would push a
fresh, nearly empty file into `.1` and drop history early). The free-form texts of a record
are capped, so one line never outgrows the cap. The log is only written in a directory no
other user can write (private_dir.py), and never through a symlink or into a FIFO.

"Last fired" (`hookman list`, doctor's never-fired finding) is kept beside the log so that
reading it does not grow with the log: `last-fired/<project key>/<hook>` holds the time of
the last line naming the hook in that project, framed with a digest, written in place by the
runner after each line (an event no hook ran writes nothing), and kept when rotation drops
the line itself. The directory is complete once it holds `.complete` (naming its project):
made by the first reader that finds it missing, from one pass over the log (migration from
logs older than the index); until then readers answer from the log itself, never from a
partial index. That pass keeps a hook's file a runner wrote meanwhile unless the log holds
a later time. Reads refuse anything but small regular files holding one framed time (a
symlink, a FIFO, a write half done, anything planted): those are answered from the log,
and repaired.
"""

from __future__ import annotations

import os

from hookman.bridge import lean_json
from hookman.bridge.private_dir import make_private_dir
from hookman.bridge.state_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping

    from hookman.json_shapes import FiringRecordJson, HookErrorJson, JsonValue, Outcome

MAX_BYTES = 5 * 1024 * 1024
KEEP_OLD = 2
MAX_OUTPUT_CHARS = 4000  # per free-form text of a record (output, each error, each notice)
TRUNCATED = "... [truncated]"
LOCK_SUFFIX = ".lock"
LAST_FIRED_DIR = "last-fired"
COMPLETE = ".complete"  # a hook name never starts with a dot (project/config.py NAME_PATTERN)
MAX_TIME_BYTES = 64
MAX_PROJECT_BYTES = 16384
DIGEST_CHARS = 16
TAIL_BLOCK = 1 << 16  # bytes read at a time from the end (`hookman log --json`)
_PLAIN_NAME = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def new_record(
    project: str | None,
    session: JsonValue,
    agent_id: JsonValue,
    event: str,
    outcome: Outcome,
    *,
    hooks: list[str],
    duration_ms: float,
    errors: list[HookErrorJson],
    output: str,
    notices: list[str],
) -> FiringRecordJson:
    """A line of the firing log with its fields in their order (json_shapes FiringRecordJson),
    the time now: what the runner writes for a run and the warm server for an answer it gave
    itself (bridge/served_record.py). The optional fields are the caller's to add."""
    from hookman.bridge.session_state import now_iso  # on the runner's path already

    return {
        "time": now_iso(),
        "project": project,
        "session": session,
        "agent_id": agent_id,
        "event": event,
        "hooks": hooks,
        "outcome": outcome,
        "duration_ms": duration_ms,
        "errors": errors,
        "output": output,
        "notices": notices,
    }


def append_record(log_path: str, record: Mapping[str, object]) -> None:
    record = _capped(record)
    line = (lean_json.dumps(record, ensure_ascii=False, default=repr) + "\n").encode(
        "utf-8", "replace"
    )
    directory, problem = make_private_dir(os.path.dirname(os.path.abspath(log_path)))
    if problem:  # another user could plant a symlink or a FIFO there: no line at all
        raise OSError(problem)
    log_path = os.path.join(directory, os.path.basename(log_path))
    _rotate_if_full(log_path, len(line))
    descriptor = open_regular(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        os.write(descriptor, line)
    finally:
        os.close(descriptor)
    remember_fired(directory, record)


def remember_fired(log_dir: str, record: Mapping[str, object]) -> None:
    """Write the record's time as each of its hooks' last firing in its project (nothing
    for a record without hooks). A hook whose time cannot be written loses its file and
    the directory its `.complete`: readers then answer from the log, and the next pass
    fills the file from it (an old time left in place would be wrong)."""
    project, hooks, when = record.get("project"), record.get("hooks"), record.get("time")
    if not (hooks and isinstance(hooks, list) and isinstance(project, str) and project):
        return
    framed = _framed(str(when))  # the text `hookman list` always showed for a line's time
    folder = last_fired_dir(log_dir, project)
    for name in hooks:
        if not isinstance(name, str):
            continue
        try:
            if framed is None:
                raise OSError("the time is not one short line")
            _write_time(folder, name, framed)
        except OSError:
            _unlink(os.path.join(folder, hook_file_name(name)))
            _unlink(os.path.join(folder, COMPLETE))


def last_fired_dir(log_dir: str, project: str) -> str:
    from hookman.bridge.project_moved import sha256_hex  # on the runner's path already

    key = sha256_hex(project.encode("utf-8", "surrogateescape"))[:32]
    return os.path.join(log_dir, LAST_FIRED_DIR, key)


def hook_file_name(name: str) -> str:
    """The hook's file in its project's directory: its name when that is a plain file name,
    else a digest of it (never a dot first: COMPLETE cannot be a hook's)."""
    if 0 < len(name) <= 100 and name[0] != "." and _PLAIN_NAME.issuperset(name):
        return name
    from hookman.bridge.project_moved import sha256_hex

    return "~" + sha256_hex(name.encode("utf-8", "surrogateescape"))[:32]


def _framed(when: str) -> bytes | None:
    """A hook file's bytes: the time, a tab, a digest of the time, a newline (a reader that
    meets a write half done finds the digest wrong); None when the time is not one short
    printable line."""
    from hookman.bridge.project_moved import sha256_hex

    encoded = when.encode("utf-8", "replace")
    if not encoded or len(encoded) > MAX_TIME_BYTES or not when.isprintable() or "\t" in when:
        return None
    return encoded + b"\t" + sha256_hex(encoded)[:DIGEST_CHARS].encode() + b"\n"


def _write_time(folder: str, name: str, framed: bytes) -> None:
    """Overwrite the hook's file in place: no new file, no truncation (each costs more than
    the whole write on a journaling file system); a shorter time leaves bytes after its
    newline, which readers ignore."""
    path = os.path.join(folder, hook_file_name(name))
    try:
        descriptor = open_regular(path, os.O_WRONLY | os.O_CREAT)
    except FileNotFoundError:  # the project's first line: make its directory (mode 0700)
        _make_folder(folder)
        descriptor = open_regular(path, os.O_WRONLY | os.O_CREAT)
    try:
        os.write(descriptor, framed)
    finally:
        os.close(descriptor)


def _replace(folder: str, file_name: str, data: bytes) -> None:
    """Write the file whole under a name of this process, then rename it into place."""
    temporary = _temporary(folder, file_name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    try:
        descriptor = open_regular(temporary, flags)
    except FileNotFoundError:
        _make_folder(folder)
        descriptor = open_regular(temporary, flags)
    try:
        os.write(descriptor, data)
    finally:
        os.close(descriptor)
    os.replace(temporary, os.path.join(folder, file_name))


def _make_folder(folder: str) -> None:
    """Make the project's directory and `last-fired` above it, each mode 0700, and check
    that no other user can write any of them (private_dir.py)."""
    _, problem = make_private_dir(folder)
    if problem:
        raise OSError(problem)


def _temporary(folder: str, file_name: str) -> str:
    """A name of this process beside the file (a dot first: never a hook's)."""
    return os.path.join(folder, f".{file_name}.{os.getpid()}.tmp")


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _capped(record: Mapping[str, object]) -> dict[str, object]:
    capped = dict(record)
    if "output" in record:
        capped["output"] = _cut(record["output"])
    for key in ("errors", "notices"):
        items = record.get(key)
        if isinstance(items, list):
            capped[key] = [
                {name: _cut(value) for name, value in item.items()}
                if isinstance(item, dict)
                else _cut(item)
                for item in items
            ]
    return capped


def _cut(value: object) -> object:
    if isinstance(value, str) and len(value) > MAX_OUTPUT_CHARS:
        return value[:MAX_OUTPUT_CHARS] + TRUNCATED
    return value


def _is_full(log_path: str, incoming: int) -> bool:
    try:
        return os.stat(log_path).st_size + incoming > MAX_BYTES
    except OSError:
        return False


def _rotate_if_full(log_path: str, incoming: int) -> None:
    if not _is_full(log_path, incoming):
        return
    try:
        import fcntl  # only here: rotation is rare, and the module costs most of a millisecond
    except ImportError:  # pragma: no cover - Windows: rotate unlocked
        _rotate(log_path)
        return
    try:
        descriptor = open_regular(f"{log_path}{LOCK_SUFFIX}", os.O_WRONLY | os.O_CREAT)
    except OSError:
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        if _is_full(log_path, incoming):  # not rotated by another runner meanwhile
            _rotate(log_path)
    finally:
        os.close(descriptor)


def _rotate(log_path: str) -> None:
    try:
        for number in range(KEEP_OLD - 1, 0, -1):
            older = f"{log_path}.{number}"
            if os.path.exists(older):
                os.replace(older, f"{log_path}.{number + 1}")
        os.replace(log_path, f"{log_path}.1")
    except OSError:
        pass  # the log stays as it is; the next append tries again


def log_files(log_path: str) -> list[str]:
    """The log's files that exist, oldest first."""
    candidates = [f"{log_path}.{number}" for number in range(KEEP_OLD, 0, -1)] + [log_path]
    return [path for path in candidates if os.path.isfile(path)]


def read_records(log_path: str, needle: str = "") -> list[dict[str, object]]:
    """Every readable record, oldest first; lines that are not JSON objects are skipped, and
    lines without `needle` (line_needle: a project's lines all hold it) are not parsed."""
    records: list[dict[str, object]] = []
    for path in log_files(log_path):
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                records.extend(parse_lines([line for line in handle if needle in line]))
        except OSError:
            continue
    return records


def tail_records(
    log_path: str,
    count: int,
    matches: Callable[[dict[str, object]], bool],
    needle: str = "",
) -> list[dict[str, object]]:
    """The last `count` records that `matches` accepts, oldest first, read backwards from
    the end of the log in blocks: only as much of it as holds them."""
    found: list[dict[str, object]] = []
    for path in reversed(log_files(log_path)):
        for line in _lines_backwards(path):
            if count <= len(found):
                return found[::-1]
            if needle in line:
                found.extend(record for record in parse_lines([line]) if matches(record))
    return found[::-1][-count:] if count else []


def _lines_backwards(path: str) -> Iterator[str]:
    """The file's lines, last first (a last line without its newline included)."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 - a generator holds it while it is read
    except OSError:
        return
    with handle:
        position = handle.seek(0, os.SEEK_END)
        rest = b""
        while position > 0:
            step = min(TAIL_BLOCK, position)
            position -= step
            handle.seek(position)
            chunk = handle.read(step) + rest
            lines = chunk.split(b"\n")
            rest = lines.pop(0)  # maybe cut: joined with the block before it
            for line in reversed(lines):
                if line:
                    yield line.decode("utf-8", "replace")
        if rest:
            yield rest.decode("utf-8", "replace")


def line_needle(project: str) -> str:
    """A text every line of `project` holds (its path as JSON writes it), or "" when JSON
    may escape it (then every line is parsed)."""
    plain = project.isascii() and project.isprintable() and not set(project) & {'"', "\\"}
    return project if plain else ""


def parse_lines(lines: list[str]) -> list[dict[str, object]]:
    records = []
    for line in lines:
        try:
            record = lean_json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records


def last_fired(log_path: str, project: str, hooks: Iterable[str]) -> dict[str, str]:
    """Hook name -> time of the last firing-log line that ran it in `project` (absent: it
    never fired), for each of `hooks`: from the project's last-fired directory when it is
    complete and every file read is sound, else from the log (then the directory is made
    complete from that pass, for the next reader)."""
    names = list(dict.fromkeys(hooks))
    log_dir = os.path.dirname(os.path.abspath(log_path))
    if not os.path.isdir(log_dir):
        return {}  # no log yet: nothing fired (and nothing to make)
    folder, problem = make_private_dir(last_fired_dir(log_dir, project))
    if problem:  # another user could have planted what is there: the log alone answers
        return _only(_scan(log_path, project), names)
    complete = _read_small(os.path.join(folder, COMPLETE), MAX_PROJECT_BYTES) == project
    known, unsound = _read_times(folder, names)
    if complete and not unsound:
        return known
    fired = _scan(log_path, project)
    for name in unsound - set(fired):  # not sound, and the log does not know it
        _unlink(os.path.join(folder, hook_file_name(name)))
    _complete(folder, project, fired)
    known, _ = _read_times(folder, names)  # with what runners wrote meanwhile
    for name, when in _only(fired, names).items():
        known[name] = max(known.get(name, when), when)
    return known


def _read_times(folder: str, names: list[str]) -> tuple[dict[str, str], set[str]]:
    """The hooks' times from their files, and the hooks whose file is not sound (missing
    is sound: never fired)."""
    known: dict[str, str] = {}
    unsound: set[str] = set()
    for name in names:
        when = _read_time(os.path.join(folder, hook_file_name(name)))
        if when is None:
            unsound.add(name)
        elif when:
            known[name] = when
    return known, unsound


def _read_time(path: str) -> str | None:
    """The time a hook file holds; "" when there is no file, None when what is there is not
    a sound one (a symlink, a FIFO, a write half done, anything planted)."""
    data = _read_bytes(path, MAX_TIME_BYTES + DIGEST_CHARS + 2)
    if not isinstance(data, bytes):
        return data
    line, newline, _ = data.partition(b"\n")
    try:
        when = line.rpartition(b"\t")[0].decode("utf-8")
    except UnicodeDecodeError:
        return None
    return when if newline and _framed(when) == line + newline else None


def _read_small(path: str, limit: int) -> str | None:
    """The one printable line of a small regular file; "" when there is no file, None when
    what is there is not that (a symlink, a FIFO, too long, not text)."""
    data = _read_bytes(path, limit)
    if not data:
        return data if data == "" else None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if text.isprintable() else None


def _read_bytes(path: str, limit: int) -> bytes | str | None:
    """Up to `limit` bytes of the regular file; "" when there is none, None when the name
    holds anything else or more than `limit` bytes."""
    try:
        descriptor = open_regular(path, os.O_RDONLY)
    except FileNotFoundError:
        return ""
    except OSError:
        return None
    try:
        data = os.read(descriptor, limit + 1)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return data if 0 < len(data) <= limit else None


def _complete(folder: str, project: str, fired: dict[str, str]) -> None:
    """Make the directory complete from one pass over the log (`fired`): a hook's file is
    written where it is missing, unsound or older than the log says; `.complete` last, and
    only when every time could be kept."""
    try:
        for name, when in fired.items():
            framed = _framed(when)
            if framed is None:
                return  # not kept: readers keep answering from the log
            held = _read_time(os.path.join(folder, hook_file_name(name)))
            if held == "":
                _write_if_absent(folder, name, framed)  # a runner's, written meanwhile, stays
            elif held is None:  # whatever is there goes, whole (it may be longer)
                _replace(folder, hook_file_name(name), framed)
            elif held < when:
                _write_time(folder, name, framed)
        _replace(folder, COMPLETE, project.encode("utf-8", "surrogateescape"))
    except OSError:
        return


def _write_if_absent(folder: str, name: str, framed: bytes) -> None:
    temporary = _temporary(folder, hook_file_name(name))
    descriptor = open_regular(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        os.write(descriptor, framed)
    finally:
        os.close(descriptor)
    try:
        os.link(temporary, os.path.join(folder, hook_file_name(name)))
    except FileExistsError:
        pass
    finally:
        _unlink(temporary)


def _only(fired: dict[str, str], names: list[str]) -> dict[str, str]:
    return {name: fired[name] for name in names if name in fired}


def _scan(log_path: str, project: str) -> dict[str, str]:
    """Hook name -> time of the last line of `project` naming it, over the whole log."""
    fired: dict[str, str] = {}
    needle = line_needle(project)
    for path in log_files(log_path):
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines = [line for line in handle if needle in line]
        except OSError:
            continue
        for record in parse_lines(lines):
            names = record.get("hooks")
            if record.get("project") != project or not isinstance(names, list):
                continue
            for name in names:
                if isinstance(name, str):
                    fired[name] = str(record.get("time"))
    return fired
