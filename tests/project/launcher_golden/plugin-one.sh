# hookman plugin launcher (format 3) of the plugin team-guards, written by
# `hookman plugin build`; rebuilt with the plugin, so do not edit. Claude Code runs:
# sh "${CLAUDE_PLUGIN_ROOT}/hookman-runner/run.sh" EVENT [--async] (on a
# guarded event inside a status test). It runs the plugin's copy of hookman's runner on
# python3 and passes on its answer; when there is no complete answer it answers itself (a
# deny on guarded events, a notice elsewhere). On a guarded event it exits 3 (or
# 2 with a deny on stderr). The body is one function, read whole first.
hookman_launch() {
set +euC
IFS=' 	
'
python=python3
manifest="${0%/*}"/manifest.json
case ${XDG_STATE_HOME-} in
/*) answers=$XDG_STATE_HOME/hookman/plugins ;;
*) answers=${HOME-}/.local/state/hookman/plugins ;;
esac
case ${HOOKMAN_HOME-} in
?*) answers=$HOOKMAN_HOME/state/plugins ;;
esac
case ${POSH_VERSION-} in
'') [ -O "$answers" ] || answers="${0%/*}/.no-data-dir" ;;
*) answers="${0%/*}/.no-data-dir" ;;
esac
answers="${CLAUDE_PLUGIN_DATA:-$answers}"
case $1 in
PreToolUse) guarded=--guarded finish=3 ;;
*) guarded= finish=0 ;;
esac
[ "$2" = --async ] && guarded= finish=0
if ! command -v python3 >/dev/null 2>&1; then
	case $1 in
	PreToolUse) printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because the plugin team-guards needs python3 to run its guards and there is no `python3` on PATH: install Python 3.10 or newer as `python3` on PATH."}}' ;;
	*) [ "$2" = --async ] || printf '%s\n' '{"systemMessage": "hookman: no hook of the plugin team-guards ran, because there is no `python3` on PATH: install Python 3.10 or newer as `python3` on PATH."}' ;;
	esac
	exit $finish
fi
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
		"$python" -I -S "${0%/*}"/start.py run "$@" --manifest "$manifest" --launched $guarded --framed --answer-file "$file" <&4 4<&- >"$file" 2>/dev/null
		status=$?
		IFS= read -r start
		IFS= read -r answer
		IFS= read -r complete
	} 4<&0 <"$file"
else
	nl='
'
	answer=$("$python" -I -S "${0%/*}"/start.py run "$@" --manifest "$manifest" --launched $guarded --framed 2>/dev/null)
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
			printf '%s%s%s\n' 'hookman blocked this tool call because the runner of the plugin team-guards gave no answer (exit status ' "$status" '), so its guards could not decide: python3 may be broken, the plugin'"'"'s files changed, or a hook ended the runner. The plugin needs Python 3.10 or newer as `python3` on PATH; reinstall the plugin if its files were changed.' >&2
			exit 2
		fi
		printf '%s%s%s\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because the runner of the plugin team-guards gave no answer (exit status ' "$status" '), so its guards could not decide: python3 may be broken, the plugin'"'"'s files changed, or a hook ended the runner. The plugin needs Python 3.10 or newer as `python3` on PATH; reinstall the plugin if its files were changed."}}'
		exit 3 ;;
	*) printf '%s%s%s\n' '{"systemMessage": "hookman: no hook of the plugin team-guards ran, because its runner gave no answer (exit status ' "$status" '): python3 may be missing or broken, or a hook ended it. It needs Python 3.10 or newer as `python3` on PATH; reinstall the plugin if its files were changed."}' ;;
esac
exit 0
}
hookman_launch "$@"
