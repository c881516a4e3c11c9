"""The names of the agents besides Claude Code and Codex CLI in `agents = [...]` and
`--agent` (docs/agents.md). No imports: hookman.toml's reader needs them."""

COPILOT_AGENT = "copilot"  # GitHub Copilot CLI: runs .claude/settings.local.json's entries
QWEN_AGENT = "qwen"  # Qwen Code: .qwen/settings.json
DROID_AGENT = "droid"  # Factory droid: .factory/hooks.json
# In the order hookman names them.
OTHER_AGENTS = (COPILOT_AGENT, QWEN_AGENT, DROID_AGENT)
