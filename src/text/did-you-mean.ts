/** "Did you mean": the closest known word to a mistyped one (pure). */

/** Edit distance (insertions, deletions, substitutions, adjacent swaps) between two short words. */
export function editDistance(a: string, b: string): number {
	const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
	for (let j = 1; j <= b.length; j++) d[0][j] = j;
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
				d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
		}
	}
	return d[a.length][b.length];
}

/** The known word closest to `word` within a third of its length (at least 1, at most 3 edits), or undefined. */
export function closest(word: string, known: readonly string[]): string | undefined {
	const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
	let best: { word: string; distance: number } | undefined;
	for (const k of known) {
		// The length difference bounds the distance from below: a long input costs no quadratic table.
		if (Math.abs(k.length - word.length) > limit && !(k.startsWith(word) && word.length >= 3)) continue;
		const distance = k.startsWith(word) && word.length >= 3 ? 0.5 : editDistance(word, k);
		if (distance <= limit && (!best || distance < best.distance)) best = { word: k, distance };
	}
	return best?.word;
}

/** `; did you mean X?` or nothing. */
export function didYouMean(word: string, known: readonly string[], show: (k: string) => string = (k) => k): string {
	const match = closest(word, known);
	return match === undefined ? "" : `; did you mean ${show(match)}?`;
}
