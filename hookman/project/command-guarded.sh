## The settings command of a guarded event (settings_entries.guarded_command), one line:
## @launcher@ the launcher's path as one shell word, @command@ `sh LAUNCHER EVENT [words]`,
## @why@ the quoted line said on stderr when the launcher did not run to its end. Every test
## sits in an and-or list, so an errexit from SHELLOPTS cannot end it before it decides.
[ -f @launcher@ ] && @command@ && false || case $? in @done@) ;; @two@) exit @two@ ;; *) echo @why@ >&2; exit @two@ ;; esac
