-- Who made a change: a caller (uid:N), or resized itself repairing drift
-- and re-applying after a restart (reconcile) or for an OCI hook (hook);
-- plans and the autoscaler come later. Every row before this one was a
-- caller's.
ALTER TABLE history ADD COLUMN actor TEXT NOT NULL DEFAULT '';
UPDATE history SET actor = 'uid:' || caller_uid;
