"""Entry point for both `hookman` and `python -m hookman`.

`hookman run EVENT` is what Claude Code invokes on every event, so it must not pay for the
CLI layer (typer, rich, ...): it is routed to the lean runner before anything else loads.
"""

from __future__ import annotations

import sys


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "run":
        from hookman.bridge.run_command import main as run_main

        return run_main(sys.argv[2:])
    from hookman.cli.app import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
