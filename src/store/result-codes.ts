/**
 * SQLite's result code names by number (sqlite3.h), primary and extended: node:sqlite reports only the number, and the
 * store branches on names (SQLITE_BUSY*, SQLITE_CORRUPT*, SQLITE_READONLY*, …) as better-sqlite3 and bun:sqlite give
 * them. An extended code is its primary code plus (n << 8) for the n-th name of its family.
 */
/** Splits a list of names written as words. */
function words(list: string): string[] {
	return list.split(" ");
}

const PRIMARY = words(
	"OK ERROR INTERNAL PERM ABORT BUSY LOCKED NOMEM READONLY INTERRUPT IOERR CORRUPT NOTFOUND FULL CANTOPEN PROTOCOL EMPTY SCHEMA TOOBIG CONSTRAINT MISMATCH MISUSE NOLFS AUTH FORMAT RANGE NOTADB NOTICE WARNING",
);

/** Each family's extended names, in the order of their `n`. */
const EXTENDED: Record<string, string[] | undefined> = {
	OK: words("LOAD_PERMANENTLY SYMLINK"),
	ERROR: words("MISSING_COLLSEQ RETRY SNAPSHOT RESERVESIZE KEY UNABLE"),
	IOERR: words(
		"READ SHORT_READ WRITE FSYNC DIR_FSYNC TRUNCATE FSTAT UNLOCK RDLOCK DELETE BLOCKED NOMEM ACCESS CHECKRESERVEDLOCK LOCK CLOSE DIR_CLOSE SHMOPEN SHMSIZE SHMLOCK SHMMAP SEEK DELETE_NOENT MMAP GETTEMPPATH CONVPATH VNODE AUTH BEGIN_ATOMIC COMMIT_ATOMIC ROLLBACK_ATOMIC DATA CORRUPTFS IN_PAGE",
	),
	LOCKED: words("SHAREDCACHE VTAB"),
	BUSY: words("RECOVERY SNAPSHOT TIMEOUT"),
	CANTOPEN: words("NOTEMPDIR ISDIR FULLPATH CONVPATH DIRTYWAL SYMLINK"),
	CORRUPT: words("VTAB SEQUENCE INDEX"),
	READONLY: words("RECOVERY CANTLOCK ROLLBACK DBMOVED CANTINIT DIRECTORY"),
	ABORT: words("ROLLBACK"),
	CONSTRAINT: words(
		"CHECK COMMITHOOK FOREIGNKEY FUNCTION NOTNULL PRIMARYKEY TRIGGER UNIQUE VTAB ROWID PINNED DATATYPE",
	),
	NOTICE: words("RECOVER_WAL RECOVER_ROLLBACK RBU"),
	WARNING: words("AUTOINDEX"),
	AUTH: words("USER"),
};

/** The name of a (primary or extended) result code, e.g. 1555 → "SQLITE_CONSTRAINT_PRIMARYKEY". */
export function sqliteResultName(code: number): string {
	const primary = PRIMARY[code & 0xff];
	if (primary === undefined) return code === 100 ? "SQLITE_ROW" : code === 101 ? "SQLITE_DONE" : `SQLITE_${code}`;
	const n = code >> 8;
	if (n === 0) return `SQLITE_${primary}`;
	const extended = EXTENDED[primary]?.[n - 1];
	return extended === undefined ? `SQLITE_${primary}` : `SQLITE_${primary}_${extended}`;
}
