## How the plugin launcher starts the runner: the plugin's start.py beside this file,
## isolated (-I -S).
"$python" -I -S "${0%/*}"/@start@
