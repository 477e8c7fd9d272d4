/** Every session of the natural-question set, in writing order: the written conversations, then background ones. */
import { BILLING_SESSIONS } from "./coding-billing.js";
import { DATA_SESSIONS } from "./coding-data.js";
import { INFRA_SESSIONS } from "./coding-infra.js";
import { PLATFORM_SESSIONS } from "./coding-platform.js";
import { WEB_SESSIONS } from "./coding-web.js";
import { CAROLINE_SESSIONS } from "./life-caroline.js";
import { FRIENDS_SESSIONS } from "./life-friends.js";
import { MORE_LIFE_SESSIONS } from "./life-more.js";
import { filler, type NaturalSession, noise, type Turn } from "./set.js";

const CODING: readonly NaturalSession[] = [
	...BILLING_SESSIONS,
	...WEB_SESSIONS,
	...INFRA_SESSIONS,
	...DATA_SESSIONS,
	...PLATFORM_SESSIONS,
];
const LIFE: readonly NaturalSession[] = [...CAROLINE_SESSIONS, ...FRIENDS_SESSIONS, ...MORE_LIFE_SESSIONS];

/** Background sessions per workspace, and their size: the bulk of a real history, answering nothing. */
const BACKGROUND_PER_WORKSPACE = 8;
const FILLER_EXCHANGES = 16;
const NOISE_OUTPUTS = 6;

/** Sessions in every workspace of `written` that hold only filler (and, for coding, background tool output). */
function background(written: readonly NaturalSession[], coding: boolean): NaturalSession[] {
	const cwds = [...new Set(written.map((s) => s.cwd))];
	return cwds.flatMap((cwd) => {
		const starts = written.filter((s) => s.cwd === cwd).map((s) => Date.parse(s.start));
		const first = Math.min(...starts);
		const span = Math.max(...starts) - first + 30 * 86_400_000;
		return Array.from({ length: BACKGROUND_PER_WORKSPACE }, (_, i): NaturalSession => {
			const turns: Turn[] = coding
				? [filler("coding", FILLER_EXCHANGES / 2), noise(NOISE_OUTPUTS), filler("coding", FILLER_EXCHANGES / 2)]
				: [filler("life", FILLER_EXCHANGES)];
			const start = new Date(first + Math.floor((span * (i + 0.5)) / BACKGROUND_PER_WORKSPACE)).toISOString();
			return { label: `background:${cwd}:${i}`, cwd, start, turns };
		});
	});
}

export const NATURAL_SESSIONS: readonly NaturalSession[] = [
	...CODING,
	...LIFE,
	...background(CODING, true),
	...background(LIFE, false),
];
