/**
 * The names of the index's work locks, apart from the work itself: coverage and status read who holds them without
 * loading the catch-up and rebuild modules.
 */
import { formatLockName } from "../store/format.js";

/** Name of the lock that makes one process at a time do whole-corpus catch-up (of this index format). */
export const CATCH_UP_LOCK = formatLockName("catch-up");

/** Held for the whole rebuild (of this index format); coverage reports "rebuilding" while it exists. */
export const REBUILD_LOCK = formatLockName("rebuild");
