"""What hookman says about keeping a file out of git, for each outcome of
project/git_exclude.py (the texts it returned itself before the outcome became data)."""

from __future__ import annotations

import pytest

from hookman.commands.git_wording import exclusion_sentence
from hookman.project.git_exclude import Excluded, GitExclusion

SETTINGS = ".claude/settings.local.json"


@pytest.mark.parametrize(
    ("done", "said"),
    [
        (GitExclusion(Excluded.ADDED, SETTINGS, ".git/info/exclude"), "added to .git/info/exclude"),
        (GitExclusion(Excluded.ALREADY_IGNORED, SETTINGS), "already ignored by git"),
        (GitExclusion(Excluded.NOT_A_WORK_TREE, SETTINGS), "not a git work tree"),
        (
            GitExclusion(Excluded.NO_GIT, SETTINGS),
            "git is not installed, so hookman could not check whether git ignores it",
        ),
        (
            GitExclusion(Excluded.TRACKED, SETTINGS),
            "committed to git, so ignoring it has no effect "
            "(untrack it with: git rm --cached .claude/settings.local.json)",
        ),
        (
            GitExclusion(Excluded.ASK_FAILED, SETTINGS, error="fatal: bad"),
            "could not ask git whether it is ignored (fatal: bad)",
        ),
        (
            GitExclusion(Excluded.NEWLINE, SETTINGS),
            "not added to .git/info/exclude: git exclude patterns cannot hold a newline",
        ),
        (
            GitExclusion(Excluded.WRITE_FAILED, SETTINGS, "/r/.git/info/exclude", "Read-only"),
            "could not add it to /r/.git/info/exclude: Read-only",
        ),
        (
            GitExclusion(Excluded.STILL_NOT_IGNORED, SETTINGS, ".git/info/exclude"),
            "added to .git/info/exclude, but git still does not ignore it (a '!' rule?)",
        ),
    ],
    ids=lambda value: value.outcome.value if isinstance(value, GitExclusion) else "",
)
def test_each_outcome_is_one_sentence(done: GitExclusion, said: str) -> None:
    assert exclusion_sentence(done) == said


def test_every_outcome_has_a_sentence() -> None:
    sentences = {kind: exclusion_sentence(GitExclusion(kind, SETTINGS)) for kind in Excluded}
    assert len(sentences) == len(Excluded) > 1 and all(sentences.values()), sentences
