/**
 * Phrases that tell one event of a kind from the others of that kind, for task evidence (task-evidence.ts): the
 * assistant's turn that changes course, the bash call that runs a test runner. Each is an FTS5 phrase of the
 * fragment's text (unicode61 splits "didn't" as the index did). Declared once; not tuned to any question.
 */

/** What an assistant says when it gives an approach up ("that didn't work", "let me try a different approach"). */
export const GIVE_UP_CUES: readonly string[] = [
	"didn't work",
	"doesn't work",
	"did not work",
	"does not work",
	"won't work",
	"not working",
	"different approach",
	"another approach",
	"simpler approach",
	"revert",
	"reverted",
	"roll back",
	"back out",
	"give up",
	"abandon",
	"step back",
];

/** Commands that run a test runner (a bash call that names one), not any other bash call. */
export const TEST_RUNNER_CUES: readonly string[] = [
	"pytest",
	"unittest",
	"tox",
	"nox",
	"npm test",
	"npm run test",
	"yarn test",
	"pnpm test",
	"bun test",
	"vitest",
	"jest",
	"mocha",
	"playwright test",
	"go test",
	"cargo test",
	"rspec",
	"phpunit",
	"mvn test",
	"gradle test",
	"dotnet test",
	"ctest",
	"make test",
];

/** The FTS5 expression matching any of `cues` (each a phrase). */
export function cuesMatch(cues: readonly string[]): string {
	return `(${cues.map((c) => `"${c.replaceAll('"', '""')}"`).join(" OR ")})`;
}

/**
 * Words of a user's message that reports a failure: a pasted error ("Error starting session: …", a traceback) or
 * "the build failed". Such a request is itself the error a question about the work means ("what error did we hit").
 */
export const REPORTED_FAILURE_WORDS: ReadonlySet<string> = new Set([
	"error",
	"exception",
	"traceback",
	"failed",
	"fatal",
]);
