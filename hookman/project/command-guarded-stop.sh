## In command-guarded.sh's `*)` arm, before the shell's own line, for an agent that reads a
## stderr holding one JSON object as an exit 2's answer and keeps any hook's `continue:
## false` (Qwen Code: the catalog's deny.stop and deny.exit_2_json): that agent's deny, in a
## subshell (a redirection that fails or kills it leaves the arm to the shell's own line),
## then exit @two@. Its plain line would be a deny any other hook's allow replaces there.
## @answer@ is the JSON deny, one quoted word.
(printf '%s\n' @answer@ >&2) && exit @two@;
