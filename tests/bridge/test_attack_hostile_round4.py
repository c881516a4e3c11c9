"""A fourth hostile pass on issue 23's landed fixes (classes 3, 4, 6 and 7): more cases of
each class, through the exact commands hookman writes (settings.local.json, .codex/hooks.json,
a built plugin's hooks/hooks.json), run as each client runs them (sh_family.py), judged as
the client reads the result. Each case that goes through today is marked xfail(strict): the
fix flips it.

Class 3 (tracing): the launcher learns that the client's shell traces from its own SHELLOPTS.
Under `SHELLOPTS=xtrace:allexport` bash as `sh` traces the settings command to
BASH_XTRACEFD, but also exports POSIXLY_CORRECT=y (allexport), and a bash that finds
POSIXLY_CORRECT in its environment ignores SHELLOPTS: the launcher's bash does not trace, so
it answers on stdout after the outer shell's trace lines. Class 4 (start-up file): the
launcher learns that a start-up file ran from a non-empty BASH_ENV; a start-up file that
prints (or traces to fd 1) and then unsets BASH_ENV (a common guard against its re-reading)
leaves the launcher sure that stdout is clean. A function named like a builtin the launcher
uses (`printf`), exported in the environment or by a start-up file, reaches bash as `sh`:
every answer the launcher writes goes nowhere.

Class 7 (store copy): the runner verifies the modules a hook imports, not the files it reads.
A repository guard that reads a data file beside it (its list of refused words), or runs a
sibling with exec/runpy, runs what the edited store copy says.

Class 6 (private dirs): a group-writable directory counts as private when its group is the
user's own private group with no other members listed; another user whose *primary* group is
that group (passwd, not gr_mem) can still write it."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookman import paths
from tests.hook_repos import commit, make_repo

from . import sh_family
from .attack_support import ALLOW, DENY, SH, Verdict, installed_handlers, run_settings_command
from .sh_family import Condition, Target

VERSION = ("--claude-version", "2.1.332")


def _shell(name: str) -> str:
    if sh_family.shell_path(name) is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{name} is not installed (CI must have it: .ci/run)")
        pytest.skip(f"{name} is not installed")
    return name


@pytest.fixture(scope="module")
def targets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, Target], Path]]:
    root = tmp_path_factory.mktemp("round4")
    yield sh_family.make_targets(root), root / "scratch"


def _denied(target: Target, shell: str, condition: Condition, scratch: Path) -> Verdict:
    verdict = sh_family.run(target, _shell(shell), condition, scratch)
    assert verdict.decision == DENY, (target.name, shell, condition.name, verdict)
    return verdict


def _denied_by_the_guard(target: Target, shell: str, condition: Condition, scratch: Path) -> None:
    verdict = _denied(target, shell, condition, scratch)
    assert "GUARD: no rm -rf" in verdict.why, (target.name, shell, condition.name, verdict)


# ---------------------------------------------------------------------------------------
# Class 3: the outer shell traces, the launcher does not know it.

ALLEXPORT_XTRACE = sh_family.HIDDEN_TRACING[0]
CODEX_ALLEXPORT_XTRACE = sh_family.CODEX_HIDDEN_TRACING[0]


@pytest.mark.parametrize("name", ["settings", "plugin"])
def test_claude_bash_as_sh_tracing_with_allexport_still_denies(
    targets: tuple[dict[str, Target], Path], name: str
) -> None:
    made, scratch = targets
    _denied_by_the_guard(made[name], "bash", ALLEXPORT_XTRACE, scratch)


def test_codex_tracing_with_allexport_posix_still_denies_with_bash_as_sh(
    targets: tuple[dict[str, Target], Path],
) -> None:
    made, scratch = targets
    _denied_by_the_guard(made["codex"], "bash", CODEX_ALLEXPORT_XTRACE, scratch)


def test_codex_tracing_with_allexport_posix_denies_with_dash_as_sh(
    targets: tuple[dict[str, Target], Path],
) -> None:
    """Held: dash reads no SHELLOPTS, so the launcher sees the variable's own words."""
    made, scratch = targets
    _denied_by_the_guard(made["codex"], "dash", CODEX_ALLEXPORT_XTRACE, scratch)


# ---------------------------------------------------------------------------------------
# Class 4: a start-up file that spoils Codex's stdout and then hides that it ran.

# With fds 1 and 2 one pipe (Codex's stdout) and junk already on it, no answer Codex accepts
# is left: not "exactly one JSON object" on stdout, nor exit 2 with a non-empty stderr.
UNANSWERABLE = pytest.mark.xfail(
    strict=True,
    reason="no channel left: the start-up file joined fd 2 to Codex's stdout and printed on it",
)
HIDING_START_UP = [
    pytest.param(condition, marks=UNANSWERABLE) if "2-to-1" in condition.name else condition
    for condition in sh_family.HIDING_START_UP
]


@pytest.mark.parametrize("shell", ["dash", "bash"])
@pytest.mark.parametrize(
    "condition", HIDING_START_UP, ids=lambda c: getattr(c, "name", None) or str(c)
)
def test_codex_start_up_file_that_hides_itself_still_denies(
    targets: tuple[dict[str, Target], Path], condition: Condition, shell: str
) -> None:
    made, scratch = targets
    _denied_by_the_guard(made["codex"], shell, condition, scratch)


# A function named like a builtin the launcher writes its answers with. bash as `sh` imports
# exported functions (BASH_FUNC_NAME%%) even in POSIX mode; a function wins over a regular
# builtin (printf, read, [, true) there, not over a special one (exit, set, unset).
PRINTF_FUNCTION = sh_family.PRINTF_FUNCTION
START_UP_PRINTF = sh_family.START_UP_PRINTF


@pytest.mark.parametrize("name", ["settings", "plugin", "codex"])
def test_an_exported_printf_function_cannot_swallow_the_deny(
    targets: tuple[dict[str, Target], Path], name: str
) -> None:
    made, scratch = targets
    _denied_by_the_guard(made[name], "bash", PRINTF_FUNCTION, scratch)


def test_codex_start_up_file_exporting_printf_cannot_empty_stderr(
    targets: tuple[dict[str, Target], Path],
) -> None:
    made, scratch = targets
    _denied_by_the_guard(made["codex"], "bash", START_UP_PRINTF, scratch)


# What held (class 3 and 4 variants the landed fixes answer right), every shell as `sh`.
HELD_CLAUDE = [
    Condition("xtrace-allexport-fd2", env={"SHELLOPTS": "xtrace:allexport", "BASH_XTRACEFD": "2"}),
    Condition("allexport", env={"SHELLOPTS": "allexport"}),
    Condition("verbose", env={"SHELLOPTS": "verbose"}),
    Condition(
        "xtrace-fd9-is-stdout",
        prelude="exec 9>&1; ",
        env={"SHELLOPTS": "xtrace", "BASH_XTRACEFD": "9"},
    ),
    Condition("posixly-correct", env={"POSIXLY_CORRECT": "1"}),
    Condition("exported-read", env={"BASH_FUNC_read%%": "() { :; }"}),
    Condition("exported-rm", env={"BASH_FUNC_rm%%": "() { echo junk; }"}),
    Condition("exported-true", env={"BASH_FUNC_true%%": "() { :; }"}),
    Condition("exported-sh", env={"BASH_FUNC_sh%%": "() { echo junk; }"}),
    Condition("sigpipe-ignored", prelude="trap '' PIPE; "),
    Condition("ifs-0", prelude="IFS=0; "),
    Condition("tmpdir-is-a-file", env={"TMPDIR": "/etc/passwd"}),
    Condition("home-unset", prelude="unset HOME; "),
    Condition("odd-locale", env={"LC_ALL": "tr_TR.UTF-8"}),
    Condition("stdin-closed", prelude="exec 0<&-; "),
    Condition("file-size-limit-0", prelude="ulimit -f 0; "),
]
HELD_CODEX = [
    Condition("bash-env-trap-exit-echo", start_up="trap 'echo bye' EXIT"),
    Condition("bash-env-function-sh", start_up='sh() { echo junk; command sh "$@"; }'),
    Condition("bash-env-export-then-other-value", start_up="echo junk; export BASH_ENV=/dev/null"),
    Condition("bash-env-xtrace-exported", start_up="set -x; export SHELLOPTS; BASH_XTRACEFD=1"),
    Condition(
        "posixly-xtrace", env={"SHELLOPTS": "xtrace", "BASH_XTRACEFD": "1", "POSIXLY_CORRECT": "y"}
    ),
    Condition("bash-env-posix-then-trace", start_up="set -o posix; BASH_XTRACEFD=1; set -x"),
    Condition("exported-test", env={"BASH_FUNC_[%%": "() { return 0; }"}),
]


@pytest.mark.parametrize("shell", sh_family.FAMILY)
@pytest.mark.parametrize("condition", HELD_CLAUDE, ids=lambda c: c.name)
def test_held_settings_command(
    targets: tuple[dict[str, Target], Path], condition: Condition, shell: str
) -> None:
    made, scratch = targets
    _denied(made["settings"], shell, condition, scratch)


@pytest.mark.parametrize("shell", ["dash", "bash"])
@pytest.mark.parametrize("condition", HELD_CODEX, ids=lambda c: c.name)
def test_held_codex_command(
    targets: tuple[dict[str, Target], Path], condition: Condition, shell: str
) -> None:
    made, scratch = targets
    _denied(made["codex"], shell, condition, scratch)


# ---------------------------------------------------------------------------------------
# Class 7: a store copy changed after its fetch, in a file the runner does not import.


def _payload(command: str) -> dict[str, object]:
    return {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "session_id": "s",
        "cwd": "/tmp",
        "transcript_path": "/tmp/t.jsonl",
    }


def _verdict(project: Path, command: str = "rm -rf /") -> Verdict:
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    [handler] = installed_handlers(settings, "PreToolUse")
    return run_settings_command(
        handler["command"], "PreToolUse", _payload(command), timeout=60, cwd=project, shell=SH
    )


DATA_GUARD = """\
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(_HERE, "refused.txt"), encoding="utf-8") as _f:
    REFUSED = _f.read().strip()


def hook(pi):
    def check(event, ctx):
        if REFUSED in event["input"].get("command", ""):
            return {"block": True, "reason": "repo says no"}
    pi.on("tool_call", check, tools=["Bash"])
"""
# A sibling run without an import statement: the words module read and executed as text.
EXEC_GUARD = """\
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_words = {}
with open(os.path.join(_HERE, "words.py"), encoding="utf-8") as _f:
    exec(compile(_f.read(), "words.py", "exec"), _words)
REFUSED = _words["REFUSED"]


def hook(pi):
    def check(event, ctx):
        if REFUSED in event["input"].get("command", ""):
            return {"block": True, "reason": "repo says no"}
    pi.on("tool_call", check, tools=["Bash"])
"""
RUNPY_GUARD = EXEC_GUARD.replace(
    """_words = {}
with open(os.path.join(_HERE, "words.py"), encoding="utf-8") as _f:
    exec(compile(_f.read(), "words.py", "exec"), _words)
""",
    """import runpy

_words = runpy.run_path(os.path.join(_HERE, "words.py"))
""",
)
SPEC_GUARD = EXEC_GUARD.replace(
    """_words = {}
with open(os.path.join(_HERE, "words.py"), encoding="utf-8") as _f:
    exec(compile(_f.read(), "words.py", "exec"), _words)
REFUSED = _words["REFUSED"]
""",
    """import importlib.util

_spec = importlib.util.spec_from_file_location("_words", os.path.join(_HERE, "words.py"))
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
REFUSED = _module.REFUSED
""",
)
GUARDS = {"data-file": DATA_GUARD, "exec": EXEC_GUARD, "spec": SPEC_GUARD}


def _install_repo_guard(project: Path, tmp_path: Path, source: str) -> Path:
    """A repository guard `no-rm-rf` whose module is `source`, installed; its store tree."""
    from tests.commands.helpers import hookman_json

    repo = make_repo(tmp_path / "agent-hooks")
    (repo / "guards" / "no_rm_rf.py").write_text(source)
    (repo / "guards" / "refused.txt").write_text("rm -rf\n")
    commit(repo, "v2.0.0")
    hookman_json(
        "install", "no-rm-rf", "--repo", str(repo), "--rev", "v2.0.0",
        "--project", str(project), *VERSION,
    )  # fmt: skip
    record = json.loads(paths.manifest_path(project).read_text())["hooks"][0]
    return Path(record["package_root"])


@pytest.mark.parametrize("style", list(GUARDS))
def test_a_guard_reading_its_own_files_works_as_fetched(
    project: Path, tmp_path: Path, style: str
) -> None:
    """The control: each guard style denies `rm -rf` and allows `ls` as fetched."""
    _install_repo_guard(project, tmp_path, GUARDS[style])
    denied = _verdict(project)
    assert (denied.decision, denied.why) == (DENY, "repo says no"), denied
    assert _verdict(project, "ls").decision == ALLOW


@pytest.mark.xfail(
    strict=True,
    reason="class 7: the runner verifies imported modules only; a data file or a sibling "
    "run by exec/runpy/spec_from_file_location is read as the edited store copy says",
)
@pytest.mark.parametrize("style", list(GUARDS))
def test_an_edited_file_a_guard_reads_itself_denies(
    project: Path, tmp_path: Path, style: str
) -> None:
    tree = _install_repo_guard(project, tmp_path, GUARDS[style])
    if style == "data-file":
        (tree / "guards" / "refused.txt").write_text("nothing anyone types\n")
    else:
        (tree / "guards" / "words.py").write_text("REFUSED = 'nothing anyone types'\n")
    verdict = _verdict(project)
    assert verdict.decision == DENY, verdict


def test_a_guard_running_a_sibling_with_runpy_works_as_fetched(
    project: Path, tmp_path: Path
) -> None:
    _install_repo_guard(project, tmp_path, RUNPY_GUARD)
    denied = _verdict(project)
    assert (denied.decision, denied.why) == (DENY, "repo says no"), denied
    assert _verdict(project, "ls").decision == ALLOW


STDLIB_NAMED_GUARD = """\
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fnmatch  # noqa: E402  (not loaded by the runner: found on sys.path, first entry)


def hook(pi):
    def check(event, ctx):
        if fnmatch.fnmatch(event["input"].get("command", ""), "rm -rf*"):
            return {"block": True, "reason": "repo says no"}
    pi.on("tool_call", check, tools=["Bash"])
"""


def test_a_planted_stdlib_named_module_beside_the_guard_is_refused(
    project: Path, tmp_path: Path
) -> None:
    """Held: a `fnmatch.py` planted beside a guard that puts its directory first on sys.path
    is an unrecorded module of the tree, refused (deny naming install), never run."""
    tree = _install_repo_guard(project, tmp_path, STDLIB_NAMED_GUARD)
    assert _verdict(project).decision == DENY
    (tree / "guards" / "fnmatch.py").write_text("def fnmatch(name, pattern):\n    return False\n")
    verdict = _verdict(project)
    assert verdict.decision == DENY and "hookman install" in verdict.why, verdict


# ---------------------------------------------------------------------------------------
# Class 6: "the user's private group" checked by gr_mem alone.


def test_a_group_shared_as_another_user_s_primary_group_is_not_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import grp
    import pwd
    from types import SimpleNamespace

    from hookman.bridge import private_dir

    uid, gid = os.getuid(), os.getgid()
    me = SimpleNamespace(pw_name="me", pw_uid=uid, pw_gid=gid, pw_dir="/home/me")
    other = SimpleNamespace(pw_name="other", pw_uid=uid + 4242, pw_gid=gid, pw_dir="/home/o")
    group = SimpleNamespace(gr_name="me", gr_gid=gid, gr_mem=[])
    monkeypatch.setattr(pwd, "getpwuid", lambda u: me if u == uid else other)
    monkeypatch.setattr(pwd, "getpwall", lambda: [me, other])
    monkeypatch.setattr(pwd, "getpwnam", lambda n: {"me": me, "other": other}[n])
    monkeypatch.setattr(grp, "getgrgid", lambda g: group)
    state = tmp_path / "state"
    state.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chown(state, uid, gid)
    os.chmod(state, 0o770)  # umask 002's directories: the group can write
    problem = private_dir.private_dir_problem(str(state))
    assert problem is not None and "other users" in problem, problem


def _set_acl(path: Path, other_uid: int, perms: int) -> None:
    """A POSIX access ACL granting `other_uid` `perms` (the mask as wide): what
    `setfacl -m u:OTHER:PERMS` writes (system.posix_acl_access, version 2)."""
    import struct

    undefined = 0xFFFFFFFF
    entries = [(0x01, 7, undefined), (0x02, perms, other_uid), (0x04, 0, undefined)]
    entries += [(0x10, perms, undefined), (0x20, 0, undefined)]
    value = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries)
    os.setxattr(path, "system.posix_acl_access", value)


def test_an_acl_granting_another_user_the_state_dir_is_not_private() -> None:
    import importlib._bootstrap_external as external
    import shutil
    import subprocess
    import sys
    import tempfile

    if not hasattr(os, "setxattr") or os.getuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root, setpriv and xattrs to act as another user")
    root = Path(tempfile.mkdtemp(prefix="hookman-acl-"))
    try:
        os.chmod(root, 0o755)
        target = sh_family.make_targets(root)["settings"]
        state = sh_family.launcher_of(target).parent
        try:
            for above in state.relative_to(root).parents:
                if above != Path("."):
                    _set_acl(root / above, 65534, 1)  # the other user may pass through
            _set_acl(state, 65534, 7)
        except OSError as error:
            pytest.skip(f"no POSIX ACLs here: {error}")
        scratch = root / "scratch"
        assert sh_family.run(target, "dash", sh_family.PLAIN, scratch).decision == DENY
        hook = target.cwd / "hooks" / "guard.py"
        source = os.stat(hook)
        evil = 'def hook(pi):\n    pi.on("tool_call", lambda e, c: None, tools=["Bash"])\n'
        code = compile(evil, str(hook), "exec")
        planted = root / "planted.pyc"
        planted.write_bytes(
            bytes(external._code_to_timestamp_pyc(code, int(source.st_mtime), source.st_size))
        )
        os.chmod(planted, 0o644)
        where = f"{state}/pycache{hook.parent}"
        swap = (
            f"{{ mv '{state}/pycache' '{state}/old' 2>/dev/null; true; }} && mkdir -p '{where}' && "
            f"cp '{planted}' '{where}/guard.{sys.implementation.cache_tag}.pyc'"
        )
        other = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        assert subprocess.run([*other, "sh", "-c", swap], check=False).returncode == 0
        verdict = sh_family.run(target, "dash", sh_family.PLAIN, scratch)
        assert verdict.decision == DENY, verdict
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.xfail(
    strict=True,
    reason="class 7: the digests come from the store's own fetched.json; a store copy edited "
    "together with that record is blessed by the next `hookman install` (nothing checks it "
    "against the pinned commit's git objects)",
)
def test_an_edited_store_copy_and_its_fetch_record_are_not_blessed_by_install(
    project: Path, tmp_path: Path
) -> None:
    from hookman.hooks import store
    from tests.commands.helpers import hookman_json
    from tests.hook_repos import GUARD

    tree = _install_repo_guard(project, tmp_path, GUARD.replace("WORDS", "repo says no"))
    assert _verdict(project).decision == DENY
    record_path = tree.parent / store.FETCHED_NAME
    record = json.loads(record_path.read_text())
    evil = "REFUSED = 'nothing anyone types'\n"
    (tree / "guards" / "words.py").write_text(evil)
    record["files"]["guards/words.py"] = store.sha256_hex(evil.encode())
    record_path.write_text(json.dumps(record, sort_keys=True))
    hookman_json("install", "--project", str(project), *VERSION)
    verdict = _verdict(project)
    assert verdict.decision == DENY, verdict


def _codex_with_a_pipe_between(target: Target, shell: str, scratch: Path) -> Verdict:
    """Codex's command under a BASH_ENV `exec 2>&1`, its stdin, stdout and stderr pipes made
    as Codex makes them but with one more pipe made between stdin's and stdout's (another
    hook Codex spawns at the same time, or any pipe or socket made on that CPU meanwhile;
    Linux also jumps every 1024 inodes per CPU)."""
    from .test_attack_codex import codex_verdict

    path = sh_family.shell_path(_shell(shell))
    assert path is not None
    bin_dir = scratch / f"between-sh-is-{shell}"
    bin_dir.mkdir(parents=True, exist_ok=True)
    if not (bin_dir / "sh").exists():
        (bin_dir / "sh").symlink_to(path)
    start_up = scratch / "start-up-2-to-1.sh"
    start_up.write_text("exec 2>&1\n", encoding="utf-8")
    env = {**os.environ, **target.env, "BASH_ENV": str(start_up)}
    env["PATH"] = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    for name in ("ENV", "SHELLOPTS", "BASH_XTRACEFD", "PS4"):
        env.pop(name, None)
    returncode, out, err = sh_family.spawn_as_codex(
        [sh_family.CODEX_SHELL, "-c", target.command], env, target.cwd, between=True
    )
    assert returncode is not None, "killed at the entry's timeout"
    return codex_verdict(returncode, out, err)


@pytest.mark.xfail(
    strict=True,
    reason="class 4: with a start-up file's `exec 2>&1`, the launcher picks stdout only when "
    "the pipes of fds 0 and 1 have consecutive inode numbers; one pipe made in between and "
    "the deny goes out as exit 2 on the stdout pipe, with an empty stderr: Codex runs it",
)
@pytest.mark.parametrize("shell", ["dash", "bash"])
def test_codex_2_to_1_with_a_pipe_made_between_its_pipes_still_denies(
    targets: tuple[dict[str, Target], Path], shell: str
) -> None:
    made, scratch = targets
    verdict = _codex_with_a_pipe_between(made["codex"], shell, scratch)
    assert verdict.decision == DENY, verdict
