## The settings command of a guarded event (settings_entries.guarded_command), one line:
## @launcher@ the launcher's path as one shell word, @command@ `sh LAUNCHER EVENT [words]`,
## @done@ and @denied@ the launcher's statuses when it answered on stdout or denied on
## stderr (bridge/protocol.py); @why@ the line said on stderr (escaped for double quotes) when the launcher did not run to its end. Every test
## sits in an and-or list, so an errexit from SHELLOPTS cannot end it before it decides. The
## line goes out as the shell's own error for an unset `hookman` (`sh: hookman: WHY`), in a
## subshell: no redirection, so no descriptor to save (under a low open-file limit dash,
## mksh, busybox, ksh93, zsh, yash and posh fail or die on `echo ... >&2`, and on `exec >&2`
## too); whatever the subshell does, the command then exits @two@ (its failure sits in an
## and-or list: errexit does not end the command with it).
[ -f @launcher@ ] && @command@ && false || case $? in @done@) ;; @denied@) exit @two@ ;; *) (unset hookman; : "${hookman?@why@}") || exit @two@; exit @two@ ;; esac
