## The launcher's body (hookman/project/launcher.py renders it; ## lines are the template's
## own and are not written). A placeholder alone on its line stands for whole lines (none or
## more), one inside a line for words:
##   @header@         the comment block of the variant (launcher-header.sh; plugin/...)
##   @values@         python=, root=, manifest=, answers= (launcher-values.sh; plugin/...)
##   @guarded_pattern@  the guarded events as a case pattern (`-` when there are none)
##   @prelude@        the plugin's no-python3 answer (plugin/launcher-prelude.sh), else nothing
##   @runner@         the words that start the runner (launcher-runner.sh; plugin/...)
##   @guarded_arms@   per guarded event, launcher-guarded-arm.sh: the launcher's own deny
##   @notice@         the launcher's own notice elsewhere, quoted, with "$status" in it
##   the rest are the protocol's words and numbers (hookman/bridge/protocol.py).
@header@
hookman_launch() {
set +euC
IFS=' 	
'
@values@
case $1 in
@guarded_pattern@) guarded=@guarded_flag@ finish=@done@ ;;
*) guarded= finish=0 ;;
esac
[ "$2" = @async_flag@ ] && guarded= finish=0
@prelude@
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
		@runner@ run "$@" @manifest_flag@ "$manifest" @launched_flag@ $guarded @framed_flag@ @answer_file_flag@ "$file" <&4 4<&- >"$file" 2>/dev/null
		status=$?
		IFS= read -r start
		IFS= read -r answer
		IFS= read -r complete
	} 4<&0 <"$file"
else
	nl='
'
	answer=$(@runner@ run "$@" @manifest_flag@ "$manifest" @launched_flag@ $guarded @framed_flag@ 2>/dev/null)
	status=$?
	start=${answer%%"$nl"*}
	answer=${answer#*"$nl"}
	complete=${answer#*"$nl"}
	answer=${answer%%"$nl"*}
fi
if [ "$status:$start:$complete" = "0:@answer_start@:@answer_end@" ]; then
	case $answer in
	"{"*"}")
		printf '%s\n' "$answer"
		exit $finish ;;
	"@exit_two_mark@"?*)
		[ -n "$guarded" ] && printf '%s\n' "${answer#?}" >&2 && exit @two@ ;;
	esac
fi
[ -n "$file" ] && rm -f "$file" 2>/dev/null
[ "$2" = @async_flag@ ] && exit 0
case $1 in
@guarded_arms@
	*) printf '%s%s%s\n' @notice@ ;;
esac
exit 0
}
hookman_launch "$@"
