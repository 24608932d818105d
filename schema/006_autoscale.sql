-- The autoscaler (design.md §1b): its policies, and its memory of
-- recommendations and of the changes it made, so that a restart keeps the
-- stabilisation windows and rate periods where the HPA forgets them. Rows
-- older than a policy's windows and periods are deleted as new ones come.
CREATE TABLE autoscale_policies (
    workload TEXT PRIMARY KEY,
    policy TEXT NOT NULL                -- JSON
);

CREATE TABLE autoscale_recommendations (
    workload TEXT NOT NULL,
    resource TEXT NOT NULL,             -- 'cpu' (millicores) or 'memory' (bytes)
    at_usec INTEGER NOT NULL,           -- CLOCK_REALTIME
    value INTEGER NOT NULL
);
CREATE INDEX autoscale_recommendations_by_workload
    ON autoscale_recommendations (workload, resource, at_usec);

CREATE TABLE autoscale_events (
    workload TEXT NOT NULL,
    resource TEXT NOT NULL,
    at_usec INTEGER NOT NULL,
    from_value INTEGER NOT NULL,
    to_value INTEGER NOT NULL
);
CREATE INDEX autoscale_events_by_workload ON autoscale_events (workload, resource, at_usec);
