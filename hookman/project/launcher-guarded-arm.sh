## launcher.sh's answer on one guarded event when the runner gave none: past a start-up
## file (@start_up@ not empty) a deny by exit @two@ on stderr, else the JSON deny on stdout.
## @no_answer@ and @deny@ are quoted words with "$status" in them.
	@event@)
		if [ -n "@start_up@" ]; then
			printf '%s%s%s\n' @no_answer@ >&2
			exit @two@
		fi
		printf '%s%s%s\n' @deny@
		exit @done@ ;;
