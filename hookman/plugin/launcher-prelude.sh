## Where there is no python3 on PATH the plugin launcher answers before anything runs:
## @python_arms@ a deny per guarded event (launcher-python-arm.sh), @notice@ a quoted
## notice elsewhere (nothing on an async entry).
if ! command -v @python@ >/dev/null 2>&1; then
	case $1 in
@python_arms@
	*) [ "$2" = @async_flag@ ] || printf '%s\n' @notice@ ;;
	esac
	exit $finish
fi
