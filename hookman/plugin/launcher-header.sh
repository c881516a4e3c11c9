## The plugin launcher's comment block (hookman/project/launcher.sh's @header@).
# hookman plugin launcher (format @format@) of the plugin @plugin@, written by
# `hookman plugin build`; rebuilt with the plugin, so do not edit. Claude Code runs:
# sh "${CLAUDE_PLUGIN_ROOT}/@runner_dir@/@launcher_name@" EVENT [--async] (on a
# guarded event inside a status test). It runs the plugin's copy of hookman's runner on
# python3 and passes on its answer; when there is no complete answer it answers itself (a
# deny on guarded events, a notice elsewhere). On a guarded event it exits @done@ (or
# @denied@ with a deny on stderr, which the command passes on as @two@). The body is one
# function, read whole first.
