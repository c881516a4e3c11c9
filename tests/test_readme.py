"""The README's first screen promises two commands; CI must run the same test command."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _quick_start_blocks() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```[a-z]*\n(.*?)```", section, re.S)]


def test_quick_start_has_exactly_two_command_blocks() -> None:
    blocks = _quick_start_blocks()
    assert len(blocks) == 2
    assert all("\n" not in block for block in blocks), "each block is one command line"


def test_ci_runs_the_readme_test_command() -> None:
    test_command = _quick_start_blocks()[1]
    ci_lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci_lines


def test_ci_runs_the_test_command_in_a_fresh_venv() -> None:
    """Inside a venv is where users run it (the README recommends one); installing into the
    global interpreter once hid 9 failing tests."""
    ci_lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    test_line = ci_lines.index(_quick_start_blocks()[1])
    before = ci_lines[:test_line]
    assert 'rm -rf "$venv"' in before
    assert 'python3 -m venv "$venv"' in before
    assert '. "$venv/bin/activate"' in before
    assert before.index('rm -rf "$venv"') < before.index('python3 -m venv "$venv"')
    assert before.index('python3 -m venv "$venv"') < before.index('. "$venv/bin/activate"')


def test_the_example_the_first_command_uses_exists() -> None:
    first = _quick_start_blocks()[0]
    match = re.search(r"cd (\S+)", first)
    assert match, "the first command runs the example in a directory"
    example = REPO / match.group(1)
    assert (example / ".claude" / "hookman.toml").is_file()
    payload = re.search(r"--payload (\S+)", first)
    assert payload and (example / payload.group(1)).is_file()


def _tour_lines() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## A 60-second tour", 1)[1].split("\n## ", 1)[0]
    [block] = re.findall(r"```bash\n(.*?)```", section, re.S)
    return block.strip().splitlines()


def test_the_tour_runs_verbatim(tmp_path: Path) -> None:
    shims = tmp_path / "bin"
    shims.mkdir()
    for name, command in (("hookman", f"{sys.executable} -m hookman"), ("python", sys.executable)):
        (shims / name).write_text(f'#!/bin/sh\nexec {command} "$@"\n')
        (shims / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}"}
    lines = _tour_lines()
    assert [line.split()[1] for line in lines if line.startswith("hookman ")] == [
        "new",
        "fire",
        "install",
        "doctor",
    ]
    done = subprocess.run(
        ["bash", "-euc", "\n".join(lines)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode == 0, done.stdout + done.stderr
    assert '"permissionDecision": "deny"' in done.stdout
    assert "installed guard" in done.stdout and " passed" in done.stdout
    assert "0 errors, 0 warnings" in done.stdout  # doctor finds the tour's project clean
    assert (tmp_path / "demo" / ".claude" / "settings.local.json").is_file()


def test_the_test_command_installs_every_pinned_client_the_e2e_suite_drives() -> None:
    test_command = _quick_start_blocks()[1]
    for tool in ("install_claude_clients", "install_codex_clients", "install_agent_clients"):
        assert f"python3 tools/{tool}.py" in test_command
        assert (REPO / "tools" / f"{tool}.py").is_file()
    assert test_command.index("install_agent_clients") < test_command.index("-m pytest")


def test_the_readme_names_the_disk_cost_of_each_pinned_agent_client() -> None:
    """The disk line names every pinned version tools/install_agent_clients.py installs."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "install_agent_clients", REPO / "tools" / "install_agent_clients.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (REPO / "README.md").read_text(encoding="utf-8")
    cost = " ".join(text.split("The test command needs Node.js", 1)[1].split("\n\n", 1)[0].split())
    for client in module.AGENT_CLIENTS.values():
        assert client.title in cost
        for version in client.pinned:
            assert version in cost, (client.title, version)


def test_ci_runs_the_agents_full_e2e_pass() -> None:
    ci_lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    full = "HOOKMAN_E2E_AGENTS_FULL=1 python3 -m pytest -q -m e2e tests/e2e/test_agents_full.py"
    assert full in ci_lines
    assert ci_lines.index(full) > ci_lines.index(_quick_start_blocks()[1])


def test_ci_runs_the_serve_full_e2e_pass() -> None:
    """The warm hook server's slower real-client cases run in CI's second pass."""
    ci_lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    full = "HOOKMAN_E2E_SERVE_FULL=1 python3 -m pytest -q -m e2e tests/e2e/test_serve.py"
    assert full in ci_lines
    assert ci_lines.index(full) > ci_lines.index(_quick_start_blocks()[1])
