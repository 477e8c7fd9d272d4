// Faux model script for the terminal test: one event_search with a phrase and a time filter, then an answer.
export const responses = [
	{ toolCalls: [{ name: "event_search", arguments: { query: '"found 0" hello', time: { from: "2020-01-01" } } }] },
	"searched",
];
