"""The warm per-user hook server (`hookman serve`) behind Claude Code's http entries."""
