/** Coding conversations of the natural-question set: the web-dashboard workspace (React, Vite, CI, Playwright). */
import { a, type NaturalSession, noise, q, rd, sh, shFail, u } from "./set.js";

const CWD = "/home/dev/src/web-dashboard";

export const WEB_SESSIONS: NaturalSession[] = [
	{
		label: "dashboard-upgrade",
		cwd: CWD,
		start: "2026-05-04T10:20:00.000Z",
		turns: [
			u(
				"Let's upgrade the dashboard to React 19. Check what breaks first.",
				q("when did we move the dashboard to react 19?", "question-form"),
			),
			shFail(
				"npm install react@19 react-dom@19",
				'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! Found: react@19.0.0\nnpm ERR! Could not resolve dependency:\nnpm ERR! peer react@"^16.8.0 || ^17.0.0 || ^18.0.0" from react-beautiful-dnd@13.1.1',
				q("which package blocked the react upgrade with a peer dependency conflict", "inflection"),
				q("ERESOLVE react-beautiful-dnd peer conflict", "identifier"),
			),
			a(
				"`react-beautiful-dnd` is unmaintained and pins React ≤ 18. The drop-in successor is `@hello-pangea/dnd`, same API. I'll swap the import in the three board components.",
				q("what replaced react-beautiful-dnd", "inflection"),
			),
			noise(2),
			u(
				"OK. Also the eslint config is still .eslintrc.cjs, eslint 9 wants the flat config. Convert it.",
				q("converting the eslint configuration to the flat format", "inflection"),
			),
			rd(
				"/home/dev/src/web-dashboard/eslint.config.js",
				"import js from '@eslint/js';\nimport react from 'eslint-plugin-react';\nimport hooks from 'eslint-plugin-react-hooks';\nimport tseslint from 'typescript-eslint';\n\nexport default tseslint.config(\n  js.configs.recommended,\n  ...tseslint.configs.recommended,\n  { plugins: { react, 'react-hooks': hooks },\n    rules: { 'react-hooks/exhaustive-deps': 'error', 'react/jsx-key': 'error' } },\n  { ignores: ['dist/**', 'coverage/**'] },\n);",
				q("is react-hooks/exhaustive-deps an error in the new lint config", "identifier"),
			),
			a(
				"Converted: `eslint.config.js` uses `tseslint.config(...)`, the react and react-hooks plugins, and the ignores that used to live in .eslintignore (deleted). `npm run lint` reports 14 exhaustive-deps errors that the old config only warned about.",
				q("how many hook dependency errors showed up after the lint change", "paraphrase"),
			),
			u(
				"Fix the exhaustive-deps ones in src/charts only, the rest can wait.",
				q("what did I say about the remaining lint errors outside charts", "paraphrase"),
			),
			sh(
				"npx vite build",
				"vite v6.2.0 building for production...\n✓ 1843 modules transformed.\ndist/index.html                   0.62 kB │ gzip:   0.38 kB\ndist/assets/index-4f1c2a.css     38.11 kB │ gzip:   7.02 kB\ndist/assets/vendor-a81d33.js    612.40 kB │ gzip: 191.77 kB\ndist/assets/index-c02e9b.js     288.09 kB │ gzip:  84.50 kB\n(!) Some chunks are larger than 500 kB after minification.\n✓ built in 9.81s",
				q("how big was the vendor bundle after the upgrade", "paraphrase"),
				q("chunk larger than 500 kB warning vite", "inflection"),
			),
			a(
				"The vendor chunk is 612 kB (192 kB gzipped). I'd split recharts and date-fns into their own chunks with `build.rollupOptions.output.manualChunks`; that brings every chunk under 500 kB.",
				q("manualChunks splitting the recharts bundle", "identifier"),
			),
		],
	},
	{
		label: "dashboard-ci",
		cwd: CWD,
		start: "2026-07-21T16:05:00.000Z",
		turns: [
			u(
				"The Playwright job on GitHub Actions takes 19 minutes. Can we make CI faster?",
				q("how slow was the end-to-end job in CI", "paraphrase"),
			),
			rd(
				"/home/dev/src/web-dashboard/.github/workflows/ci.yml",
				"name: ci\non: [push, pull_request]\njobs:\n  e2e:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with: { node-version: 20 }\n      - run: npm ci\n      - run: npx playwright install --with-deps\n      - run: npx playwright test",
				q("what does the workflow file run for e2e", "inflection"),
			),
			a(
				// biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
				"Three easy wins: cache npm with `cache: npm` in setup-node, cache the Playwright browsers keyed on the Playwright version, and shard the suite over 4 machines with `--shard=${{ matrix.shard }}/4`.",
				q("ideas to speed up the playwright pipeline", "paraphrase"),
				q("sharding playwright tests across machines", "inflection"),
			),
			noise(2),
			shFail(
				"gh run view 9921344 --log-failed",
				'e2e (2/4)  Run npx playwright test --shard=2/4\n  1) [chromium] › tests/reports.spec.ts:22:5 › export report as CSV\n    Error: page.waitForEvent: Timeout 30000ms exceeded while waiting for event "download"\n  1 failed\n  38 passed (3.4m)',
				q("which spec timed out waiting for the download", "inflection"),
				q("export report CSV test failure on shard 2", "keywords"),
			),
			a(
				"The CSV export test fails only in headless Chromium on CI: the download is triggered by `window.open`, which headless blocks as a popup. Switching the button to an `<a download>` link fixes it and is better UX anyway.",
				q("why did the CSV export break in headless chromium", "inflection"),
				q("csv export headless popup blocked", "keywords"),
			),
			u("Great, what's the CI time now?"),
			sh(
				"gh run list --workflow ci.yml --limit 3",
				"STATUS  TITLE                         WORKFLOW  BRANCH        EVENT  ID        ELAPSED\n✓       use anchor download for CSV    ci        main          push   9921873   6m12s\n✓       shard playwright over 4        ci        ci-speed      push   9921512   6m40s\nX       cache playwright browsers      ci        ci-speed      push   9921344   7m02s",
				q("how long does the pipeline take after sharding", "paraphrase"),
			),
			u(
				"6 minutes, good enough. Add a nightly job that runs the full suite on firefox and webkit too.",
				q("did we add a scheduled run for other browsers", "paraphrase"),
			),
			a(
				"Added `.github/workflows/nightly.yml` with `schedule: - cron: '0 3 * * *'` and a browser matrix of firefox and webkit; it opens an issue labelled `e2e-nightly` when it fails.",
				q("what time does the nightly e2e workflow run", "question-form"),
			),
		],
	},
	{
		label: "dashboard-refactor",
		cwd: CWD,
		start: "2026-09-02T11:45:00.000Z",
		turns: [
			u(
				"src/charts/useChartData.ts has grown to 600 lines and re-renders the whole dashboard on every websocket tick. Refactor it.",
				q("which hook was causing the dashboard to rerender constantly", "paraphrase"),
			),
			rd(
				"/home/dev/src/web-dashboard/src/charts/useChartData.ts",
				"export function useChartData(series: SeriesId[], range: TimeRange) {\n  const [points, setPoints] = useState<Record<SeriesId, Point[]>>({});\n  const socket = useSocket();\n  useEffect(() => {\n    return socket.subscribe((tick) => {\n      setPoints((prev) => ({ ...prev, [tick.series]: [...(prev[tick.series] ?? []), tick.point] }));\n    });\n  }, [socket]);\n  const filtered = Object.fromEntries(Object.entries(points).map(([k, v]) => [k, v.filter((p) => inRange(p, range))]));\n  return { points: filtered, loading: Object.keys(points).length === 0 };\n}",
				q("show me the old useChartData implementation", "identifier"),
			),
			a(
				"Each tick replaces the whole `points` object, and `filtered` is rebuilt on every render, so every chart re-renders. Plan: keep one store per series with `useSyncExternalStore`, memoize the range filter with `useMemo`, and split the file into `series-store.ts`, `use-series.ts` and `range.ts`.",
				q("plan for splitting the chart data hook", "inflection"),
				q("useSyncExternalStore subscription per series", "identifier"),
			),
			noise(2),
			sh(
				"npx vitest run src/charts --reporter dot",
				"·······························\n\n Test Files  6 passed (6)\n      Tests  31 passed (31)\n   Duration  2.04s",
			),
			a(
				"Refactor done. With the React profiler, one websocket tick now re-renders only the chart of that series: 1 commit of 0.8 ms instead of 23 commits of 41 ms.",
				q("profiler numbers before and after the chart refactoring", "inflection"),
			),
			u(
				"Memory keeps growing if the tab stays open all day though.",
				q("the dashboard leaks memory when left open", "paraphrase"),
			),
			a(
				"Points are never dropped. I'll keep a ring buffer of the last 5,000 points per series (about 4 hours at one point every 3 s) and drop older ones; charts only show 4 hours anyway.",
				q("how many points per series does the ring buffer hold", "inflection"),
			),
			u(
				"ok. rename useChartData to useSeries everywhere and delete the old file",
				q("what was useChartData renamed to", "identifier"),
			),
		],
	},
];
