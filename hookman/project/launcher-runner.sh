## How the project launcher starts the runner (launcher.sh's @runner@): isolated (-I -S),
## @entry@ the code that puts "$root" on sys.path and calls the runner.
"$python" -I -S -c @entry@ "$root"
