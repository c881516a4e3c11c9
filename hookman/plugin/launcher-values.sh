## The plugin launcher's values: python3 from PATH, the manifest beside this file (the
## plugin root moves into the client's cache), and answers in the client's data dir for the
## plugin; without one, a directory that never exists, so the launcher makes a new file in
## ${TMPDIR:-/tmp} with noclobber.
python=@python@
manifest="${0%/*}"/@manifest@
answers="${CLAUDE_PLUGIN_DATA:-${0%/*}/.no-data-dir}"
