## launcher.sh's answer on one guarded event when the runner gave none: the JSON deny on
## stdout where $channel says it can be heard there and its write succeeds, else a deny by
## exit @denied@ with the reason on stderr; where that cannot be written either, exit 1: the
## settings command, whose own fds are the client's, then says its line and exits 2. The reason names the cause the status tells:
## @no_space@ the runner could not write its answer for want of space, @unsafe@ its answer
## file would lie in a directory another user can write, else it gave none.
## @deny@, @no_answer@ (and their no-space forms) are printf's format and its words, "$status"
## in them;
## @stop_deny@ (and its forms) launcher-stop-deny.sh's line on PreToolUse, else nothing.
	@event@)
		[ "$channel" = @channel_same@ ] && hookman_shared "$@"
		if [ "$status" = @no_space_status@ ]; then
@stop_deny_no_space@
			[ "$channel" = @channel_out@ ] && printf @deny_no_space@ && exit @done@
			hookman_stderr && printf @no_space@ >&2 && exit @denied@
			exit 1
		fi
		if [ "$status" = @unsafe_status@ ]; then
@stop_deny_unsafe@
			[ "$channel" = @channel_out@ ] && printf @deny_unsafe@ && exit @done@
			hookman_stderr && printf @unsafe@ >&2 && exit @denied@
			exit 1
		fi
@stop_deny@
		[ "$channel" = @channel_out@ ] && printf @deny@ && exit @done@
		hookman_stderr && printf @no_answer@ >&2 && exit @denied@
		exit 1 ;;
