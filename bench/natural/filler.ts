/**
 * Background conversation for the natural-question set: small talk and routine requests that mention the set's
 * people and topics without stating any fact a question asks about (so they compete on words, never answer).
 * Built from fixed phrase banks by the session's seeded PRNG.
 */
import type { Rng } from "../corpus/prng.js";

/** Which phrase banks a filler exchange draws from. */
export type FillerDomain = "coding" | "life";

const LIFE_PEOPLE = ["Caroline", "Melanie", "Jon", "Gina", "my sister", "my neighbour", "Rosa", "my mom"];
const LIFE_TOPICS = [
	"the support group",
	"painting",
	"the kids",
	"the dance studio",
	"pottery",
	"the adoption",
	"the charity race",
	"camping",
	"the conference",
	"the clothing store",
	"the counseling course",
	"the road trip",
	"the dog",
	"her birthday",
	"the lease",
	"the investors",
	"music lessons",
	"the beach",
	"the hike",
	"books",
];
const LIFE_USER = [
	"Can you remind me to call {p} about {t} tomorrow?",
	"Talked to {p} about {t} for an hour, nothing new really.",
	"Not much to report today. {p} and I watched a movie and skipped talking about {t}.",
	"I keep thinking about {t}, no decisions yet.",
	"{p} asked how {t} is going, I said we'd see.",
	"Quiet week. Work, laundry, and a bit of {t}.",
	"Do you remember what I told you about {t}? Never mind, I'll check later.",
	"I'm tired today, let's talk about {t} another time.",
];
const LIFE_ASSISTANT = [
	"Noted. I'll remind you about {t} tomorrow morning.",
	"That sounds like a calm day. Anything you want to plan around {t}?",
	"It's fine to take a break from {t}. Rest well.",
	"Happy to help with {t} whenever you're ready.",
	"Say hi to {p} from me! Let me know how {t} goes.",
];

const CODE_THINGS = [
	"the invoice migration",
	"the webhook handler",
	"the retry config",
	"the dashboard build",
	"the CI workflow",
	"the docker image",
	"the worker deployment",
	"the nginx config",
	"the csv loader",
	"the airflow dag",
	"the refresh token code",
	"the turbo pipeline",
	"the chart components",
	"the test suite",
	"the database schema",
	"the release notes",
	"the lint setup",
	"the error handling",
];
const CODE_USER = [
	"Can you add a comment to {t} explaining why it is this way?",
	"Rename the variables in {t}, they're confusing.",
	"Quick one: format {t} and commit.",
	"What does {t} do again? Just a summary please.",
	"Leave {t} alone for now, we'll revisit after the release.",
	"Check that {t} still builds and the tests pass.",
	"Update the README section about {t}.",
	"Is there a TODO left in {t}?",
];
const CODE_ASSISTANT = [
	"Done, {t} is formatted and committed.",
	"I added a short comment to {t}; no behaviour change.",
	"{T} still builds and the tests pass.",
	"No TODOs left in {t}.",
	"Updated the README section about {t}.",
	"Renamed the variables in {t}; the diff is small.",
	"Here is a summary of {t}: it wires the pieces together and has no side effects beyond logging.",
];

function fill(rng: Rng, template: string, people: readonly string[], topic: string): string {
	return template
		.replace("{p}", rng.pick(people))
		.replace("{t}", topic)
		.replace("{T}", topic[0].toUpperCase() + topic.slice(1));
}

/** One user message and the assistant's answer, about one topic of the domain. */
export function fillerExchange(rng: Rng, domain: FillerDomain): [string, string] {
	if (domain === "life") {
		const topic = rng.pick(LIFE_TOPICS);
		return [
			fill(rng, rng.pick(LIFE_USER), LIFE_PEOPLE, topic),
			fill(rng, rng.pick(LIFE_ASSISTANT), LIFE_PEOPLE, topic),
		];
	}
	const topic = rng.pick(CODE_THINGS);
	return [fill(rng, rng.pick(CODE_USER), [], topic), fill(rng, rng.pick(CODE_ASSISTANT), [], topic)];
}
