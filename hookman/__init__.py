"""hookman: install, manage and run Claude Code hooks written as Python factories."""

import os

__version__ = "0.1.0"


def shipped_dir(name: str) -> str | None:
    """A directory the project ships beside the package (`templates`, `completions`):
    `hookman/NAME` in a wheel (force-included, pyproject.toml), `NAME/` at the top of a
    source checkout or an editable install."""
    package_dir = os.path.dirname(os.path.realpath(__file__))  # here: not on the runner's path
    for candidate in (
        os.path.join(package_dir, name),
        os.path.join(os.path.dirname(package_dir), name),
    ):
        if os.path.isdir(candidate):
            return candidate
    return None
