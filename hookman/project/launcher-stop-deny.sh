## One line of launcher-guarded-arm.sh, in PreToolUse's arm alone: for an agent that lets a
## later hook's permissionDecision replace a deny but keeps any hook's `continue: false`
## (Qwen Code: $stops, set from the catalog's deny.stop), the deny also says `continue:
## false` with the reason as `stopReason`, as the runner's own deny for it does
## (bridge/agent_answer.py). @indent@ is the arm's indentation; @answer@ the printf format
## and its words, the runner's exit status in place ("$status", in both reasons).
@indent@[ -n "$stops" ] && [ "$channel" = @channel_out@ ] && printf @answer@ && exit @done@
