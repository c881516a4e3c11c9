## The line after launcher-stop-deny.sh's, where the channel is not stdout: for an agent that
## also reads a stderr holding one JSON object as an exit 2's answer (Qwen Code: the
## catalog's deny.exit_2_json), the same deny goes to stderr with the launcher's denied
## status, so its `continue: false` holds there too (a plain reason by exit 2 is a deny any
## other hook's allow replaces). @indent@, @answer@: as launcher-stop-deny.sh's.
@indent@[ -n "$stops" ] && hookman_stderr && printf @answer@ >&2 && exit @denied@
