"""A guard: the agent may not run `rm -rf` (or `rm -fr`) through the Bash tool."""

import re

DANGEROUS = re.compile(r"\brm\s+(-[a-zA-Z]*r[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*r)\b")


def hook(pi):
    @pi.on("tool_call", tools=["Bash"])
    def guard(event, ctx):
        command = event["input"].get("command", "")
        if DANGEROUS.search(command):
            return {"block": True, "reason": f"rm -rf is not allowed here: {command!r}"}
        return None
