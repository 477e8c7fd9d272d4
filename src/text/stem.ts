/**
 * A small English suffix stemmer for query-time expansion. Two jobs:
 *  - `stem(word)`: a Porter-like key; two words with the same key count as the same word (painted ~ paint,
 *    studies ~ study, migrations ~ migrate, connection ~ connect). The key is not itself a word.
 *  - `wordForms(word)`: the word and the forms it is likely written as (plural/singular, -ed, -ing with e-drop,
 *    doubled consonants and y→i, -ion ↔ verb, a table of irregular verbs and plurals), every form sharing the
 *    word's key, at most MAX_WORD_FORMS. Generated, not looked up: a form nobody wrote matches nothing and costs
 *    one term lookup. Deliberately NOT conflated: -er (user ≠ use, folder ≠ fold), -ly, -ness, -ment, -ure.
 * Input is one lowercase ASCII word; anything else is returned as is.
 */

import { isStopword } from "./stopwords.js";

/** At most this many forms per word (the word itself included): bounds the FTS5 OR-expansion of one term. */
export const MAX_WORD_FORMS = 8;

/** Irregular verbs and plurals, base form first. Stopword verbs (be, have, do) are left out. */
const IRREGULAR_LINES = `
go goes going went gone|make makes making made|take takes taking took taken|get gets getting got gotten
give gives giving gave given|come comes coming came|see sees seeing saw seen|know knows knowing knew known
think thinks thinking thought|find finds finding found|build builds building built|send sends sending sent
break breaks breaking broke broken|choose chooses choosing chose chosen|begin begins beginning began begun
write writes writing wrote written|run runs running ran|buy buys buying bought|bring brings bringing brought
teach teaches teaching taught|catch catches catching caught|tell tells telling told|say says saying said
pay pays paying paid|leave leaves leaving left|keep keeps keeping kept|feel feels feeling felt
meet meets meeting met|lose loses losing lost|spend spends spending spent|hold holds holding held
grow grows growing grew grown|throw throws throwing threw thrown|draw draws drawing drew drawn
fly flies flying flew flown|drive drives driving drove driven|eat eats eating ate eaten
fall falls falling fell fallen|forget forgets forgetting forgot forgotten|hide hides hiding hid hidden
ride rides riding rode ridden|rise rises rising rose risen|speak speaks speaking spoke spoken
wake wakes waking woke woken|understand understands understanding understood|stand stands standing stood
win wins winning won|hang hangs hanging hung|lead leads leading led|feed feeds feeding fed
sleep sleeps sleeping slept|sell sells selling sold|hear hears hearing heard|mean means meaning meant
sit sits sitting sat|swim swims swimming swam swum|sing sings singing sang sung|drink drinks drinking drank drunk
wear wears wearing wore worn|lay lays laying laid|shoot shoots shooting shot|fight fights fighting fought|read reads reading
put puts putting|set sets setting|cut cuts cutting|hit hits hitting|show shows showing showed shown
shake shakes shaking shook shaken|steal steals stealing stole stolen|freeze freezes freezing froze frozen
child children|person people persons|man men|woman women|mouse mice|foot feet|tooth teeth
index indexes indices|analysis analyses
`;

/** Every form of an irregular word → its whole line (base first). */
const IRREGULAR = new Map<string, readonly string[]>();
for (const line of IRREGULAR_LINES.split(/[|\n]/u)) {
	const forms = line.split(" ").filter((f) => f !== "");
	for (const f of forms) IRREGULAR.set(f, forms);
}

const ASCII_WORD = /^[a-z]+$/u;

function isConsonant(w: string, i: number): boolean {
	const c = w[i];
	if ("aeiou".includes(c)) return false;
	// y after a consonant sounds as a vowel (study, try).
	if (c === "y") return i === 0 || !isConsonant(w, i - 1);
	return true;
}

function hasVowel(w: string): boolean {
	for (let i = 0; i < w.length; i++) if (!isConsonant(w, i)) return true;
	return false;
}

/** Porter's measure: the number of vowel→consonant transitions (syllable-ish count). */
function measure(w: string): number {
	let m = 0;
	let prevVowel = false;
	for (let i = 0; i < w.length; i++) {
		const consonant = isConsonant(w, i);
		if (consonant && prevVowel) m++;
		prevVowel = !consonant;
	}
	return m;
}

/** Ends consonant-vowel-consonant, the last not w, x or y (Porter's *o): stop, commit, open. */
function endsCvc(w: string): boolean {
	const n = w.length;
	return (
		n >= 3 && isConsonant(w, n - 1) && !isConsonant(w, n - 2) && isConsonant(w, n - 3) && !"wxy".includes(w[n - 1])
	);
}

function endsDouble(w: string): boolean {
	const n = w.length;
	return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** The stem key of a lowercase word (see the file comment): its likeliest base, normalised. */
export function stem(word: string): string {
	if (!ASCII_WORD.test(word)) return word;
	return normalizeEnding(bases(word)[0]);
}

/** Final e dropped, consonant+y → i, doubled consonant undoubled: migrate/migrat, study/studi, stopp/stop. */
function normalizeEnding(word: string): string {
	let w = word;
	if (w.length > 2 && w.endsWith("e")) w = w.slice(0, -1);
	if (w.length > 2 && w.endsWith("y") && isConsonant(w, w.length - 2)) w = `${w.slice(0, -1)}i`;
	if (w.length > 2 && endsDouble(w)) w = w.slice(0, -1);
	return w;
}

/**
 * The word first, then its likely written forms, no stopwords, at most MAX_WORD_FORMS. Words that are not
 * lowercase ASCII letters, shorter than 3 letters (unless irregular: go) or ending in -is get only themselves.
 */
export function wordForms(word: string): string[] {
	const irregular = IRREGULAR.get(word);
	if (!irregular && (!ASCII_WORD.test(word) || word.length < 3 || word.endsWith("is"))) return [word];
	const out = [word];
	for (const form of irregular ?? interleave(paradigms(word))) {
		if (out.length >= MAX_WORD_FORMS) break;
		if (!out.includes(form) && !isStopword(form)) out.push(form);
	}
	return out;
}

/** Merge lists column by column, so every candidate base contributes its base form before any inflection. */
function interleave(lists: string[][]): string[] {
	const out: string[] = [];
	const longest = Math.max(0, ...lists.map((l) => l.length));
	for (let i = 0; i < longest; i++) for (const l of lists) if (i < l.length) out.push(l[i]);
	return out;
}

/** The paradigm of every base, after the noun's own singular and plural for -ion and -ing nouns. */
function paradigms(w: string): string[][] {
	const lists = bases(w).map(paradigm);
	const noun = w.endsWith("s") ? w.slice(0, -1) : w;
	if (/(?:ion|ing)$/u.test(noun)) lists.unshift([noun, `${noun}s`]);
	return lists;
}

/** The base forms (lemmas) the word may come from, likeliest first; the word itself when it is one. */
function bases(w: string): string[] {
	const irregular = IRREGULAR.get(w);
	if (irregular) return [irregular[0]];
	// A three-letter word in -s may be the plural of a two-letter one (ads, ids, PCs) or a word (bus, gas): both.
	if (w.length === 3 && /[a-z][a-rt-z]s$/u.test(w)) return [w, w.slice(0, -1)];
	if (w.length < 4 || /(?:is|ss|us)$/u.test(w)) return [w];
	if (/ie[sd]$/u.test(w) && w.length > 4) return [`${w.slice(0, -3)}y`]; // studies, studied → study
	if (w.endsWith("es") && /(?:[sxz]|[cs]h)$/u.test(w.slice(0, -2))) return esBases(w.slice(0, -2));
	if (w.endsWith("s")) return bases(w.slice(0, -1));
	if (w.endsWith("ion")) {
		const verbs = ionVerbs(w);
		return verbs.length > 0 ? verbs : [w];
	}
	if (w.endsWith("eed")) return [w]; // need, speed
	if (w.endsWith("ed") && hasVowel(w.slice(0, -2))) return verbBases(w.slice(0, -2));
	if (w.endsWith("ing") && hasVowel(w.slice(0, -3))) return verbBases(w.slice(0, -3)); // not string, thing
	return [w];
}

/** Base, plural / third person, past, gerund, then the -ion noun when spelling says which. */
function paradigm(b: string): string[] {
	const irregular = IRREGULAR.get(b);
	if (irregular) return [...irregular];
	if (b.length < 3) return [b]; // ad, id: a noun, its plural is the word itself
	if (NOUN_OR_ADJECTIVE.test(b)) return [b, plural(b)];
	const out = [b, plural(b), ...withSuffix(b, "ed"), ...withSuffix(b, "ing")];
	const noun = ionNoun(b);
	if (noun) out.push(noun, `${noun}s`);
	return out;
}

/** Endings of nouns and adjectives that are never verbs (currency, memory, daily): no -ed/-ing forms. */
const NOUN_OR_ADJECTIVE =
	/(?:ness|ity|ism|ist|ship|hood|ous|ful|less|(?<!en|dis)able|ible|ary|ory|ency|ancy|ics|ical|ial|ual|[^p]ly)$/u;

/** The -ion noun of a verb: migrate → migration, optimize → optimization, connect → connection. */
function ionNoun(b: string): string | undefined {
	// Five letters are enough after -ct/-pt (adopt → adoption, elect); not for the others (date, size, term).
	if (/(?:ct|pt)$/u.test(b) && b.length >= 5) return `${b}ion`; // connection, adoption
	if (b.length < 6) return undefined;
	if (b.endsWith("ate")) return `${b.slice(0, -1)}ion`;
	if (/(?:gur|iz)e$/u.test(b)) return `${b.slice(0, -1)}ation`; // configuration, optimization
	if (/[eu]te$/u.test(b) && measure(b) >= 2) return `${b.slice(0, -1)}ion`; // deletion, execution
	if (/(?:ress|cuss)$/u.test(b)) return `${b}ion`; // compression, discussion
	if (/(?:rm|stall)$/u.test(b)) return `${b}ation`; // information, installation (not -ment: payment)
	return undefined;
}

function plural(b: string): string {
	if (/(?:[sxz]|[cs]h)$/u.test(b)) return `${b}es`;
	if (/[^aeiou]y$/u.test(b)) return `${b.slice(0, -1)}ies`;
	return `${b}s`;
}

/** b + "ed" or "ing" with English spelling: e-drop, y→i, consonant doubling (both spellings when unsure). */
function withSuffix(b: string, suffix: "ed" | "ing"): string[] {
	if (suffix === "ed" && b.endsWith("e")) return [`${b}d`];
	if (suffix === "ed" && /[^aeiou]y$/u.test(b)) return [`${b.slice(0, -1)}ied`];
	if (suffix === "ing" && b.endsWith("ie")) return [`${b.slice(0, -2)}ying`];
	if (suffix === "ing" && /[^eoy]e$/u.test(b)) return [`${b.slice(0, -1)}ing`];
	if (!endsCvc(b)) return [b + suffix];
	const doubled = b + b[b.length - 1] + suffix;
	// One syllable doubles (stopped); a longer word only when its last syllable is stressed (committed, referred,
	// controlled; British cancelled, both spellings), not otherwise (edited, targeted, opened, filtered).
	if (measure(b) === 1) return [doubled];
	if (/(?:mit|fer|cur|pel|trol|quip)$/u.test(b)) return [doubled];
	return b.endsWith("el") ? [b + suffix, doubled] : [b + suffix];
}

/** Bases of a verb stripped of -ed/-ing ("stopp" → stop, "migrat" → migrate, "fail" → fail). */
function verbBases(x: string): string[] {
	if (x.length >= 4 && endsDouble(x) && !/[lsz]$/u.test(x)) return [x.slice(0, -1)];
	// controlled, cancelled → control, cancel; but installed, smelled → install, smell
	if (/[^ai]ll$/u.test(x) && measure(x) >= 2) return [x.slice(0, -1)];
	const e = needsE(x);
	if (e === "yes") return [`${x}e`];
	return e === "maybe" ? [x, `${x}e`] : [x];
}

/** Whether a verb stem lost a final e before -ed/-ing: migrat(e), enabl(e), mak(e); "maybe" when spelling can't tell. */
function needsE(x: string): "yes" | "no" | "maybe" {
	if (x.endsWith("u")) return "yes"; // continue, issue, value
	if (/[aeiowxy]$/u.test(x)) return "no";
	if (/(?:[^aeiou]at|[iy]z|v|[^aeiou]ur|[^a]ir|[^aeiou]ar|rs|[rd]g|[aeiou]c|rc|[bcdfgkptz]l|[^aeiou]ul)$/u.test(x))
		return "yes";
	if (/(?:[aeiou]s|[aeiou]ch|[eiou]t|eat|ng|nc|[^aeiou]or)$/u.test(x)) return "maybe"; // delet(e), promot(e); edit
	if (!endsCvc(x)) return "no";
	if (measure(x) === 1) return "yes"; // mak(e), cod(e), writ(e)
	return /(?:en|er|on|el|al|om)$/u.test(x) ? "no" : "maybe"; // renam(e), revok(e); but open, filter
}

/** Bases of "x" + "es" after a sibilant: boxes → box, matches → match, caches → cach or cache, uses → use. */
function esBases(x: string): string[] {
	if (/[iy]z$/u.test(x)) return [`${x}e`];
	if (/(?:[aeiou]ch|[aeiou]s|[^s]s)$/u.test(x)) return [x, `${x}e`];
	return [x];
}

/** The verbs behind an -ion noun: migration → migrate, connection → connect, deletion → delete. */
function ionVerbs(w: string): string[] {
	if (w.endsWith("ation") && w.length >= 8) {
		const x = w.slice(0, -5);
		if (/(?:nt|rm|ll|rt|pt|ct|st|lt|nd)$/u.test(x)) return [x]; // implementation, information, installation
		if (/[iy]z$/u.test(x)) return [`${x}e`]; // optimization, serialization
		if (/[^aeiou][rl]$/u.test(x)) return [`${x}ate`]; // migration, integration, translation
		return /[aeiou]$/u.test(x) ? [`${x}ate`] : [`${x}ate`, `${x}e`]; // creation; validation, configuration
	}
	const x = w.slice(0, -3);
	if (!/[st]$/u.test(x) || measure(x) < 2) return []; // session, version, option, function
	return /[aeiou]t$/u.test(x) ? [`${x}e`] : [x]; // deletion, execution; connection, compression
}
