"""What each enabled hook's code subscribes to, against what hookman.toml records and what
the installed manifest (and so the settings entries written with it) serves: the gaps
`list` and `doctor` report, read-only.

The code's answer comes from the subscription cache (hooks/subscription_cache.py) while the
module and its helpers are unchanged; only the hooks whose module changed are loaded, in ONE
child for all of them, and nothing is kept (a reading command writes no cache). A hook whose
module is missing or does not compile is left to the findings that name those.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from hookman import paths
from hookman.errors import HookmanError
from hookman.hooks.module_check import module_problem
from hookman.install.learning import SubscriptionChange, change_of
from hookman.install.resolution import resolve_modules
from hookman.project.config import HookSpec, ProjectConfigView
from hookman.project.pins import read_pins

if TYPE_CHECKING:
    from hookman.hooks.subscriptions import Subscriptions


class SubscriptionGap(NamedTuple):
    """One hook whose code and records disagree: `recorded` how hookman.toml's record
    differs from the code, `installed` how the installed manifest's does (None: it
    agrees, or nothing is installed); `failure` why the code could not be loaded."""

    hook: str
    recorded: SubscriptionChange | None = None
    installed: SubscriptionChange | None = None
    failure: tuple[str, str] | None = None
    module: Path | None = None  # the hook's module


class CodeView(NamedTuple):
    """What the code of each enabled hook subscribes to (learned or cached), and the gaps."""

    code: dict[str, Subscriptions]
    gaps: list[SubscriptionGap]


def subscription_gaps(config: ProjectConfigView, project_dir: Path) -> CodeView:
    """The enabled hooks' code against hookman.toml and the installed manifest."""
    enabled = [hook for hook in config.hooks if hook.enabled]
    if not enabled:
        return CodeView({}, [])
    resolution = resolve_modules(enabled, project_dir, _pins(project_dir), fetch=False)
    loadable = [
        hook
        for hook in enabled
        if hook.name not in resolution.missing
        and module_problem(resolution.paths[hook.name]) is None
    ]
    code, failures = _learn(loadable, resolution, project_dir)
    installed = _installed_records(project_dir)
    gaps: list[SubscriptionGap] = []
    for hook in loadable:
        if hook.name in failures:
            module = resolution.paths[hook.name]
            gaps.append(SubscriptionGap(hook.name, failure=failures[hook.name], module=module))
            continue
        learned = code.get(hook.name)
        if learned is None:
            continue
        record = installed.get(hook.name)
        gap = SubscriptionGap(
            hook.name,
            recorded=change_of(hook, learned),
            installed=None if record is None else change_of(record, learned),
        )
        if gap.recorded is not None or gap.installed is not None:
            gaps.append(gap)
    return CodeView(code, gaps)


def _learn(
    hooks: list[HookSpec], resolution: Any, project_dir: Path
) -> tuple[dict[str, Subscriptions], dict[str, tuple[str, str]]]:
    """The code's subscriptions (cached, or one child for the hooks whose module changed,
    its answers kept in the cache as install keeps them: the next `list` or `doctor` of a
    project not installed yet starts no child), and the hooks whose code does not load:
    name -> (what is wrong, how to fix it)."""
    if not hooks:
        return {}, {}
    from hookman.hooks.subscriptions import LearnRequest, learn_many

    requests = []
    for hook in hooks:
        root = (resolution.origins.get(hook.name) or {}).get("package_root")
        requests.append(
            LearnRequest(hook.name, resolution.paths[hook.name], Path(root) if root else None)
        )
    outcomes = learn_many(requests, project_dir, keep=True, stop_at_first_failure=False)
    code: dict[str, Subscriptions] = {}
    failures: dict[str, tuple[str, str]] = {}
    for name, outcome in outcomes.items():
        if isinstance(outcome, HookmanError):
            failures[name] = (outcome.message, outcome.hint or "")
        else:
            code[name] = outcome
    return code, failures


def _installed_records(project_dir: Path) -> dict[str, HookSpec]:
    """Each hook of the installed manifest (its events and tools as installed), by name;
    empty when nothing is installed or the manifest cannot be read."""
    from hookman.project.config import HookSource

    try:
        data = json.loads(paths.manifest_path(project_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    records: dict[str, HookSpec] = {}
    hooks = data.get("hooks") if isinstance(data, dict) else None
    for item in hooks if isinstance(hooks, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        events = item.get("events") if isinstance(item.get("events"), list) else []
        tools = item.get("tools") if isinstance(item.get("tools"), dict) else {}
        records[item["name"]] = HookSpec(
            item["name"],
            HookSource("path", str(item.get("path", ""))),
            events=tuple(str(event) for event in events),
            tools={
                str(event): tuple(str(name) for name in names)
                for event, names in tools.items()
                if isinstance(names, list)
            },
        )
    return records


def _pins(project_dir: Path) -> dict[Any, Any]:
    try:
        return read_pins(project_dir)
    except HookmanError:
        return {}
