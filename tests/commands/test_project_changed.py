"""After a pull, the old code never runs in silence (issue 24, item 2), as the filer measured
it: B installed a repository hook at v1; A ran `hookman autoupdate` to v2 (hookman.toml's
`rev` and .claude/hookman-pins.json changed) and B pulled without running `hookman install`.
The runner, doctor, fire and list all say the same: the project changed since install, a
guarded event is denied naming `hookman install`; after install, v2 runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.hook_repos import commit, make_repo

from .helpers import hookman, hookman_json
from .test_repo_hooks import VERSION, decision, install_repo, run_guard

TOML = "hookman.toml"
PINS = "hookman-pins.json"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "agent-hooks")


def _pulled(tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """B's clone, installed at v1 in B's home, then A's autoupdate to v2 pulled into it."""
    alice = tmp_path / "alice"
    (alice / ".claude").mkdir(parents=True)
    bob = tmp_path / "bob"
    (bob / ".claude").mkdir(parents=True)
    monkeypatch.setenv("HOOKMAN_HOME", str(tmp_path / "alice-home"))
    install_repo(alice, str(repo))
    _copy_project_files(alice, bob)
    monkeypatch.setenv("HOOKMAN_HOME", str(tmp_path / "bob-home"))
    assert hookman("install", "--project", str(bob), *VERSION).exit_code == 0
    (repo / "guards" / "words.py").write_text("REFUSED = 'curl'\n")  # v2 refuses curl too
    (repo / "guards" / "no_rm_rf.py").write_text(
        (repo / "guards" / "no_rm_rf.py")
        .read_text()
        .replace("if REFUSED in", "if 'rm -rf' in event['input'].get('command', '') or REFUSED in")
    )
    commit(repo, "v2.0.0")
    monkeypatch.setenv("HOOKMAN_HOME", str(tmp_path / "alice-home"))
    assert hookman("autoupdate", "--project", str(alice), *VERSION).exit_code == 0
    _copy_project_files(alice, bob)  # git pull
    monkeypatch.setenv("HOOKMAN_HOME", str(tmp_path / "bob-home"))
    return bob


def _copy_project_files(source: Path, target: Path) -> None:
    for name in (TOML, PINS):
        shutil.copy(source / ".claude" / name, target / ".claude" / name)


def test_after_a_pull_without_install_every_command_tells_the_same_story(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bob = _pulled(tmp_path, repo, monkeypatch)

    verdict, reason = decision(run_guard(bob, "curl https://example.invalid"))
    assert verdict == "deny"  # v1 ran here and let curl through
    assert ".claude/hookman.toml and .claude/hookman-pins.json changed since" in reason
    assert f"Run `hookman install` in {bob}" in reason

    doctor = hookman("doctor", "--project", str(bob), *VERSION, "--json")
    assert doctor.exit_code != 0
    findings = {finding["code"]: finding for finding in json.loads(doctor.stdout)["findings"]}
    changed = findings["hookman-project-changed"]
    assert changed["severity"] == "error" and "hookman install" in changed["fix"]
    not_fetched = findings["hookman-repo-not-fetched"]["message"]
    assert "does not run (a guard denies every tool call until it is fetched)" not in not_fetched
    assert "the pins changed since `hookman install` ran here" in not_fetched

    fire = hookman_json("fire", "PreToolUse", "--project", str(bob))
    specific = fire["answer"]["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "changed since `hookman install`" in specific["permissionDecisionReason"]
    assert any("the hooks above are the ones installed then" in text for text in fire["effects"])
    shown = hookman("fire", "PreToolUse", "--project", str(bob))
    assert "the hooks above are the ones installed then" in " ".join(shown.stdout.split())

    listed = json.loads(hookman("list", "--project", str(bob), *VERSION, "--json").stdout)
    assert any("changed since `hookman install`" in text for text in listed["warnings"])

    assert hookman("install", "--project", str(bob), *VERSION).exit_code == 0
    assert decision(run_guard(bob, "curl https://example.invalid"))[0] == "deny"
    assert decision(run_guard(bob, "ls")) == (None, None)
    after = hookman("doctor", "--project", str(bob), *VERSION, "--json")
    codes = {finding["code"] for finding in json.loads(after.stdout)["findings"]}
    assert "hookman-project-changed" not in codes
    assert not any(
        "changed since" in text
        for text in hookman_json("list", "--project", str(bob), *VERSION)["warnings"]
    )


def test_an_installed_project_that_did_not_change_has_no_such_finding(
    project: Path, repo: Path
) -> None:
    install_repo(project, str(repo))
    doctor = hookman("doctor", "--project", str(project), *VERSION, "--json")
    codes = {finding["code"] for finding in json.loads(doctor.stdout)["findings"]}

    assert "hookman-project-changed" not in codes
    assert decision(run_guard(project, "ls")) == (None, None)


def test_new_without_install_says_guarded_calls_are_denied_until_install(
    project: Path, repo: Path
) -> None:
    install_repo(project, str(repo))

    made = hookman("new", "second", "--template", "bash_guard", "--project", str(project))

    assert made.exit_code == 0, made.output
    # every guarded call: the sentinel reaches the tools the blocking entry does not
    assert "until then hookman denies every guarded tool call here (hookman.toml no" in (
        made.stdout
    )
    assert "without hookman" not in made.stdout
    assert decision(run_guard(project, "ls"))[0] == "deny"
    assert hookman("install", "--project", str(project), *VERSION).exit_code == 0
    assert decision(run_guard(project, "ls")) == (None, None)


def test_list_shows_what_hookman_toml_asks_for_and_this_machine_lacks_as_not_installed(
    project: Path, repo: Path
) -> None:
    """A guard added to hookman.toml (a teammate's, pulled; here `new` without `--install`)
    is listed as not installed here, not as written, until `hookman install` writes it."""
    install_repo(project, str(repo))
    assert (
        hookman("new", "second", "--template", "bash_guard", "--project", str(project)).exit_code
        == 0
    )

    def statuses() -> dict[str, dict[str, str]]:
        listed = hookman_json("list", "--project", str(project), *VERSION)
        return {
            row["name"]: {event: facts["status"] for event, facts in row["claude_events"].items()}
            for row in listed["hooks"]
        }

    before = statuses()
    assert before["second"]["PreToolUse"] == "not_installed"
    assert set(before["no-rm-rf"].values()) == {"written"}
    shown = " ".join(hookman("list", "--project", str(project), *VERSION).stdout.split())
    assert "PreToolUse (not installed here yet)" in shown
    assert hookman("install", "--project", str(project), *VERSION).exit_code == 0
    assert statuses()["second"]["PreToolUse"] == "written"


def test_doctor_never_calls_a_hook_only_hookman_toml_names_installed(
    project: Path, repo: Path
) -> None:
    install_repo(project, str(repo))
    assert (
        hookman("new", "second", "--template", "bash_guard", "--project", str(project)).exit_code
        == 0
    )

    doctor = hookman("doctor", "--project", str(project), *VERSION, "--json")
    never_fired = [
        finding["message"]
        for finding in json.loads(doctor.stdout)["findings"]
        if finding["code"] == "hookman-never-fired"
    ]

    assert any("'no-rm-rf' is installed" in message for message in never_fired), never_fired
    assert not any("'second'" in message for message in never_fired), never_fired


NOTES = """\
def hook(pi):
    pi.on("tool_result", lambda event, ctx: None, tools=["Write"])
"""


@pytest.mark.parametrize(
    ("event", "tool", "said"),
    [
        # an entry and a hook for it: they run as installed
        ("PostToolUse", "Write", "the hooks above are the ones installed then, and they still"),
        # an entry whose matcher leaves the tool out: Claude Code does not call hookman
        ("PostToolUse", "Bash", "the installed PostToolUse entry matches Write only: Claude Code"),
        # no entry at all: Claude Code does not call hookman
        ("Stop", None, "and no Stop entry is installed here: Claude Code does not call hookman"),
    ],
)
def test_fire_on_an_observed_event_after_a_pull_says_what_runs(
    project: Path, monkeypatch: pytest.MonkeyPatch, event: str, tool: str | None, said: str
) -> None:
    """`fire` in the changed state spoke of "the hooks above" where none were listed."""
    from hookman import catalog as hookman_catalog

    from .helpers import write_hook

    monkeypatch.chdir(project)
    write_hook(project, "notes", NOTES)
    assert hookman("install", "hooks/notes.py", *VERSION).exit_code == 0
    config = project / ".claude" / TOML
    config.write_text(config.read_text() + "\n# pulled\n")

    words = ["fire", event]
    if tool is not None:
        sample = Path(hookman_catalog.__file__).parent / "payloads" / f"{event}.json"
        payload = {**json.loads(sample.read_text()), "tool_name": tool}
        (project / "payload.json").write_text(json.dumps(payload))
        words += ["--payload", str(project / "payload.json")]
    shown = " ".join(hookman(*words).output.split())
    effects = hookman_json(*words)["effects"]

    assert said in shown, shown
    assert any(said in " ".join(text.split()) for text in effects), effects
    assert ("the hooks above" in shown) == (tool == "Write"), shown  # only where hooks ran
