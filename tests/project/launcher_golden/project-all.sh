# hookman launcher (format 5), written by `hookman install`; rewritten at every
# install, so do not edit. Claude Code runs: sh THIS_FILE EVENT [--async] (on a guarded
# event, inside a status test). It runs hookman's runner and passes on its answer. When the
# runner gives no complete answer (its Python or hookman gone, the process killed or ended
# by a hook), it answers itself: a deny on guarded events, a notice elsewhere. On a guarded
# event it exits 73 (or 74 with a deny on stderr), which the settings
# command passes on as 0 (or 2); any other status (this file emptied, cut or gone)
# makes the command deny itself. The body is one function, read whole before it runs.
hookman_launch() {
set +euCvx
IFS=' 	
'
# Functions the environment may bring (bash as sh imports BASH_FUNC_NAME%%) named like the
# regular built-ins the launcher answers with; `unset` is a special built-in, which no
# function can stand in for in a POSIX shell.
unset -f printf read rm ls true
python='/opt/py env/bin/python3'
root='/opt/hookman'"'"'s lib'
manifest='/home/a b/state/projects/p-0123/manifest.json'
answers='/home/a b/state/projects/p-0123'
case $1 in
PreToolUse|PreSkillShellCommand) guarded=--guarded finish=73 ;;
*) guarded= finish=0 ;;
esac
[ "$2" = --async ] && guarded= finish=0
# $stops: the agent's deny also says `continue: false` (launcher-stop-deny.sh, PreToolUse).
# shellcheck disable=SC2034 # read in the guarded arms: a launcher with none has no reader
case " $* " in
*" --agent codex "*) codex=1 stops= ;;
*" --agent qwen "*) codex= stops=1 ;;
*) codex= stops= ;;
esac
channel=out
[ -n "$guarded" ] && hookman_channel
# The launcher's own clock on a guarded event (time spent before Python: a slow python3 shim
# would otherwise outlive the client's timeout, which lets the tool run): the runner starts
# under timeout(1), which kills it just before the client would (hookman_timer).
timer=
if [ -n "$guarded" ] && [ -x /usr/bin/timeout ]; then
	case $1 in
	PreToolUse) hookman_timer 2925 3000 ;;
	PreSkillShellCommand) hookman_timer 2925 3000 ;;
	*) ;;
	esac
fi
# The runner answers into a file of this invocation alone (it unlinks the name at once): no
# process a hook leaves behind can make anyone wait for a pipe. Made exclusively, at a name
# where nothing is (a planted file, or another launcher with this pid, takes the next name);
# in the state dir, else ${TMPDIR:-/tmp} when it is sticky (/tmp) or the user's own: in a
# directory another user can write without the sticky bit, they could swap the name for a
# link between its making and the runner's open (posh's `[` has no -k or -O: never there);
# where no file can be made at all, a pipe.
umask 077
file=
for dir in "$answers" "${TMPDIR:-/tmp}"; do
	if [ "$dir" != "$answers" ]; then
		[ -z "${POSH_VERSION-}" ] || continue
		[ -k "$dir" ] || [ -O "$dir" ] || continue
	fi
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
		$timer "$python" -I -S -c 'import sys; sys.path.append(sys.argv.pop(1)); from hookman.bridge.run_command import launched; launched()' "$root" run "$@" --manifest "$manifest" --launched $guarded --framed --channel $channel --answer-file "$file" <&4 4<&- >"$file" 2>/dev/null
		status=$?
		IFS= read -r start
		IFS= read -r answer
		IFS= read -r complete
	} 4<&0 <"$file"
else
	nl='
'
	answer=$($timer "$python" -I -S -c 'import sys; sys.path.append(sys.argv.pop(1)); from hookman.bridge.run_command import launched; launched()' "$root" run "$@" --manifest "$manifest" --launched $guarded --framed --channel $channel 2>/dev/null)
	status=$?
	start=${answer%%"$nl"*}
	answer=${answer#*"$nl"}
	complete=${answer#*"$nl"}
	answer=${answer%%"$nl"*}
fi
# An answer counts as given only when its write succeeded; on a guarded event, a JSON answer
# goes out only while stdout can still carry it (a shell that could not save a descriptor
# for a redirection may have closed fd 1 or pointed it at fd 2). Otherwise the deny below.
was=$channel
[ -n "$guarded" ] && hookman_recheck
if [ "$status:$start:$complete" = "0:hookman:answer-start:hookman:answer-complete" ]; then
	case $answer in
	"{"*"}")
		{ [ -z "$guarded" ] || [ "$channel" = "$was" ]; } && printf '%s\n' "$answer" && exit $finish ;;
	"!"?*)
		[ -n "$guarded" ] && hookman_stderr && printf '%s\n' "${answer#?}" >&2 && exit 74 ;;
	esac
fi
[ -n "$file" ] && rm -f "$file" 2>/dev/null
[ "$2" = --async ] && exit 0
case $1 in
	PreToolUse)
		[ "$channel" = same ] && hookman_shared "$@"
		if [ "$status" = 72 ]; then
			[ -n "$stops" ] && [ "$channel" = out ] && printf '%s%s%s%s%s\n' '{"continue": false, "stopReason": "hookman blocked this tool call because the disk is full: its runner could not write its answer (exit status ' "$status" ': no space left on the device that holds its state dir or $TMPDIR), so the guards'"'"' decision could not reach Claude Code. Free some space; the guards decide again then.", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because the disk is full: its runner could not write its answer (exit status ' "$status" ': no space left on the device that holds its state dir or $TMPDIR), so the guards'"'"' decision could not reach Claude Code. Free some space; the guards decide again then."}}' && exit 73
			[ -n "$stops" ] && hookman_stderr && printf '%s%s%s%s%s\n' '{"continue": false, "stopReason": "hookman blocked this tool call because the disk is full: its runner could not write its answer (exit status ' "$status" ': no space left on the device that holds its state dir or $TMPDIR), so the guards'"'"' decision could not reach Claude Code. Free some space; the guards decide again then.", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because the disk is full: its runner could not write its answer (exit status ' "$status" ': no space left on the device that holds its state dir or $TMPDIR), so the guards'"'"' decision could not reach Claude Code. Free some space; the guards decide again then."}}' >&2 && exit 74
			[ "$channel" = out ] && printf '%s%s%s\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because the disk is full: its runner could not write its answer (exit status ' "$status" ': no space left on the device that holds its state dir or $TMPDIR), so the guards'"'"' decision could not reach Claude Code. Free some space; the guards decide again then."}}' && exit 73
			hookman_stderr && printf '%s%s%s\n' 'hookman blocked this tool call because the disk is full: its runner could not write its answer (exit status ' "$status" ': no space left on the device that holds its state dir or $TMPDIR), so the guards'"'"' decision could not reach Claude Code. Free some space; the guards decide again then.' >&2 && exit 74
			exit 1
		fi
		if [ "$status" = 71 ]; then
			[ -n "$stops" ] && [ "$channel" = out ] && printf '%s%s%s%s%s\n' '{"continue": false, "stopReason": "hookman blocked this tool call because its runner would not answer (exit status ' "$status" '): its answer file would lie in a directory another user can write, so the guards'"'"' decision could not reach Claude Code safely. Set TMPDIR to a directory only you can write; the guards decide again then.", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because its runner would not answer (exit status ' "$status" '): its answer file would lie in a directory another user can write, so the guards'"'"' decision could not reach Claude Code safely. Set TMPDIR to a directory only you can write; the guards decide again then."}}' && exit 73
			[ -n "$stops" ] && hookman_stderr && printf '%s%s%s%s%s\n' '{"continue": false, "stopReason": "hookman blocked this tool call because its runner would not answer (exit status ' "$status" '): its answer file would lie in a directory another user can write, so the guards'"'"' decision could not reach Claude Code safely. Set TMPDIR to a directory only you can write; the guards decide again then.", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because its runner would not answer (exit status ' "$status" '): its answer file would lie in a directory another user can write, so the guards'"'"' decision could not reach Claude Code safely. Set TMPDIR to a directory only you can write; the guards decide again then."}}' >&2 && exit 74
			[ "$channel" = out ] && printf '%s%s%s\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because its runner would not answer (exit status ' "$status" '): its answer file would lie in a directory another user can write, so the guards'"'"' decision could not reach Claude Code safely. Set TMPDIR to a directory only you can write; the guards decide again then."}}' && exit 73
			hookman_stderr && printf '%s%s%s\n' 'hookman blocked this tool call because its runner would not answer (exit status ' "$status" '): its answer file would lie in a directory another user can write, so the guards'"'"' decision could not reach Claude Code safely. Set TMPDIR to a directory only you can write; the guards decide again then.' >&2 && exit 74
			exit 1
		fi
		[ -n "$stops" ] && [ "$channel" = out ] && printf '%s%s%s%s%s\n' '{"continue": false, "stopReason": "hookman blocked this tool call because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran.", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran."}}' && exit 73
		[ -n "$stops" ] && hookman_stderr && printf '%s%s%s%s%s\n' '{"continue": false, "stopReason": "hookman blocked this tool call because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran.", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran."}}' >&2 && exit 74
		[ "$channel" = out ] && printf '%s%s%s\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this tool call because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran."}}' && exit 73
		hookman_stderr && printf '%s%s%s\n' 'hookman blocked this tool call because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran.' >&2 && exit 74
		exit 1 ;;
	PreSkillShellCommand)
		[ "$channel" = same ] && hookman_shared "$@"
		if [ "$status" = 72 ]; then
			[ "$channel" = out ] && printf '%s%s%s\n' '{"hookSpecificOutput": {"hookEventName": "PreSkillShellCommand", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this shell command because the disk is full: its runner could not write its answer (exit status ' "$status" ': no space left on the device that holds its state dir or $TMPDIR), so the guards'"'"' decision could not reach Claude Code. Free some space; the guards decide again then."}}' && exit 73
			hookman_stderr && printf '%s%s%s\n' 'hookman blocked this shell command because the disk is full: its runner could not write its answer (exit status ' "$status" ': no space left on the device that holds its state dir or $TMPDIR), so the guards'"'"' decision could not reach Claude Code. Free some space; the guards decide again then.' >&2 && exit 74
			exit 1
		fi
		if [ "$status" = 71 ]; then
			[ "$channel" = out ] && printf '%s%s%s\n' '{"hookSpecificOutput": {"hookEventName": "PreSkillShellCommand", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this shell command because its runner would not answer (exit status ' "$status" '): its answer file would lie in a directory another user can write, so the guards'"'"' decision could not reach Claude Code safely. Set TMPDIR to a directory only you can write; the guards decide again then."}}' && exit 73
			hookman_stderr && printf '%s%s%s\n' 'hookman blocked this shell command because its runner would not answer (exit status ' "$status" '): its answer file would lie in a directory another user can write, so the guards'"'"' decision could not reach Claude Code safely. Set TMPDIR to a directory only you can write; the guards decide again then.' >&2 && exit 74
			exit 1
		fi
		[ "$channel" = out ] && printf '%s%s%s\n' '{"hookSpecificOutput": {"hookEventName": "PreSkillShellCommand", "permissionDecision": "deny", "permissionDecisionReason": "hookman blocked this shell command because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran."}}' && exit 73
		hookman_stderr && printf '%s%s%s\n' 'hookman blocked this shell command because its runner gave no answer (exit status ' "$status" '), so the guards of the project could not decide: its Python (/opt/py env/bin/python3) or hookman may be gone since `hookman install`, or a hook ended the runner. Run `hookman install` in the project (after reinstalling hookman if it is gone); `hookman log` shows what ran.' >&2 && exit 74
		exit 1 ;;
	*)
		if [ "$status" = 72 ]; then
			printf '%s\n' '{"systemMessage": "hookman: no hook ran, because the disk is full: hookman'"'"'s runner could not write its answer (no space left on the device that holds its state dir or $TMPDIR). Free some space; the hooks run again then."}'
		elif [ "$status" = 71 ]; then
			printf '%s\n' '{"systemMessage": "hookman: no hook ran, because hookman'"'"'s runner would not answer into its answer file: it would lie in a directory another user can write. Set TMPDIR to a directory only you can write; the hooks run again then."}'
		else
			printf '%s%s%s\n' '{"systemMessage": "hookman: no hook ran, because the hookman runner gave no answer (exit status ' "$status" '): its Python (/opt/py env/bin/python3) or hookman may be gone, or a hook ended it. See `hookman log`; run `hookman install` in the project to repair it."}'
		fi ;;
esac
exit 0
}
# Sets $channel, where a guarded answer can be heard (bridge/protocol.py CHANNEL_FLAG), from
# what fds 1 and 2 are, with the shell's own `[` (stat: no process, no descriptor): a pipe,
# socket or terminal can carry it; closed, /dev/null, /dev/full or a file cannot (bash
# started with fd 2 closed leaves its script open there; yash, when it cannot save a
# descriptor, leaves a redirection's file in its place for good). Stdout is
# not the place either when a start-up file may have printed there, or the client's shell
# traces there (BASH_XTRACEFD: bash's xtrace goes to stderr otherwise), nor ever for Codex, whose bash reads BASH_ENV: a
# start-up file can print and then unset BASH_ENV. posh's `[` has no -ef: there fds 1 and 2
# are never one.
hookman_channel() {
	out= err=
	{ [ -p /dev/stdout ] || [ -S /dev/stdout ] || [ -t 1 ]; } && out=1
	{ [ -p /dev/stderr ] || [ -S /dev/stderr ] || [ -t 2 ]; } && err=1
	if [ -n "$out" ] && [ -n "$err" ] && [ -z "${POSH_VERSION-}" ] &&
		[ /dev/stdout -ef /dev/stderr ]; then
		channel=same
	elif [ -z "$out" ] || { [ -n "$err" ] && [ -n "${BASH_ENV-}${BASH_XTRACEFD-}$codex" ]; }; then
		channel=err
	else
		channel=out
	fi
}
# Whether fd 2 can carry a deny's reason to the client now (a pipe, socket or terminal): a
# shell that could not save fd 2 for a redirection may have left it at /dev/null.
hookman_stderr() {
	[ -p /dev/stderr ] || [ -S /dev/stderr ] || [ -t 2 ]
}
# After the launcher's own redirections: a shell that could not save fd 1 for one (a low
# open-file limit) may have closed it, or left it at fd 2 or at a file. Then stdout is no
# longer the place.
hookman_recheck() {
	[ "$channel" = out ] || return 0
	{ [ -p /dev/stdout ] || [ -S /dev/stdout ] || [ -t 1 ]; } || channel=err
	if [ -z "${POSH_VERSION-}" ] && [ /dev/stdout -ef /dev/stderr ]; then
		channel=err
	fi
}
# With no answer from the runner, Codex's fds 1 and 2 one pipe: which one (the runner's
# bridge/answer_channel.py; Linux numbers pipes as they are made, and Codex makes stdin's,
# stdout's, stderr's in turn). Anything unclear: stderr's. A process, on this path alone.
hookman_shared() {
	channel=err
	[ -n "$codex" ] || return 0
	# The client's shell's fds (the settings command's): ksh93 points the launcher's own at
	# its capture while a $(...) runs, redirections and all.
	# shellcheck disable=SC2046 # the words of ls: inode, path, inode, path
	set -- $(ls -iL "/proc/$PPID/fd/0" "/proc/$PPID/fd/1" 2>/dev/null)
	[ "$#" = 4 ] || return 0
	case $1$3 in
	*[!0-9]* | "") ;;
	*) [ "$(($1 + 1))" = "$3" ] && channel=out ;;
	esac
}
# Sets $timer, the words that start the runner under timeout(1), to kill it $1 centiseconds
# after the client started the command: the client's shell, the launcher's parent, started
# at field 22 of /proc/$PPID/stat (clock ticks, 100 a second), read against /proc/uptime
# with `read` (no process). A parent older than $2 centiseconds (the entry's timeout) is no
# client's (the launcher run by hand): then, and without /proc, it counts from now.
hookman_timer() {
	left=$1 limit=$2
	if [ -r /proc/uptime ] && [ -r "/proc/$PPID/stat" ] &&
		IFS=' ' read -r up _ </proc/uptime && IFS= read -r stat <"/proc/$PPID/stat"; then
		set -f
		# shellcheck disable=SC2086 # the fields of stat after the command's name
		set -- ${stat##*") "}
		set +f
		up=${up%.*}${up#*.}
		case $up:${20-} in
		*[!0-9:]* | :* | *:) ;;
		*)
			spent=$((up - ${20}))
			if [ "$spent" -ge 0 ] && [ "$spent" -le "$limit" ]; then
				left=$((left - spent))
				[ "$left" -gt 0 ] || left=1
			fi ;;
		esac
	fi
	timer="/usr/bin/timeout -s KILL $((left / 100)).$((left / 10 % 10))$((left % 10))"
}
hookman_launch "$@"
