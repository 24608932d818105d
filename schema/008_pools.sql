-- Pools (design.md §1b): named groups of workloads with a cap of their own
-- on the sum of their members' allocations. 18446744073709551615 (UINT64_MAX,
-- stored as -1 in SQLite's signed integers) means no cap.
CREATE TABLE pools (
    name TEXT PRIMARY KEY,
    cpu_millis INTEGER NOT NULL,
    memory INTEGER NOT NULL
);
-- A workload's pool: the `Pool` option of UpdateResources once given
-- (pool_chosen; '' chooses none), else its container's io.resized1.pool label.
ALTER TABLE workloads ADD COLUMN pool_chosen INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workloads ADD COLUMN pool_option TEXT NOT NULL DEFAULT '';
ALTER TABLE workloads ADD COLUMN pool_label TEXT NOT NULL DEFAULT '';
-- The `Pool` option of an update waiting for capacity, applied with it.
ALTER TABLE deferred_updates ADD COLUMN pool_chosen INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deferred_updates ADD COLUMN pool_option TEXT NOT NULL DEFAULT '';
