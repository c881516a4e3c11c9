## launcher.sh's clock for one guarded event: timeout(1) kills the runner @kill_cs@
## centiseconds after the client started the command (the entry's timeout @limit_cs@ less a
## quarter of the runner's margin: the runner's own deadline, watchdog and hard stop, which
## answer with the true cause, come first).
	@event@) hookman_timer @kill_cs@ @limit_cs@ ;;
