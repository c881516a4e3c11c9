## The settings command of an async (observe-only) entry: its answer is never read, and the
## status is made 0 (settings_entries.async_command).
@command@ || :
