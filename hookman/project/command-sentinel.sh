## The settings command of a guarded event's sentinel (settings_entries.sentinel_command), one
## line: its matcher reaches every tool the event's blocking entry does not (all tools when
## there is none), so a guard a `git pull` added on such a tool, in hookman.toml, the pins or a
## path hook's code, is never skipped by the client before `hookman install` wires it.
## @unchanged@ is `[ STAMP -nt FILE ] && ...`, one test per file install read (the stamp is
## touched after install wrote everything, a second past the newest of them): while every one
## holds, nothing changed since install and the tool runs at once, with no process but the
## shell's (`[` is built in). Anything else (a file newer than the stamp, the stamp gone, a
## shell whose `[` has no -nt, as posh's) runs @command@, the event's guarded command
## (command-guarded.sh): the runner finds what changed and denies naming `hookman install`,
## or finds nothing and answers `{}`. A watched file that is gone runs it under dash and
## busybox, not under bash and mksh (their -nt holds against a missing file): a deleted file
## adds no guard, and the prompt gate and the wired entries' runner see it by its digest.
## The tests sit in an and-or list: errexit cannot end it.
@unchanged@ && exit 0; @command@
