"""A team's day, end to end in the real clients (issue 24, "Done when"): two homes, two
clones, one hook repository whose guard imports a sibling module, Claude Code beside Codex,
a pull without install, a hook whose code gains a subscription, a plugin built from it.

Each step is a module-scoped fixture that acts and records (fixtures build on each other in
the flow's order, so a worker that runs only a later step builds the earlier states first);
each test asserts on one step's record: what the real client did (the model read a deny, a
command did or did not run) and that `install`, `list --json`, `fire --json` and
`doctor --json` tell the same story in that state.

1. The hook repository: `guard` (`from .words import BAD`), tagged v1.
2. Home A: `hookman install guard --repo URL --rev v1`, a project hook `notes`, the Codex
   opt-in (`hookman install --agent codex`); commit hookman.toml, the pins, the hook; push.
3. Home B (a HOME, a hookman state and store of its own): clone, `hookman install`: the guard
   denies in Claude Code and in Codex. Home C has no `codex` on PATH: install and doctor are
   quiet about Codex (information, exit 0).
4. v2 (one word more, and a new `agent_start` subscription); A autoupdates and pushes; B
   pulls without install: neither client runs v1 in silence (a guarded call is denied naming
   `hookman install`), and list, doctor and fire say the project changed since install; B
   installs: v2 runs.
5. A's `notes` gains a subscription and a hand-written entry without `events` arrives; B's
   bare install wires both; list and doctor show no gap.
6. `hookman plugin build` from B's project; on a machine without hookman (home D) the real
   client runs the plugin, and the model reads the guard's own deny.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from .codex_harness import CodexRun
from .harness import ClaudeRun, NetworkIsolation
from .mock_anthropic import MockAnthropic, bash, say
from .mock_openai import MockOpenAI, shell
from .team_flow_support import (
    HELLO,
    HELLO_ENTRY,
    NOTES_V1,
    NOTES_V2,
    WORDS_V1,
    WORDS_V2,
    HookRepository,
    Machine,
    Story,
    Team,
    claude_denial,
    clients,
    codex_output,
    run_git,
    text_of,
)

pytestmark = pytest.mark.e2e

PLUGIN = "team-guards"
# What v1's guard and the notes hook need in settings.local.json (Claude Code 2.1.332)
WRITTEN_V1 = {"PreToolUse", "PreSkillShellCommand", "SessionStart"}
GATE = {"UserPromptSubmit"}  # every installed project's prompt gate: no hook's event in list
INSTALL = "hookman install"
DENIED = ("denied", "failed-closed")  # fire's outcomes for a deny (hookman's own: failed-closed)


def written(hook: dict, event: str) -> bool:
    """Whether `list --json` says the hook's entry for `event` is written."""
    return hook["claude_events"].get(event, {}).get("status") == "written"


def blocked_by(reason: str) -> str:
    """What Codex's model reads for a command hookman denied."""
    return f"Command blocked by PreToolUse hook: {reason}"


@pytest.fixture(scope="module")
def team(
    mock_api: MockAnthropic,
    network_isolation: NetworkIsolation,
    mock_openai: MockOpenAI,
    tmp_path_factory: pytest.TempPathFactory,
) -> Team:
    """Step 1: the hook repository at v1, and the project's empty origin."""
    claude, codex = clients()
    workdir = tmp_path_factory.mktemp("team")
    hook_repo = HookRepository(workdir / "agent-hooks", workdir / "home-maintainer")
    hook_repo.release("v1", WORDS_V1)
    origin = workdir / "origin.git"
    origin.mkdir()
    run_git(origin, hook_repo.home, "init", "-q", "--bare", "-b", "main")
    return Team(workdir, claude, codex, mock_api, mock_openai, network_isolation, origin, hook_repo)


@dataclass
class Step2:
    a: Machine
    installed: subprocess.CompletedProcess[str]
    opted_in: subprocess.CompletedProcess[str]
    run: ClaudeRun
    victim: Path
    let_through: Path
    story: Story
    committed: list[str]
    pins: dict
    config: str


@pytest.fixture(scope="module")
def step2(team: Team) -> Step2:
    a = Machine(team, "home-a")
    a.clone(team.origin)
    a.write("README.md", "the team's project\n")
    a.git("add", "README.md")
    a.git("commit", "-q", "-m", "start")
    a.git("push", "-q", "origin", "HEAD:main")
    url = team.hook_repo.url
    installed = a.hookman("install", "guard", "--repo", url, "--rev", "v1", check=False)
    a.write(".claude/hooks/notes.py", NOTES_V1)
    a.hookman("install", ".claude/hooks/notes.py")
    opted_in = a.hookman("install", "--agent", "codex", check=False)
    victim, let_through = a.victim("victim-2"), a.scratch / "made-2.txt"
    rm_rf = f"rm -rf {victim}"
    run = a.run_claude(
        "tidy up", turns=[bash(rm_rf), bash(f"echo TEAM-BLOCK-2 > {let_through}"), say("ok")]
    )
    story = a.story(rm_rf)
    committed = a.commit_and_push("hookman: the team guard at v1, for Claude Code and Codex")
    config = (a.root / ".claude" / "hookman.toml").read_text(encoding="utf-8")
    return Step2(
        a, installed, opted_in, run, victim, let_through, story, committed, a.pins(), config
    )


@dataclass
class Step3:
    b: Machine
    installed: subprocess.CompletedProcess[str]
    run: ClaudeRun
    codex_run: CodexRun
    victim: Path
    codex_made: Path
    story: Story
    pins: dict
    c: Machine
    c_installed: subprocess.CompletedProcess[str]
    c_story: Story


@pytest.fixture(scope="module")
def step3(team: Team, step2: Step2) -> Step3:
    b = Machine(team, "home-b")
    b.clone(team.origin)
    installed = b.hookman("install", check=False)
    victim, codex_made = b.victim("victim-3"), b.scratch / "made-codex-3.txt"
    rm_rf, codex_command = f"rm -rf {victim}", f"echo TEAM-BLOCK-1 > {codex_made}"
    run = b.run_claude("tidy up", turns=[bash(rm_rf), say("ok")])
    codex_run = b.run_codex("note", turns=[shell(codex_command), say("done")])
    story = b.story(rm_rf, codex_command=codex_command)
    pins = b.pins()
    c = Machine(team, "home-c", codex_installed=False)
    c.clone(team.origin)
    c_installed = c.hookman("install", check=False)
    c_story = c.story(rm_rf)
    return Step3(
        b, installed, run, codex_run, victim, codex_made, story, pins, c, c_installed, c_story
    )


@dataclass
class Step4:
    v2: str
    autoupdated: subprocess.CompletedProcess[str]
    stale_run: ClaudeRun
    stale_codex_run: CodexRun
    stale_made: Path
    stale_codex_made: Path
    stale: Story
    installed: subprocess.CompletedProcess[str]
    run: ClaudeRun
    codex_run: CodexRun
    made: Path
    codex_made: Path
    story: Story


@pytest.fixture(scope="module")
def step4(team: Team, step2: Step2, step3: Step3) -> Step4:
    a, b = step2.a, step3.b
    v2 = team.hook_repo.release("v2", WORDS_V2)
    autoupdated = a.hookman("autoupdate", check=False)
    a.commit_and_push("hookman: autoupdate the team guard")
    b.pull()
    stale_made, stale_codex_made = b.scratch / "made-4.txt", b.scratch / "made-codex-4.txt"
    command = f"echo TEAM-BLOCK-2 > {stale_made}"
    codex_command = f"echo TEAM-BLOCK-2 > {stale_codex_made}"
    stale_run = b.run_claude("note", turns=[bash(command), say("ok")])
    stale_codex_run = b.run_codex("note", turns=[shell(codex_command), say("done")])
    stale = b.story(command, codex_command=codex_command)
    installed = b.hookman("install", check=False)
    made, codex_made = b.scratch / "made-4-installed.txt", b.scratch / "made-codex-4-installed.txt"
    command, codex_command = f"echo TEAM-BLOCK-2 > {made}", f"echo TEAM-BLOCK-2 > {codex_made}"
    run = b.run_claude("note", turns=[bash(command), say("ok")])
    codex_run = b.run_codex("note", turns=[shell(codex_command), say("done")])
    story = b.story(command, codex_command=codex_command)
    return Step4(
        v2,
        autoupdated,
        stale_run,
        stale_codex_run,
        stale_made,
        stale_codex_made,
        stale,
        installed,
        run,
        codex_run,
        made,
        codex_made,
        story,
    )


@dataclass
class Step5:
    a_installed: subprocess.CompletedProcess[str]
    a_story: Story
    committed: list[str]
    installed: subprocess.CompletedProcess[str]
    run: ClaudeRun
    made: Path
    story: Story
    prompt_fired: dict


@pytest.fixture(scope="module")
def step5(team: Team, step2: Step2, step3: Step3, step4: Step4) -> Step5:
    a, b = step2.a, step3.b
    a.write(".claude/hooks/notes.py", NOTES_V2)
    a.write(".claude/hooks/hello.py", HELLO)
    config = a.root / ".claude" / "hookman.toml"
    config.write_text(config.read_text(encoding="utf-8") + HELLO_ENTRY, encoding="utf-8")
    a_installed = a.hookman("install", check=False)
    made = b.scratch / "made-5.txt"
    command = f"echo TEAM-BLOCK-5 > {made}"
    a_story = a.story(command)
    committed = a.commit_and_push("hooks: notes reads the prompt; hello")
    b.pull()
    installed = b.hookman("install", check=False)
    run = b.run_claude("hello team", turns=[bash(command), say("ok")])
    story = b.story(command)
    _rc, prompt_fired, _err = b.json_of("fire", "UserPromptSubmit")
    return Step5(a_installed, a_story, committed, installed, run, made, story, prompt_fired)


@dataclass
class Step6:
    built: subprocess.CompletedProcess[str]
    plugin: Path
    run: ClaudeRun | None
    victim: Path
    doctor_rc: int
    doctor: dict


@pytest.fixture(scope="module")
def step6(team: Team, step3: Step3, step5: Step5) -> Step6:
    b = step3.b
    marketplace = team.workdir / "team-marketplace"
    plugin = marketplace / "plugins" / PLUGIN
    build = ["plugin", "build", str(plugin), "--name", PLUGIN, "--hooks", "guard"]
    built = b.hookman(*build, "--marketplace", str(marketplace), check=False)
    d = Machine(team, "home-d", codex_installed=False, hookman_on_path=False)
    victim = d.victim("victim-6")
    if built.returncode != 0:
        return Step6(built, plugin, None, victim, -1, {})
    d.claude_cli("plugin", "marketplace", "add", str(marketplace))
    name = json.loads((marketplace / ".claude-plugin" / "marketplace.json").read_text())["name"]
    d.claude_cli("plugin", "install", f"{PLUGIN}@{name}", "--scope", "user")
    run = d.run_claude(
        "tidy up",
        turns=[
            bash(f"rm -rf {victim}"),
            bash("echo harmless-$((40+2))"),
            say("ok"),
        ],
    )
    doctor_rc, doctor, _err = d.json_of("doctor", "--probe-commands")
    return Step6(built, plugin, run, victim, doctor_rc, doctor)


@dataclass
class Step7:
    refusals: dict[str, subprocess.CompletedProcess[str]]
    changed: dict[str, list[str]]  # per case: the project files it changed


BROKEN = """\
def hook(pi):
    raise RuntimeError("broken on purpose")
"""
BROKEN_ENTRY = """
[[hooks]]
name = "broken"
path = ".claude/hooks/broken.py"
"""


@pytest.fixture(scope="module")
def step7(team: Team, step3: Step3, step6: Step6) -> Step7:
    """Bad input on B's machine, last: a repository that cannot be reached, a hook that
    cannot load given to install, and the same hook written into hookman.toml by hand."""
    b = step3.b
    files = [".claude/hookman.toml", ".claude/hookman-pins.json"]
    files += [".claude/settings.local.json", ".codex/hooks.json"]

    def snapshot() -> dict[str, bytes]:
        return {name: (b.root / name).read_bytes() for name in files}

    refusals, changed = {}, {}
    before = snapshot()
    missing = f"file://{team.workdir / 'no-such-repo'}"
    refusals["unreachable"] = b.hookman(
        "install", "x", "--repo", missing, "--rev", "v1", check=False
    )
    changed["unreachable"] = [name for name, data in snapshot().items() if before[name] != data]
    b.write(".claude/hooks/broken.py", BROKEN)
    refusals["cannot load"] = b.hookman("install", ".claude/hooks/broken.py", check=False)
    changed["cannot load"] = [name for name, data in snapshot().items() if before[name] != data]
    config = b.root / ".claude" / "hookman.toml"
    config.write_bytes(before[".claude/hookman.toml"] + BROKEN_ENTRY.encode())
    by_hand = snapshot()
    refusals["cannot load, by hand"] = b.hookman("install", check=False)
    changed["cannot load, by hand"] = [n for n, data in snapshot().items() if by_hand[n] != data]
    config.write_bytes(before[".claude/hookman.toml"])
    return Step7(refusals, changed)


# ---- 1. the hook repository


def test_step1_the_hook_repository_offers_a_guard_that_imports_its_sibling(team: Team) -> None:
    repo = team.hook_repo
    assert "v1" in run_git(repo.root, repo.home, "tag", "--list").split()
    guard = run_git(repo.root, repo.home, "show", "v1:guards/guard.py")
    assert "from .words import BAD" in guard
    assert run_git(repo.root, repo.home, "show", "v1:guards/words.py") == WORDS_V1.strip()


# ---- 2. home A installs the repository hook at v1, opts Codex in, commits, pushes


def test_step2_home_a_installs_at_v1_for_both_agents_and_commits_what_the_team_needs(
    step2: Step2, team: Team
) -> None:
    a, url = step2.a, team.hook_repo.url
    assert step2.installed.returncode == 0, step2.installed.stderr
    v1 = run_git(team.hook_repo.root, team.hook_repo.home, "rev-parse", "v1")
    assert f"fetched {url} at v1 ({v1[:12]}) into the store" in step2.installed.stdout
    assert f"{url} v1: pinned to {v1[:12]}" in step2.installed.stdout
    assert step2.pins["pins"] == [{"repo": url, "rev": "v1", "commit": v1, "ref": "tag"}]
    assert step2.opted_in.returncode == 0, step2.opted_in.stderr
    assert 'agents = ["claude", "codex"]' in step2.config
    assert f"trusted in Codex: {a.hooks_path}" in step2.opted_in.stdout
    assert sorted(step2.committed) == [
        ".claude/hookman-pins.json",
        ".claude/hookman.toml",
        ".claude/hooks/.gitignore",
        ".claude/hooks/notes.py",
    ]


def test_step2_in_home_a_claude_code_runs_v1_and_every_command_agrees(step2: Step2) -> None:
    reads = claude_denial(step2.run, 0)
    assert "TEAM-GUARD v1: rm -rf is not allowed" in reads, step2.run.describe()
    assert step2.victim.is_dir()
    assert step2.let_through.exists(), "v1 lets TEAM-BLOCK-2 through"
    assert step2.run.model_saw("TEAM-NOTES: read the README"), step2.run.describe()
    story = step2.story
    guard = story.hook("guard")
    assert guard["source"]["commit"] == step2.pins["pins"][0]["commit"]
    assert guard["claude_events"]["PreToolUse"]["status"] == "written", guard
    assert story.listed_written() == WRITTEN_V1 and story.settings_events == WRITTEN_V1 | GATE
    assert (story.doctor_rc, story.loud()) == (0, []), json.dumps(story.loud(), indent=1)
    assert story.fired["outcome"] in DENIED, story.fired
    assert story.fire_reads() == reads


# ---- 3. home B clones and installs: both agents guarded; home C has no Codex


def test_step3_home_b_clones_installs_and_the_guard_denies_in_claude_code_and_codex(
    step3: Step3, step2: Step2
) -> None:
    assert step3.installed.returncode == 0, step3.installed.stderr
    assert step3.pins == step2.pins
    assert f"trusted in Codex: {step3.b.hooks_path}" in step3.installed.stdout
    reads = claude_denial(step3.run, 0)
    assert "TEAM-GUARD v1: rm -rf is not allowed" in reads, step3.run.describe()
    assert step3.victim.is_dir()
    codex_reads = codex_output(step3.codex_run, 0)
    expected = blocked_by("TEAM-GUARD v1: TEAM-BLOCK-1 is not allowed")
    assert codex_reads.startswith(expected), step3.codex_run.describe()
    assert not step3.codex_made.exists(), step3.codex_run.describe()
    story = step3.story
    assert story.hook("guard")["source"]["commit"] == step2.pins["pins"][0]["commit"]
    assert story.listed["codex"]["hooks"]["guard"]["events"] == ["PreToolUse"], story.listed
    assert story.listed_written() == WRITTEN_V1 and story.settings_events == WRITTEN_V1 | GATE
    assert (story.doctor_rc, story.loud()) == (0, []), json.dumps(story.loud(), indent=1)
    assert story.fire_reads() == reads
    assert story.fire_reads_codex() == codex_reads


def test_step3_a_home_without_codex_installs_quietly_and_doctor_passes(step3: Step3) -> None:
    c, installed = step3.c, step3.c_installed
    said = installed.stdout + installed.stderr
    assert installed.returncode == 0, said
    assert "Codex CLI: not installed here (no `codex` on PATH)" in said
    assert "warning" not in said.lower(), said
    assert not c.hooks_path.exists()
    story = step3.c_story
    assert (story.doctor_rc, story.loud()) == (0, []), json.dumps(story.loud(), indent=1)
    codes = {f["code"]: f["severity"] for f in story.doctor["findings"]}
    assert codes.get("codex-not-installed") == "info", story.doctor["findings"]
    assert story.listed_written() == WRITTEN_V1 and story.settings_events == WRITTEN_V1 | GATE


# ---- 4. A autoupdates to v2 and pushes; B pulls without install, then installs


def test_step4_autoupdate_in_home_a_says_what_it_fetched_and_pinned(
    step4: Step4, team: Team
) -> None:
    url, out = team.hook_repo.url, step4.autoupdated.stdout
    assert step4.autoupdated.returncode == 0, step4.autoupdated.stderr
    assert out.splitlines()[0] == f"{url}: v1 -> v2", out
    assert f"fetched {url} at v2 ({step4.v2[:12]}) into the store" in out, out
    assert f"{url} v2: pinned to {step4.v2[:12]}" in out, out


def test_step4_after_a_pull_without_install_no_client_runs_the_old_guard_in_silence(
    step4: Step4,
) -> None:
    """The issue's item 2: v1 would let TEAM-BLOCK-2 through; the project now says v2.
    Claude Code's prompt is stopped and Codex's guarded call denied, naming `hookman
    install`."""
    run, codex_run = step4.stale_run, step4.stale_codex_run
    ran_v1 = {"Claude Code": step4.stale_made.exists(), "Codex": step4.stale_codex_made.exists()}
    assert ran_v1 == {"Claude Code": False, "Codex": False}, (
        f"the old guard let TEAM-BLOCK-2 run: {ran_v1}\n"
        f"Claude Code: {run.describe()}\nCodex: {codex_run.describe()}"
    )
    # Claude Code: the prompt gate stops the session before the model is asked
    assert INSTALL in run.stopped_by_hook() and run.main_requests == [], run.describe()
    codex_reads = codex_output(codex_run, 0)
    assert codex_reads.startswith(blocked_by("")) and INSTALL in codex_reads, codex_reads


def test_step4_after_a_pull_without_install_list_doctor_and_fire_say_the_project_changed(
    step4: Step4,
) -> None:
    stale = step4.stale
    said = [f for f in stale.loud() if INSTALL in f["message"] + f["fix"]]
    listed = text_of({"hooks": stale.listed.get("hooks"), "warnings": stale.listed.get("warnings")})
    facts = {
        "doctor: a finding says the project changed since install, naming `hookman install`": any(
            "since" in f["message"] and ".claude/hookman" in f["message"] for f in said
        ),
        "doctor: exit 1": stale.doctor_rc == 1,
        "list: says the project changed, naming `hookman install`": (
            INSTALL in listed and "changed" in listed
        ),
        "list: says written only what settings.local.json has": (
            stale.listed_written() | GATE == stale.settings_events
        ),
        "fire: the call is denied": stale.fired.get("outcome") in DENIED,
        "fire: the model reads `hookman install`": INSTALL in stale.fire_reads(),
        "fire --agent codex: the model reads `hookman install`": (
            INSTALL in stale.fire_reads_codex()
        ),
    }
    assert facts == dict.fromkeys(facts, True), (
        json.dumps(facts, indent=1)
        + f"\ndoctor (exit {stale.doctor_rc}): {json.dumps(stale.doctor.get('findings'))}"
        + f"\nlist: {json.dumps(stale.hook('guard'))}"
        + f"\nfire: {stale.fired.get('outcome')} {stale.fire_reads()!r}"
    )


def test_step4_after_install_home_b_runs_v2_and_every_command_agrees(step4: Step4) -> None:
    assert step4.installed.returncode == 0, step4.installed.stderr
    assert f"({step4.v2[:12]}) into the store" in step4.installed.stdout
    reads = claude_denial(step4.run, 0)
    assert "TEAM-GUARD v2: TEAM-BLOCK-2 is not allowed" in reads, step4.run.describe()
    assert not step4.made.exists()
    assert step4.run.model_saw("TEAM-GUARD v2 is on duty"), step4.run.describe()
    story = step4.story
    guard = story.hook("guard")
    assert guard["source"]["commit"] == step4.v2
    assert guard["claude_events"]["UserPromptSubmit"]["status"] == "written", guard
    assert story.listed_written() | GATE == story.settings_events == WRITTEN_V1 | GATE
    assert (story.doctor_rc, story.loud()) == (0, []), json.dumps(story.loud(), indent=1)
    assert story.fire_reads() == reads
    codex_reads = codex_output(step4.codex_run, 0)
    expected = blocked_by("TEAM-GUARD v2: TEAM-BLOCK-2 is not allowed")
    assert codex_reads.startswith(expected), step4.codex_run.describe()
    assert not step4.codex_made.exists()
    assert story.fire_reads_codex() == codex_reads


# ---- 5. subscriptions: the code is the truth


def test_step5_a_bare_install_wires_a_new_subscription_and_a_hand_written_entry(
    step5: Step5,
) -> None:
    assert step5.installed.returncode == 0, step5.installed.stdout + step5.installed.stderr
    assert step5.a_installed.returncode == 0, step5.a_installed.stderr
    assert ".claude/hooks/hello.py" in step5.committed
    run = step5.run
    heard = {
        "notes' new agent_start reached the model": run.model_saw("TEAM-NOTES: prompt read"),
        "hello's guard kept TEAM-BLOCK-5 from running": not step5.made.exists(),
    }
    assert all(heard.values()), f"{heard}\n{run.describe()}"
    assert "TEAM-HELLO: not before lunch" in claude_denial(run, 0), run.describe()


def test_step5_list_doctor_and_fire_show_no_gap_after_the_bare_install(step5: Step5) -> None:
    facts: dict[str, bool] = {}
    for who, story in (("B", step5.story), ("A", step5.a_story)):  # B pulled; A wrote it
        notes, hello = story.hook("notes"), story.hook("hello")
        facts |= {
            f"{who}: list shows notes' agent_start": "agent_start" in notes["events"],
            f"{who}: list shows UserPromptSubmit written for notes": (
                written(notes, "UserPromptSubmit")
            ),
            f"{who}: list shows hello's tool_call": "tool_call" in hello["events"],
            f"{who}: list shows PreToolUse written for hello": written(hello, "PreToolUse"),
            f"{who}: list says written what settings.local.json has": (
                story.listed_written() | GATE == story.settings_events
            ),
            f"{who}: doctor exits 0 with no error or warning": (
                (story.doctor_rc, story.loud()) == (0, [])
            ),
        }
    prompt_reads = "\n".join(step5.prompt_fired.get("model_sees", []))
    facts |= {
        "fire PreToolUse: hello denies": "TEAM-HELLO: not before lunch" in step5.story.fire_reads(),
        "fire UserPromptSubmit: notes speaks": "TEAM-NOTES: prompt read" in prompt_reads,
        "fire UserPromptSubmit: nothing left unwired": not step5.prompt_fired.get("not_installed"),
    }
    assert facts == dict.fromkeys(facts, True), (
        json.dumps(facts, indent=1)
        + f"\nB's doctor (exit {step5.story.doctor_rc}): {json.dumps(step5.story.loud())}"
        + f"\nB's list: {json.dumps(step5.story.listed.get('hooks'))}"
        + f"\nfire UserPromptSubmit: {json.dumps(step5.prompt_fired.get('not_installed'))}"
    )


# ---- 6. a plugin built from the project: the guard's siblings travel


def test_step6_a_plugin_built_from_the_project_carries_the_guard_and_its_siblings(
    step6: Step6,
) -> None:
    built = step6.built
    assert built.returncode == 0, built.stdout + built.stderr
    assert f"built the plugin {PLUGIN} 0.1.0" in built.stdout
    carried = sorted(str(path.relative_to(step6.plugin)) for path in step6.plugin.rglob("*.py"))
    assert [path.name for path in step6.plugin.rglob("words.py")] == ["words.py"], carried


def test_step6_the_real_client_runs_the_plugin_and_the_model_reads_the_guards_deny(
    step6: Step6,
) -> None:
    run = step6.run
    assert run is not None, step6.built.stderr
    texts = run.tool_result_texts()
    assert len(texts) == 2, run.describe()
    loud = [f for f in step6.doctor.get("findings", []) if f["severity"] != "info"]
    facts = {
        "the model reads the guard's own deny": "TEAM-GUARD v2: rm -rf is not allowed" in texts[0],
        "the guarded command did not run": step6.victim.is_dir(),
        "a harmless command runs": texts[1] == "harmless-42",
        "doctor --probe-commands: exit 0, no error or warning": (step6.doctor_rc, loud) == (0, []),
    }
    assert facts == dict.fromkeys(facts, True), (
        json.dumps(facts, indent=1)
        + f"\nthe model read: {json.dumps(texts, indent=1)}"
        + f"\ndoctor (exit {step6.doctor_rc}): {json.dumps(loud, indent=1)}"
    )


# ---- 7. bad input: one sentence, a non-zero exit, nothing written


def test_step7_bad_input_ends_in_one_sentence_a_non_zero_exit_and_nothing_written(
    step7: Step7,
) -> None:
    facts = {}
    for case, done in step7.refusals.items():
        lines = done.stderr.splitlines()
        facts[case] = {
            "exit": done.returncode != 0,
            "one sentence (and a hint)": (
                len(lines) in (1, 2)
                and lines[0].startswith("hookman: ")
                and all(line.startswith("  hint: ") for line in lines[1:])
            ),
            "nothing written": step7.changed[case] == [],
        }
    assert sorted(facts) == ["cannot load", "cannot load, by hand", "unreachable"]
    facts["cannot load, by hand"]["names the hook"] = (
        "'broken'" in step7.refusals["cannot load, by hand"].stderr
    )
    expected = {case: dict.fromkeys(found, True) for case, found in facts.items()}
    assert facts == expected, (
        json.dumps(facts, indent=1)
        + "\n"
        + "\n".join(
            f"{case}: exit {done.returncode}\n{done.stdout}{done.stderr}"
            for case, done in step7.refusals.items()
        )
    )
