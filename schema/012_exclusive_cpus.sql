-- The CPUs a workload's exclusive slice (ExclusiveCpus) was first granted:
-- resizing the slice never gives them back. A cpuset list, '' for none;
-- meaningful only while the desired state holds a slice.
ALTER TABLE workloads ADD COLUMN exclusive_cpus_granted TEXT NOT NULL DEFAULT '';

-- The cpusets of the containers whose cpuset resized does not decide, as
-- they were before the CPU manager narrowed them off a slice: what they get
-- back when the slice goes, also after a restart.
CREATE TABLE narrowed_cpusets (
    cgroup_path TEXT PRIMARY KEY,
    cpus TEXT NOT NULL
);

-- The slices held (StateStore::heldSlices, asked at every change under the
-- static policy): a scan of the few holders rather than of every workload.
-- The WHERE clause is the query's, word for word, or SQLite cannot use it.
CREATE INDEX workloads_holding_slices ON workloads(name)
    WHERE holds_allocation AND json_extract(desired, '$.ExclusiveCpus') > 0;
