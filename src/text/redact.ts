/**
 * Secret redaction: known credential formats in session text are replaced by `[redacted: <kind>]` before the text is
 * indexed, stored or returned (docs/security-secrets-and-forget.md). Pure apart from the process-wide switch.
 *
 * The rules are written from gitleaks' rule set (https://github.com/gitleaks/gitleaks,
 * cmd/generate/config/rules/*.go, MIT licence, Copyright (c) 2019 Zachary Rice): the regular expressions, keywords,
 * entropy thresholds and allowlists below follow its `aws-access-token`, `aws-secret-access-key`, `github-*`,
 * `openai-api-key`, `anthropic-*`, `slack-*`, `gcp-api-key`, `stripe-access-token`, `npm-access-token`,
 * `private-key`, `jwt`, `curl-auth-header` and `generic-api-key` rules. Where this module differs it says why.
 *
 * Speed: the text of a cold build is about a gigabyte, so one gate (a single regular expression of every rule's
 * anchor) is tried first and almost every text stops there; on a text it lets through, a rule runs only when the
 * text holds one of its keywords, and each pattern starts at a literal or an operator, never at every position.
 */

/** One kind of secret: what its mask calls it, where a match can be spotted cheaply, and the pattern. */
interface SecretRule {
	/** Named in the mask: `[redacted: <kind>]`. */
	kind: string;
	/**
	 * A regular expression source matching somewhere in every match of `pattern`, starting with one of the few
	 * characters the gate looks for (see GATE): a text none of the anchors matches is not scanned by any rule.
	 */
	anchor: string;
	/** Substrings one of which every match holds: a text the gate let through runs only the rules it holds a keyword of. */
	keywords: readonly string[];
	/** Global (or anchored at the start); group 1, when present, is the secret part of the match (the rest is kept). */
	pattern: RegExp;
	/** A further test of the secret (entropy, placeholders); absent means every match is a secret. */
	accept?: (secret: string) => boolean;
}

/** Shannon entropy of `s` in bits per character (gitleaks' `entropy` threshold). */
function shannonEntropy(s: string): number {
	const counts = new Map<string, number>();
	for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
	let bits = 0;
	for (const n of counts.values()) {
		const p = n / s.length;
		bits -= p * Math.log2(p);
	}
	return bits;
}

/** Values written to stand for a secret rather than being one: `$VAR`, `${…}`, `<…>`, `xxxx`, `****`, `…`. */
const PLACEHOLDER = /^(?:\$|%|\{\{|<|\[)|x{4,}|X{4,}|\*{3,}|\.{3}|…|example|EXAMPLE|changeme|your[_-]|YOUR[_-]/;

/** A value that looks random (generic-api-key: entropy ≥ 3.5; also at least one digit and one letter). */
function looksRandom(value: string): boolean {
	if (PLACEHOLDER.test(value) || !/\d/.test(value) || !/[A-Za-z]/.test(value)) return false;
	// A dotted or slashed name (`process.env.API_TOKEN2`, `config/v2/keys`) is a reference, not a value.
	if (/^[A-Za-z_][\w]*(?:[./][A-Za-z_][\w]*)+$/.test(value)) return false;
	return shannonEntropy(value) >= 3.5;
}

const TOKEN_END = String.raw`(?![A-Za-z0-9_-])`;

const PEM_BEGIN = "-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----";
const PEM_END = "-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----";
/** A line break, or one written as `\\n` (a key inside JSON or a quoted string). */
const PEM_NEWLINE = String.raw`(?:\r?\n|\\r?\\n)`;
/** One line of a key block: base64, or a header such as `Proc-Type: 4,ENCRYPTED`. */
const PEM_LINE = String.raw`[ \t]*(?:[A-Za-z0-9+/=]+|[A-Za-z-]+: [^\n\\]*)[ \t]*`;

/**
 * The anchor of the assignment rules: an `=` or `:` followed by a value long enough to be random, after a name
 * ending like password, passwd, pwd, secret, token, key or credentials (any case).
 */
const ASSIGNMENT_ANCHOR = String.raw`[:=](?=>?\s{0,3}["'\x60]?[\w.~+/!@#$%^&*=-]{12})(?<=(?:[sS]{2}(?:[wW](?:[oO][rR])?[dD])?|[pP][wW][dD]|[cC][rR][eE][tT]|[oO][kK][eE][nN]|[kK][eE][yY]|[aA][lL][sS]?)["']?\s*[:=]{1,2})`;

/** The rules, most specific first (a later rule never sees text an earlier one masked). */
const RULES: readonly SecretRule[] = [
	{
		kind: "private key",
		anchor: "V(?=ATE KEY)",
		keywords: ["PRIVATE KEY"],
		// gitleaks `private-key` (its body limited to what a key block holds, so code quoting the BEGIN and END lines
		// far apart is kept), widened: a block with no END line (cut output) is masked through its last key line.
		pattern: new RegExp(
			`${PEM_BEGIN}(?:[A-Za-z0-9+/=\\s\\\\,:.-]*?${PEM_END}|(?:${PEM_NEWLINE}${PEM_LINE}(?=${PEM_NEWLINE}|$))+)`,
			"g",
		),
	},
	{
		kind: "private key",
		anchor: "V(?=ATE KEY)",
		keywords: ["PRIVATE KEY"],
		// The end of a block whose start is in the text before this one (a long text is cut in pieces: text-pieces.ts).
		pattern: new RegExp(`^(?:[ \\t]*[A-Za-z0-9+/=]+[ \\t]*${PEM_NEWLINE})+[ \\t]*${PEM_END}`),
	},
	{
		kind: "anthropic key",
		anchor: "-(?<=sk-)",
		keywords: ["sk-ant-"],
		// gitleaks `anthropic-api-key` / `-admin-api-key` / `-oauth-token`: any sk-ant-<type><nn>- prefix, 32+ chars.
		pattern: /\bsk-ant-[a-z]+\d{2}-[A-Za-z0-9_-]{32,}/g,
	},
	{
		kind: "openai key",
		anchor: "-(?<=sk-)",
		keywords: ["sk-"],
		// gitleaks `openai-api-key`, widened to project, service-account and admin keys without the T3BlbkFJ marker.
		pattern: new RegExp(
			String.raw`\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}${TOKEN_END})`,
			"g",
		),
	},
	{
		kind: "github token",
		anchor: "_(?<=gh[pousr]_|github_pat_)",
		keywords: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
		pattern: /\b(?:gh[pousr]_[0-9A-Za-z]{36}|github_pat_\w{82})\b/g,
	},
	{
		kind: "aws access key id",
		anchor: "A(?=KIA|SIA|BIA|CCA|3T)",
		keywords: ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
		pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
		accept: (s) => !s.endsWith("EXAMPLE") && shannonEntropy(s) >= 3,
	},
	{
		kind: "aws secret access key",
		anchor: ASSIGNMENT_ANCHOR,
		keywords: ["ecret", "ECRET"],
		// gitleaks' `aws-secret-access-key` is a sub-rule (40 base64 characters); here it is anchored on the names the
		// key goes by (aws_secret_access_key, SecretAccessKey, AWS_SECRET_KEY).
		pattern:
			/(?:=>|[:=])(?=\s*["']?[A-Za-z0-9/+=]{40})(?<=(?:secret_?access_?key|aws_?secret(?:_?key)?)["']?\s*(?:=>|[:=]))\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
		accept: (s) => !s.endsWith("EXAMPLE") && shannonEntropy(s) >= 3,
	},
	{
		kind: "slack token",
		anchor: "-(?<=xox[a-z]-)|\\.(?<=xoxe\\.)",
		keywords: ["xox"],
		// gitleaks `slack-bot-token`, `-user-token`, `-legacy-*`, `-config-*` in one expression.
		pattern:
			/\bxox(?:b-[0-9]{8,14}-[0-9A-Za-z-]{10,}|[pe](?:-[0-9]{10,13}){3}-[A-Za-z0-9-]{28,34}|[ar]-(?:\d-)?[0-9A-Za-z]{8,48}|[os]-\d+-\d+-\d+-[A-Fa-f\d]+|e\.xox[bp]-\d-[A-Za-z0-9]{163,166}|e-\d-[A-Za-z0-9]{146})/g,
		accept: (s) => shannonEntropy(s) >= 2 && !/x{6,}|X{6,}/.test(s),
	},
	{
		kind: "google api key",
		anchor: "A(?=Iza)",
		keywords: ["AIza"],
		pattern: new RegExp(String.raw`\bAIza[\w-]{35}${TOKEN_END}`, "g"),
	},
	{
		kind: "stripe key",
		anchor: "_(?<=k_(?:live|test|prod)_)",
		keywords: ["k_live_", "k_test_", "k_prod_"],
		pattern: /\b[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,99}\b/g,
	},
	{
		kind: "npm token",
		anchor: "_(?<=npm_)",
		keywords: ["npm_"],
		pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
	},
	{
		kind: "jwt",
		anchor: "J(?<=eyJ)",
		keywords: ["eyJ"],
		pattern: /\bey[A-Za-z0-9]{17,}\.ey[A-Za-z0-9/\\_-]{17,}\.(?:[A-Za-z0-9/\\_-]{10,}={0,2})?/g,
	},
	{
		kind: "url password",
		anchor: String.raw`:\/\/(?=[^\s:/?#@'"\x60<>]{1,100}:[^\s/?#@'"\x60<>]{1,200}@)`,
		keywords: ["://"],
		// Credentials in a URL (user:password@host): only the password is masked, the user and host stay searchable.
		pattern: /:\/\/[^\s:/?#@'"`<>]{1,100}:([^\s/?#@'"`<>]{1,200})@/g,
		accept: (s) => !PLACEHOLDER.test(s) && !/^(?:pass(?:word)?|secret|token|pwd)$/i.test(s),
	},
	{
		kind: "authorization header",
		anchor: String.raw`[zZ](?<=uthoriz|UTHORIZ)(?=(?:ation|ATION)["']?\s*[:=]\s*["']?(?:Bearer|Basic|Token|Api-Token|bearer|basic|token)\s)`,
		keywords: ["uthoriz", "UTHORIZ"],
		// gitleaks `curl-auth-header` without the curl: a header value is the same secret wherever it is printed.
		pattern:
			/(?:Authorization|authorization|AUTHORIZATION)["']?\s*[:=]\s*["']?(?:Bearer|Basic|Token|Api-Token|bearer|basic|token)\s+([\w~+/.=-]{8,})/g,
		accept: (s) => !PLACEHOLDER.test(s) && shannonEntropy(s) >= 2.75,
	},
	{
		kind: "secret",
		anchor: ASSIGNMENT_ANCHOR,
		keywords: ["ss", "SS", "wd", "WD", "ecret", "ECRET", "oken", "OKEN", "ey", "EY", "ential", "ENTIAL"],
		// gitleaks `generic-api-key`: a secret-like name, an assignment, a value that looks random (12 characters at
		// least: a shorter one cannot reach its entropy). The match starts at an operator a long value follows.
		pattern:
			/(?::=|=>|[:=])(?=\s*["'`]?[\w.~+/!@#$%^&*=-]{12})(?<=(?:pass(?:wd|word)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)["']?\s*(?::=|=>|[:=]))\s*["'`]?([\w.~+/!@#$%^&*=-]{12,150})/gi,
		accept: looksRandom,
	},
];

/**
 * One pass over the text finds whether any rule could match: every anchor starts with one of `_ - . : = A J V z Z`,
 * so the engine tests only those characters' positions further (one pass of a dozen keyword searches costs several
 * times as much). Almost every text stops here.
 */
const GATE = new RegExp([...new Set(RULES.map((r) => r.anchor))].join("|"));

/** The mask standing for a secret of `kind`. */
export function secretMask(kind: string): string {
	return `[redacted: ${kind}]`;
}

let enabled = true;

/** Turns redaction on or off for this thread (the person's `redactSecrets` setting; on unless they turn it off). */
export function setSecretRedaction(on: boolean): void {
	enabled = on;
}

/** Whether redaction is on in this thread. */
export function secretRedactionOn(): boolean {
	return enabled;
}

/** `text` with every secret the rules know replaced by its mask; the same string when there is none or it is off. */
export function redactSecrets(text: string): string {
	if (!enabled || !GATE.test(text)) return text;
	let out = text;
	for (const rule of RULES) {
		if (!rule.keywords.some((k) => out.includes(k))) continue;
		out = out.replace(rule.pattern, (match: string, group?: unknown) => {
			const secret = typeof group === "string" ? group : match;
			if (rule.accept && !rule.accept(secret)) return match;
			const mask = secretMask(rule.kind);
			if (typeof group !== "string") return mask;
			const at = match.lastIndexOf(secret);
			return match.slice(0, at) + mask + match.slice(at + secret.length);
		});
	}
	return out;
}
