/**
 * The phrasings of the coding eval's questions: many per kind, as developers ask an assistant about past work
 * ("remind me", "pull up that task", "what did the test run say"), filled with a topic said in words (phrases.ts).
 */
import type { Rng } from "../corpus/prng.js";
import type { QuestionKind } from "./questions.js";

/** What a question can be worded with. */
export interface Wording {
	/** A few salient words of the request. */
	topic: string;
	/** The request reported a problem (fix wording) rather than asked for a feature. */
	problem?: boolean;
	/** The error's name, said as words. */
	error?: string;
	/** The command that was run, said as words. */
	command?: string;
}

/** One phrasing: whether it fits a wording, and the question it makes. */
export interface Template {
	fits(w: Wording): boolean;
	say(w: Wording, rng: Rng): string;
}

const any = () => true;
const t = (say: (w: Wording, rng: Rng) => string, fits: (w: Wording) => boolean = any): Template => ({ fits, say });
const the = (rng: Rng, s: string) => (rng.chance(0.5) ? `the ${s}` : s);
const opener = (rng: Rng) => rng.pick(["", "", "remind me, ", "quick one: ", "hey, ", "sorry, I forget: ", "so "]);

export const TEMPLATES: Record<Exclude<QuestionKind, "absent">, Template[]> = {
	fix: [
		t(
			(w, r) => `${opener(r)}how did we fix ${the(r, w.topic)}?`,
			(w) => w.problem === true,
		),
		t(
			(w) => `remind me how we got ${w.topic} working again`,
			(w) => w.problem === true,
		),
		t(
			(w, r) => `what was the fix for ${the(r, w.topic)} in the end`,
			(w) => w.problem === true,
		),
		t(
			(w) => `we had a problem with ${w.topic} a while back, what did we change to fix it?`,
			(w) => w.problem === true,
		),
		t((w) => `pull up the change we made for ${w.topic}`),
		t(
			(w, r) => `how did we end up solving ${the(r, w.topic)}?`,
			(w) => w.problem === true,
		),
		t((w) => `what edits did we make to sort out ${w.topic}`),
		t((w) => `show me the diff from when we did ${w.topic}`),
		t(
			(w, r) => `${opener(r)}how did we implement ${w.topic}?`,
			(w) => w.problem !== true,
		),
		t(
			(w) => `what code did we write for ${w.topic}`,
			(w) => w.problem !== true,
		),
		t(
			(w) => `how did we add ${w.topic} last time, can you find the change`,
			(w) => w.problem !== true,
		),
		t((w) => `I need the patch we did for ${w.topic}`),
	],
	file: [
		t((w, r) => `${opener(r)}which file did we change for ${w.topic}?`),
		t((w) => `where did we make the change for ${w.topic}`),
		t(
			(w) => `what file had the ${w.topic} fix`,
			(w) => w.problem === true,
		),
		t((w) => `which files did we touch when we worked on ${w.topic}`),
		t((w) => `remind me where the code for ${w.topic} lives, we edited it at some point`),
		t((w) => `in which file did we do the ${w.topic} change?`),
		t((w) => `what did we edit to get ${w.topic} done`),
		t((w) => `find the edit for ${w.topic}, which file was that`),
	],
	error: [
		t((w, r) => `${opener(r)}what error did we hit with ${w.topic}?`),
		t(
			(w) => `what did the ${w.error} say when we were doing ${w.topic}`,
			(w) => w.error !== undefined,
		),
		t(
			(w) => `remind me what the ${w.error} was about`,
			(w) => w.error !== undefined,
		),
		t(
			(w) => `what did ${w.command} print when it failed`,
			(w) => w.command !== undefined && w.command !== "",
		),
		t(
			(w) => `the ${w.command} run blew up at some point, what was the output?`,
			(w) => (w.command ?? "") !== "",
		),
		t((w) => `what was the error output when we tried ${w.topic}`),
		t((w) => `pull up the failure we got on ${w.topic}`),
		t((w) => `what did the repro print for ${w.topic}?`),
		t(
			(w) => `we got a ${w.error} around ${w.topic}, what exactly did it say`,
			(w) => w.error !== undefined,
		),
		t((w) => `show me the stack trace from ${w.topic}`),
	],
	test: [
		t((w, r) => `${opener(r)}which tests did we run after ${w.topic}, and did they pass?`),
		t((w) => `what was the result of the test run for ${w.topic}`),
		t(
			(w) => `did ${w.command} pass after we changed ${w.topic}?`,
			(w) => (w.command ?? "") !== "",
		),
		t((w) => `remind me which test command we used for ${w.topic} and what it said`),
		t((w) => `how did the tests come out when we worked on ${w.topic}`),
		t(
			(w) => `what did the ${w.command} run say for ${w.topic}`,
			(w) => (w.command ?? "") !== "",
		),
		t((w) => `pull up the test results from the ${w.topic} work`),
		t((w) => `were the tests green after ${w.topic}? which ones did we run`),
	],
	task: [
		t((w, r) => `${opener(r)}pull up the task about ${w.topic}`),
		t((w) => `find the session where I asked about ${w.topic}`),
		t((w) => `remind me what I asked for regarding ${w.topic}`),
		t((w) => `when did we work on ${w.topic}? show me the request`),
		t((w) => `what exactly did I ask you to do with ${w.topic}`),
		t((w) => `${w.topic}, where did I ask for that?`),
		t((w) => `can you dig up my original request about ${w.topic}`),
		t((w) => `pull up that task, the one with ${w.topic}`),
		t((w) => `what was the ask for ${w.topic} again`),
		t((w) => `I once asked you something about ${w.topic}, find it`),
	],
	abandoned: [
		t((w, r) => `${opener(r)}what did we try first for ${w.topic} before we changed approach?`),
		t((w) => `what approach did we give up on with ${w.topic}`),
		t((w) => `remind me what didn't work for ${w.topic}`),
		t((w) => `we abandoned an idea for ${w.topic}, what was it`),
		t((w) => `what was the first attempt at ${w.topic} that we dropped`),
		t((w) => `for ${w.topic}, what did we try that failed before the real fix`),
		t((w) => `what did we back out of when working on ${w.topic}?`),
	],
	decision: [
		t((w, r) => `${opener(r)}what did we decide about ${w.topic}?`),
		t((w) => `what did we settle on for ${w.topic}`),
		t((w) => `remind me which option we chose for ${w.topic}`),
		t((w) => `did we agree on an approach for ${w.topic}? what was it`),
		t((w) => `what was the call on ${w.topic}`),
		t((w) => `what did we go with for ${w.topic} in the end`),
		t((w) => `pull up where we decided on ${w.topic}`),
		t((w) => `why did we pick that approach for ${w.topic}, find the decision`),
	],
};
