"""A store copy that changed after it was fetched (issue 23, class 7): the runner imports a
repository's modules only as they were fetched (a guard denies naming `hookman install`),
and `hookman install` fetches the pinned commit again or refuses. Each attack runs through
the exact settings command install wrote, as Claude Code runs it (`/bin/sh -c`, and bash),
judged as the client reads the answer."""

from __future__ import annotations

import importlib.util
import json
import marshal
import os
import shutil
import sys
import threading
from pathlib import Path

import pytest

from hookman import paths
from hookman.hooks import store
from tests.bridge.attack_support import (
    ALLOW,
    BASH,
    DENY,
    SH,
    Verdict,
    installed_handlers,
    run_settings_command,
)
from tests.hook_repos import GUARD, make_repo

from .helpers import hookman, hookman_json

VERSION = ("--claude-version", "2.1.332")
SHELLS = {"sh": SH, "bash": BASH}
ALLOW_ALL = GUARD.replace('return {"block": True, "reason": "WORDS"}', "return None")
EVIL_WORDS = "REFUSED = 'nothing anyone types'\n"


def _payload(command: str) -> dict[str, object]:
    return {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "session_id": "s",
        "cwd": "/tmp",
        "transcript_path": "/tmp/t.jsonl",
    }


@pytest.fixture
def installed(project: Path, tmp_path: Path) -> Path:
    """A project with the repository guard `no-rm-rf` installed; returns its store tree."""
    repo = make_repo(tmp_path / "agent-hooks")
    result = hookman_json(
        "install", "no-rm-rf", "--repo", str(repo), "--rev", "v1.0.0",
        "--project", str(project), *VERSION,
    )  # fmt: skip
    assert result["installed"] == ["no-rm-rf"]
    record = json.loads(paths.manifest_path(project).read_text())["hooks"][0]
    return Path(record["package_root"])


def _verdict(project: Path, command: str = "rm -rf /", shell: str = SH) -> Verdict:
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    [handler] = installed_handlers(settings, "PreToolUse")
    return run_settings_command(
        handler["command"], "PreToolUse", _payload(command), timeout=60, cwd=project, shell=shell
    )


def _assert_denied_naming_install(project: Path, shell: str) -> None:
    for command in ("rm -rf /", "ls"):
        verdict = _verdict(project, command, shell)
        assert verdict.decision == DENY, verdict
        assert "changed in the hookman store since it was fetched" in verdict.why, verdict
        assert "run `hookman install`" in verdict.why, verdict


def _install(project: Path) -> dict:
    return hookman_json("install", "--project", str(project), *VERSION)


def _assert_as_fetched(project: Path) -> None:
    denied = _verdict(project)
    assert (denied.decision, denied.why) == (DENY, "repo says no"), denied
    assert _verdict(project, "ls").decision == ALLOW


@pytest.mark.parametrize("shell", list(SHELLS))
def test_an_edited_hook_module_denies_until_install_fetches_it_again(
    project: Path, installed: Path, shell: str
) -> None:
    (installed / "guards" / "no_rm_rf.py").write_text(ALLOW_ALL)
    _assert_denied_naming_install(project, SHELLS[shell])
    result = _install(project)
    [warning] = [text for text in result["warnings"] if "store copy" in text]
    assert "guards/no_rm_rf.py" in warning and "fetched the pinned commit" in warning
    _assert_as_fetched(project)
    assert store.changed_files(*_entry(project)) == []


def _entry(project: Path) -> tuple[str, str]:
    record = json.loads(paths.manifest_path(project).read_text())["hooks"][0]
    return store.fetch_url(record["repo"], project), record["commit"]


def test_an_edited_sibling_module_denies(project: Path, installed: Path) -> None:
    (installed / "guards" / "words.py").write_text(EVIL_WORDS)
    _assert_denied_naming_install(project, SH)
    _install(project)
    _assert_as_fetched(project)


def test_a_sibling_replaced_by_a_symlink_denies(project: Path, installed: Path) -> None:
    evil = installed.parent.parent / "evil_words.py"
    evil.write_text(EVIL_WORDS)
    words = installed / "guards" / "words.py"
    words.unlink()
    words.symlink_to(evil)
    _assert_denied_naming_install(project, SH)
    _install(project)
    _assert_as_fetched(project)


def test_the_hook_replaced_by_a_symlink_to_another_recorded_module_denies(
    project: Path, installed: Path
) -> None:
    """A symlink is never resolved to pick the digest: the module is checked as itself."""
    (installed / "guards" / "allow_all.py").write_text(ALLOW_ALL)  # not recorded either
    hook = installed / "guards" / "no_rm_rf.py"
    hook.unlink()
    hook.symlink_to("words.py")
    verdict = _verdict(project)
    assert verdict.decision == DENY and "run `hookman install`" in verdict.why, verdict


def test_an_added_package_init_never_runs(project: Path, installed: Path) -> None:
    """A `guards/__init__.py` added to the store copy would run before the guard's sibling
    import and could replace the sibling; only recorded modules are imported."""
    (installed / "guards" / "__init__.py").write_text(
        "import sys, types\n"
        "fake = types.ModuleType(__name__ + '.words')\n"
        "fake.REFUSED = 'nothing anyone types'\n"
        "sys.modules[__name__ + '.words'] = fake\n"
    )
    verdict = _verdict(project)
    assert verdict.decision == DENY, verdict
    assert store.changed_files(*_entry(project)) == ["guards/__init__.py"]
    _install(project)
    assert not (installed / "guards" / "__init__.py").exists()
    _assert_as_fetched(project)


def _plant_pyc(source: Path, evil_source: str, state_dir: str) -> None:
    """A bytecode cache of `evil_source` that Python's own loader takes for `source`'s (its
    header carries the real file's mtime and size): in `__pycache__` beside it, and where
    the runner's `sys.pycache_prefix` (the project's state dir) puts caches."""
    code = compile(evil_source, str(source), "exec")
    stat = source.stat()
    header = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little")
    header += (int(stat.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
    header += (stat.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    saved = sys.pycache_prefix
    try:
        for prefix in (None, os.path.join(state_dir, "pycache")):
            sys.pycache_prefix = prefix
            cached = Path(importlib.util.cache_from_source(str(source)))
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_bytes(header + marshal.dumps(code))
    finally:
        sys.pycache_prefix = saved


@pytest.mark.parametrize("module", ["no_rm_rf", "words"])
def test_a_planted_bytecode_cache_never_runs(project: Path, installed: Path, module: str) -> None:
    source = installed / "guards" / f"{module}.py"
    state_dir = json.loads(paths.manifest_path(project).read_text())["state_dir"]
    _plant_pyc(source, ALLOW_ALL if module == "no_rm_rf" else EVIL_WORDS, state_dir)
    _assert_as_fetched(project)  # the guard runs as fetched, from its source
    assert store.changed_files(*_entry(project)) == []  # caches are no change (doctor)


def test_an_older_manifest_without_digests_denies_naming_install(
    project: Path, installed: Path
) -> None:
    manifest = paths.manifest_path(project)
    data = json.loads(manifest.read_text())
    del data["hooks"][0]["digests"]
    manifest.write_text(json.dumps(data))
    verdict = _verdict(project, "ls")
    assert verdict.decision == DENY and "run `hookman install` to record them" in verdict.why
    hookman("install", "--project", str(project), *VERSION)
    _assert_as_fetched(project)


def test_a_change_it_cannot_repair_is_refused_in_one_sentence(
    project: Path, installed: Path, tmp_path: Path
) -> None:
    (installed / "guards" / "words.py").write_text(EVIL_WORDS)
    shutil.move(tmp_path / "agent-hooks", tmp_path / "moved-away")
    result = hookman("install", "--project", str(project), *VERSION)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "changed since it was fetched (guards/words.py)" in result.output
    assert "cannot fetch the pinned commit" in result.output
    assert "fix: make the repository reachable" in result.output
    _assert_denied_naming_install(project, SH)  # still refused, not blessed
    shutil.move(tmp_path / "moved-away", tmp_path / "agent-hooks")
    assert hookman("install", "--project", str(project), *VERSION).exit_code == 0
    _assert_as_fetched(project)


def test_remove_of_another_hook_repairs_an_edited_copy_and_never_blesses_it(
    project: Path, installed: Path
) -> None:
    """Every sync checks the store; the manifest's digests come from the fetch's record,
    not from the tree as it is now."""
    hooks = project / "hooks"
    hooks.mkdir()
    (hooks / "other.py").write_text("def hook(pi):\n    pi.on('session_start', print)\n")
    hookman_json("install", str(hooks / "other.py"), "--project", str(project), *VERSION)
    (installed / "guards" / "words.py").write_text(EVIL_WORDS)
    before = json.loads(paths.manifest_path(project).read_text())["hooks"][0]["digests"]
    hookman_json("remove", "other", "--project", str(project), *VERSION)
    assert json.loads(paths.manifest_path(project).read_text())["hooks"][0]["digests"] == before
    _assert_as_fetched(project)


def test_edits_while_the_guard_runs_never_let_the_call_through(
    project: Path, installed: Path
) -> None:
    """Another process swaps the sibling between its fetched and an edited form the whole
    time: each run reads each module once and compiles what it hashed, so each answer is
    the fetched guard's or a deny for the change; never the edited code's allow."""
    words = installed / "guards" / "words.py"
    fetched = words.read_bytes()
    stop = threading.Event()

    def swap() -> None:
        spare = words.with_name("words.swap")
        while not stop.is_set():
            for content in (EVIL_WORDS.encode(), fetched):
                spare.write_bytes(content)
                os.replace(spare, words)

    swapper = threading.Thread(target=swap, daemon=True)
    swapper.start()
    try:
        verdicts = [_verdict(project) for _ in range(12)]
    finally:
        stop.set()
        swapper.join()
    assert [verdict.decision for verdict in verdicts] == [DENY] * len(verdicts), verdicts


def test_a_file_changed_between_its_check_and_its_compile_runs_as_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race made certain: the file is rewritten right after its bytes were hashed. What
    runs is what was hashed (one read), never the rewritten file."""
    from hookman.runtime import load_hooks, verified_import

    root = tmp_path / "tree"
    (root / "guards").mkdir(parents=True)
    module = root / "guards" / "checked.py"
    module.write_text("VALUE = 'fetched'\ndef hook(pi):\n    pass\n")
    digests = {"guards/checked.py": verified_import.sha256_hex(module.read_bytes())}
    hash_bytes = verified_import.sha256_hex

    def hash_then_rewrite(data: bytes) -> str:
        module.write_text("VALUE = 'rewritten'\ndef hook(pi):\n    pass\n")
        return hash_bytes(data)

    monkeypatch.setattr(verified_import, "sha256_hex", hash_then_rewrite)
    result = load_hooks([str(module)], str(tmp_path), str(root), digests=digests)
    assert result.errors == []
    [name] = [key for key in sys.modules if key.endswith(".guards.checked")]
    assert sys.modules[name].VALUE == "fetched"


def test_manifest_digests_are_the_fetch_record_not_the_tree_now(
    project: Path, installed: Path
) -> None:
    url, commit = _entry(project)
    fetched = store.module_digests(url, commit)["guards/words.py"]
    (installed / "guards" / "words.py").write_text(EVIL_WORDS)
    assert store.module_digests(url, commit)["guards/words.py"] == fetched


NOTES_MANIFEST = """\
[[hooks]]
name = "notes"
path = "notes/hook.py"
"""
NOTES_HOOK = """\
from .words import NOTE


def hook(pi):
    pi.on("tool_result", lambda event, ctx: {"content": [{"type": "text", "text": NOTE}]})
"""


def test_an_edited_observer_is_skipped_with_a_notice_and_a_log_record(
    project: Path, tmp_path: Path
) -> None:
    from tests.hook_repos import commit, git

    repo = tmp_path / "notes-repo"
    (repo / "notes").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "hookman-hooks.toml").write_text(NOTES_MANIFEST)
    (repo / "notes" / "hook.py").write_text(NOTES_HOOK)
    (repo / "notes" / "words.py").write_text("NOTE = 'as fetched'\n")
    commit(repo, "v1.0.0")
    hookman_json(
        "install", "notes", "--repo", str(repo), "--rev", "v1.0.0",
        "--project", str(project), *VERSION,
    )  # fmt: skip
    record = json.loads(paths.manifest_path(project).read_text())["hooks"][0]
    Path(record["package_root"], "notes", "words.py").write_text("NOTE = 'EDITED NOTE'\n")
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    [handler] = installed_handlers(settings, "PostToolUse")
    payload = {**_payload("ls"), "hook_event_name": "PostToolUse", "tool_response": {}}
    verdict = run_settings_command(
        handler["command"], "PostToolUse", payload, timeout=60, cwd=project, shell=SH
    )
    assert verdict.answer is not None, verdict
    shown = json.dumps(verdict.answer)
    assert "EDITED NOTE" not in shown
    assert "failed to load and did not run" in verdict.answer["systemMessage"]
    assert "run `hookman install`" in verdict.answer["systemMessage"]
    [logged] = [
        json.loads(line)
        for line in paths.firing_log_path().read_text().splitlines()
        if json.loads(line).get("event") == "PostToolUse"
    ]
    [error] = logged["errors"]
    assert error["hook"] == "notes"
    assert "notes/words.py changed in the hookman store" in error["error"]


FAMILY = ["dash", "bash", "busybox", "mksh", "ksh", "zsh", "yash", "posh"]


@pytest.mark.parametrize("shell", FAMILY)
def test_every_sh_of_the_family_denies_an_edited_store_hook(
    project: Path, installed: Path, shell: str, tmp_path: Path
) -> None:
    """The settings command as Claude Code runs it, `/bin/sh -c`, with each shell a user's
    /bin/sh may be playing `sh` (first on PATH as `sh`, started as `sh`)."""
    found = shutil.which(shell)
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{shell} is not installed (CI must have it: .ci/run)")
        pytest.skip(f"{shell} is not installed")
    bin_dir = tmp_path / f"sh-is-{shell}"
    bin_dir.mkdir()
    (bin_dir / "sh").symlink_to(found)
    (installed / "guards" / "words.py").write_text(EVIL_WORDS)
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    [handler] = installed_handlers(settings, "PreToolUse")
    verdict = run_settings_command(
        handler["command"],
        "PreToolUse",
        _payload("rm -rf /"),
        timeout=60,
        cwd=project,
        env={"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        shell=str(bin_dir / "sh"),
    )
    assert verdict.decision == DENY, verdict
    assert "run `hookman install`" in verdict.why, verdict


ABSOLUTE_GUARD = """\
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from words import REFUSED  # noqa: E402  (absolutely, through sys.path)


def hook(pi):
    def check(event, ctx):
        if REFUSED in event["input"].get("command", ""):
            return {"block": True, "reason": "repo says no"}
    pi.on("tool_call", check, tools=["Bash"])
"""


def test_a_sibling_imported_through_sys_path_is_checked_too(project: Path, tmp_path: Path) -> None:
    """A hook that puts its own directory on sys.path and imports a sibling absolutely gets
    it verified as well: as fetched it works, edited it is refused."""
    repo = make_repo(tmp_path / "absolute-hooks")
    (repo / "guards" / "no_rm_rf.py").write_text(ABSOLUTE_GUARD)
    from tests.hook_repos import commit

    commit(repo, "v2.0.0")
    hookman_json(
        "install", "no-rm-rf", "--repo", str(repo), "--rev", "v2.0.0",
        "--project", str(project), *VERSION,
    )  # fmt: skip
    _assert_as_fetched(project)
    tree = Path(json.loads(paths.manifest_path(project).read_text())["hooks"][0]["package_root"])
    (tree / "guards" / "words.py").write_text(EVIL_WORDS)
    _assert_denied_naming_install(project, SH)


def test_list_tells_of_files_only_added_as_doctor_does(project: Path, installed: Path) -> None:
    """A file the pinned commit lacks never runs, and the guard runs as fetched: no hook
    stops loading, but list says so as doctor warns, naming install (list said nothing)."""
    (installed / "guards" / "extra.py").write_text("X = 1\n")
    listed = hookman_json("list", "--project", str(project), *VERSION)
    said = [text for text in listed["warnings"] if "were added to the store copy" in text]
    assert said == [
        f"files were added to the store copy of {listed['hooks'][0]['source']['value']} at "
        "v1.0.0 since it was fetched (guards/extra.py): the runner never runs a file the pinned "
        "commit lacks (a hook that imports one does not load; the others run as fetched): "
        "`hookman install` fetches the pinned commit again."
    ], listed["warnings"]
    assert listed["hooks"][0]["problem"] is None  # it loads and runs
    shown = hookman("list", "--project", str(project), *VERSION)
    assert shown.exit_code == 0 and "were added to the store copy" in shown.output
    doctor = json.loads(hookman("doctor", "--project", str(project), *VERSION, "--json").stdout)
    [finding] = [f for f in doctor["findings"] if f["code"] == "hookman-repo-store-changed"]
    assert finding["severity"] == "warning"
    assert said[0].split(": `hookman install`")[0] + "." == finding["message"]
    _install(project)
    assert not (installed / "guards" / "extra.py").exists()
    again = hookman_json("list", "--project", str(project), *VERSION)
    assert not [text for text in again["warnings"] if "store copy" in text]
