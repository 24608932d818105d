-- Desired, allocated, actuated and actual state of every workload resized
-- manages, keyed by the workload's name so it outlives the container.
-- Resource sets are JSON objects with the D-Bus keys (CpuMillis, MemoryMax,
-- MemoryHigh, CpuWeight, AllowedCpus); allocation is kept in plain integer
-- columns because admission sums it.
CREATE TABLE workloads (
    name                TEXT PRIMARY KEY NOT NULL,
    container_id        TEXT NOT NULL DEFAULT '',
    cgroup_path         TEXT NOT NULL DEFAULT '',
    driver              TEXT NOT NULL DEFAULT '',
    running             INTEGER NOT NULL DEFAULT 0,
    desired             TEXT NOT NULL DEFAULT '{}',
    actuated            TEXT NOT NULL DEFAULT '{}',
    actual              TEXT NOT NULL DEFAULT '{}',
    allocated_cpu_millis INTEGER NOT NULL DEFAULT 0,
    allocated_memory    INTEGER NOT NULL DEFAULT 0,
    sync_state          TEXT NOT NULL DEFAULT 'unknown',
    update_state        TEXT NOT NULL DEFAULT 'unknown',
    message             TEXT NOT NULL DEFAULT '',
    generation          INTEGER NOT NULL DEFAULT 0,
    observed_generation INTEGER NOT NULL DEFAULT 0,
    updated_at_usec     INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Capacity held by updates in flight. A row lives from admission until the
-- update is committed or rolled back; rows found at start-up belong to an
-- update a crash interrupted and are resolved before anything else runs.
CREATE TABLE reservations (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    workload            TEXT NOT NULL REFERENCES workloads(name) ON DELETE CASCADE,
    cpu_millis          INTEGER NOT NULL,
    memory              INTEGER NOT NULL,
    target              TEXT NOT NULL,
    previous_desired    TEXT NOT NULL,
    previous_actual     TEXT NOT NULL,
    created_at_usec     INTEGER NOT NULL
) STRICT;

-- What was asked, by whom, and how it ended; trimmed to a bounded number of
-- rows on every insert.
CREATE TABLE history (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    workload            TEXT NOT NULL,
    caller_uid          INTEGER NOT NULL,
    operation           TEXT NOT NULL,
    request             TEXT NOT NULL,
    result              TEXT NOT NULL,
    message             TEXT NOT NULL DEFAULT '',
    started_at_usec     INTEGER NOT NULL,
    finished_at_usec    INTEGER NOT NULL
) STRICT;
CREATE INDEX history_by_workload ON history(workload, id);
