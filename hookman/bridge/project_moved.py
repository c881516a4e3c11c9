"""Whether the project moved on since `hookman install` (ARCHITECTURE.md, "The manifest",
`installed_from`): a `git pull` brought another hookman.toml or other pins, and the settings,
the manifest and the store copies on this machine still say what the old ones said.

Install records the sha256 of the bytes of `.claude/hookman.toml` and of
`.claude/hookman-pins.json` it wrote the manifest for (null for a file that was absent); the
runner compares them with the files as they are now, on every run of a project's manifest
(a plugin's has no project files: it is never checked). Two small reads and one sha256 each
(the built-in module: hashlib would load OpenSSL on the runner's path), or, once a
comparison found nothing changed, two stats against what it remembered (`project-checked`
in the state directory).

What the runner does with a change (run_command.py): a guarded event denies naming
`hookman install` (running what hookman.toml says now would need a TOML parser, registry
and store look-ups and maybe a fetch, none of which the runner may do: it never runs code
the project has not installed); an observe-only event runs the hooks as installed and says
so once per change (`say_once`, a marker file in the project's state directory).

Standard library only, import-free beyond it: the runner's start pays for nothing else.
"""

from __future__ import annotations

import os
import sys

from hookman.bridge.protocol import guarded_subject
from hookman.bridge.state_file import open_regular, read_regular, read_text, replace_file

INSTALLED_FROM = "installed_from"  # the manifest key
CONFIG_KEY = "hookman.toml"
PINS_KEY = "hookman-pins.json"
CONFIG_SHOWN = ".claude/hookman.toml"
PINS_SHOWN = ".claude/hookman-pins.json"
UNREADABLE = "unreadable"  # a file there that cannot be read: never equal to a digest
SAID_PREFIX = "said-project-changed-"
CHECKED_NAME = "project-checked"  # in the state dir: the last comparison that found no change


_sha256: list = []  # the constructor, found once


def sha256_hex(data: bytes) -> str:
    """runtime/verified_import.sha256_hex, repeated: importing that module runs the runtime
    package's __init__ (every runtime module), which install, list and doctor must not pay
    for; user_dirs.sha256_hex is out of a plugin's reach (plugin/carry.py)."""
    if not _sha256:
        try:
            if sys.version_info >= (3, 12):
                from _sha2 import sha256  # type: ignore[import-not-found]
            else:
                from _sha256 import sha256  # type: ignore[import-not-found,no-redef]
        except ImportError:
            from hashlib import sha256
        _sha256.append(sha256)
    return _sha256[0](data).hexdigest()


def file_digest(path: str) -> str | None:
    """The sha256 of the file's bytes; None when nothing is there; UNREADABLE when something
    is there that cannot be read as a regular file (a FIFO never stalls the read)."""
    try:
        return sha256_hex(read_regular(path, follow=True))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        return UNREADABLE


def project_files(config_path: str) -> tuple[str, str]:
    """hookman.toml's path and the pins file's beside it."""
    return config_path, os.path.join(os.path.dirname(config_path), PINS_KEY)


def installed_from(config_path: str) -> dict[str, str | None]:
    """What install records now, for the files as they are (fire, doctor, tests)."""
    config, pins = project_files(config_path)
    return {CONFIG_KEY: file_digest(config), PINS_KEY: file_digest(pins)}


class ProjectChange:
    """The files that differ from what install recorded, with their recorded and current
    digests (the key `say_once` remembers)."""

    __slots__ = ("changed", "config_gone", "config_path", "now", "recorded")

    def __init__(
        self,
        recorded: dict[str, str | None],
        now: dict[str, str | None],
        changed: list[str],
        config_path: str | None = None,
    ) -> None:
        self.recorded = recorded
        self.now = now
        self.changed = changed  # CONFIG_KEY and/or PINS_KEY
        self.config_gone = CONFIG_KEY in changed and now.get(CONFIG_KEY) is None
        self.config_path = config_path

    def config_problem(self) -> str | None:
        """Why the changed hookman.toml cannot be read as TOML now ("Unexpected character:
        'e' (at line 11, column 1)"), None when it can (or is not what changed): `hookman
        install` would refuse it, so the fix to name first is the file itself. Parsed only
        here, on a run that denies or tells anyway."""
        if CONFIG_KEY not in self.changed or self.config_gone or not self.config_path:
            return None
        from hookman.toml_data import toml_problem

        try:
            text = read_regular(self.config_path, follow=True).decode("utf-8")
        except OSError:
            return None
        except UnicodeDecodeError:
            return "it is not UTF-8 text"
        return toml_problem(text)  # None on Python 3.10 under -I -S: tomli is in site-packages

    def key(self) -> str:
        parts = [str(self.recorded.get(name)) + ">" + str(self.now.get(name)) for name in KEYS]
        return sha256_hex("|".join(parts).encode("ascii", "replace"))[:24]

    def shown(self) -> str:
        """The changed files as the user knows them."""
        return " and ".join(SHOWN[name] for name in self.changed)


KEYS = (CONFIG_KEY, PINS_KEY)
SHOWN = {CONFIG_KEY: CONFIG_SHOWN, PINS_KEY: PINS_SHOWN}


def project_change(
    recorded: object, config_path: str | None, state_dir: str | None = None
) -> ProjectChange | None:
    """What changed since install, or None: nothing changed, or hookman cannot tell (a
    manifest without `installed_from`, written by an older hookman, or a plugin's).

    With `state_dir` (the runner's, checked private), a comparison that found nothing
    changed is remembered there with the files' stat (device, inode, size, mtime and ctime,
    taken before the read): while both stats and the record stay the same, the next run
    compares the stats alone and hashes nothing (an edit changes the ctime, which no one can
    set back; a checkout makes a new inode)."""
    if not isinstance(recorded, dict) or not config_path:
        return None
    if not all(name in recorded for name in KEYS):
        return None
    config, pins = project_files(config_path)
    checked = _checked_key(recorded, config, pins) if state_dir else None
    if checked is not None and read_text(os.path.join(state_dir, CHECKED_NAME)) == checked:
        return None
    now: dict[str, str | None] = {CONFIG_KEY: file_digest(config)}
    if now[CONFIG_KEY] is None:  # no hookman.toml: the pins do not matter any more
        now[PINS_KEY] = recorded.get(PINS_KEY)
    else:
        now[PINS_KEY] = file_digest(pins)
    changed = [name for name in KEYS if recorded.get(name) != now[name]]
    if changed:
        return ProjectChange(recorded, now, changed, config)
    if checked is not None:
        replace_file(os.path.join(state_dir, CHECKED_NAME), checked)
    return None


def _checked_key(recorded: dict, config: str, pins: str) -> str:
    """The record and both files' stat, as one line."""
    return "|".join(
        [str(recorded.get(CONFIG_KEY)), str(recorded.get(PINS_KEY))]
        + [stat_text(path) for path in (config, pins)]
    )


def stat_text(path: str) -> str:
    try:
        found = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "-"
    except OSError as error:
        return f"error {error.errno}"
    return (
        f"{found.st_dev} {found.st_ino} {found.st_mode} {found.st_size} "
        f"{found.st_mtime_ns} {found.st_ctime_ns}"
    )


def foreign_project(project_dir: str, client_dir: str | None) -> bool:
    """Whether the client runs this manifest for another project than the one it was
    installed for: its CLAUDE_PROJECT_DIR is neither the manifest's project directory nor
    inside it (the project was copied with its settings.local.json, whose commands name
    the original's launcher and manifest, or moved). Compared by device and inode, so a
    symlinked or differently spelled path to the same directory is the same project. False
    when the client names no project (Codex, `hookman run` by hand)."""
    if not client_dir or not project_dir:
        return False
    try:
        ours = os.stat(project_dir)
    except OSError:
        return True  # the project it was installed for is gone (moved)
    path = os.path.abspath(client_dir)
    while True:
        try:
            if os.path.samestat(os.stat(path), ours):
                return False
        except OSError:
            pass
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


def foreign_deny_reason(event: str, project_dir: str, client_dir: str) -> str:
    """What the model and the user read when a guarded event of a copied (or moved)
    project is denied."""
    return (
        f"hookman blocked this {guarded_subject(event)} because the hookman entries in "
        f"{client_dir}/.claude/settings.local.json were installed for {project_dir} (the "
        f"project was copied or moved with that file), so the guards that would run are not "
        f"this project's. Run `hookman install` in {client_dir}, then try again."
    )


def changed_deny_reason(event: str, change: ProjectChange, project_dir: str) -> str:
    """What the model and the user read when a guarded event is denied for a change."""
    subject = guarded_subject(event)
    if change.config_gone:
        return (
            f"hookman blocked this {subject} because {CONFIG_SHOWN} is gone since `hookman "
            f"install` last ran in {project_dir} (a checkout of a branch without hookman?), so "
            f"the guards installed here no longer match what the project says. Run `hookman "
            f"install` there once {CONFIG_SHOWN} is back, or `hookman uninstall` there if the "
            f"project no longer uses hookman."
        )
    problem = change.config_problem()
    if problem is not None:
        return (
            f"hookman blocked this {subject} because {CONFIG_SHOWN} changed since `hookman "
            f"install` last ran in {project_dir} and is not valid TOML now ({problem}), so the "
            f"guards installed here may not be the ones the project asks for. Fix "
            f"{CONFIG_SHOWN}, then run `hookman install` in {project_dir}."
        )
    return (
        f"hookman blocked this {subject} because {change.shown()} changed since `hookman "
        f"install` last ran in {project_dir} (after a git pull, for example), so the guards "
        f"installed here may not be the ones the project asks for now. Run `hookman install` "
        f"in {project_dir}, then try again."
    )


def guarded_reach(entries: dict, is_guarded, sentinels: dict | None = None) -> str:
    """The guarded calls the installed entries reach, as the user reads them ("PreToolUse on
    Bash, PreSkillShellCommand on every tool"), or "none" when no guarded entry is
    installed: only those reach hookman at all (Claude Code calls hookman for an entry
    whose matcher matches, and for nothing else). An event with a sentinel (the manifest's
    `sentinels`, project/sentinel.py) reaches hookman on every tool once the project changed:
    the sentinel calls the runner for the tools its blocking entry does not match."""
    sentinels = sentinels or {}
    parts = []
    for event in dict.fromkeys([*entries, *sentinels]):
        if not is_guarded(event):
            continue
        entry = entries.get(event)
        matcher = entry.get("matcher") if isinstance(entry, dict) else None
        reaches_all = event in sentinels or not matcher
        parts.append(f"{event} on every tool" if reaches_all else f"{event} on {matcher}")
    return ", ".join(parts) if parts else "none"


def changed_notice(
    change: ProjectChange, project_dir: str, reach: str | None = None, *, sentinels: bool = False
) -> str:
    """What the user reads, once per change, on an observe-only event. `reach`: the guarded
    calls the installed entries reach (guarded_reach): only those are denied; a guard the
    project added on another event or tool is not wired, and those calls run without hookman,
    unless the install wrote `sentinels` (project/sentinel.py): they reach every tool then."""
    denied = (
        "the guarded calls its installed entries reach are denied"
        if reach is None
        else "no guarded call reaches hookman here (no guarded entry is installed)"
        if reach == "none"
        else f"the guarded calls its installed entries reach ({reach}) are denied"
    )
    unguarded = (
        ""
        if sentinels
        else "; a guard the project added for other events or tools is not wired, and Claude "
        "Code runs those calls without hookman"
    )
    if change.config_gone:
        return (
            f"hookman: {CONFIG_SHOWN} is gone since `hookman install` last ran in "
            f"{project_dir}; the hooks installed then still run here and {denied}. Run "
            f"`hookman install` there once it is back, or `hookman uninstall`."
        )
    problem = change.config_problem()
    fix = (
        f"you fix {CONFIG_SHOWN} (it is not valid TOML now: {problem}) and run `hookman "
        "install` there"
        if problem is not None
        else "you run `hookman install` there"
    )
    return (
        f"hookman: {change.shown()} changed since `hookman install` last ran in {project_dir}; "
        f"the hooks installed then still run here, and {denied}{unguarded}, until {fix}."
    )


def say_once(state_dir: str, change: ProjectChange) -> bool:
    """Whether this change is still to be said: True exactly once per change (a marker made
    exclusively in the project's private state directory); False when said before, or when
    no marker can be made (then it is not said, rather than said on every event)."""
    if not state_dir:
        return False
    path = os.path.join(state_dir, SAID_PREFIX + change.key())
    try:
        os.close(open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
    except OSError:
        return False
    return True
