"""`hookman doctor`: every hook source Claude Code merges, one merged view of their handlers,
and findings that say why a hook is silent and how to fix it (docs/doctor.md lists them).

sources.py finds and reads the files (frontmatter.py reads skill/agent YAML, fs.py asks the
file system without raising); handlers.py walks them into handlers; matchers.py reads a
matcher as the client does; one module per family of findings (findings_*.py), applying the
facts of catalog/doctor_facts.json (facts.py); probe.py runs hooks on sample payloads and
probe_classify.py says what the client does with each run; report.py puts it together
(locate.py turns JSON locations into line numbers); render.py prints it.
"""
