"""hookman: install, manage and run Claude Code hooks written as Python factories."""

__version__ = "0.1.0"
