from __future__ import annotations

from pathlib import Path

import pytest

from hookman.doctor import fs


def test_answers_for_files_dirs_and_dangling_links(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "gone")
    assert fs.exists(tmp_path / "f") and fs.is_file(tmp_path / "f")
    assert fs.exists(tmp_path / "link") and not fs.is_file(tmp_path / "link")
    assert fs.exists(tmp_path / "nope") is False and fs.is_dir(tmp_path)


def test_a_refusal_is_an_answer_not_an_exception(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def refuse(self: Path, *args: object, **kwargs: object) -> bool:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "exists", refuse)
    monkeypatch.setattr(Path, "is_file", refuse)
    monkeypatch.setattr(Path, "is_dir", refuse)
    assert fs.exists(tmp_path) is None
    assert fs.is_file(tmp_path) is False and fs.is_dir(tmp_path) is False
