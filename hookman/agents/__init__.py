"""Per-agent files hookman writes beside Claude Code's (docs/agents.md): Codex CLI's hooks."""
