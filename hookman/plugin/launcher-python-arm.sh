## launcher-prelude.sh's deny on one guarded event: the JSON deny (@deny@ quoted) on stdout
## where it can be heard there and its write succeeds, else exit @denied@ with the reason
## (@reason@ quoted) on stderr (launcher-guarded-arm.sh does the same).
	@event@)
		hookman_channel
		[ "$channel" = @channel_out@ ] && printf '%s\n' @deny@ && exit @done@
		hookman_stderr && printf '%s\n' @reason@ >&2 && exit @denied@
		exit 1 ;;
