"""`hookman doctor`: every hook source Claude Code merges, one merged view of their handlers,
and findings that say why a hook is silent and how to fix it (docs/doctor.md lists them).

sources.py finds and reads the files; handlers.py walks them into handlers; one module per
family of findings (findings_*.py); probe.py runs hooks on sample payloads; report.py puts
it together; render.py prints it.
"""
