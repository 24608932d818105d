-- Updates asked with Defer=true that did not fit when asked. They wait here,
-- not in the workload's desired state, until capacity frees; a newer request
-- for the same workload replaces its waiting one.
CREATE TABLE deferred_updates (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    workload            TEXT NOT NULL UNIQUE,
    request             TEXT NOT NULL,
    force               INTEGER NOT NULL DEFAULT 0,
    reclaim_timeout_usec INTEGER NOT NULL DEFAULT -1,
    caller_uid          INTEGER NOT NULL,
    created_at_usec     INTEGER NOT NULL
) STRICT;
