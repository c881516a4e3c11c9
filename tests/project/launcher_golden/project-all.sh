# hookman launcher (format 3), written by `hookman install`; rewritten at every
# install, so do not edit. Claude Code runs: sh THIS_FILE EVENT [--async] (on a guarded
# event, inside a status test). It runs hookman's runner and passes on its answer. When the
# runner gives no complete answer (its Python or hookman gone, the process killed or ended
# by a hook), it answers itself: a deny on guarded events, a notice elsewhere. On a guarded
# event it exits 3 (or 2 with a deny on stderr), which the settings
# command passes on as 0 (or 2); any other status (this file emptied, cut or gone)
# makes the command deny itself. The body is one function, read whole before it runs.
hookman_launch() {
set +euC
IFS=' 	
'
python='/opt/py env/bin/python3'
root='/opt/hookman'"'"'s lib'
manifest='/home/a b/state/projects/p-0123/manifest.json'
answers='/home/a b/state/projects/p-0123'
case $1 in
PreToolUse|PreSkillShellCommand) guarded=--guarded finish=3 ;;
*) guarded= finish=0 ;;
esac
[ "$2" = --async ] && guarded= finish=0
# The runner answers into a file of this invocation alone (it unlinks the name at once): no
# process a hook leaves behind can make anyone wait for a pipe. Made exclusively, at a name
# where nothing is (a planted file, or another launcher with this pid, takes the next name);
# in the state dir, else ${TMPDIR:-/tmp}; where no file can be made at all, a pipe.
umask 077
file=
for dir in "$answers" "${TMPDIR:-/tmp}"; do
	n=0
	while [ "$n" -lt 4 ]; do
		try="$dir/.hookman-answer-$$-$n"
		if [ ! -e "$try" ] && [ ! -h "$try" ] && { set -C; true >"$try"; } 2>/dev/null; then
			file=$try
			break 2
		fi
		n=$((n + 1))
	done
done
set +C
if [ -n "$file" ]; then
	{
		"$python" -I -S -c 'import sys; sys.path.append(sys.argv.pop(1)); from hookman.bridge.run_command import launched; launched()' "$root" run "$@" --manifest "$manifest" --launched $guarded --framed --answer-file "$file" <&4 4<&- >"$file" 2>/dev/null
		status=$?
		IFS= read -r start
		IFS= read -r answer
		IFS= read -r complete
	} 4<&0 <"$file"
else
	nl='
'
	answer=$("$python" -I -S -c 'import sys; sys.path.append(sys.argv.pop(1)); from hookman.bridge.run_command import launched; launched()' "$root" run "$@" --manifest "$manifest" --launched $guarded --framed 2>/dev/null)
	status=$?
	start=${answer%%"$nl"*}
	answer=${answer#*"$nl"}
	complete=${answer#*"$nl"}
	answer=${answer%%"$nl"*}
fi
if [ "$status:$start:$complete" = "0:hookman:answer-start:hookman:answer-complete" ]; then
	case $answer in
	"{"*"}")
		printf '%s\n' "$answer"
		exit $finish ;;
	"!"?*)
		[ -n "$guarded" ] && printf '%s\n' "${answer#?}" >&2 && exit 2 ;;
	esac
fi
[ -n "$file" ] && rm -f "$file" 2>/dev/null
[ "$2" = --async ] && exit 0
case $1 in
	PreToolUse)
		if [ -n "${BASH_ENV-}${ENV-}" ]; then
			printf '%s%s%s\n' 'hookman blocked this tool call because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran.' >&2
			exit 2
		fi
		printf '%s%s%s\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran."}}'
		exit 3 ;;
	PreSkillShellCommand)
		if [ -n "${BASH_ENV-}${ENV-}" ]; then
			printf '%s%s%s\n' 'hookman blocked this shell command because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran.' >&2
			exit 2
		fi
		printf '%s%s%s\n' '{"hookSpecificOutput": {"hookEventName": "PreSkillShellCommand", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this shell command because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran."}}'
		exit 3 ;;
	*) printf '%s%s%s\n' '{"systemMessage": "hookman: no hook ran, because the hookman runner gave no answer (exit status ' "$status" '): its Python (/opt/py env/bin/python3) or hookman may be gone, or a hook ended it. See `hookman log`; run `hookman install` in the project to repair it."}' ;;
esac
exit 0
}
hookman_launch "$@"
