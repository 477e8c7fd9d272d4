/** Shape statistics of a generated corpus: bytes by entry kind/role and the line-length distribution. */

/** Lines and bytes of one entry kind (`message/<role>` for messages, the entry type otherwise). */
interface KindShare {
	kind: string;
	lines: number;
	bytes: number;
	/** Share of all bytes, 0..1. */
	share: number;
}

/** The printed shape of a corpus. */
export interface ShapeStats {
	lines: number;
	bytes: number;
	byKind: KindShare[];
	lineLength: { p50: number; p90: number; p99: number; max: number; mean: number };
	/** Lines of at least 1 MiB. */
	linesOver1MiB: number;
}

/** How far into a line its type and a message's role are looked for (Pi writes them first). */
export const KIND_HEAD_BYTES = 512;
const TYPE = /"type":"([A-Za-z_]+)"/;
const ROLE = /"role":"([A-Za-z]+)"/;

/** The kind (KindShare.kind) of an entry line from its first KIND_HEAD_BYTES, decoded as latin-1. */
export function lineKind(head: string): string {
	const type = TYPE.exec(head)?.[1] ?? "unparsed";
	const role = type === "message" ? ROLE.exec(head)?.[1] : undefined;
	return role ? `message/${role}` : type;
}

/** Accumulates line lengths and bytes per kind as lines are written. */
export class ShapeCollector {
	private lengths = new Float64Array(1 << 16);
	private count = 0;
	private kinds = new Map<string, { lines: number; bytes: number }>();

	/** Record one written line (bytes include the newline). */
	add(kind: string, bytes: number): void {
		if (this.count === this.lengths.length) {
			const grown = new Float64Array(this.lengths.length * 2);
			grown.set(this.lengths);
			this.lengths = grown;
		}
		this.lengths[this.count++] = bytes;
		const k = this.kinds.get(kind);
		if (k) {
			k.lines++;
			k.bytes += bytes;
		} else this.kinds.set(kind, { lines: 1, bytes });
	}

	/** Summarize (sorts a copy of the lengths). */
	finish(): ShapeStats {
		const sorted = this.lengths.slice(0, this.count).sort();
		let total = 0;
		let over = 0;
		for (const len of sorted) {
			total += len;
			if (len >= 1 << 20) over++;
		}
		const at = (q: number) =>
			sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
		const byKind = [...this.kinds.entries()]
			.map(([kind, v]) => ({ kind, lines: v.lines, bytes: v.bytes, share: total ? v.bytes / total : 0 }))
			.sort((a, b) => b.bytes - a.bytes || a.kind.localeCompare(b.kind));
		return {
			lines: this.count,
			bytes: total,
			byKind,
			lineLength: {
				p50: at(0.5),
				p90: at(0.9),
				p99: at(0.99),
				max: sorted.length ? sorted[sorted.length - 1] : 0,
				mean: this.count ? Math.round(total / this.count) : 0,
			},
			linesOver1MiB: over,
		};
	}
}

/** Human-readable byte size (binary units). */
export function formatBytes(n: number): string {
	if (n < 1024) return `${n} B`;
	if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
	if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
	return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

/** Parse `2MB`, `1GB`, `100KB`, `512` (binary units; B optional). Throws a clear error otherwise. */
export function parseBytes(text: string): number {
	const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]i?)?b?\s*$/i.exec(text);
	if (!m) throw new Error(`not a byte size: ${JSON.stringify(text)} (use e.g. 2MB, 1GB, 100KB)`);
	const unit = (m[2] ?? "").toLowerCase()[0];
	const mult = unit === "k" ? 1024 : unit === "m" ? 1024 ** 2 : unit === "g" ? 1024 ** 3 : 1;
	return Math.round(Number(m[1]) * mult);
}

/** Multi-line text rendering of shape statistics (for the console and docs). */
export function renderShape(stats: ShapeStats): string {
	const rows = stats.byKind.map(
		(k) =>
			`| ${k.kind} | ${k.lines.toLocaleString("en-US")} | ${formatBytes(k.bytes)} | ${(k.share * 100).toFixed(1)} % |`,
	);
	const ll = stats.lineLength;
	return [
		"| entry kind | lines | bytes | share |",
		"|---|---:|---:|---:|",
		...rows,
		"",
		`Line length: p50 ${formatBytes(ll.p50)}, p90 ${formatBytes(ll.p90)}, p99 ${formatBytes(ll.p99)}, max ${formatBytes(ll.max)}, mean ${formatBytes(ll.mean)}; ${stats.linesOver1MiB} line(s) ≥ 1 MiB.`,
	].join("\n");
}
