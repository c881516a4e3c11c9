"""What hookman says about Codex CLI (install, list): the events a Codex plan leaves out and
why, and the trust step's outcome. agents/codex_sync.py decides; this module words it."""

from __future__ import annotations

from pathlib import Path

from hookman.agents.codex_files import codex_hooks_path
from hookman.agents.codex_sync import (
    CodexPlan,
    CodexTrust,
    TrustTodo,
    VersionFacts,
    no_such_tool,
)
from hookman.catalog import codex_catalog

_MANUAL_TRUST = (
    "Until Codex trusts hookman's hooks it skips them silently: with `codex` on PATH, run "
    "`hookman install` again (it records the trust through `codex app-server`)."
)


def absent_sentences(project_dir: Path) -> list[str]:
    """What install says when the project's agents name Codex CLI and this machine has none:
    one line, information, not a warning (docs/agents.md, "Agents per machine")."""
    from hookman.agents.codex_files import has_hookman_entries

    lines = [
        "Codex CLI: not installed here (no `codex` on PATH), so its entries were not written; "
        "once Codex is installed, run `hookman install` to wire it."
    ]
    if has_hookman_entries(project_dir):
        lines.append(
            f"  {codex_hooks_path(project_dir)} keeps the hookman entries an earlier install "
            "wrote, untouched (nothing runs them without Codex); `hookman install` brings them "
            "up to date once Codex is installed."
        )
    return lines


def plan_sentences(codex: CodexPlan) -> list[str]:
    """Plain sentences about what Codex will not run (install, list)."""
    target = "unknown" if codex.version is None else str(codex.version)
    sentences = _facts_sentences(codex)
    for event in codex.not_in_codex:
        sentences.append(f"Codex {target} has no {event} event: not written for Codex.")
    for name in codex.output_rewriters:
        sentences.append(
            f"the hook {name!r} listens to 'tool_result': under Codex hookman passes on only "
            "its additionalContext, so a tool output it rewrites (a redaction) reaches "
            "Codex's model unchanged."
        )
    for name, pairs in codex.codex_tool_names.items():
        for asked, seen in pairs:
            sentences.append(
                f"the hook {name!r} asks for the tool {asked!r}, Codex's own name for a tool "
                f"its hooks see as {seen!r}, so it never runs for it (in Codex or Claude "
                f"Code): ask for {seen!r} in the hook (or in hookman.toml) and run "
                "`hookman install`."
            )
    for name, found in codex.never_sent.items():
        sentences.extend(unsent.sentence(name, name in codex.never_run) for unsent in found)
    for name in codex.shell_guards:
        sentences.append(
            f"the hook {name!r} guards shell commands: under Codex it sees each command the "
            "model starts, but Codex runs no hook for the text the model then types into a "
            "running command (its write_stdin tool), so a guard that lets `bash` or `python` "
            "start in a terminal does not see what runs inside it (Codex 0.171.0 refuses "
            "terminals with `[features] unified_exec_tty = false`)."
        )
    for name, subscriptions in codex.without_counterpart.items():
        listed = ", ".join(repr(item) for item in subscriptions)
        sentences.append(
            f"the hook {name!r} listens to {listed}, which has no Codex counterpart: it "
            "never runs under Codex for it."
        )
    return sentences


def never_sent_tool_sentence(tool: str) -> str:
    """`fire --agent codex` on a payload naming a tool Codex never sends."""
    return (
        f"Codex never names the tool {tool!r} in its hooks' payloads {no_such_tool()}, so no "
        "Codex call reaches the hooks as this one and Codex denies nothing here; below is what "
        "they answer were Codex to send it."
    )


def _facts_sentences(codex: CodexPlan) -> list[str]:
    if codex.facts is VersionFacts.OLDEST:
        return [
            f"`codex --version` gave no answer, so hookman wrote the events of Codex "
            f"{codex_catalog.oldest_checked()}, the oldest version it has facts for."
        ]
    if codex.facts is VersionFacts.NEWEST:
        return [
            f"Codex {codex.version} is newer than {codex_catalog.newest_checked()}, the newest "
            "version hookman has facts for, so hookman assumes it has the same events."
        ]
    return []


def trust_sentences(trust: CodexTrust, project_dir: Path) -> list[str]:
    """What install says about Codex's trust in hookman's hooks."""
    lines = [f"trusted in Codex: {key}" for key in trust.trusted]
    if trust.already and not trust.trusted and trust.todo is None:
        lines.append(f"Codex already trusts hookman's {len(trust.already)} hook(s) here")
    todo = trust_todo_sentence(trust, project_dir)
    return lines + ([] if todo is None else [todo])


def trust_todo_sentence(trust: CodexTrust, project_dir: Path) -> str | None:
    """What the user must do for Codex to run hookman's hooks (None: nothing)."""
    path = codex_hooks_path(project_dir)
    if trust.todo is None:
        return None
    if trust.todo is TrustTodo.ASK_FAILED:
        return f"hookman could not ask Codex which hooks it trusts: {trust.error} {_MANUAL_TRUST}"
    if trust.todo is TrustTodo.RECORD_FAILED:
        return f"hookman could not record the trust: {trust.error} {_MANUAL_TRUST}"
    if trust.todo is TrustTodo.NOT_RECORDED:
        return (
            "Codex does not trust these hookman hooks yet, so it skips them silently: "
            f"{', '.join(trust.untrusted)}. Run `hookman install` without --no-codex-trust to "
            "record the trust through `codex app-server`."
        )
    if trust.todo is TrustTodo.NONE_LISTED:
        return (
            f"Codex trusts {project_dir} but lists none of hookman's hooks in {path}, so "
            "hookman could not record their trust: check that `codex` on PATH is the one you "
            "run, then run `hookman install` again."
        )
    return (
        f"Codex reads {path} only when it trusts the project, and it does not trust "
        f'{project_dir}: trust the project in Codex (add [projects."{project_dir}"] '
        'trust_level = "trusted" to $CODEX_HOME/config.toml; Codex 0.171.0 also offers '
        "`codex exec --trust`), then run `hookman install` again to trust hookman's hooks."
    )
