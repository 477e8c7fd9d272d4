-- FTS5 merges its segments inside whichever commit crosses a write boundary, so a tool call's one-line commit could
-- pay 40-130 ms of merge work. Merges now run as separate bounded steps between writes (src/store/fts-merge.ts).
-- crisismerge stays at its default (16 segments on a level) as the safety net.
INSERT INTO `fragments_fts`(`fragments_fts`, `rank`) VALUES('automerge', 0);
