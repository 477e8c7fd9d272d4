/**
 * A long JSONL line read without holding it whole (docs/lifecycle.md, "Memory"). Pure: bytes in, part by part. The
 * scanner copies the line into a skeleton in which each string value of LONG_VALUE_BYTES or more is a short marker
 * string, and records where those values lie, so the skeleton parses in a few KiB and each long value is decoded
 * later, window by window, from the file (ingest/long-values.ts).
 */

/** A string value whose JSON text is at least this many bytes is left out of the skeleton. */
export const LONG_VALUE_BYTES = 64 * 1024;

/** Where a long string value's JSON text (between its quotes, still escaped) lies, from the start of its line. */
export interface LongValueSpan {
	start: number;
	end: number;
}

/** A scanned line: its skeleton (the line's bytes with each long value a marker) and the long values' spans. */
export interface LongLineScan {
	skeleton: Uint8Array;
	/** In line order; the marker of spans[i] is `marker(i)`. */
	spans: LongValueSpan[];
}

const QUOTE = 0x22;
/** A backslash, and the `u` of a `\uXXXX` escape (ingest/long-values.ts cuts values' JSON text outside escapes). */
export const BACKSLASH = 0x5c;
export const LETTER_U = 0x75;
const COLON = 0x3a;
/** The characters JSON allows after a backslash, other than `u`. */
const SIMPLE_ESCAPES = new Set([QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

function isJsonSpace(b: number): boolean {
	return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

function isHexDigit(b: number): boolean {
	return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/** A byte buffer that grows by doubling. */
class Bytes {
	private buf = new Uint8Array(4096);
	length = 0;

	push(b: number): void {
		if (this.length === this.buf.length) this.grow(this.length + 1);
		this.buf[this.length++] = b;
	}

	append(bytes: Uint8Array): void {
		if (this.length + bytes.length > this.buf.length) this.grow(this.length + bytes.length);
		this.buf.set(bytes, this.length);
		this.length += bytes.length;
	}

	view(): Uint8Array {
		return this.buf.subarray(0, this.length);
	}

	private grow(need: number): void {
		let size = this.buf.length * 2;
		while (size < need) size *= 2;
		const next = new Uint8Array(size);
		next.set(this.view());
		this.buf = next;
	}
}

/**
 * Feeds a line's bytes (without its `\n`) part by part. A string value is copied into the skeleton as it is until it
 * reaches LONG_VALUE_BYTES; from then on only its span is kept. `finish` returns undefined when the line cannot be
 * read this way and must be parsed whole: a long string that is an object key, that JSON would reject (a raw control
 * character, a bad escape) or that the line leaves unterminated; the whole parse then meets it as Pi would.
 */
export class LongLineScanner {
	private readonly skeleton = new Bytes();
	private readonly spans: LongValueSpan[] = [];
	/** The current string's bytes while it is short (undefined outside a string and once it is long). */
	private short: Bytes | undefined;
	private inString = false;
	private stringStart = 0;
	private long = false;
	/** 0 outside an escape, 1 after a backslash, 2–5 inside `\uXXXX` (hex digits still expected: 6 - state). */
	private escape = 0;
	private invalid = false;
	/** A long string has just ended: the next byte that is not white space must not be `:`. */
	private afterLong = false;
	private failed = false;
	private offset = 0;

	constructor(private readonly marker: (index: number) => Uint8Array) {}

	/** The next bytes of the line. */
	push(bytes: Uint8Array): void {
		if (this.failed) return;
		for (let i = 0; i < bytes.length; i++) {
			const b = bytes[i] as number;
			if (this.inString) this.stringByte(b, this.offset + i);
			else this.outsideByte(b);
			if (this.failed) return;
		}
		this.offset += bytes.length;
	}

	/** The scan, or undefined when the line must be parsed whole. */
	finish(): LongLineScan | undefined {
		if (this.failed || (this.inString && this.long)) return undefined;
		if (this.inString) this.skeleton.append((this.short as Bytes).view());
		return { skeleton: this.skeleton.view(), spans: this.spans };
	}

	private outsideByte(b: number): void {
		if (this.afterLong && !isJsonSpace(b)) {
			this.afterLong = false;
			if (b === COLON) {
				this.failed = true;
				return;
			}
		}
		this.skeleton.push(b);
		if (b === QUOTE) {
			this.inString = true;
			this.long = false;
			this.invalid = false;
			this.escape = 0;
			this.stringStart = -1;
			this.short = new Bytes();
		}
	}

	private stringByte(b: number, at: number): void {
		if (this.stringStart < 0) this.stringStart = at;
		if (this.escape === 0 && b === QUOTE) {
			this.endString(at);
			return;
		}
		this.check(b);
		if (this.long) return;
		const short = this.short as Bytes;
		short.push(b);
		if (short.length >= LONG_VALUE_BYTES) {
			this.long = true;
			this.short = undefined;
		}
	}

	/** Tracks escapes and marks the string invalid where JSON.parse would reject it. */
	private check(b: number): void {
		if (this.escape === 0) {
			if (b === BACKSLASH) this.escape = 1;
			else if (b < 0x20) this.invalid = true;
		} else if (this.escape === 1) {
			if (b === LETTER_U) this.escape = 2;
			else {
				if (!SIMPLE_ESCAPES.has(b)) this.invalid = true;
				this.escape = 0;
			}
		} else {
			if (!isHexDigit(b)) this.invalid = true;
			this.escape = this.escape === 5 ? 0 : this.escape + 1;
		}
	}

	private endString(at: number): void {
		this.inString = false;
		if (!this.long) {
			this.skeleton.append((this.short as Bytes).view());
			this.skeleton.push(QUOTE);
			this.short = undefined;
			return;
		}
		if (this.invalid) {
			this.failed = true;
			return;
		}
		this.skeleton.append(this.marker(this.spans.length));
		this.skeleton.push(QUOTE);
		this.spans.push({ start: this.stringStart, end: at });
		this.afterLong = true;
	}
}
