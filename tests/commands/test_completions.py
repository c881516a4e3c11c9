from __future__ import annotations

import pytest

from hookman.cli import completion_scripts
from hookman.commands.completions import print_completions
from hookman.errors import HookmanError


@pytest.mark.parametrize("shell", completion_scripts.SHELLS)
def test_prints_the_shipped_script(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert print_completions(shell) == 0
    shipped = completion_scripts.completion_file(completion_scripts.COMPLETIONS_DIR, shell)
    assert capsys.readouterr().out == shipped.read_text(encoding="utf-8")


def test_an_unknown_shell_is_a_usage_error_with_a_guess() -> None:
    with pytest.raises(HookmanError) as error:
        print_completions("zssh")
    assert error.value.exit_code == 2
    assert error.value.message == "hookman has no completions for 'zssh'."
    assert error.value.hint is not None and error.value.hint.startswith("did you mean zsh?")
