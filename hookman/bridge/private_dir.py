"""Directories no other user can write: where the runner keeps bytecode, session state, the
firing log and answer files (ARCHITECTURE.md, "Where state lives").

Another user on the machine who can write a directory hookman uses, or a directory above it,
can plant bytecode the runner then loads (a guard that answers `{}`), or a symlink the log
then appends to. So before the runner uses a directory it checks the whole chain, with lstat
after the symlinks are resolved once (everything after uses the resolved path):

- the directory itself is a directory, owned by the user, with no write bit for the group or
  others (hookman makes its own with mode 0700);
- every directory above it is owned by the user or by root, and writable by no one else,
  unless it is sticky (/tmp: others cannot rename or remove what is not theirs) or its group
  is the user's own private group (the user-private-group convention of umask 002).

A failed check names the directory and what is wrong, so a deny can say the cause and the fix.
Where there are no user ids (Windows) nothing is checked.
"""

from __future__ import annotations

import errno
import os
import stat

HOOKMAN_HOME_VARIABLE = "HOOKMAN_HOME"


def plugin_state_base() -> str:
    """hookman's per-user state directory as the plugin computes it (the plugin carries no
    platformdirs, so on every POSIX platform): HOOKMAN_HOME/state, else $XDG_STATE_HOME/hookman
    when absolute, else ~/.local/state/hookman. The plugin launcher computes the same in shell
    (hookman/plugin/launcher-values.sh)."""
    home = os.environ.get(HOOKMAN_HOME_VARIABLE)
    if home:
        return os.path.join(os.path.realpath(os.path.expanduser(home)), "state")
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.expanduser("~/.local/state")
    return os.path.join(base, "hookman")


def make_private_dir(path: str) -> tuple[str, str | None]:
    """Make `path` where it is missing (each new directory mode 0700, and only below a
    directory that passed the check), then check it and every directory above it. Returns
    (the resolved path, None) or (path, the problem)."""
    if not hasattr(os, "getuid"):
        return path, None
    if not os.path.isabs(path):
        return path, f"the directory {path!r} is not an absolute path"
    checked, problem = _plain_chain_problem(path)
    if checked:
        return path, problem
    missing = _missing(path)
    if missing:
        existing = os.path.dirname(missing[-1])
        if not os.path.isdir(existing):
            return path, f"the directory {path} cannot be made ({existing} is not a directory)"
        problem = shared_dir_problem(existing)
        if problem:
            return path, problem
    try:
        for directory in reversed(missing):
            _make(directory)
        resolved = os.path.realpath(path)
    except (OSError, ValueError) as error:
        return path, f"the directory {path} cannot be made ({_why(error)})"
    problem = _chain_problem(path, resolved, own_last=True)
    return (path, problem) if problem else (resolved, None)


def private_dir_problem(path: str) -> str | None:
    """The check of make_private_dir without making anything: None when `path` is a private
    directory, else the problem (a missing directory is one)."""
    if not hasattr(os, "getuid"):
        return None
    try:
        resolved = os.path.realpath(path)
    except (OSError, ValueError) as error:
        return f"the directory {path} cannot be resolved ({_why(error)})"
    return _chain_problem(path, resolved, own_last=True)


def shared_dir_problem(path: str) -> str | None:
    """None when no other user can rename, remove or replace what the user makes in the
    directory `path` (it may be sticky and root's, like /tmp); else the problem."""
    try:
        resolved = os.path.realpath(path)
    except (OSError, ValueError) as error:
        return f"the directory {path} cannot be resolved ({_why(error)})"
    return _chain_problem(path, resolved, own_last=False)


def _missing(path: str) -> list[str]:
    """`path` and the directories above it that do not exist, deepest first."""
    missing = []
    current = os.path.normpath(path)
    while not os.path.lexists(current):
        missing.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return missing


def _make(directory: str) -> None:
    """mkdir, mode 0700 whatever the umask (one another user made first is found by the
    check that follows)."""
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        return
    os.chmod(directory, 0o700)


def _chain_problem(path: str, resolved: str, *, own_last: bool) -> str | None:
    """The problem of the resolved chain (lstat: no symlink may appear in it now), or of a
    directory the given path is looked up through (stat: a symlink met on the way must lie
    in a directory no other user can write, or they could have planted it)."""
    if not hasattr(os, "getuid"):
        return None
    uid = os.getuid()
    for index, directory in enumerate(_chain(resolved)):
        try:
            info = os.lstat(directory)
        except OSError as error:
            return f"the directory {directory} cannot be examined ({_why(error)})"
        if index == 0 and own_last:
            problem = _own_problem(directory, info, uid)
        else:
            problem = _above_problem(directory, info, uid)
        if problem:
            return problem
    seen = _chain(resolved)
    for directory in _chain(os.path.normpath(path)):
        if directory in seen:
            continue
        problem = _lookup_problem(directory, uid)
        if problem:
            return problem
    return None


def _plain_chain_problem(path: str) -> tuple[bool, str | None]:
    """The check of an existing `path` that is already its own real path (normal, absolute,
    no `..`, no symlink on the way): (True, its problem or None) from one lstat of each
    directory, as _chain_problem would find it after realpath; (False, None) for any other
    path, which takes the whole way (the warm server's workers check these dirs per event)."""
    if path != os.path.normpath(path) or path.startswith("//"):
        return False, None
    chain = _chain(path)
    infos = []
    for directory in chain:
        try:
            info = os.lstat(directory)
        except OSError:
            return False, None
        if stat.S_ISLNK(info.st_mode):
            return False, None
        infos.append(info)
    uid = os.getuid()
    for index, (directory, info) in enumerate(zip(chain, infos, strict=True)):
        check = _own_problem if index == 0 else _above_problem
        problem = check(directory, info, uid)
        if problem:
            return True, problem
    return True, None


def _lookup_problem(directory: str, uid: int) -> str | None:
    """A directory of the path as given: a symlink must be the user's or root's (another
    user's could be pointed elsewhere at any time), and what it names is checked as above."""
    try:
        link = os.lstat(directory)
        info = os.stat(directory) if stat.S_ISLNK(link.st_mode) else link
    except OSError as error:
        return f"the directory {directory} cannot be examined ({_why(error)})"
    if link.st_uid not in (uid, 0):
        return f"{directory} belongs to another user (uid {link.st_uid})"
    return _above_problem(directory, info, uid)


def _chain(path: str) -> list[str]:
    """`path` and every directory above it, deepest first."""
    chain = [path]
    parent = os.path.dirname(path)
    while parent != chain[-1]:
        chain.append(parent)
        parent = os.path.dirname(parent)
    return chain


def _own_problem(directory: str, info: os.stat_result, uid: int) -> str | None:
    if not stat.S_ISDIR(info.st_mode):
        return f"{directory} is not a directory"
    if info.st_uid != uid:
        return f"the directory {directory} belongs to another user (uid {info.st_uid})"
    if info.st_mode & 0o002:  # even sticky: they could make the files hookman reads
        return (
            f"the directory {directory} can be written by other users "
            f"(mode {stat.S_IMODE(info.st_mode):o})"
        )
    return _writable_problem(directory, info.st_mode & ~stat.S_ISVTX, info.st_gid)


def _above_problem(directory: str, info: os.stat_result, uid: int) -> str | None:
    if not stat.S_ISDIR(info.st_mode):  # a symlink swapped in after realpath, or a file
        return f"{directory} is not a directory"
    if info.st_uid not in (uid, 0):
        return f"the directory {directory} belongs to another user (uid {info.st_uid})"
    return _writable_problem(directory, info.st_mode, info.st_gid)


def _writable_problem(directory: str, mode: int, gid: int) -> str | None:
    """Whether another user can write the directory (sticky: cannot touch what is not theirs)."""
    if mode & stat.S_ISVTX:
        return None
    if mode & 0o002 or (mode & 0o020 and not _private_group(gid)):
        return (
            f"the directory {directory} can be written by other users (mode {stat.S_IMODE(mode):o})"
        )
    if mode & 0o020 and _has_access_acl(directory):  # the group bits are an ACL's mask
        return (
            f"the directory {directory} has an access control list (ACL) that may let other "
            f"users write it"
        )
    return None


def _has_access_acl(directory: str) -> bool:
    """Whether `directory` carries a POSIX access ACL (Linux: its extended attribute): its
    group write bit is then the ACL's mask, which named users and groups share. Where ACLs
    cannot be read, a group write bit is not trusted."""
    try:
        return "system.posix_acl_access" in os.listxattr(directory)
    except AttributeError:  # no listxattr (macOS): ACLs there are not modes; trust no group
        return True
    except OSError as error:
        return error.errno not in (errno.ENOTSUP, errno.EOPNOTSUPP)


def _private_group(gid: int) -> bool:
    """Whether `gid` is the user's private group: the user's primary group, named as the
    user, with no other members listed and no other user's primary group."""
    if gid != os.getgid():
        return False
    try:
        import grp
        import pwd

        group = grp.getgrgid(gid)
        me = pwd.getpwuid(os.getuid())
        if group.gr_name != me.pw_name or [m for m in group.gr_mem if m != group.gr_name]:
            return False
        # another user whose primary group it is (passwd, not gr_mem) could write too
        return not [
            user for user in pwd.getpwall() if user.pw_gid == gid and user.pw_uid != me.pw_uid
        ]
    except (ImportError, KeyError, OSError):
        return False


def _why(error: BaseException) -> str:
    return getattr(error, "strerror", None) or str(error)
