-- Pools declared in configuration files (pools.d/NAME.conf): the file that
-- declares the pool, '' for one set over D-Bus. A declared pool is
-- read-only over D-Bus, and goes when its file does.
ALTER TABLE pools ADD COLUMN declared_in TEXT NOT NULL DEFAULT '';
