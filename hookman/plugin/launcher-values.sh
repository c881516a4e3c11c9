## The plugin launcher's values: python3 from PATH, the manifest beside this file (the
## plugin root moves into the client's cache), and answers in the client's data dir for the
## plugin. Without one, in hookman's per-user state directory's `plugins`, the directory the
## runner keeps the plugin's state under (hookman/bridge/private_dir.py computes the same path
## and makes it, mode 0700, on its first run), but only once it exists and is the user's own
## (`-O`; posh has no -O, so there it is never used): another user's directory there would let
## them swap the file. Else, a directory that never exists, so the launcher makes the file in
## ${TMPDIR:-/tmp}; the runner answers into a file only where no other user can swap it (else
## it ends with status 71 and the launcher denies).
python=@python@
manifest="${0%/*}"/@manifest@
case ${XDG_STATE_HOME-} in
/*) answers=$XDG_STATE_HOME/hookman/plugins ;;
*) answers=${HOME-}/.local/state/hookman/plugins ;;
esac
case ${HOOKMAN_HOME-} in
?*) answers=$HOOKMAN_HOME/state/plugins ;;
esac
case ${POSH_VERSION-} in
'') [ -O "$answers" ] || answers="${0%/*}/.no-data-dir" ;;
*) answers="${0%/*}/.no-data-dir" ;;
esac
answers="${CLAUDE_PLUGIN_DATA:-$answers}"
