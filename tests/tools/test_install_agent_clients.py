"""tools/install_agent_clients.py: the pinned agents, reused when present (a version that
ends its sentence with a period included), and droid's platform binary installed beside it
(a fake npm records what it is asked; no network)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(REPO / "tools"))
    try:
        spec = importlib.util.spec_from_file_location(name, REPO / "tools" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(REPO / "tools"))


AGENTS = _load("install_agent_clients")


def _fake_binary(path: Path, answer: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho '{answer}'\necho \"$COPILOT_PKG_CACHE_HOME\" > {path}.env\n")
    path.chmod(0o755)


def test_the_pinned_agents_and_their_directories() -> None:
    pinned = {name: client.pinned for name, client in AGENTS.AGENT_CLIENTS.items()}
    assert pinned == {"copilot": ("1.0.102",), "qwen": ("0.24.4",), "droid": ("0.225.1",)}
    droid = AGENTS.FACTORY_DROID
    assert droid.extra_packages("0.225.1") == ("@factory/cli-linux-x64@0.225.2",)
    assert droid.reported_version("0.225.1") == "0.225.2"


def test_a_client_already_there_is_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOOKMAN_E2E_CACHE", str(tmp_path))
    monkeypatch.setenv("PATH", "/nonexistent")  # npm would be needed to install anything
    copilot = tmp_path / "copilot-1.0.102" / "node_modules" / ".bin" / "copilot"
    _fake_binary(copilot, "GitHub Copilot CLI 1.0.102.")
    _fake_binary(tmp_path / "qwen-0.24.4" / "node_modules" / ".bin" / "qwen", "0.24.4")
    _fake_binary(tmp_path / "droid-0.225.1" / "node_modules" / ".bin" / "droid", "0.225.2")

    assert AGENTS.main([]) == 0

    out = capsys.readouterr().out
    assert out.count("already installed") == 3, out
    # Copilot unpacks its package beside the client, not into HOME
    assert Path(f"{copilot}.env").read_text().strip() == str(tmp_path / "copilot-1.0.102/pkg-cache")


def test_droid_is_installed_with_its_platform_binary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cache, bin_dir = tmp_path / "cache", tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "npm-args"
    droid = cache / "droid-0.225.1" / "node_modules" / ".bin" / "droid"
    (bin_dir / "npm").write_text(
        "#!/bin/sh\n"
        f'echo "$@" > {record}\n'
        f"mkdir -p {droid.parent}\n"
        f"printf '#!/bin/sh\\necho 0.225.2\\n' > {droid}\n"
        f"chmod +x {droid}\n"
    )
    (bin_dir / "npm").chmod(0o755)
    monkeypatch.setenv("HOOKMAN_E2E_CACHE", str(cache))
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")

    assert AGENTS.main(["droid"]) == 0

    arguments = record.read_text().split()
    assert "@factory/cli@0.225.1" in arguments
    assert "@factory/cli-linux-x64@0.225.2" in arguments
    assert "Factory droid 0.225.1: installed at" in capsys.readouterr().out


def test_an_unknown_agent_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        AGENTS.main(["cline"])
    assert exited.value.code == 2
    assert "unknown agent 'cline'" in capsys.readouterr().err
