-- A workload's allocation is held from its admission until it is forgotten,
-- whatever its container does (design.md §1b): the run state replaces the
-- running flag, the time its container was seen removed starts the grace
-- after which the allocation is released, and holds_allocation says whether
-- the allocation counts in the node's budget. `kind` is container, pod or
-- unit; the name carries the same prefix.
ALTER TABLE workloads ADD COLUMN kind TEXT NOT NULL DEFAULT 'container';
ALTER TABLE workloads ADD COLUMN run_state TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE workloads ADD COLUMN removed_at_usec INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workloads ADD COLUMN holds_allocation INTEGER NOT NULL DEFAULT 0;
UPDATE workloads SET run_state = CASE WHEN running THEN 'running' ELSE 'stopped' END;
-- v1 kept the allocation of an admitted workload in its row and counted it
-- while it ran; a pending one was never admitted.
UPDATE workloads SET holds_allocation = (update_state <> 'pending');
