## launcher-prelude.sh's deny on one guarded event (@deny@ quoted).
	@event@) printf '%s\n' @deny@ ;;
