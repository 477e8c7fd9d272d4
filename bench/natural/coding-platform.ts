/** Coding conversations of the natural-question set: auth tokens in the api, and a pnpm monorepo move. */
import { a, type NaturalSession, noise, q, rd, sh, shFail, u } from "./set.js";

export const PLATFORM_SESSIONS: NaturalSession[] = [
	{
		label: "api-auth",
		cwd: "/home/dev/src/billing-api",
		start: "2026-09-23T09:30:00.000Z",
		turns: [
			u(
				"Users get logged out randomly after about 15 minutes even though they're active. The refresh token flow must be broken.",
				q("why were users being signed out after fifteen minutes", "paraphrase"),
			),
			rd(
				"/home/dev/src/billing-api/src/auth/refresh.ts",
				"export async function refresh(req: Request) {\n  const token = req.cookies.refresh_token;\n  const claims = await verify(token, REFRESH_SECRET);\n  await revoke(claims.jti);\n  return issuePair(claims.sub);\n}",
				q("the refresh handler revoking the jti", "inflection"),
			),
			a(
				"Race condition: two tabs refresh at the same moment with the same refresh token; the first request revokes its `jti`, the second fails verification and the client logs out. Fix: allow a 30 second grace period in which the just-rotated token still returns the same new pair.",
				q("what race condition broke token refresh with several tabs", "inflection"),
				q("refresh token rotation grace period multiple tabs", "keywords"),
			),
			noise(2),
			u("Also the access token lifetime is 15 minutes, where is that configured?"),
			sh(
				'grep -rn "ACCESS_TOKEN_TTL" src/ .env.example',
				'src/auth/tokens.ts:4:export const ACCESS_TOKEN_TTL = "15m";\nsrc/auth/tokens.ts:5:export const REFRESH_TOKEN_TTL = "30d";\n.env.example:12:# ACCESS_TOKEN_TTL is hard-coded, see src/auth/tokens.ts',
				q("where is ACCESS_TOKEN_TTL defined", "identifier"),
				q("refresh token lifetime thirty days", "paraphrase"),
			),
			shFail(
				"npx vitest run test/auth",
				" FAIL  test/auth/refresh.test.ts > refresh > two concurrent refreshes keep the session\nAssertionError: expected 401 to be 200\n ❯ test/auth/refresh.test.ts:58:27",
				q("concurrent refresh test returned 401", "inflection"),
			),
			a(
				"The grace-period lookup used `revoked_at > now() - 30s` in UTC but `revoked_at` is stored as a local timestamp without time zone. Switched the column to `timestamptz`; the concurrent refresh test passes.",
				q("revoked_at timestamptz fix for the grace period", "identifier"),
			),
			u("Write it up for the changelog, one line."),
			a(
				"Fixed: users with several tabs open were logged out when two tabs refreshed their session at the same time (refresh tokens now have a 30-second rotation grace period).",
				q("changelog entry about multiple tabs logging out", "inflection"),
			),
		],
	},
	{
		label: "monorepo-pnpm",
		cwd: "/home/dev/src/platform",
		start: "2026-10-20T13:40:00.000Z",
		turns: [
			u(
				"We want the dashboard, the api and the shared types in one repo with pnpm workspaces. Set up the monorepo.",
				q("when did we decide to merge the repos into a monorepo", "inflection"),
			),
			rd(
				"/home/dev/src/platform/pnpm-workspace.yaml",
				'packages:\n  - "apps/*"\n  - "packages/*"\n',
				q("pnpm-workspace.yaml package globs", "keywords"),
			),
			a(
				'Layout: `apps/dashboard`, `apps/billing-api`, `packages/types`, `packages/eslint-config`. Shared types are consumed as `"@acme/types": "workspace:*"`, and Turborepo caches build and test per package.',
				q("how are shared types referenced between packages", "inflection"),
				q("workspace protocol for @acme/types", "identifier"),
			),
			noise(2),
			shFail(
				"pnpm -r build",
				'apps/dashboard build$ vite build\napps/dashboard build: error during build:\napps/dashboard build: [vite]: Rollup failed to resolve import "@acme/types/invoice" from "src/pages/Invoices.tsx".\napps/dashboard build: Failed\n ELIFECYCLE  Command failed with exit code 1.',
				q("vite could not resolve the shared types import", "inflection"),
			),
			a(
				'`@acme/types` has no `exports` entry for the `./invoice` subpath. Added `"exports": { ".": "./src/index.ts", "./invoice": "./src/invoice.ts" }` to packages/types/package.json; the dashboard builds.',
				q("what was missing from the types package.json", "paraphrase"),
			),
			sh(
				"pnpm turbo run test --summarize",
				" Tasks:    9 successful, 9 total\nCached:    6 cached, 9 total\n  Time:    14.212s\nSummary:   .turbo/runs/2Xk8pQ.json",
				q("how many turbo tasks hit the cache", "inflection"),
				q("turbo cache hits", "keywords"),
			),
			u(
				"Great. Move the CI to the monorepo too and only test the packages that changed.",
				q("run tests only for affected packages in CI", "paraphrase"),
			),
			a(
				"CI now runs `pnpm turbo run lint test build --filter=...[origin/main]`, so only packages changed since main and their dependents are checked; the remote cache is shared through `TURBO_TOKEN`.",
				q("turbo filter for packages modified since main", "paraphrase"),
			),
		],
	},
];
