-- Plans (design.md §1b): several changes admitted as one, validated again
-- just before they run. `changes` is a JSON array of [workload, resources];
-- `containers` the container each workload had at submission ('' for none),
-- so that a re-created one is seen at validation; `expected_generations`
-- a JSON object, workload to generation. Ids are never reused: they name
-- the plans' D-Bus objects.
CREATE TABLE plans (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    state TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '',
    changes TEXT NOT NULL,
    containers TEXT NOT NULL DEFAULT '{}',
    expected_generations TEXT NOT NULL DEFAULT '{}',
    disruption_reason TEXT NOT NULL DEFAULT 'plan',
    dry_run INTEGER NOT NULL DEFAULT 0,
    defer INTEGER NOT NULL DEFAULT 0,
    caller_uid INTEGER NOT NULL DEFAULT 0,
    submitted_at_usec INTEGER NOT NULL,
    run_at_usec INTEGER NOT NULL,
    finished_at_usec INTEGER NOT NULL DEFAULT 0
) STRICT;
-- The plan a reservation belongs to (0: a single update). After a crash,
-- a plan's reservations are resolved together: all of its changes are
-- finished, or all are undone.
ALTER TABLE reservations ADD COLUMN plan_id INTEGER NOT NULL DEFAULT 0;
