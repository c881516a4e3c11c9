## The launcher's body (hookman/project/launcher.py renders it; ## lines are the template's
## own and are not written). A placeholder alone on its line stands for whole lines (none or
## more), one inside a line for words:
##   @header@         the comment block of the variant (launcher-header.sh; plugin/...)
##   @values@         python=, root=, manifest=, answers= (launcher-values.sh; plugin/...)
##   @guarded_pattern@  the guarded events as a case pattern (`-` when there are none)
##   @prelude@        the plugin's no-python3 answer (plugin/launcher-prelude.sh), else nothing
##   @runner@         the words that start the runner (launcher-runner.sh; plugin/...)
##   @guarded_arms@   per guarded event, launcher-guarded-arm.sh: the launcher's own deny
##   @stop_agents@    a case pattern of the `--agent NAME` words of the agents whose deny
##                    also says `continue: false` (launcher-stop-deny.sh; `-` when none)
##   @notice@         the launcher's own notice elsewhere: printf's format and words, "$status" in them
##   @notice_no_space@  the notice when the runner could not write its answer (a full disk)
##   @notice_unsafe@  the notice when its answer file would lie where another user can write
##   @spoiled@        "${BASH_ENV-}${BASH_XTRACEFD-}": a start-up file may have printed on
##                    stdout, or the client's bash traced there
##   @timer_arms@     per guarded event with a timeout, launcher-timer-arm.sh: the launcher's
##                    own clock (timeout(1) found at install), else nothing
##   @timeout@        the path of timeout(1) ('' when install found none)
##   the rest are the protocol's words and numbers (hookman/bridge/protocol.py).
@header@
hookman_launch() {
set +euCvx
IFS=' 	
'
# Functions the environment may bring (bash as sh imports BASH_FUNC_NAME%%) named like the
# regular built-ins the launcher answers with; `unset` is a special built-in, which no
# function can stand in for in a POSIX shell.
unset -f printf read rm ls true
@values@
case $1 in
@guarded_pattern@) guarded=@guarded_flag@ finish=@done@ ;;
*) guarded= finish=0 ;;
esac
[ "$2" = @async_flag@ ] && guarded= finish=0
# $stops: the agent's deny also says `continue: false` (launcher-stop-deny.sh, PreToolUse).
# shellcheck disable=SC2034 # read in the guarded arms: a launcher with none has no reader
case " $* " in
*" @agent_flag@ @codex_agent@ "*) codex=1 stops= ;;
@stop_agents@) codex= stops=1 ;;
*) codex= stops= ;;
esac
channel=@channel_out@
[ -n "$guarded" ] && hookman_channel
@prelude@
# The launcher's own clock on a guarded event (time spent before Python: a slow python3 shim
# would otherwise outlive the client's timeout, which lets the tool run): the runner starts
# under timeout(1), which kills it just before the client would (hookman_timer).
timer=
if [ -n "$guarded" ] && [ -x @timeout@ ]; then
	case $1 in
@timer_arms@
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
		$timer @runner@ run "$@" @manifest_flag@ "$manifest" @launched_flag@ $guarded @framed_flag@ @channel_flag@ $channel @answer_file_flag@ "$file" <&4 4<&- >"$file" 2>/dev/null
		status=$?
		IFS= read -r start
		IFS= read -r answer
		IFS= read -r complete
	} 4<&0 <"$file"
else
	nl='
'
	answer=$($timer @runner@ run "$@" @manifest_flag@ "$manifest" @launched_flag@ $guarded @framed_flag@ @channel_flag@ $channel 2>/dev/null)
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
if [ "$status:$start:$complete" = "0:@answer_start@:@answer_end@" ]; then
	case $answer in
	"{"*"}")
		{ [ -z "$guarded" ] || [ "$channel" = "$was" ]; } && printf '%s\n' "$answer" && exit $finish ;;
	"@exit_two_mark@"?*)
		[ -n "$guarded" ] && hookman_stderr && printf '%s\n' "${answer#?}" >&2 && exit @denied@ ;;
	esac
fi
[ -n "$file" ] && rm -f "$file" 2>/dev/null
[ "$2" = @async_flag@ ] && exit 0
case $1 in
@guarded_arms@
	*)
		if [ "$status" = @no_space_status@ ]; then
			printf '%s\n' @notice_no_space@
		elif [ "$status" = @unsafe_status@ ]; then
			printf '%s\n' @notice_unsafe@
		else
			printf @notice@
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
		channel=@channel_same@
	elif [ -z "$out" ] || { [ -n "$err" ] && [ -n "@spoiled@$codex" ]; }; then
		channel=@channel_err@
	else
		channel=@channel_out@
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
	[ "$channel" = @channel_out@ ] || return 0
	{ [ -p /dev/stdout ] || [ -S /dev/stdout ] || [ -t 1 ]; } || channel=@channel_err@
	if [ -z "${POSH_VERSION-}" ] && [ /dev/stdout -ef /dev/stderr ]; then
		channel=@channel_err@
	fi
}
# With no answer from the runner, Codex's fds 1 and 2 one pipe: which one (the runner's
# bridge/answer_channel.py; Linux numbers pipes as they are made, and Codex makes stdin's,
# stdout's, stderr's in turn). Anything unclear: stderr's. A process, on this path alone.
hookman_shared() {
	channel=@channel_err@
	[ -n "$codex" ] || return 0
	# The client's shell's fds (the settings command's): ksh93 points the launcher's own at
	# its capture while a $(...) runs, redirections and all.
	# shellcheck disable=SC2046 # the words of ls: inode, path, inode, path
	set -- $(ls -iL "/proc/$PPID/fd/0" "/proc/$PPID/fd/1" 2>/dev/null)
	[ "$#" = 4 ] || return 0
	case $1$3 in
	*[!0-9]* | "") ;;
	*) [ "$(($1 + 1))" = "$3" ] && channel=@channel_out@ ;;
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
	timer="@timeout@ -s KILL $((left / 100)).$((left / 10 % 10))$((left % 10))"
}
hookman_launch "$@"
