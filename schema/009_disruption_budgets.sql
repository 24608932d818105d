-- Disruption budgets (design.md §1b): a pool's budgets, as a JSON array,
-- and every disruption (a change lowering a member's CPU or memory) with
-- its reason, counted by the budgets from here, so that a restart does not
-- reset them. reservation_id is the update's reservation while it is in
-- flight (a budget over a period of 0 counts only those).
ALTER TABLE pools ADD COLUMN budgets TEXT NOT NULL DEFAULT '[]';
CREATE TABLE disruptions (
    id INTEGER PRIMARY KEY,
    pool TEXT NOT NULL,
    workload TEXT NOT NULL,
    reason TEXT NOT NULL,
    at_usec INTEGER NOT NULL,
    reservation_id INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX disruptions_by_pool ON disruptions (pool, at_usec);
