-- A plan resized submits for Force on a pod (lowering the members over the
-- pod's new limit with it) passes Force on to every change it makes, also
-- when it runs only after a restart.
ALTER TABLE plans ADD COLUMN force INTEGER NOT NULL DEFAULT 0;
