"""Where the bundled hook templates are, as strings, with the standard library only (the
completion helper lists them on TAB; hookman.hooks.sources wraps them as Paths)."""

from __future__ import annotations

import os

from hookman import shipped_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

TEMPLATE_MODULE_NAMES = ("hook.py", "__init__.py")


def templates_dir() -> str | None:
    """Bundled templates: `hookman/templates` in a wheel, `templates/` in a source checkout."""
    return shipped_dir("templates")


def template_modules(directory: str | None) -> dict[str, str]:
    """Template name -> module in `directory` (see templates_dir): `NAME.py`, or `NAME/`
    holding hook.py."""
    if directory is None:
        return {}
    found: dict[str, str] = {}
    for name in sorted(os.listdir(directory)):
        if name.startswith(("_", ".", "test_")):
            continue
        entry = os.path.join(directory, name)
        if name.endswith(".py") and os.path.isfile(entry):
            found[name[:-3]] = entry
        elif os.path.isdir(entry):
            module = next(
                (
                    os.path.join(entry, module_name)
                    for module_name in TEMPLATE_MODULE_NAMES
                    if os.path.isfile(os.path.join(entry, module_name))
                ),
                None,
            )
            if module is not None:
                found[name] = module
    return found


def bundled_templates() -> dict[str, Path]:
    """Template name -> module: `templates/NAME.py`, or `templates/NAME/` holding hook.py."""
    from pathlib import Path

    return {name: Path(module) for name, module in template_modules(templates_dir()).items()}
