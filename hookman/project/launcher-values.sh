## The project launcher's values (launcher.sh's @values@), each quoted for sh: the
## interpreter of the install, hookman's own directory (appended to sys.path: the runner
## starts with -S), the manifest, and the directory its answer file is made in (the state dir).
python=@python@
root=@root@
manifest=@manifest@
answers=@answers@
