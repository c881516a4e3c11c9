"""Hand-made mutation testing of hookman's fail-closed paths.

Each mutation removes or weakens one fail-closed branch; the script applies it, runs the
tests that guard it (TESTS, or the mutation's own list), puts the file back, and prints
"killed" (a test failed, as it must) or "SURVIVED" (tools/mutation.py, shared with
tools/mutants.py, which does the same beyond the guard path). Run from a clean checkout, and
let it finish: it edits hookman's files in place.

One survivor is known and equivalent: "run: broken channel exits non-zero". When a hook closes
the runner's output, restoring fds 1/2 afterwards fails too and `launched` exits 70 all the
same; the launcher denies on the missing end line whatever the status.

Two more are equivalent while the launcher's channel test runs first: "launcher: a JSON answer
counts only when its write succeeded" and "launcher: its own JSON deny counts only when
written". Every failed write the tests can make (fd 1 closed or /dev/full, a shell that lost a
descriptor it could not save) the channel test sees before the printf; the `&&` stays for a
write that fails on a pipe all the same (a full non-blocking one).

    python tools/guard_mutants.py [INDEX ...]
"""

# ruff: noqa: E501 -- the mutations are exact source lines, kept whole

from __future__ import annotations

import sys

from mutation import Mutant, run_mutant  # tools/ is sys.path[0] when this script runs

# issue 23, class 6: the tests that attack where state lives (run as root: chown)
_STATE_TESTS = [
    "tests/plugin/test_state_attack.py",
    "tests/bridge/test_attack_state_dir.py",
    "tests/bridge/test_manifest_reader.py",
]
STORE_TESTS = ["tests/commands/test_store_copy_changed.py"]
# issue 24 moved: the runner, doctor, fire and list on a project changed since install
_MOVED_TESTS = [
    "tests/bridge/test_project_moved.py",
    "tests/bridge/test_project_moved_runner.py",
    "tests/commands/test_project_changed.py",
]

_STORE_TESTS = ["tests/commands/test_repo_links_and_names.py"]
# issue 24: the prompt gate and the drift of a path hook's guards
_GATE_TESTS = [
    "tests/bridge/test_guard_drift.py",
    "tests/bridge/test_attack_issue24.py",
    "tests/bridge/test_project_moved_runner.py",
    "tests/commands/test_fire_prompt_gate.py",
    "tests/install/test_sync.py",
]
MUTATIONS = [
    (
        "dispatch: load failure of a guard fails closed",
        "hookman/bridge/dispatch.py",
        "if self.guarded and failure.hook.guards(self.event, self.tool_name):",
        "if False:",
    ),
    (
        "dispatch: raw guarded handler error fails closed",
        "hookman/bridge/dispatch.py",
        "if self.guarded and event == self.event:",
        "if False:",
    ),
    (
        "dispatch: tool_call error fails closed",
        "hookman/bridge/dispatch.py",
        '            self._fail_closed(hook, f"raised an error ({described})")\n',
        "            pass\n",
    ),
    (
        "dispatch: tool_call catches every exception",
        "hookman/bridge/dispatch.py",
        "        except BaseException as error:  # KeyboardInterrupt",
        "        except Exception as error:  # KeyboardInterrupt",
    ),
    (
        "dispatch: guarded from the manifest",
        "hookman/bridge/dispatch.py",
        "self.guarded = manifest.client.is_guarded(event) and not run_async",
        "self.guarded = False",
    ),
    (
        "dispatch: updatedInput re-checked",
        "hookman/bridge/dispatch.py",
        "            self._recheck_updated_input(runner)\n",
        "            pass\n",
    ),
    (
        "dispatch: re-check block counts",
        "hookman/bridge/dispatch.py",
        "        if second_pass.blocked:",
        "        if False:",
    ),
    (
        "dispatch: tool_call handlers get own copies",
        "hookman/bridge/dispatch.py",
        "self.tracker.fresh_copies(TOOL_CALL, event, self.guarded)",
        "self.tracker.fresh_copies(TOOL_CALL, event, False)",
    ),
    (
        "dispatch: raw handlers get own copies",
        "hookman/bridge/dispatch.py",
        "self.tracker.fresh_copies(self.event, raw_event, self.guarded)",
        "self.tracker.fresh_copies(self.event, raw_event, False)",
    ),
    (
        "hook_set: copies handed out",
        "hookman/bridge/hook_set.py",
        "            event.update(lean_json.loads(snapshot))\n",
        "            pass\n",
    ),
    (
        "answer: block on a guarded event is a deny",
        "hookman/bridge/answer.py",
        "            if self.guarded:\n",
        "            if False:\n",
    ),
    (
        "client_facts: old manifests guard PreToolUse",
        "hookman/bridge/client_facts.py",
        'GUARDED_BEFORE_THE_FACT = frozenset({"PreToolUse"})',
        "GUARDED_BEFORE_THE_FACT = frozenset()",
    ),
    (
        "manifest_reader: empty tools list = every tool",
        "hookman/bridge/manifest_reader.py",
        "if not wanted or tool_name is None:",
        "if wanted is None or tool_name is None:",
    ),
    (
        "run: guarded from the manifest",
        "hookman/bridge/run_command.py",
        "            return self.manifest.client.is_guarded(self.event)",
        "            return False",
    ),
    (
        "run: --guarded flag",
        "hookman/bridge/run_command.py",
        "        if self.guarded_flag:\n            return True",
        "        if False:\n            return True",
    ),
    (
        "run: legacy PreToolUse without manifest",
        "hookman/bridge/run_command.py",
        "        return self.event in GUARDED_WITHOUT_MANIFEST\n",
        "        return False\n",
    ),
    (
        "run: bad payload denies",
        "hookman/bridge/run_command.py",
        "            if self.guarded:\n                reason = (",
        "            if False:\n                reason = (",
    ),
    (
        "run: lone surrogate refused",
        "hookman/bridge/run_command.py",
        "if payload is not None and self.guarded and _has_lone_surrogate(raw, payload):",
        "if False:",
    ),
    (
        "run: strict UTF-8",
        "hookman/bridge/run_command.py",
        'text = raw.decode("utf-8")',
        'text = raw.decode("utf-8", "replace")',
    ),
    (
        "run: RecursionError is a bad payload",
        "hookman/bridge/run_command.py",
        '    except RecursionError:\n        return None, "it is nested too deeply"\n',
        "",
    ),
    (
        "run: missing manifest denies",
        "hookman/bridge/run_command.py",
        '        if self.guarded:\n            answer = deny_answer(\n                self.event,\n                f"hookman blocked this {guarded_subject(self.event)} because {problem}',
        '        if False:\n            answer = deny_answer(\n                self.event,\n                f"hookman blocked this {guarded_subject(self.event)} because {problem}',
    ),
    (
        "run: deadline denies",
        "hookman/bridge/run_command.py",
        "        elif self.guarded:\n            answer = deny_answer(self.event, fail_closed_reason(hook, problem, self.event))",
        "        elif False:\n            answer = deny_answer(self.event, fail_closed_reason(hook, problem, self.event))",
    ),
    (
        "run: internal error denies",
        "hookman/bridge/run_command.py",
        '        if self.guarded:\n            answer = deny_answer(\n                self.event, fail_closed_reason("hookman"',
        '        if False:\n            answer = deny_answer(\n                self.event, fail_closed_reason("hookman"',
    ),
    (
        "run: launched ends with os._exit",
        "hookman/bridge/run_command.py",
        "    os._exit(code)\n",
        "    sys.exit(code)\n",
    ),
    (
        "run: answer end marker",
        "hookman/bridge/run_command.py",
        "text + ANSWER_END if self.launched else text",
        "text",
    ),
    (
        "run: broken channel exits non-zero",
        "hookman/bridge/run_command.py",
        "        if not written:\n            return NO_SPACE_STATUS if self._no_space else EXIT_NO_ANSWER\n",
        "",
    ),
    (
        "js_values: unrenderable message",
        "hookman/runtime/js_values.py",
        '    try:\n        text = str.__add__("", str(error))  # a plain str, whatever __str__ returned\n    except BaseException:  # a message that cannot be rendered must not hide the error\n        text = ""\n',
        "    text = str(error)\n",
    ),
    (
        "capture: sealed size",
        "hookman/bridge/capture.py",
        "        os.ftruncate(descriptor, CAPTURE_LIMIT)\n        fcntl.fcntl(descriptor, fcntl.F_ADD_SEALS, fcntl.F_SEAL_GROW | fcntl.F_SEAL_SHRINK)\n",
        "        pass\n",
    ),
    (
        "launcher: deny arms",
        "hookman/project/launcher.py",
        '"".join(_guarded_arm(event, variant) for event in guarded_events)',
        '"".join(_guarded_arm(event, variant) for event in ())',
    ),
    (
        "launcher: exit status checked",
        "hookman/project/launcher.sh",
        'if [ "$status:$start:$complete" = "',
        'if [ "0:$start:$complete" = "',
    ),
    ("launcher: answer must be an object", "hookman/project/launcher.sh", '\t"{"*"}")', "\t*)"),
    (
        "launcher: async stays quiet",
        "hookman/project/launcher.sh",
        '[ "$2" = @async_flag@ ] && exit 0\n',
        "",
    ),
    (
        "launcher: the frame's start line checked",
        "hookman/project/launcher.sh",
        'if [ "$status:$start:$complete" = "0:@answer_start@:@answer_end@" ]',
        'if [ "$status:@answer_start@:$complete" = "0:@answer_start@:@answer_end@" ]',
    ),
    (
        "launcher: nothing of any kind at the answer name",
        "hookman/project/launcher.sh",
        'if [ ! -e "$try" ] && [ ! -h "$try" ] && { set -C;',
        "if { set -C;",
    ),
    (
        "launcher: exit-2 deny when a start-up file may have printed",
        "hookman/project/launcher.sh",
        '[ -n "$err" ] && [ -n "@spoiled@$codex" ]; }; then',
        '[ -n "$err" ] && [ -n "$codex" ]; } && : "@spoiled@"; then',  # it must render
        ["tests/bridge/test_attack_shell.py", "tests/bridge/test_sh_family.py"],
    ),
    (
        "launcher: the runner starts isolated, without the site",
        "hookman/project/launcher-runner.sh",
        '"$python" -I -S -c @entry@',
        '"$python" -c @entry@',
    ),
    (
        "settings: a launcher that is not a regular file is not run",
        "hookman/project/command-guarded.sh",
        "[ -f @launcher@ ] && @command@ && false || case",
        "[ -f @launcher@ ] || : && @command@ && false || case",  # the test no longer counts
    ),
    (
        "settings: exit 0 of the launcher is not done",
        "hookman/project/command-guarded.sh",
        "@command@ && false || case",
        "@command@ || case",
    ),
    (
        "settings: deny fallback when the launcher is gone",
        "hookman/project/command-guarded.sh",
        '*) trap - EXIT; (unset hookman; : "${hookman?@why@}") || exit @two@; exit @two@ ;; esac',
        "*) trap - EXIT; : @why@ ;; esac",
    ),
    (
        "run: exit-2 answer line when a start-up file is set",
        "hookman/bridge/answer_frame.py",
        "        return START_UP_FILE.format(variable=variable)\n",
        "        return None\n",
    ),
    (
        "state files: opened without blocking",
        "hookman/bridge/state_file.py",
        "    extra = _NONBLOCK | _CLOEXEC |",
        "    extra = _CLOEXEC |",
    ),
    (
        "run: a timeout lowered in the settings counts",
        "hookman/bridge/run_command.py",
        "            if lowered is not None and (timeout is None or lowered < timeout):\n",
        "            if False:\n",
    ),
    (
        "run: the watchdog is confirmed before any hook",
        "hookman/bridge/run_command.py",
        "        if self._watchdog_started and not confirm_watchdog() and self.guarded:\n",
        "        if False:\n",
    ),
    (
        "watchdog: an unconfirmed watchdog is replaced",
        "hookman/bridge/watchdog.py",
        "    return _fork_watchdog(_pending.group, read_end, write_end, left)\n",
        "    return False\n",
    ),
    (
        "sync: guarded entries get the fallback",
        "hookman/install/sync.py",
        "build_command(event, launcher, guarded=event in guarded)",
        "build_command(event, launcher)",
    ),
    (
        "manifest: guarded events written",
        "hookman/project/manifest.py",
        "        GUARDED_EVENTS: event_catalog.guarded_events(),\n",
        "",
    ),
    (
        "run: broken channel noted in the log",
        "hookman/bridge/run_command.py",
        "            notices.append(NO_ANSWER_NOTICE)\n",
        "            pass\n",
    ),
    (
        "run: hard stop armed",
        "hookman/bridge/run_command.py",
        "            _arm_hard_stop(max(hard_stop - elapsed, least))\n",
        "",
    ),
    (
        "run: watchdog started",
        "hookman/bridge/run_command.py",
        "            watchdog = start_watchdog(max(kill_at - elapsed, least))\n",
        '            watchdog = "not-leader"\n',
    ),
    (
        "watchdog: the spawned bash kills the group on a timeout",
        "hookman/bridge/watchdog.py",
        '"read -t $t -u 3 _; [ $? -gt 128 ] && kill -KILL -- -{group}; exit 0"',
        '"read -t $t -u 3 _; exit 0"',
    ),
    (
        "watchdog: the forked copy kills the group on a timeout",
        "hookman/bridge/watchdog.py",
        "            os.killpg(group, 9)  # SIGKILL: a stopped process dies too\n",
        "            pass\n",
    ),
    (
        "run: own process group",
        "hookman/bridge/run_command.py",
        "        os.setpgid(0, 0)\n",
        "        pass\n",
    ),
    (
        "run: deadlines before stdin",
        "hookman/bridge/run_command.py",
        "        if self.manifest is not None and not self.run_async:\n",
        "        if False:\n",
    ),
    (
        "run: deadlines count from the process start",
        "hookman/bridge/run_command.py",
        '        own, command = command_ages(os.path.dirname(self.manifest_path or ""))\n',
        "        own, command = 0.0, 0.0\n",
    ),
    (
        "run: a huge guarded answer is cut",
        "hookman/bridge/run_command.py",
        "        if len(text) > ANSWER_LIMIT and self.guarded:\n",
        "        if False:\n",
    ),
    (
        "config: empty tools refused",
        "hookman/project/config.py",
        "    if emptied:\n",
        "    if False:\n",
    ),
    (
        "plugin: no python3 on PATH is a deny saying what to install",
        "hookman/plugin/launcher-prelude.sh",
        "if ! command -v @python@ >/dev/null 2>&1; then",
        "if false && command -v @python@ >/dev/null 2>&1; then",
    ),
    (
        "plugin: a python3 older than 3.10 denies",
        "hookman/plugin/launcher.py",
        "        answer = DENIES.get(event, NOTICE)\n",
        '        answer = "{{}}"\n',
    ),
    (
        "plugin: the launcher denies guarded events with no answer",
        "hookman/plugin/launcher.py",
        "return render_launcher(variant, guarded_events, timeouts=timeouts, timer=timer)",
        "return render_launcher(variant, [], timeouts=timeouts, timer=timer)",
    ),
    (
        "plugin: a missing launcher makes the command deny",
        "hookman/plugin/launcher.py",
        "    if guarded:\n        return guarded_command(",
        "    if False:\n        return guarded_command(",
    ),
    (
        "plugin: hooks.json marks guarded events",
        "hookman/plugin/build.py",
        "name, event, guarded=event in guarded and not is_async, run_async=is_async",
        "name, event, guarded=False, run_async=is_async",
    ),
    (
        "plugin: a hook importing management code is refused",
        "hookman/plugin/carry.py",
        "            if not is_carried(module):",
        "            if False:",
    ),
    (
        "plugin: hook paths resolve beside the manifest",
        "hookman/bridge/manifest_reader.py",
        "        hooks = tuple(_relative_to(hook, base) for hook in hooks)\n",
        "        pass\n",
    ),
    (
        "plugin: events older clients do not know get files of their own",
        "hookman/plugin/build.py",
        '    return str(since) if since < tolerant else "tolerant"\n',
        "    return HOOKS_JSON\n",
    ),
    # Results a guard returns that hookman does not understand, and payloads the client never
    # sends: each is a deny (the last item: the tests that guard it, run instead of TESTS).
    (
        "dispatch: tool_call results read strictly",
        "hookman/bridge/dispatch.py",
        "        if self.guarded:\n            self._check_guard_results(calls_before, given_input)\n",
        "",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "dispatch: an unreadable tool_call result fails closed",
        "hookman/bridge/dispatch.py",
        '                self._fail_closed(call.hook, f"returned {problem}")\n',
        "                pass\n",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "dispatch: a mapping that blocks blocks",
        "hookman/bridge/dispatch.py",
        "            if fields is not None and blocks(fields):",
        "            if False:",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "dispatch: the input compared is the one given",
        "hookman/bridge/dispatch.py",
        "            self._check_guard_results(calls_before, given_input)",
        '            self._check_guard_results(calls_before, event.get("input"))',
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "dispatch: raw results read strictly on a guarded event",
        "hookman/bridge/dispatch.py",
        "            if self.guarded:\n                self._guarded_raw_result(call.result, call.hook)\n            elif",
        "            if False:\n                self._guarded_raw_result(call.result, call.hook)\n            elif",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "dispatch: a raw result that is no object fails closed",
        "hookman/bridge/dispatch.py",
        "            self._fail_closed(hook, problem)\n            return\n",
        "            return\n",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "dispatch: any raw misfit fails closed",
        "hookman/bridge/dispatch.py",
        "        if misfits:\n            problem = _unreadable_decision(misfits)",
        "        if False:\n            problem = _unreadable_decision(misfits)",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "answer: every misfit is returned",
        "hookman/bridge/answer.py",
        "        return misfits + replaced\n",
        "        return [misfit for misfit in misfits if misfit.decides]\n",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "guard_results: a non-mapping is no result",
        "hookman/bridge/guard_results.py",
        '        return ReadResult(None, f"a {_type_name(value)}, not a dict")',
        "        return ReadResult({}, None)",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "guard_results: a generator is no result",
        "hookman/bridge/guard_results.py",
        "    if kind is not None:\n        return ReadResult(None, kind)\n",
        "",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "guard_results: an unreadable mapping is no result",
        "hookman/bridge/guard_results.py",
        '        return ReadResult(\n            None, f"a {_type_name(value)} whose items cannot be read ({_type_name(error)})"\n        )',
        "        return ReadResult({}, None)",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "guard_results: a dict subclass is read as it holds",
        "hookman/bridge/guard_results.py",
        "        if isinstance(value, dict) and visible != dict(dict.items(value)):",
        "        if False:",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "guard_results: unknown tool_call fields",
        "hookman/bridge/guard_results.py",
        "    if unknown:\n",
        "    if False:\n",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "guard_results: a changed input",
        "hookman/bridge/guard_results.py",
        '    if "input" in read.fields and not _same(read.fields["input"], original_input):',
        "    if False:",
        ["tests/bridge/test_attack_returns.py"],
    ),
    (
        "guard_results: an __eq__ that raises is no sameness",
        "hookman/bridge/guard_results.py",
        "        return False\n\n\ndef _type_name",
        "        return True\n\n\ndef _type_name",
        ["tests/bridge/test_guard_results.py", "tests/bridge/test_attack_returns.py"],
    ),
    (
        "dispatch: an unusable payload denies",
        "hookman/bridge/dispatch.py",
        "        if self.guarded and self._payload_unusable():",
        "        if False:",
        ["tests/bridge/test_attack_payload.py"],
    ),
    (
        "runtime_events: another event's payload",
        "hookman/bridge/runtime_events.py",
        "    if name is not None and name != event:",
        "    if False:",
        ["tests/bridge/test_attack_payload.py"],
    ),
    (
        "runtime_events: tool_name text",
        "hookman/bridge/runtime_events.py",
        "    if not isinstance(tool_name, str) or not tool_name:",
        "    if False:",
        ["tests/bridge/test_attack_payload.py"],
    ),
    (
        "runtime_events: tool_name not empty",
        "hookman/bridge/runtime_events.py",
        "    if not isinstance(tool_name, str) or not tool_name:",
        "    if not isinstance(tool_name, str):",
        ["tests/bridge/test_attack_payload.py"],
    ),
    (
        "runtime_events: tool_input an object",
        "hookman/bridge/runtime_events.py",
        "    if not isinstance(tool_input, dict):\n        return",
        "    if False:\n        return",
        ["tests/bridge/test_attack_payload.py"],
    ),
    (
        "runtime_events: the Bash command text",
        "hookman/bridge/runtime_events.py",
        "        if not isinstance(tool_input.get(field), str):",
        "        if False:",
        ["tests/bridge/test_attack_payload.py"],
    ),
    (
        "runtime_events: tool_use_id text",
        "hookman/bridge/runtime_events.py",
        "    if tool_use_id is not None and not isinstance(tool_use_id, str):",
        "    if False:",
        ["tests/bridge/test_attack_payload.py"],
    ),
    (
        "settings_file: line breaks without indentation kept",
        "hookman/project/settings_file.py",
        '        indent = ""  # line breaks but no indentation',
        "        pass  # line breaks but no indentation",
        ["tests/project/test_settings_file.py"],
    ),
    (
        "repository: a `..` path is refused",
        "hookman/hooks/repository.py",
        '    if ".." in pure.parts:\n        return "leaves the repository"\n',
        "",
    ),
    (
        "repository: a symlink out of the repository is refused",
        "hookman/hooks/repository.py",
        "    if os.path.commonpath([real_root, real]) != real_root:",
        "    if False:",
    ),
    (
        "runner: a repository hook's missing store copy names hookman install",
        "hookman/bridge/hook_set.py",
        "    if hook.repo is not None and hook.package_root is not None:",
        "    if False:",
    ),
    (
        "loader: a repository hook imports its siblings from its own package",
        "hookman/runtime/loader.py",
        "    name = None if package_root is None else _name_in_package(resolved_path, package_root)",
        "    name = None",
    ),
    (
        "pins: the pinned commit wins over what the tag names now",
        "hookman/hooks/repo_source.py",
        "    if pin is not None:\n        return pin\n",
        "",
    ),
    (
        "lean_json: data after the value is an error",
        "hookman/bridge/lean_json.py",
        '    if index != end:  # "Extra data"\n',
        "    if False:\n",
    ),
    (
        "lean_json: a scanner failure goes to json",
        "hookman/bridge/lean_json.py",
        "        return _json_package().loads(data)\n    while index",
        "        return None\n    while index",
    ),
    (
        "lean_json: only plain UTF-8 bytes take the fast path",
        "hookman/bridge/lean_json.py",
        "        if not _plain_utf8(data):\n",
        "        if False:\n",
    ),
    (
        "entry timeout: the launcher's event is a whole word",
        "hookman/bridge/entry_timeout.py",
        '            if not (after.isalnum() or after in ("_", "-")):\n',
        "            if True:\n",
    ),
    (
        "entry timeout: every mention of the launcher is looked at",
        "hookman/bridge/entry_timeout.py",
        "        start = command.find(LAUNCHER_NAME, start + 1)\n",
        "        break\n",
    ),
    # --- issue 23, class 6: where state lives (bridge/private_dir.py and its users) ---
    (
        "state: the runner checks its state dir",
        "hookman/bridge/run_command.py",
        "            self.state_problem = _private_state(self.manifest)\n",
        "            self.state_problem = None\n",
        _STATE_TESTS,
    ),
    (
        "state: an unsafe state dir fails closed",
        "hookman/bridge/run_command.py",
        "        if self.state_problem is not None:  # before any hook loads bytecode from there",
        "        if False:",
        _STATE_TESTS,
    ),
    (
        "state: an answer file others could swap is refused",
        "hookman/bridge/run_command.py",
        "        if _answer_file_problem(options.answer_file) is not None:",
        "        if False:",
        _STATE_TESTS,
    ),
    (
        "state: the answer file must be the user's own",
        "hookman/bridge/run_command.py",
        "(ours.st_uid != os.getuid() or not stat.S_ISREG(ours.st_mode)):",
        "False:",
        _STATE_TESTS,
    ),
    (
        "state: a plugin's state is not in $TMPDIR",
        "hookman/bridge/manifest_reader.py",
        "    return os.path.join(plugin_state_base(), PLUGINS_DIR, _file_name(name))",
        '    return os.path.join(os.environ.get("TMPDIR") or "/tmp", f"hookman-plugin-{os.getuid()}-{name}")',
        _STATE_TESTS,
    ),
    (
        "private_dir: the directory itself is the user's",
        "hookman/bridge/private_dir.py",
        "    if info.st_uid != uid:",
        "    if False:",
        _STATE_TESTS,
    ),
    (
        "private_dir: the directory itself is not others', even sticky",
        "hookman/bridge/private_dir.py",
        "    if info.st_mode & 0o002:  # even sticky",
        "    if False:  # even sticky",
        _STATE_TESTS,
    ),
    (
        "private_dir: a directory above is the user's or root's",
        "hookman/bridge/private_dir.py",
        "    if info.st_uid not in (uid, 0):",
        "    if False:",
        _STATE_TESTS,
    ),
    (
        "private_dir: no directory is writable by others",
        "hookman/bridge/private_dir.py",
        "    if mode & 0o002 or (mode & 0o020 and not _private_group(gid)):",
        "    if False:",
        _STATE_TESTS,
    ),
    (
        "private_dir: only a sticky directory may be others'",
        "hookman/bridge/private_dir.py",
        "    if mode & stat.S_ISVTX:",
        "    if True:",
        _STATE_TESTS,
    ),
    (
        "private_dir: a group-writable directory only of the user's private group",
        "hookman/bridge/private_dir.py",
        "    if gid != os.getgid():\n        return False\n",
        "",
        _STATE_TESTS,
    ),
    (
        "private_dir: another user's symlink on the way is refused",
        "hookman/bridge/private_dir.py",
        "    if link.st_uid not in (uid, 0):",
        "    if False:",
        _STATE_TESTS,
    ),
    (
        "private_dir: nothing is made below a bad directory",
        "hookman/bridge/private_dir.py",
        "        problem = shared_dir_problem(existing)\n        if problem:\n",
        "        problem = shared_dir_problem(existing)\n        if False:\n",
        _STATE_TESTS,
    ),
    (
        "firing_log: no line where others can write",
        "hookman/bridge/firing_log.py",
        "    if problem:  # another user could plant a symlink or a FIFO there: no line at all",
        "    if False:",
        _STATE_TESTS,
    ),
    (
        "firing_log: never waits on a FIFO",
        "hookman/bridge/firing_log.py",
        "    descriptor = open_regular(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)",
        "    descriptor = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)",
        _STATE_TESTS,
    ),
    (
        "lock: install refuses a state dir others can write",
        "hookman/project/lock.py",
        "    _check_state_dir(lock_path.parent)\n",
        "    lock_path.parent.mkdir(parents=True, exist_ok=True)\n",
        _STATE_TESTS,
    ),
    (
        "config: no parse cache where others can write",
        "hookman/project/config.py",
        "    if private_dir_problem(str(state_dir)) is not None:\n        return None\n    return state_dir / PARSED_CACHE_NAME",
        "    return state_dir / PARSED_CACHE_NAME",
        ["tests/project/test_config.py"],
    ),
    (
        "plugin launcher: answers only in the user's own state dir",
        "hookman/plugin/launcher-values.sh",
        """'') [ -O "$answers" ] || answers="${0%/*}/.no-data-dir" ;;""",
        "'') ;;",
        _STATE_TESTS,
    ),
    (
        "state: a group write bit under an ACL is not trusted",
        "hookman/bridge/private_dir.py",
        "    if mode & 0o020 and _has_access_acl(directory):  # the group bits are an ACL's mask\n",
        "    if False:\n",
        ["tests/bridge/test_attack_hostile_round4.py"],
    ),
    (
        "state: another user's primary group is not the user's private group",
        "hookman/bridge/private_dir.py",
        "            user for user in pwd.getpwall() if user.pw_gid == gid and user.pw_uid != me.pw_uid\n",
        "            user for user in pwd.getpwall() if False\n",
        ["tests/bridge/test_attack_hostile_round4.py"],
    ),
    # --- end of issue 23, class 6 ---
    # --- issue 23, class 7: a store copy that changed after it was fetched (runner + install)
    (
        "store copy: the runner compares each module's digest",
        "hookman/runtime/verified_import.py",
        "    if sha256_hex(data) != expected:\n",
        "    if False:\n",
        STORE_TESTS,
    ),
    (
        "store copy: the runner compiles the bytes it hashed",
        "hookman/runtime/verified_import.py",
        '        code = compile(data, self.path, "exec", dont_inherit=True)\n',
        '        code = compile(open(self.path, "rb").read(), self.path, "exec", dont_inherit=True)\n',
        STORE_TESTS,
    ),
    (
        "store copy: repository modules are imported verified",
        "hookman/runtime/loader.py",
        "    verified = package_root is not None and digests is not None\n",
        "    verified = False\n",
        STORE_TESTS,
    ),
    (
        "store copy: the hook set passes the manifest's digests",
        "hookman/bridge/hook_set.py",
        "load_hooks([hook.path], cwd, hook.package_root, digests=hook.digests)",
        "load_hooks([hook.path], cwd, hook.package_root)",
        STORE_TESTS,
    ),
    (
        "store copy: a manifest without digests imports nothing unchecked",
        "hookman/bridge/manifest_reader.py",
        "    if not isinstance(digests, dict):\n        return {}\n",
        "    if not isinstance(digests, dict):\n        return None\n",
        STORE_TESTS,
    ),
    (
        "store copy: the finder answers for the repository packages",
        "hookman/runtime/verified_import.py",
        "        sys.meta_path.insert(0, _VerifiedFinder)  # type: ignore[arg-type]\n",
        "        pass\n",
        STORE_TESTS,
    ),
    (
        "store copy: a tree directory on sys.path gets the verifying finder",
        "hookman/runtime/verified_import.py",
        "        sys.path_hooks.insert(0, _path_hook)\n",
        "        pass\n",
        STORE_TESTS,
    ),
    (
        "store copy: install fetches a changed entry again",
        "hookman/hooks/repo_source.py",
        "    elif fetch:  # an entry edited since its fetch is fetched again from the pinned commit\n",
        "    elif False:\n",
        STORE_TESTS,
    ),
    (
        "store copy: a changed entry is no 'nothing to write'",
        "hookman/install/sync.py",
        "    if _store_changed(project_dir, resolution.origins):\n",
        "    if False:\n",
        STORE_TESTS,
    ),
    (
        "store copy: a failed repair puts the changed entry back (still refused)",
        "hookman/hooks/store.py",
        "            os.rename(aside / commit, entry)\n",
        "            pass\n",
        STORE_TESTS,
    ),
    (
        "store copy: manifest digests come from the fetch's record",
        "hookman/hooks/store.py",
        "    fetched = _fetched_files(url, commit)\n    tree = tree_dir(url, commit)\n",
        "    fetched = tree_digests(tree_dir(url, commit))\n    tree = tree_dir(url, commit)\n",
        STORE_TESTS,
    ),
    # --- end of issue 23, class 7
    # --- issue 23, the shell layer (launcher format 4: the answer channel, failed writes,
    # a command deny that needs no descriptor, a full disk named) ---
    (
        "launcher: a JSON answer counts only when its write succeeded",
        "hookman/project/launcher.sh",
        """printf '%s\\n' "$answer" && exit $finish ;;""",
        """printf '%s\\n' "$answer"; exit $finish ;;""",
        ["tests/bridge/test_sh_family.py"],
    ),
    (
        "launcher: stdout checked again after its own redirections",
        "hookman/project/launcher.sh",
        '[ -n "$guarded" ] && hookman_recheck\n',
        "",
        ["tests/bridge/test_sh_family.py"],
    ),
    (
        "launcher: no stdout to carry it is the stderr channel",
        "hookman/project/launcher.sh",
        '\telif [ -z "$out" ] || {',
        "\telif false || {",
        ["tests/bridge/test_sh_family.py"],
    ),
    (
        "launcher: its own JSON deny counts only when written",
        "hookman/project/launcher-guarded-arm.sh",
        """\t\t[ "$channel" = @channel_out@ ] && printf '%s%s%s\\n' @deny@ && exit @done@\n""",
        """\t\t[ "$channel" = @channel_out@ ] && { printf '%s%s%s\\n' @deny@; exit @done@; }\n""",
        ["tests/bridge/test_sh_family.py"],
    ),
    (
        "launcher: Codex's one pipe told apart without the runner",
        "hookman/project/launcher.sh",
        '[ "$(($1 + 1))" = "$3" ] && channel=@channel_out@ ;;',
        '[ "$(($1 + 1))" = "$3" ] && : @channel_out@ ;;',
        ["tests/bridge/test_sh_family.py"],
    ),
    (
        "launcher: a full disk named by the runner's status",
        "hookman/project/launcher-guarded-arm.sh",
        '\t\tif [ "$status" = @no_space_status@ ]; then\n',
        '\t\tif [ "$status" = @no_space_status@ ] && false; then\n',
        ["tests/bridge/test_attack_full_disk.py"],
    ),
    (
        "run: a write that found no space says so by its status",
        "hookman/bridge/run_command.py",
        "return NO_SPACE_STATUS if self._no_space else EXIT_NO_ANSWER",
        "return EXIT_NO_ANSWER",
        ["tests/bridge/test_attack_full_disk.py"],
    ),
    (
        "run: Codex's one pipe that is its stdout gets the JSON",
        "hookman/bridge/answer_frame.py",
        "        if shared_pipe_is_stdout(launcher_pid):\n",
        "        if False:\n",
        ["tests/bridge/test_sh_family.py"],
    ),
    (
        "run: a stdout the launcher cannot use means exit 2",
        "hookman/bridge/answer_frame.py",
        "    return NO_STDOUT\n",
        "    return None\n",
        ["tests/bridge/test_sh_family.py"],
    ),
    (
        "settings: a launcher's own deny is its status 74, not any 2",
        "hookman/project/command-guarded.sh",
        "@denied@) trap - EXIT; exit @two@ ;;",
        "@denied@ | @two@) trap - EXIT; exit @two@ ;;",
        ["tests/bridge/test_sh_family.py", "tests/bridge/test_attack_fork_limit.py"],
    ),
    # Issue 23, classes 2 and 5 (the runner's clock and its watchdog): the deadline counts
    # from when the client started the command; a start that leaves too little time, and a
    # guarded run with no watchdog, deny at once.
    (
        "clock: the client's command counts, not the runner's own start",
        "hookman/bridge/run_command.py",
        '        own, command = command_ages(os.path.dirname(self.manifest_path or ""))\n',
        "        own, command = command_ages(None)\n",
        ["tests/bridge/test_attack_clock.py"],
    ),
    (
        "clock: too little time left is a late start",
        "hookman/bridge/run_command.py",
        "            self._late = seconds - elapsed < min(ENOUGH_TIME_S, seconds * ENOUGH_TIME_FRACTION)\n",
        "            self._late = False\n",
        ["tests/bridge/test_attack_clock.py"],
    ),
    (
        "clock: a late start or no watchdog runs no hook",
        "hookman/bridge/run_command.py",
        "        if self._late or self._cannot_watch:\n",
        "        if False:\n",
        ["tests/bridge/test_attack_clock.py", "tests/bridge/test_attack_fork_limit.py"],
    ),
    (
        "clock: a command older than its timeout counts from the runner",
        "hookman/bridge/run_command.py",
        "        if timeout is not None and command > timeout:\n",
        "        if False:\n",
        ["tests/bridge/test_attack_clock.py"],
    ),
    (
        "clock: the walk up stops at the first parent after the launcher's that does not name it",
        "hookman/bridge/command_start.py",
        "        elif found is not None or skipped >= SKIPPED_LEVELS:\n",
        "        elif skipped >= SKIPPED_LEVELS:\n",
        ["tests/bridge/test_command_start.py"],
    ),
    (
        "watchdog: a guarded run whose watchdog could not start denies",
        "hookman/bridge/run_command.py",
        "            self._cannot_watch = watchdog == FAILED and self.guarded\n",
        "            self._cannot_watch = False\n",
        ["tests/bridge/test_attack_fork_limit.py"],
    ),
    (
        "watchdog: one not confirmed and not replaced denies",
        "hookman/bridge/run_command.py",
        "        if self._watchdog_started and not confirm_watchdog() and self.guarded:\n",
        "        if self._watchdog_started and not confirm_watchdog() and False:\n",
        ["tests/bridge/test_attack_fork_limit.py"],
    ),
    (
        "watchdog: no thread and no watchdog denies",
        "hookman/bridge/run_command.py",
        "                self._cannot_watch = self.guarded\n",
        "                pass\n",
        ["tests/bridge/test_attack_fork_limit.py"],
    ),
    (
        "watchdog: a failed fork is no watchdog",
        "hookman/bridge/watchdog.py",
        "    return STARTED if _fork_watchdog(group, read_end, write_end, seconds) else FAILED\n",
        "    return STARTED\n",
        ["tests/bridge/test_attack_fork_limit.py"],
    ),
    # Issue 23, the shell layer (launcher format 5: statuses, the command's EXIT trap, the
    # launcher's own clock, its answer file's directory)
    (
        "launcher: its done status is one no shell uses for its own failure (ksh93: 3)",
        "hookman/bridge/protocol.py",
        "GUARDED_DONE_STATUS = 73",
        "GUARDED_DONE_STATUS = 3",
        ["tests/bridge/test_sh_family.py"],
    ),
    (
        "settings: the EXIT trap says why when the shell dies before the case",
        "hookman/project/command-guarded.sh",
        "trap @trap@ EXIT; [ -f",
        "[ -f",
        ["tests/bridge/test_command_exit_trap.py"],
    ),
    (
        "launcher: the runner starts under the launcher's own clock",
        "hookman/project/launcher.sh",
        '\t\t$timer @runner@ run "$@"',
        '\t\t@runner@ run "$@"',
        ["tests/bridge/test_launcher_clock.py"],
    ),
    (
        "launcher: its clock counts from the client's shell's start",
        "hookman/project/launcher.sh",
        "\t\t\t\tleft=$((left - spent))\n",
        "\t\t\t\t:\n",
        ["tests/bridge/test_launcher_clock.py"],
    ),
    (
        "run: a runner under the launcher's timer reads the launcher's fds",
        "hookman/bridge/answer_channel.py",
        'if _command_name(launcher_pid) == b"timeout":',
        "if False:",
        ["tests/bridge/test_sh_family.py"],
    ),
    (
        "launcher: $TMPDIR holds the answer file only when sticky or the user's own",
        "hookman/project/launcher.sh",
        '\t\t[ -k "$dir" ] || [ -O "$dir" ] || continue\n',
        "\t\t:\n",
        ["tests/project/test_launcher_answer_dir.py"],
    ),
    (
        "launcher: the runner's refusal of its answer file is a deny naming it",
        "hookman/project/launcher-guarded-arm.sh",
        '\t\tif [ "$status" = @unsafe_status@ ]; then\n',
        '\t\tif [ "$status" = @unsafe_status@ ] && false; then\n',
        ["tests/project/test_launcher_answer_dir.py"],
    ),
    (
        "plugin start: bytecode goes to CLAUDE_PLUGIN_DATA only once checked",
        "hookman/plugin/launcher.py",
        "if _data and os.path.isabs(_data) and private_dir_problem(_data) is None:",
        "if _data and os.path.isabs(_data):",
        ["tests/plugin/test_start_bytecode.py"],
    ),
    # --- issue 23, the hostile round: stdout spoiled for Codex and under BASH_XTRACEFD,
    # functions from the environment unset ---
    (
        "launcher: functions named like its built-ins are unset",
        "hookman/project/launcher.sh",
        "unset -f printf read rm ls true\n",
        "\n",
        ["tests/bridge/test_attack_hostile_round4.py"],
    ),
    (
        "launcher: Codex's stdout is never taken as clean for a deny",
        "hookman/project/launcher.sh",
        '[ -n "$err" ] && [ -n "@spoiled@$codex" ]; }; then',
        '[ -n "$err" ] && [ -n "@spoiled@" ]; }; then',
        ["tests/bridge/test_attack_hostile_round4.py"],
    ),
    (
        "launcher: BASH_XTRACEFD spoils stdout",
        "hookman/project/launcher.py",
        '"spoiled": "${BASH_ENV-}${BASH_XTRACEFD-}",',
        '"spoiled": "${BASH_ENV-}",',
        ["tests/bridge/test_attack_hostile_round4.py"],
    ),
    # --- issue 24, item 1 (subs): subscriptions learned from the code at every sync; a hook
    # that does not load stops it, nothing written ---
    (
        "subscriptions: a hook whose factory fails or hangs stops the sync",
        "hookman/install/learning.py",
        "            raise _refusal(hook.name, _reason(hook.name, outcome), outcome)\n",
        "            continue\n",
        ["tests/commands/test_subscriptions_learned.py"],
    ),
    (
        "subscriptions: a hook with a syntax error stops the sync",
        "hookman/install/learning.py",
        '            raise _refusal(hook.name, f"the hook {hook.name!r} {problem}")\n',
        "            pass\n",
        ["tests/commands/test_subscriptions_learned.py"],
    ),
    (
        "subscriptions: a factory over its timeout is killed",
        "hookman/hooks/subscriptions.py",
        "        if now - progress.since > timeout:\n",
        "        if False:\n",
        ["tests/commands/test_subscriptions_learned.py"],
    ),
    (
        "subscriptions: a hook depends on the helpers the hooks before it imported",
        "hookman/hooks/subscriptions.py",
        "sources = sorted((new | earlier) - others)",
        "sources = sorted(new - others)",
        ["tests/hooks/test_subscriptions.py"],
    ),
    (
        "subscriptions: only a hook that loaded is cached",
        "hookman/hooks/subscriptions.py",
        "            if _is_whole(done[request.name]):\n",
        "            if True:\n",
        ["tests/hooks/test_subscriptions.py"],
    ),
    # --- end of issue 24, item 1
    # --- issue 24, item 3: a plugin carries what its hooks import (hookman/plugin/) ---
    (
        "plugin: build loads every hook from the staged plugin before moving it in",
        "hookman/plugin/build.py",
        "        check_plugin_loads(staging / RUNNER_DIR, MANIFEST_NAME, LIB_DIR, project_dir)\n",
        "        pass\n",
        ["tests/plugin/test_build_repo.py"],
    ),
    (
        "plugin: a hook loading a project module from outside the plugin is refused",
        "hookman/plugin/load_check.py",
        "        if outside:\n",
        "        if False:\n",
        ["tests/plugin/test_build_repo.py"],
    ),
    (
        "plugin: a repository's store copy changed since its fetch is not carried",
        "hookman/plugin/repo_trees.py",
        "    if changed is None or changed:\n",
        "    if False:\n",
        ["tests/plugin/test_build_repo.py"],
    ),
    (
        "plugin: a carried repository's modules are imported through the digest check",
        "hookman/plugin/repo_trees.py",
        '            "digests": store.module_digests(url, commit),\n',
        '            "digests": None,\n',
        ["tests/plugin/test_build_repo.py"],
    ),
    (
        "plugin: a carried repository's tree resolves beside the manifest",
        "hookman/bridge/manifest_reader.py",
        "        hook.package_root = os.path.join(base, hook.package_root)\n",
        "        pass\n",
        ["tests/plugin/test_build_repo.py"],
    ),
    # issue 24 moved: a project that moved on since `hookman install` (bridge/project_moved.py)
    (
        "moved: a guarded event of a changed project denies",
        "hookman/bridge/run_command.py",
        "if change is not None and (self.guarded or self.gates_prompt):",
        "if False:",
        _MOVED_TESTS,
    ),
    (
        "moved: the pins count as well as hookman.toml",
        "hookman/bridge/project_moved.py",
        "changed = [name for name in KEYS if recorded.get(name) != now[name]]",
        "changed = [name for name in KEYS[:1] if recorded.get(name) != now[name]]",
        _MOVED_TESTS,
    ),
    (
        "moved: an unreadable hookman.toml is a change",
        "hookman/bridge/project_moved.py",
        "    except OSError:\n        return UNREADABLE\n",
        "    except OSError:\n        return None\n",
        _MOVED_TESTS,
    ),
    (
        "moved: a gone hookman.toml is a change",
        "hookman/bridge/project_moved.py",
        "    if now[CONFIG_KEY] is None:  # no hookman.toml: the pins do not matter any more\n",
        "    if now[CONFIG_KEY] is None:\n        return None\n    if False:\n",
        _MOVED_TESTS,
    ),
    (
        "moved: only a comparison that found no change is remembered",
        "hookman/bridge/project_moved.py",
        "    if changed:\n        return ProjectChange(recorded, now, changed)\n",
        "    if checked is not None:\n        _write_checked(state_dir, checked)\n    if changed:\n        return ProjectChange(recorded, now, changed)\n",
        _MOVED_TESTS,
    ),
    (
        "moved: the remembered stat holds the inode and the times",
        "hookman/bridge/project_moved.py",
        'f"{found.st_dev} {found.st_ino} {found.st_mode} {found.st_size} "\n        f"{found.st_mtime_ns} {found.st_ctime_ns}"',
        'f"{found.st_size}"',
        _MOVED_TESTS,
    ),
    (
        "moved: install records what it wrote",
        "hookman/install/sync.py",
        "    manifest[INSTALLED_FROM] = installed_from(",
        "    _unused = installed_from(",
        _MOVED_TESTS,
    ),
    # issue 24, hostile round: a copied (or moved) project never runs another's guards
    (
        "copied project: a guarded event of another project denies",
        "hookman/bridge/run_command.py",
        "        if foreign is not None and self.guarded:",
        "        if False:",
        ["tests/bridge/test_attack_issue24.py"],
    ),
    (
        "copied project: a directory outside the installed one is foreign",
        "hookman/bridge/project_moved.py",
        "        if parent == path:\n            return True\n",
        "        if parent == path:\n            return False\n",
        ["tests/bridge/test_project_moved.py", "tests/bridge/test_attack_issue24.py"],
    ),
    (
        "copied project: the installed directory gone is foreign",
        "hookman/bridge/project_moved.py",
        "    except OSError:\n        return True  # the project it was installed for is gone (moved)",
        "    except OSError:\n        return False",
        ["tests/bridge/test_project_moved.py"],
    ),
    (
        "learning: a data file the factory read is a source of the cache",
        "hookman/hooks/subscriptions.py",
        "    new |= {path for path in opened if os.path.isfile(path)}\n",
        "    new |= set()\n",
        ["tests/bridge/test_attack_issue24.py"],
    ),
    # issue 24 store: symlinks out of a hook repository, file names that are not UTF-8
    (
        "store: install refuses a module that is a symlink out of its repository",
        "hookman/hooks/repo_source.py",
        "    if linked_out:\n        raise linked_out_error(",
        "    if False:\n        raise linked_out_error(",
        _STORE_TESTS,
    ),
    (
        "store: a symlink out is a module leaving the tree",
        "hookman/hooks/store.py",
        "        if _leaves_tree(relative, text):\n            found.append(relative)",
        "        if False:\n            found.append(relative)",
        _STORE_TESTS,
    ),
    (
        "store: doctor names a module that is a symlink out",
        "hookman/doctor/findings_repos.py",
        "    if linked_out:\n        _add_linked_out(",
        "    if False:\n        _add_linked_out(",
        _STORE_TESTS,
    ),
    (
        "store: the runner names a symlink out, not a useless install",
        "hookman/runtime/verified_import.py",
        '    _refuse_link_out(repository.root, stem + ".py", base + ".py")\n',
        "",
        _STORE_TESTS,
    ),
    (
        "store: plugin build refuses a file name that is not UTF-8",
        "hookman/plugin/repo_trees.py",
        "    if unnamed:\n",
        "    if False:\n",
        _STORE_TESTS,
    ),
    # issue 24: the prompt gate (ARCHITECTURE.md), and a path hook's unwired guards
    (
        "gate: a changed project stops the prompt",
        "hookman/bridge/run_command.py",
        "if change is not None and (self.guarded or self.gates_prompt):",
        "if change is not None and self.guarded:",
        _GATE_TESTS,
    ),
    (
        "gate: a path hook's unwired guard denies or stops",
        "hookman/bridge/run_command.py",
        "        if self._drifted(result):",
        "        if False and self._drifted(result):",
        _GATE_TESTS,
    ),
    (
        "gate: the gate is UserPromptSubmit",
        "hookman/bridge/run_command.py",
        "            self.event == PROMPT_GATE_EVENT\n",
        "            self.event == 'X'\n",
        _GATE_TESTS,
    ),
    (
        "drift: a guard subscription the record lacks counts",
        "hookman/bridge/guard_drift.py",
        "    if subscription not in hook.events:\n        return None",
        "    if subscription not in hook.events:\n        return ()",
        _GATE_TESTS,
    ),
    (
        "drift: a tool the record lacks counts",
        "hookman/bridge/guard_drift.py",
        "    return tuple(name for name in asked if name not in recorded)",
        "    return ()",
        _GATE_TESTS,
    ),
    (
        "drift: a drift is never remembered as checked",
        "hookman/bridge/guard_drift.py",
        "    if not found and key is not None:",
        "    if key is not None:",
        _GATE_TESTS,
    ),
    (
        "gate: install writes the gate entry",
        "hookman/project/install_plan.py",
        "        prompt_gate\n        and bool(entries or async_entries)",
        "        False\n        and bool(entries or async_entries)",
        _GATE_TESTS,
    ),
    (
        "gate: the stop answer stops",
        "hookman/bridge/protocol.py",
        'return {"continue": False, "stopReason": reason}',
        'return {"continue": True, "stopReason": reason}',
        _GATE_TESTS,
    ),
    (
        "launcher: its own deny also stops for Qwen Code (a later allow cannot undo it)",
        "hookman/project/launcher-stop-deny.sh",
        '@indent@[ -n "$stops" ] && [ "$channel" = @channel_out@ ]',
        '@indent@false && [ "$channel" = @channel_out@ ]',
        ["tests/project/test_launcher.py"],
    ),
    (
        "launcher: only the agents that keep continue: false get it",
        "hookman/project/launcher.sh",
        "*) codex= stops= ;;",
        "*) codex= stops=1 ;;",
        ["tests/project/test_launcher.py"],
    ),
    (
        "agent answer: Qwen Code's deny also stops",
        "hookman/bridge/agent_answer.py",
        'if channels.get("stop"):  # Qwen Code: a later hook\'s allow cannot undo this',
        "if False:",
    ),
]
TESTS = [  # the quickest to kill most mutants first (-x stops at the first failure)
    "tests/bridge",
    "tests/project/test_launcher.py",
    "tests/commands/test_install.py",
    "tests/commands/test_fire.py",
    "tests/project/test_manifest.py",
    "tests/project/test_config.py",
    "tests/runtime",
    "tests/hooks/test_repository.py",
    "tests/commands/test_repo_hooks.py",
    "tests/plugin",
]


def main() -> int:
    only = sys.argv[1:]
    survived = 0
    for index, (name, path, old, new, *tests) in enumerate(MUTATIONS):
        if only and str(index) not in only:
            continue
        mutant = Mutant(name, path, old, new, tuple(tests[0]) if tests else ())
        verdict = run_mutant(f"{index:2}", mutant, TESTS)
        survived += verdict != "killed"
    return 1 if survived else 0


if __name__ == "__main__":
    raise SystemExit(main())
