-- The Podman pod a workload's container belongs to ('' when none).
ALTER TABLE workloads ADD COLUMN pod TEXT NOT NULL DEFAULT '';
