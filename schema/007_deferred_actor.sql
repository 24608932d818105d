-- Who a waiting update is for, so that it is recorded under the same actor
-- when it is applied at last: the autoscaler's changes wait too. Every row
-- before this one was a caller's.
ALTER TABLE deferred_updates ADD COLUMN actor TEXT NOT NULL DEFAULT '';
UPDATE deferred_updates SET actor = 'uid:' || caller_uid;
