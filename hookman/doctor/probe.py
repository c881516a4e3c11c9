"""Probe: placeholder, replaced below."""
