## The settings command of a guarded event (settings_entries.guarded_command), one line:
## @launcher@ the launcher's path as one shell word, @command@ `sh LAUNCHER EVENT [words]`,
## @done@ and @denied@ the launcher's statuses when it answered on stdout or denied on
## stderr (bridge/protocol.py); @why@ the line said on stderr (escaped for double quotes) when
## the launcher did not run to its end, @trap@ the EXIT trap that says it (a quoted word). Every
## test sits in an and-or list, so an errexit from SHELLOPTS cannot end it before it decides.
## The EXIT trap answers for a shell that dies before the `case` runs: a failed fork is fatal
## to dash, busybox, bash (after 15 s of retries, status 254) and mksh (after ~31 s), and the
## client would read their status 2, 254 or 1 with an empty stderr or as no deny at all; every
## arm clears it first. It writes with `echo ... >&2`: it runs only when the shell dies, where
## descriptors are free (a low open-file limit alone kills no shell before the `case`; zsh,
## which can die then, runs no EXIT trap on a fatal error). The `*)` arm's line goes out as
## the shell's own error for an unset `hookman` (`sh: hookman: WHY`), in a subshell: no
## redirection, so no descriptor to save (under a low open-file limit dash, mksh, busybox,
## ksh93, zsh, yash and posh fail or die on `echo ... >&2`, and on `exec >&2` too); whatever
## the subshell does, the command then exits @two@ (its failure sits in an and-or list:
## errexit does not end the command with it). @stop@ is command-guarded-stop.sh's words and a
## space for an agent that hears a JSON deny on stderr after exit 2 (Qwen Code), else nothing.
trap @trap@ EXIT; [ -f @launcher@ ] && @command@ && false || case $? in @done@) trap - EXIT ;; @denied@) trap - EXIT; exit @two@ ;; *) trap - EXIT; @stop@(unset hookman; : "${hookman?@why@}") || exit @two@; exit @two@ ;; esac
