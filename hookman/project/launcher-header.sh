## The project launcher's comment block (launcher.sh's @header@).
# hookman launcher (format @format@), written by `hookman install`; rewritten at every
# install, so do not edit. Claude Code runs: sh THIS_FILE EVENT [--async] (on a guarded
# event, inside a status test). It runs hookman's runner and passes on its answer. When the
# runner gives no complete answer (its Python or hookman gone, the process killed or ended
# by a hook), it answers itself: a deny on guarded events, a notice elsewhere. On a guarded
# event it exits @done@ (or @denied@ with a deny on stderr), which the settings
# command passes on as 0 (or @two@); any other status (this file emptied, cut or gone)
# makes the command deny itself. The body is one function, read whole before it runs.
