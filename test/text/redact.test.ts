import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { redactSecrets, secretMask, setSecretRedaction } from "../../src/text/redact.js";
import { FAKE } from "../helpers/fake-secrets.js";

const pem = (kind: string, lines: readonly string[], end = true) =>
	[`-----BEGIN ${kind}PRIVATE KEY-----`, ...lines, ...(end ? [`-----END ${kind}PRIVATE KEY-----`] : [])].join("\n");

afterEach(() => setSecretRedaction(true));

describe("redactSecrets: each known format is masked and named (issue 45, finding 6)", () => {
	const cases: [string, string, string][] = [
		["aws access key id", `aws_access_key_id = ${FAKE.awsKeyId}`, "aws access key id"],
		["aws secret key", `aws_secret_access_key = ${FAKE.awsSecret}`, "aws secret access key"],
		["aws secret key (json)", `"SecretAccessKey": "${FAKE.awsSecret}",`, "aws secret access key"],
		["github classic", `token ${FAKE.github} saved`, "github token"],
		["github fine-grained", `export GH=${FAKE.githubFine}`, "github token"],
		["openai project", `OPENAI=${FAKE.openaiProject}`, "openai key"],
		["openai legacy", `key: ${FAKE.openaiLegacy}`, "openai key"],
		["anthropic", `ANTHROPIC_API_KEY ${FAKE.anthropic}`, "anthropic key"],
		["slack", `bot ${FAKE.slack} ok`, "slack token"],
		["google", `maps key ${FAKE.google}`, "google api key"],
		["stripe", `stripe ${FAKE.stripe}`, "stripe key"],
		["stripe restricted", `stripe ${FAKE.stripeRestricted}`, "stripe key"],
		["npm", `//registry.npmjs.org/:_authToken=${FAKE.npm}`, "npm token"],
		["jwt", `cookie ${FAKE.jwt};`, "jwt"],
		["rsa pem", pem("RSA ", FAKE.pemBody), "private key"],
		["openssh", pem("OPENSSH ", FAKE.pemBody), "private key"],
		["pem in json", JSON.stringify({ key: pem("", FAKE.pemBody) }), "private key"],
		["url password", `postgres://app:${FAKE.urlPassword}@db.internal:5432/app`, "url password"],
		["password assignment", `DB_PASSWORD=${FAKE.generic}`, "secret"],
		["token in json", `{"access_token": "${FAKE.generic}"}`, "secret"],
		["api key yaml", `api_key: ${FAKE.generic}`, "secret"],
		["bearer header", `-H "Authorization: Bearer ${FAKE.generic}"`, "authorization header"],
	];
	it.each(cases)("%s", (_name, text, kind) => {
		const out = redactSecrets(text);
		expect(out).toContain(secretMask(kind));
		for (const secret of Object.values(FAKE).flat()) {
			if (text.includes(secret)) expect(out).not.toContain(secret);
		}
	});

	it("keeps what is around a secret: the URL's user and host, the assignment's name", () => {
		expect(redactSecrets(`postgres://app:${FAKE.urlPassword}@db.internal/app`)).toBe(
			"postgres://app:[redacted: url password]@db.internal/app",
		);
		expect(redactSecrets(`DB_PASSWORD=${FAKE.generic} next`)).toBe("DB_PASSWORD=[redacted: secret] next");
	});

	it("masks a key block cut short and the end of one whose start is elsewhere", () => {
		const cut = redactSecrets(`$ head -3 id_rsa\n${pem("RSA ", FAKE.pemBody.slice(0, 2), false)}\n$ echo done`);
		expect(cut).toBe("$ head -3 id_rsa\n[redacted: private key]\n$ echo done");
		const tail = redactSecrets(`${FAKE.pemBody.join("\n")}\n-----END RSA PRIVATE KEY-----\nafter`);
		expect(tail).toBe("[redacted: private key]\nafter");
	});
});

describe("redactSecrets: what is not a secret stays", () => {
	const kept = [
		"AKIAIOSFODNN7EXAMPLE (the AWS documentation's example key)",
		'const BEGIN = "-----BEGIN RSA PRIVATE KEY-----";\nfunction parse(pem: string) { return pem; }\nconst END = "-----END RSA PRIVATE KEY-----";',
		"password = process.env.DB_PASSWORD2",
		"token: ${GITHUB_TOKEN}",
		"curl -u user:pass https://example.com and https://user:$PASSWORD@host/",
		"the max_tokens=4096 setting and inputTokens: 123456789012",
		"see https://github.com/gitleaks/gitleaks for the task-runner sk- prefix",
		"api_key: YOUR_API_KEY_HERE_123",
		"secret = aaaaaaaaaaaaaaa1",
	];
	it.each(kept)("%s", (text) => {
		expect(redactSecrets(text)).toBe(text);
	});
});

describe("redactSecrets on the real sessions in fixtures/", () => {
	it("changes nothing in them (they hold no secret: any change would be a false redaction)", () => {
		const root = join(import.meta.dirname, "../../fixtures");
		const changed: string[] = [];
		for (const dir of readdirSync(root, { withFileTypes: true })) {
			if (!dir.isDirectory()) continue;
			for (const file of readdirSync(join(root, dir.name))) {
				if (!file.endsWith(".jsonl")) continue;
				const text = readFileSync(join(root, dir.name, file), "utf8");
				// The JSONL's own escapes are part of what is scanned: secrets inside JSON strings are caught either way.
				const out = redactSecrets(text);
				if (out !== text) changed.push(file);
			}
		}
		expect(changed).toEqual([]);
	});
});

describe("the switch", () => {
	it("leaves text as it is when the person turned redaction off", () => {
		setSecretRedaction(false);
		expect(redactSecrets(`x ${FAKE.github}`)).toBe(`x ${FAKE.github}`);
	});
});
