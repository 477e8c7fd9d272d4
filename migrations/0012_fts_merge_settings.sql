-- FTS5's merges (docs/store.md, "FTS5's merges"). FTS5 writes its pending terms out as a new segment at every commit
-- (and whenever they pass `hashsize`, which a bulk pass sets for itself: catch-up-job.ts, PENDING_TERMS_BYTES), and
-- merges `automerge` segments of one level into one of the next (4 by default). Merging 8 at a time writes each
-- posting again fewer times: with a two-thread pass's 8 MiB of pending terms, a cold build of the generated 1 GB took
-- 8 % less CPU than with both defaults (two builds run at the same time, four pairs) and ended with as many segments
-- (13 against 15), so searches read as many.
INSERT INTO `fragments_fts` (`fragments_fts`, `rank`) VALUES ('automerge', 8);
