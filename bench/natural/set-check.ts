/**
 * The set's own rules, checked on the written sessions (no index needed). A question breaks a rule when:
 * - an answer key it names was never written;
 * - one of its answering events contains every content word of the question (the set must test relaxed recall);
 * - none of its content words shares even a crude stem with an answer (no lexical search could find it);
 * - every word it shares with its answer occurs in no other event (ranking would not matter);
 * - it is tagged `identifier` but holds no identifier-like word that one of its answers contains.
 */
import type { ResolvedQuestion, WrittenEvent, WrittenSet } from "./corpus.js";
import { contentWords, crudeStem, tokens } from "./words.js";

/** One question's relation to its answers. */
export interface QuestionWords {
	/** Content words of the question. */
	words: string[];
	/** Content words no answer contains exactly (never empty in a well-formed set). */
	missing: string[];
	/** Content words some answer contains exactly or by crude stem. */
	shared: string[];
	/** Shared words that also occur (exactly or by stem) in at least one non-answer event. */
	contested: string[];
}

/** Identifier-like: snake_case, camelCase, dotted or digit-bearing words (`RETRY_BUDGET_MS`, `parseChunk`, `v0.7`). */
const IDENTIFIER = /[A-Za-z0-9]+(?:[_.:/-][A-Za-z0-9]+)+|[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*|[A-Za-z]+\d[A-Za-z0-9]*/g;

interface EventIndex {
	byKey: Map<string, WrittenEvent>;
	/** Token or stem → how many events contain it. */
	docFreq: Map<string, number>;
	tokenSets: Map<string, Set<string>>;
	stemSets: Map<string, Set<string>>;
}

function indexEvents(events: readonly WrittenEvent[]): EventIndex {
	const byKey = new Map<string, WrittenEvent>();
	const docFreq = new Map<string, number>();
	const tokenSets = new Map<string, Set<string>>();
	const stemSets = new Map<string, Set<string>>();
	for (const e of events) {
		byKey.set(e.key, e);
		const t = new Set(tokens(e.text));
		const s = new Set([...t].map((w) => `~${crudeStem(w)}`));
		tokenSets.set(e.key, t);
		stemSets.set(e.key, s);
		for (const w of [...t, ...s]) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
	}
	return { byKey, docFreq, tokenSets, stemSets };
}

/** How `question`'s content words relate to its answers and to the other events. */
function questionWords(question: ResolvedQuestion, index: EventIndex): QuestionWords {
	const words = contentWords(question.text);
	const answers = question.answers.filter((k) => index.byKey.has(k));
	const inAnswer = (w: string, exact: boolean) =>
		answers.some((k) => index.tokenSets.get(k)?.has(w) || (!exact && index.stemSets.get(k)?.has(`~${crudeStem(w)}`)));
	const missing = words.filter((w) => !inAnswer(w, true));
	const shared = words.filter((w) => inAnswer(w, false));
	const freqInAnswers = (w: string) =>
		answers.filter((k) => index.tokenSets.get(k)?.has(w) || index.stemSets.get(k)?.has(`~${crudeStem(w)}`)).length;
	const contested = shared.filter((w) => {
		const exact = index.docFreq.get(w) ?? 0;
		const stem = index.docFreq.get(`~${crudeStem(w)}`) ?? 0;
		return Math.max(exact, stem) > freqInAnswers(w);
	});
	return { words, missing, shared, contested };
}

/** Problems of one question (empty when it follows every rule). */
function questionProblems(question: ResolvedQuestion, index: EventIndex): string[] {
	const problems: string[] = [];
	const name = `"${question.text}" (${question.session})`;
	for (const k of question.answers) if (!index.byKey.has(k)) problems.push(`${name}: answer ${k} was not written`);
	for (const k of question.answers) {
		const t = index.tokenSets.get(k);
		if (t && contentWords(question.text).every((w) => t.has(w)))
			problems.push(`${name}: its answer contains every content word`);
	}
	const w = questionWords(question, index);
	if (w.words.length === 0) problems.push(`${name}: no content words`);
	else if (w.shared.length === 0) problems.push(`${name}: shares no word (or stem) with its answer`);
	else if (w.contested.length === 0) problems.push(`${name}: every shared word occurs only in its answer`);
	if (question.cls === "identifier") {
		const ids = question.text.match(IDENTIFIER) ?? [];
		const inAnswer = (id: string) =>
			question.answers.some((k) => index.byKey.get(k)?.text.toLowerCase().includes(id.toLowerCase()));
		if (!ids.some(inAnswer)) problems.push(`${name}: tagged identifier but no answer holds its identifier`);
	}
	return problems;
}

/** Every rule violation of the written set (empty when the set is well-formed). */
export function checkNaturalSet(set: WrittenSet): string[] {
	const index = indexEvents(set.events);
	const problems = set.unknownKeys.map((k) => `also-key ${k} is declared by no turn`);
	for (const question of set.questions) problems.push(...questionProblems(question, index));
	return problems;
}

/** Per-question word relations, for reports. */
export function allQuestionWords(set: WrittenSet): QuestionWords[] {
	const index = indexEvents(set.events);
	return set.questions.map((question) => questionWords(question, index));
}
