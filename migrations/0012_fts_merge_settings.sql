-- FTS5's write settings (docs/store.md, "FTS5's merges"). FTS5 writes its pending terms to disk as a new segment
-- whenever they pass `hashsize` bytes (1 MiB by default) and at every commit, and merges `automerge` segments of one
-- level into one of the next (4 by default). A bulk pass with two threads gathers several MiB of terms in each
-- 250 ms group commit: at 1 MiB that made several small segments a commit, and most of the writing thread's FTS5
-- work was merging them. With 8 MiB and merges of 8, a cold build of the generated 1 GB took 11–13 % less CPU
-- (two builds run at the same time, twice) and ended with as many segments (10 against 11–13), so searches read
-- as many. The pending terms are held only while a transaction writes, and only as many as it wrote.
INSERT INTO `fragments_fts` (`fragments_fts`, `rank`) VALUES ('hashsize', 8388608);
--> statement-breakpoint
INSERT INTO `fragments_fts` (`fragments_fts`, `rank`) VALUES ('automerge', 8);
