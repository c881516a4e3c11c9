from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from hookman.errors import HookmanError
from hookman.hooks.subscriptions import Subscriptions, check_event_names, learn_subscriptions


def _hook(project: Path, source: str, name: str = "h.py") -> Path:
    path = project / "hooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return path


def test_learns_events_tools_and_commands_in_registration_order(project: Path) -> None:
    path = _hook(
        project,
        "def hook(pi):\n"
        "    pi.on('session_start', lambda e, c: None)\n"
        "    pi.on('tool_call', lambda e, c: None, tools=['Bash'])\n"
        "    pi.on('tool_call', lambda e, c: None, tools=['Edit', 'Bash'])\n"
        "    pi.on('PostToolUse', lambda e, c: None, tools=['Write'])\n"
        "    pi.register_command('hello', handler=lambda args, ctx: None)\n",
    )
    learned = learn_subscriptions("h", path, project)
    assert learned == Subscriptions(
        events=("session_start", "tool_call", "PostToolUse"),
        tools={"tool_call": ("Bash", "Edit"), "PostToolUse": ("Write",)},
        commands=("hello",),
    )


def test_a_handler_without_tools_widens_the_event_to_all_tools(project: Path) -> None:
    path = _hook(
        project,
        "def hook(pi):\n"
        "    pi.on('tool_call', lambda e, c: None, tools=['Bash'])\n"
        "    pi.on('tool_call', lambda e, c: None)\n",
    )
    assert learn_subscriptions("h", path, project).tools == {}


def test_the_hooks_prints_do_not_corrupt_the_answer(project: Path) -> None:
    path = _hook(
        project,
        "import os, sys\n"
        "print('{not json')\n"
        "os.write(1, b'raw fd write')\n"
        "def hook(pi):\n"
        "    print('inside the factory')\n"
        "    sys.stdout.write('more')\n"
        "    pi.on('Stop', lambda e, c: None)\n",
    )
    assert learn_subscriptions("h", path, project).events == ("Stop",)


def test_the_factory_runs_in_the_project_directory(project: Path) -> None:
    path = _hook(
        project,
        "import os\n"
        "def hook(pi):\n"
        "    if os.path.isdir('.claude'):\n"
        "        pi.on('Stop', lambda e, c: None)\n",
    )
    assert learn_subscriptions("h", path, project).events == ("Stop",)


def test_a_hanging_factory_is_a_clear_error_within_the_timeout(project: Path) -> None:
    path = _hook(project, "import time\ndef hook(pi):\n    time.sleep(60)\n")
    started = time.monotonic()
    with pytest.raises(HookmanError) as error:
        learn_subscriptions("sleepy", path, project, timeout=1.0)
    assert time.monotonic() - started < 5
    assert "'sleepy'" in error.value.message
    assert "did not finish within 1 seconds" in error.value.message


def test_a_factory_that_raises_reports_the_load_error(project: Path) -> None:
    path = _hook(project, "def hook(pi):\n    raise RuntimeError('no config file')\n")
    with pytest.raises(HookmanError) as error:
        learn_subscriptions("broken", path, project)
    assert "failed to load: " in error.value.message
    assert "no config file" in error.value.message
    assert "Failed to load hook" not in error.value.message  # said once


def test_a_module_without_a_factory_is_refused(project: Path) -> None:
    path = _hook(project, "x = 1\n")
    with pytest.raises(HookmanError, match="callable 'hook'"):
        learn_subscriptions("empty", path, project)


def test_a_hook_that_kills_its_process_is_a_clear_error(project: Path) -> None:
    path = _hook(project, "import os\nos._exit(7)\n")
    with pytest.raises(HookmanError) as error:
        learn_subscriptions("exits", path, project)
    assert "crashed" in error.value.message
    assert "exit code 7" in error.value.message


def test_unknown_event_names_are_refused_with_a_suggestion() -> None:
    with pytest.raises(HookmanError) as error:
        check_event_names("guard", ["tool_call", "PreToolUze"], allow_unknown=False)
    assert "'PreToolUze'" in error.value.message
    assert "did you mean 'PreToolUse'?" in (error.value.hint or "")
    assert error.value.exit_code == 1


def test_unknown_event_names_pass_when_allowed() -> None:
    assert check_event_names("g", ["FutureEvent", "Stop"], allow_unknown=True) == ["FutureEvent"]
    assert check_event_names("g", ["Stop", "tool_call"], allow_unknown=False) == []


def test_an_empty_tool_name_is_refused_naming_the_hook(project: Path) -> None:
    path = _hook(project, "def hook(pi):\n    pi.on('tool_call', lambda e, c: None, tools=[''])\n")
    with pytest.raises(HookmanError) as error:
        learn_subscriptions("odd", path, project)
    assert "'odd'" in error.value.message
    assert "empty tool name" in error.value.message


def test_a_factory_that_forks_is_learned_at_once_and_its_helper_killed(project: Path) -> None:
    pid_file = project / "helper.pid"
    path = _hook(
        project,
        "import os, time\n"
        "def hook(pi):\n"
        "    pi.on('tool_call', lambda e, c: None)\n"
        "    helper = os.fork()\n"
        "    if helper == 0:\n"
        "        time.sleep(30)\n"
        "        os._exit(0)\n"
        f"    open({str(pid_file)!r}, 'w').write(str(helper))\n",
    )
    started = time.monotonic()
    learned = learn_subscriptions("forker", path, project, timeout=20.0)
    assert time.monotonic() - started < 10  # not held up by the helper's inherited output
    assert learned.events == ("tool_call",)
    helper = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _is_running(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _is_running(helper)


def _is_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a killed helper waiting for its (new) parent to reap it is not running
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def _counting_children(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    import hookman.hooks.subscriptions as subscriptions

    started: list[str] = []
    real = subscriptions._run_batch

    def run_batch(requests: list, *args: object) -> tuple:
        started.append(", ".join(str(request.module_path) for request in requests))
        return real(requests, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(subscriptions, "_run_batch", run_batch)
    return started


def test_an_unchanged_hook_is_learned_once(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started = _counting_children(monkeypatch)
    path = _hook(
        project, "def hook(pi):\n    pi.on('tool_call', lambda e, c: None, tools=['Bash'])\n"
    )
    first = learn_subscriptions("h", path, project)
    again = learn_subscriptions("h", path, project)
    assert again == first == Subscriptions(events=("tool_call",), tools={"tool_call": ("Bash",)})
    assert len(started) == 1
    path.write_text("def hook(pi):\n    pi.on('Stop', lambda e, c: None)\n")
    assert learn_subscriptions("h", path, project).events == ("Stop",)
    assert len(started) == 2


def test_a_changed_helper_module_is_learned_again(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _counting_children(monkeypatch)
    helper = project / "hooks" / "events_for_guard.py"
    helper.parent.mkdir(exist_ok=True)
    helper.write_text("EVENTS = ['Stop']\n")
    source = (
        "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n"
        "import events_for_guard\n"
        "def hook(pi):\n    for e in events_for_guard.EVENTS:\n"
        "        pi.on(e, lambda event, ctx: None)\n"
    )
    path = _hook(project, source)
    assert learn_subscriptions("h", path, project).events == ("Stop",)
    assert learn_subscriptions("h", path, project).events == ("Stop",)
    helper.write_text("EVENTS = ['Stop', 'tool_call']\n")
    assert learn_subscriptions("h", path, project).events == ("Stop", "tool_call")
    assert len(started) == 2


def test_a_failing_hook_is_never_cached(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started = _counting_children(monkeypatch)
    path = _hook(project, "def hook(pi):\n    raise RuntimeError('no')\n")
    for _ in range(2):
        with pytest.raises(HookmanError):
            learn_subscriptions("h", path, project)
    assert len(started) == 2


def test_an_empty_tools_list_in_the_hook_is_refused_like_one_in_hookman_toml(
    project: Path,
) -> None:
    path = _hook(project, "def hook(pi):\n    pi.on('tool_call', lambda e, c: None, tools=[])\n")
    with pytest.raises(HookmanError, match=r"tools=\[\] names no tool"):
        learn_subscriptions("odd", path, project)


def test_one_child_learns_many_hooks_and_names_the_one_that_crashed_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookman.hooks.subscriptions import LearnRequest, learn_many

    started = _counting_children(monkeypatch)
    first = _hook(project, "def hook(pi):\n    pi.on('Stop', lambda e, c: None)\n", "first.py")
    crash = _hook(project, "import os\ndef hook(pi):\n    os._exit(3)\n", "crash.py")
    last = _hook(project, "def hook(pi):\n    pi.on('tool_call', lambda e, c: None)\n", "last.py")
    requests = [
        LearnRequest("first", first),
        LearnRequest("crash", crash),
        LearnRequest("last", last),
    ]
    stopped = learn_many(requests, project)
    assert stopped["first"] == Subscriptions(events=("Stop",))
    assert isinstance(stopped["crash"], HookmanError)
    assert "loading the hook 'crash'" in stopped["crash"].message
    assert "last" not in stopped  # never reached
    assert len(started) == 1
    learned = learn_many(requests, project, stop_at_first_failure=False)
    assert learned["last"] == Subscriptions(events=("tool_call",))
    assert len(started) == 3  # first was cached; crash again, then a child for last


def test_a_helper_shared_by_hooks_learned_together_invalidates_each_of_them(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookman.hooks.subscriptions import LearnRequest, learn_many

    started = _counting_children(monkeypatch)
    helper = project / "hooks" / "shared_events.py"
    helper.parent.mkdir(exist_ok=True)
    helper.write_text("EVENTS = ['Stop']\n")
    source = (
        "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n"
        "import shared_events\n"
        "def hook(pi):\n    for e in shared_events.EVENTS:\n"
        "        pi.on(e, lambda event, ctx: None)\n"
    )
    requests = [LearnRequest(name, _hook(project, source, f"{name}.py")) for name in ("a", "b")]
    assert {name: s.events for name, s in learn_many(requests, project).items()} == {  # type: ignore[union-attr]
        "a": ("Stop",),
        "b": ("Stop",),  # b imported the helper a had imported already: it depends on it too
    }
    helper.write_text("EVENTS = ['SessionEnd']\n")
    again = learn_many(requests, project)
    assert [again[name].events for name in ("a", "b")] == [("SessionEnd",)] * 2  # type: ignore[union-attr]
    assert len(started) == 2
