/**
 * English function words and question words. In a natural query ("when did we fix the flaky test?") they carry no
 * topic, and an event rarely contains all of them, so they are optional: they may add score but never decide
 * whether an event matches. Content words (verbs like "fix", nouns, adjectives) are never listed here.
 */

const WORDS = `
a an the
i me my mine myself we us our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs themselves
this that these those
what which who whom whose when where why how
am is are was were be been being
do does did done doing have has had having
will would shall should can could may might must
to of in on at by for with from about as into onto over under than then so if or and but nor not no
up out off there here any some all each every both ever also just very too only again
before after during while since until between through without within
because whether though although many much now already yet still even really actually per via cannot anything something whatever else once same such
i'm i've i'd i'll we're we've we'd we'll you're you've you'd you'll he's she's it's that's there's
what's who's where's when's how's let's don't doesn't didn't isn't aren't wasn't weren't can't couldn't
won't wouldn't shouldn't haven't hasn't hadn't
`;

const STOPWORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/u).filter((w) => w !== ""));

/** True for an English function or question word, given lowercase with a straight apostrophe ("didn't"). */
export function isStopword(word: string): boolean {
	return STOPWORDS.has(word);
}
