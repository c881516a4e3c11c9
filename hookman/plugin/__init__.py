"""`hookman plugin build`: a project's hooks as a self-contained Claude Code plugin."""
