"""Hand-made mutation testing beyond the guard path (tools/guard_mutants.py has that): the
settings writer and its entries, hookman.toml, the hook store and repository manifests,
Codex trust, the plugin builder and doctor's matcher findings.

Each mutant is one line a hostile reviewer would change (a filter dropped, a check turned
off, an order swapped); the script applies it, runs the tests that should notice, puts the
file back, and prints "killed" or "SURVIVED" (tools/mutation.py). A mutant marked
`equivalent` behaves exactly as the code does; it is not run, and says why. The last run's
results are in tools/MUTANTS.md.

    python tools/mutants.py                   every module (7 minutes on two cores, more when many survive)
    python tools/mutants.py 3 store           the modules with these indexes or names
    python tools/mutants.py store.4           one mutant
    python tools/mutants.py --list            the modules and their mutants, nothing run
    python tools/mutants.py --check           whether each mutant's line is still there

Run from a clean checkout, one run at a time, and let it finish: it edits hookman's files
in place. The mutants are exact source lines: one that no longer matches (the code moved)
is reported NOT APPLICABLE, to be written again.
"""

# ruff: noqa: E501 -- the mutants are exact source lines, kept whole

from __future__ import annotations

import sys
from typing import NamedTuple

from mutation import Mutant, applicable, run_mutant  # tools/ is sys.path[0] when this script runs


class Module(NamedTuple):
    name: str
    path: str
    tests: tuple[str, ...]  # the default tests of its mutants, quickest killers first
    mutants: tuple[Mutant, ...]


def _mutants(path: str, *items: tuple[str, ...] | Mutant) -> tuple[Mutant, ...]:
    made = []
    for item in items:
        if isinstance(item, Mutant):
            made.append(item if item.path else item._replace(path=path))
        else:
            name, old, new, *tests = item
            made.append(Mutant(name, path, old, new, tuple(tests)))
    return tuple(made)


SETTINGS_FILE = "hookman/project/settings_file.py"
SETTINGS_ENTRIES = "hookman/project/settings_entries.py"
CONFIG = "hookman/project/config.py"
STORE = "hookman/hooks/store.py"
REPOSITORY = "hookman/hooks/repository.py"
CODEX_SYNC = "hookman/agents/codex_sync.py"
PLUGIN_BUILD = "hookman/plugin/build.py"
FINDINGS_MATCHERS = "hookman/doctor/findings_matchers.py"
TOML_DATA = "hookman/toml_data.py"  # hookman.toml's and the manifests' kept parses (since 0377b2c)

MODULES = (
    Module(
        "settings_file",
        SETTINGS_FILE,
        (
            "tests/project/test_settings_noticed.py",
            "tests/project/test_settings_file.py",
        ),
        _mutants(
            SETTINGS_FILE,
            (
                "a non-ASCII file keeps new strings raw",
                "    return json.dumps(value, ensure_ascii=style.ensure_ascii)\n",
                "    return json.dumps(value, ensure_ascii=True)\n",
            ),
            (
                "a file with raw non-ASCII is not read as escaped",
                "    ensure_ascii = stripped.isascii() and bool(_NON_ASCII_ESCAPE.search(stripped))\n",
                "    ensure_ascii = bool(_NON_ASCII_ESCAPE.search(stripped))\n",
            ),
            (
                "a key twice in one object is refused",
                "    if parsed.duplicate_keys:\n",
                "    if False:\n",
            ),
            (
                "an edit that changes nothing writes nothing",
                "    if edited_json == unchanged_json:\n        return SettingsChange(path, parsed.text, parsed.text)\n",
                "    if False:\n        return SettingsChange(path, parsed.text, parsed.text)\n",
            ),
            (
                "CRLF line endings kept",
                '    line_ending = "\\r\\n" if "\\r\\n" in body else "\\n"\n',
                '    line_ending = "\\n"\n',
            ),
            (
                "a UTF-8 BOM kept",
                '    return (BOM if style.bom else "") + text\n',
                "    return text\n",
            ),
            (
                "no final newline kept",
                '    final_newline = body.endswith("\\n")\n',
                "    final_newline = True\n",
            ),
            (
                "a link to another project's local settings is refused",
                "    if target.name == name and (in_this_project or target.parent.name != directory):\n",
                "    if target.name == name:\n",
            ),
            (
                "a path that is not a regular file is refused",
                "    if not stat.S_ISREG(info.st_mode):\n",
                "    if False:\n",
            ),
            (
                "NaN and Infinity refused",
                "            parse_constant=reject_constant,\n",
                "",
            ),
            (
                "a compact file's key separator kept",
                '        key_separator = ": " if _COMPACT_KEY_SEPARATOR.search(structure) else ":"\n',
                '        key_separator = ":"\n',
            ),
        ),
    ),
    Module(
        "settings_entries",
        SETTINGS_ENTRIES,
        (
            "tests/project/test_settings_noticed.py",
            "tests/project/test_settings_entries.py",
            "tests/commands/test_remove.py",
        ),
        _mutants(
            SETTINGS_ENTRIES,
            (
                "a foreign handler in a group hookman updates is kept",
                "        if not _is_hookman_handler(handler):\n            kept.append(handler)\n            continue\n",
                "        if not _is_hookman_handler(handler):\n            continue\n",
            ),
            (
                "a shared group's matcher is not changed for hookman",
                '        elif group.get("matcher") == entry.matcher:\n',
                "        elif True:\n",
            ),
            (
                "hookman's own group is updated where it stands",
                "        if owned and len(handlers) == 1:\n",
                "        if False:\n",
            ),
            (
                "a second copy of a hookman handler is dropped",
                "        if entry is None or key in placed:\n",
                "        if entry is None:\n",
            ),
            (
                "a group emptied of hookman's handlers goes",
                "            if had_handlers and not kept:\n",
                "            if False:\n",
            ),
            (
                "an event emptied of groups goes",
                "        if emptied_groups and not groups:\n",
                "        if False:\n",
            ),
            (
                "a hooks object emptied goes",
                "    if had_events and not hooks:\n",
                "    if False:\n",
            ),
            (
                "blocking and async entries of an event are told apart",
                '        key = (event, hookman_command_is_async(handler["command"]))\n',
                "        key = (event, False)\n",
            ),
            (
                "a group whose hooks is no array is refused",
                '            if "hooks" in group and not isinstance(group["hooks"], list):\n',
                "            if False:\n",
            ),
            (
                "a key install no longer wants is removed from hookman's handler",
                "            handler.pop(key, None)\n",
                "            pass\n",
            ),
            (
                "a hookman handler found carries its group's matcher",
                '                    if "matcher" in group:\n                        described["matcher"] = group["matcher"]\n',
                "",
            ),
        ),
    ),
    Module(
        "config",
        CONFIG,
        (
            "tests/project/test_config_noticed.py",
            "tests/project/test_config.py",
            "tests/project/test_config_repo.py",
            "tests/project/test_config_agents.py",
        ),
        _mutants(
            CONFIG,
            (
                "a backslash `..` path is refused",
                '    if ".." in PurePosixPath(path_text.replace("\\\\", "/")).parts:\n',
                '    if ".." in PurePosixPath(path_text).parts:\n',
            ),
            (
                "a Windows absolute path or drive is refused",
                "    if PureWindowsPath(path_text).is_absolute() or PureWindowsPath(path_text).drive:\n",
                "    if False:\n",
            ),
            (
                "a `~` path is refused",
                '    if path_text.startswith("~") or PurePosixPath(path_text).is_absolute():\n',
                "    if PurePosixPath(path_text).is_absolute():\n",
            ),
            (
                "a boolean timeout is refused",
                "        isinstance(timeout, bool)\n        or not isinstance(timeout, (int, float))\n",
                "        not isinstance(timeout, (int, float))\n",
            ),
            (
                "a timeout above a day is refused",
                "        or not 0 < timeout <= MAX_HOOK_TIMEOUT_S\n",
                "        or not 0 < timeout\n",
            ),
            Mutant(
                "NaN and infinite timeouts are refused",
                "",
                "        or not math.isfinite(timeout)\n",
                "",
                equivalent="the range check after it refuses them too: 0 < nan is false, and "
                "inf is above a day",
            ),
            (
                "a rev starting with '-' is refused",
                '    if not isinstance(rev, str) or not rev.strip() or rev.startswith("-") or "\\x00" in rev:\n',
                '    if not isinstance(rev, str) or not rev.strip() or "\\x00" in rev:\n',
            ),
            (
                "a repo starting with '-' is refused",
                '    if str(raw["repo"]).startswith("-"):\n',
                "    if False:\n",
            ),
            (
                "rev and hook go with repo only",
                "        if extra:\n            raise refuse(",
                "        if False:\n            raise refuse(",
            ),
            (
                "a hook name twice is refused",
                "        if spec.name in seen:\n",
                "        if False:\n",
            ),
            Mutant(
                "a parsed copy of an older hookman.toml is not used (toml_data.py, as list reads it)",
                TOML_DATA,
                '    if not isinstance(kept, dict) or kept.get("text") != text:\n',
                "    if not isinstance(kept, dict):\n",
            ),
        ),
    ),
    Module(
        "store",
        STORE,
        (
            "tests/hooks/test_store_noticed.py",
            "tests/hooks/test_store.py",
            "tests/commands/test_repo_hooks.py",
            "tests/commands/test_try_repo.py",
            "tests/commands/test_autoupdate.py",
        ),
        _mutants(
            STORE,
            (
                "git never asks a terminal for a password",
                '    env["GIT_TERMINAL_PROMPT"] = "0"\n',
                "",
            ),
            (
                "git reads no system configuration",
                '    env["GIT_CONFIG_NOSYSTEM"] = "1"\n',
                "",
            ),
            (
                "the caller's GIT_DIR and the like are not passed to git",
                '        if not key.startswith("GIT_") or key in ("GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS")\n',
                "        if True\n",
            ),
            (
                "git runs no hooks of the user's",
                '            ["git", "-c", "core.hooksPath=/dev/null", "-c", "advice.detachedHead=false", *args],\n',
                '            ["git", "-c", "advice.detachedHead=false", *args],\n',
            ),
            (
                "a tag wins over a branch of the same name",
                '    for prefix, kind in ((TAG_PREFIX, "tag"), (HEAD_PREFIX, "branch")):\n',
                '    for prefix, kind in ((HEAD_PREFIX, "branch"), (TAG_PREFIX, "tag")):\n',
            ),
            (
                "an annotated tag names its commit, not the tag object",
                "            refs[ref[:-3]] = sha  # the peeled commit of an annotated tag wins\n",
                "            pass\n",
            ),
            (
                "a live fetch's work directory is kept",
                "            if pid_text.isdigit() and not process_alive(int(pid_text)):\n",
                "            if pid_text.isdigit():\n",
            ),
            (
                "the stored tree holds no .git",
                '        shutil.rmtree(tree / ".git")\n',
                "        pass\n",
            ),
            (
                "a changed store file is found by its digest",
                "    return sorted(name for name in set(fetched) | set(now) if fetched.get(name) != now.get(name))\n",
                "    return sorted(name for name in set(fetched) | set(now) if name not in fetched or name not in now)\n",
            ),
            (
                "__pycache__ in a stored tree is no change",
                '        subdirs[:] = [name for name in subdirs if name != "__pycache__"]\n',
                "        pass\n",
            ),
            (
                "a local path is made absolute against the project",
                "    return os.path.normpath(project_dir / os.path.expanduser(repo))\n",
                "    return repo\n",
            ),
        ),
    ),
    Module(
        "repository",
        REPOSITORY,
        (
            "tests/hooks/test_store_noticed.py",
            "tests/hooks/test_repository.py",
        ),
        _mutants(
            REPOSITORY,
            (
                "a backslash path is refused",
                '    if "\\x00" in path or "\\\\" in path:\n',
                '    if "\\x00" in path:\n',
            ),
            (
                "a NUL in a path is refused",
                '    if "\\x00" in path or "\\\\" in path:\n',
                '    if "\\\\" in path:\n',
            ),
            (
                "a `~` path is absolute",
                '    if pure.is_absolute() or path.startswith("~"):\n',
                "    if pure.is_absolute():\n",
            ),
            (
                "a directory is no module",
                "    if not os.path.isfile(real):\n",
                "    if False:\n",
            ),
            (
                "an unknown key is refused",
                '    if unknown:\n        raise refuse(f"has the unknown key',
                '    if False:\n        raise refuse(f"has the unknown key',
            ),
            (
                "a hook name twice is refused",
                "        if any(known.name == offer.name for known in offers):\n",
                "        if False:\n",
            ),
            (
                "a manifest that is a symlink is refused",
                "    if path.is_symlink() or not path.is_file():\n",
                "    if not path.is_file():\n",
            ),
            (
                "min_hookman equal to this version is enough",
                "    return version_numbers(offer.min_hookman) > version_numbers(version)\n",
                "    return version_numbers(offer.min_hookman) >= version_numbers(version)\n",
            ),
            Mutant(
                "a parsed copy of another manifest text is not used (toml_data.py, as the store reads it)",
                TOML_DATA,
                '    if not isinstance(kept, dict) or kept.get("text") != text:\n',
                "    if not isinstance(kept, dict):\n",
            ),
            (
                "min_hookman must be a version",
                "        not isinstance(min_hookman, str) or not is_dotted_version(min_hookman)\n",
                "        not isinstance(min_hookman, str)\n",
            ),
        ),
    ),
    Module(
        "codex_sync",
        CODEX_SYNC,
        (
            "tests/commands/test_codex_trust_noticed.py",
            "tests/commands/test_install_codex.py",
        ),
        _mutants(
            CODEX_SYNC,
            (
                "install trusts no foreign hook in the project's hooks.json",
                "            and is_hookman_command(hook.command)\n",
                "",
            ),
            (
                "install trusts no hook of another file",
                '            if os.path.realpath(hook.source_path or "/") == source\n',
                "            if True\n",
            ),
            (
                "a hook Codex trusts already is not trusted again",
                "    untrusted = [hook for hook in hooks if not hook.trusted]\n",
                "    untrusted = hooks\n",
            ),
            (
                "--no-codex-trust records nothing",
                "    if not record:\n",
                "    if False:\n",
            ),
            (
                "a timeout Codex clamps is written as the clamp",
                "    if cap is None or timeout is None or timeout <= cap:\n",
                "    if True:\n",
            ),
            (
                "no entry for an event the Codex version lacks",
                "        if event in known:\n            command = build_command(event, launcher, guarded=event in guarded, agent=CODEX_AGENT)\n",
                "        if True:\n            command = build_command(event, launcher, guarded=event in guarded, agent=CODEX_AGENT)\n",
            ),
            (
                "Codex's guarded entries fail closed",
                "build_command(event, launcher, guarded=event in guarded, agent=CODEX_AGENT)",
                "build_command(event, launcher, agent=CODEX_AGENT)",
            ),
            (
                "Codex's async entries answer at once",
                "            command = build_command(event, launcher, run_async=True, agent=CODEX_AGENT)\n",
                "            command = build_command(event, launcher, agent=CODEX_AGENT)\n",
            ),
            (
                "trust of a folder above the project counts",
                "    for directory in (project_dir, *project_dir.parents):\n",
                "    for directory in (project_dir,):\n",
            ),
            (
                "only trust_level trusted is trust",
                '        if isinstance(entry, dict) and entry.get("trust_level") == "trusted":\n',
                "        if isinstance(entry, dict):\n",
            ),
        ),
    ),
    Module(
        "plugin_build",
        PLUGIN_BUILD,
        (
            "tests/plugin/test_build_noticed.py",
            "tests/plugin/test_build.py",
        ),
        _mutants(
            PLUGIN_BUILD,
            (
                "an OUT_DIR that is a symlink is refused",
                "    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):\n",
                "    if out_dir.exists() and not out_dir.is_dir():\n",
            ),
            (
                "a file changed since the build is not overwritten",
                "        if changed:\n            raise HookmanError(\n",
                "        if False:\n            raise HookmanError(\n",
            ),
            (
                "a file of someone else's in hookman-runner/ is not thrown away",
                "        if (path.is_file() or path.is_symlink()) and relative not in files and relative != RECORD:\n",
                "        if False:\n",
            ),
            (
                "a rebuild with new content bumps the patch version",
                "            version = _next_patch(old_version)\n",
                "            version = old_version\n",
            ),
            (
                "a rebuild with the same content keeps the version",
                '        elif previous.get("content") == content:\n',
                "        elif False:\n",
            ),
            Mutant(
                "a README the user wrote is kept",
                "",
                '    if not (out_dir / README).exists() or (previous and README in previous.get("files", {})):\n',
                "    if True:\n",
                equivalent="no build reaches it with a README hookman did not record: a first "
                "build needs an empty OUT_DIR, every build records the README it writes, and a "
                "recorded README changed by hand stops the rebuild before this line",
            ),
            (
                "plugin.json's other keys are kept",
                "        if isinstance(existing, dict):\n            data = existing\n",
                "        if isinstance(existing, dict):\n            pass\n",
            ),
            (
                "a hooks file the build no longer writes is removed",
                '        if relative not in files and not relative.startswith(RUNNER_DIR + "/"):\n',
                "        if False:\n",
            ),
            (
                "a disabled hook is left out",
                "        chosen = [hook for hook in listed if hook.enabled]\n",
                "        chosen = list(listed)\n",
            ),
            (
                "a rebuild that changes nothing says so",
                "    if previous is not None and all(\n",
                "    if False and all(\n",
            ),
        ),
    ),
    Module(
        "findings_matchers",
        FINDINGS_MATCHERS,
        (
            "tests/doctor/test_matchers_noticed.py",
            "tests/doctor/test_findings_matchers.py",
        ),
        _mutants(
            FINDINGS_MATCHERS,
            (
                "an invalid regex naming no tool gets no fix",
                "    suggestion = exact_alternative(named) if named else None\n",
                "    suggestion = exact_alternative(named)\n",
            ),
            (
                "an unknown name stays in the fixed list",
                '            problems.append(("matcher-unknown-name", f"{shown(name)}"))\n            fixed.append(name)\n',
                '            problems.append(("matcher-unknown-name", f"{shown(name)}"))\n',
            ),
            (
                "a list where some name matches is a warning",
                "    some_match = len(problems) < len(matcher.names)\n",
                "    some_match = False\n",
            ),
            (
                "a matcher on an event that ignores matchers is named",
                "            _ignored(ctx, handler, field)\n",
                "            pass\n",
            ),
            (
                "permission-rule syntax is named",
                '        if matcher.kind == "regex" and rule is not None and rule[0] in values:\n',
                "        if False:\n",
            ),
            (
                "a hook's own `if` is kept by the permission-rule fix",
                '{**entry, "if": rule} if isinstance(entry, dict) and "if" not in entry else entry',
                '{**entry, "if": rule} if isinstance(entry, dict) else entry',
            ),
            (
                "no `if` fix for a client without the field",
                "    has_if = ctx.version is None or ctx.version >= parse_version(if_since)\n",
                "    has_if = True\n",
            ),
            (
                "an unanchored regex naming no tool gets no fix",
                "    if named and extra:\n",
                "    if extra:\n",
            ),
            (
                "an exact list is read alike by every version",
                '    if ctx.version is None or matcher.kind == "exact":\n',
                "    if ctx.version is None:\n",
            ),
            (
                "syntax an old client reads as a regex matching the same is a warning",
                '        "warning" if all(matcher.matches(name) for name in names) else "error",\n',
                '        "error",\n',
            ),
        ),
    ),
)


def _selected(only: list[str]) -> list[tuple[str, Module, Mutant]]:
    chosen = []
    for index, module in enumerate(MODULES):
        for number, mutant in enumerate(module.mutants):
            label = f"{module.name}.{number}"
            wanted = not only or {str(index), module.name, label} & set(only)
            if wanted:
                chosen.append((label, module, mutant))
    return chosen


def main() -> int:
    args = sys.argv[1:]
    if args[:1] == ["--list"]:
        for index, module in enumerate(MODULES):
            print(f"{index} {module.name} ({module.path})")
            for number, mutant in enumerate(module.mutants):
                print(f"    {module.name}.{number} {mutant.name}")
        return 0
    if args[:1] == ["--check"]:
        gone = [label for label, _, mutant in _selected(args[1:]) if not applicable(mutant)]
        print("\n".join(f"{label} NOT APPLICABLE" for label in gone) or "all applicable")
        return 1 if gone else 0
    verdicts = [
        run_mutant(label, mutant, module.tests) for label, module, mutant in _selected(args)
    ]
    counts = {verdict: verdicts.count(verdict) for verdict in dict.fromkeys(verdicts)}
    print(", ".join(f"{count} {verdict}" for verdict, count in counts.items()), flush=True)
    return 0 if set(verdicts) <= {"killed", "equivalent"} else 1


if __name__ == "__main__":
    raise SystemExit(main())
