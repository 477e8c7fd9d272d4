/** Coding conversations of the natural-question set: the billing-api workspace (Node, Postgres, Stripe webhooks). */
import { a, type NaturalSession, noise, q, rd, sh, shFail, u } from "./set.js";

const CWD = "/home/dev/src/billing-api";

export const BILLING_SESSIONS: NaturalSession[] = [
	{
		label: "billing-migrations",
		cwd: CWD,
		start: "2026-03-02T09:12:00.000Z",
		turns: [
			u(
				"The invoices table needs a currency column. Write a knex migration that adds it with default 'EUR' and backfills the existing rows from the customer's country.",
				q("when did we add a currency field to invoices?", "question-form"),
				q("invoice currency backfill euro", "keywords"),
			),
			a(
				"I'll add `migrations/20260302_add_invoice_currency.ts`: `table.string('currency', 3).notNullable().defaultTo('EUR')`, then an UPDATE joining customers on country to set USD/GBP where it applies.",
			),
			noise(2),
			shFail(
				"npx knex migrate:latest",
				'Using environment: development\nmigration file "20260302_add_invoice_currency.ts" failed\nmigration failed with error: ALTER TABLE "invoices" ADD COLUMN "currency" varchar(3) NOT NULL DEFAULT \'EUR\' - canceling statement due to lock timeout\nError: canceling statement due to lock timeout',
				q("which migrations failed on the lock timeout", "inflection"),
				q("why did the ALTER TABLE on invoices get cancelled?", "question-form"),
			),
			a(
				"The migration could not take the ACCESS EXCLUSIVE lock: a long-running report query holds a lock on invoices. I'll set `lock_timeout` to 5s inside the migration and retry outside business hours, or split it into add-nullable + backfill in batches + set not null.",
				q("how should we split the invoice migration so it does not block", "paraphrase"),
			),
			u(
				"Split it. Batches of 10k rows please, the table has 4 million invoices.",
				q("what batch size did we pick for backfilling", "inflection"),
			),
			a(
				"Done: three migrations now. 1) add nullable `currency`, 2) backfill in batches of 10,000 ordered by id with a 50 ms pause between batches, 3) `SET NOT NULL` plus the default. The backfill took 7m12s on the staging copy.",
				q("how long did the currency backfill take on staging", "question-form"),
			),
			sh(
				"npx knex migrate:status",
				"Using environment: staging\nFound 41 Completed Migration file/files.\n20260214_create_refunds.ts\n20260220_add_refund_reason.ts\n20260302_add_invoice_currency_nullable.ts\n20260302_backfill_invoice_currency.ts\n20260302_invoice_currency_not_null.ts\nNo Pending Migration files Found.",
				q("list of completed migrations on staging", "inflection"),
			),
			u(
				"How do I roll back only the last migration if prod goes wrong?",
				q("rolling back just one migration in production", "inflection"),
			),
			a(
				"`npx knex migrate:down` reverts the most recent migration only; `migrate:rollback` reverts the whole last batch, which here would undo all three currency migrations at once. Each `down()` drops what its `up()` added.",
				q("difference between migrate:down and migrate:rollback", "identifier"),
			),
			noise(1),
		],
	},
	{
		label: "billing-flaky-test",
		cwd: CWD,
		start: "2026-04-14T14:03:00.000Z",
		turns: [
			u(
				"test/invoice-due-date.test.ts fails on CI about once a day but never locally. Can you look?",
				q("which test was flaky in the billing repo", "paraphrase"),
			),
			sh(
				"npx vitest run test/invoice-due-date.test.ts --reporter verbose",
				" ✓ test/invoice-due-date.test.ts > due date > net 30 from issue date (4ms)\n ✓ test/invoice-due-date.test.ts > due date > end of month terms (2ms)\n ✓ test/invoice-due-date.test.ts > due date > skips weekends (3ms)\n\n Test Files  1 passed (1)\n      Tests  3 passed (3)",
			),
			shFail(
				"TZ=Pacific/Auckland npx vitest run test/invoice-due-date.test.ts",
				" FAIL  test/invoice-due-date.test.ts > due date > end of month terms\nAssertionError: expected '2026-05-01' to be '2026-04-30'\n - Expected: \"2026-04-30\"\n + Received: \"2026-05-01\"\n ❯ test/invoice-due-date.test.ts:41:38\n\n Test Files  1 failed (1)\n      Tests  1 failed | 2 passed (3)",
				q("what did the due date assertion receive when the timezone was Auckland", "question-form"),
				q("end of month terms failure expected 2026-04-30", "keywords"),
			),
			a(
				"Reproduced: it only fails when the machine's timezone is ahead of UTC. `endOfMonth()` in src/dates.ts builds the date with `new Date(y, m + 1, 0)` (local time) and then formats with `toISOString()` (UTC), so the day shifts. CI runners sometimes run in a UTC+ zone.",
				q("what caused the end-of-month date bug", "paraphrase"),
				q("endOfMonth local time utc shift", "keywords"),
				q("why was the due date test failing only on CI", "inflection"),
			),
			u("Fix it properly, don't just pin TZ in CI."),
			a(
				"Changed `endOfMonth` to use `Date.UTC(y, m + 1, 0)` and added a test that runs the whole suite under `TZ=Pacific/Auckland` and `TZ=America/Los_Angeles` via `vi.stubEnv`. Also replaced the two `new Date()` calls in the test with `vi.setSystemTime('2026-04-10T12:00:00Z')`.",
				q("how did we fix the timezone issue in endOfMonth", "identifier"),
				q("freeze the system time in the due date tests", "paraphrase"),
			),
			noise(2),
			sh(
				"npx vitest run",
				" Test Files  58 passed (58)\n      Tests  412 passed (412)\n   Start at  14:31:07\n   Duration  23.41s (transform 1.20s, setup 0ms, collect 6.02s, tests 14.33s)",
				q("how many tests were passing after the timezone fix", "inflection"),
			),
		],
	},
	{
		label: "billing-retry",
		cwd: CWD,
		start: "2026-06-09T08:40:00.000Z",
		turns: [
			u(
				"Stripe webhook deliveries are timing out and Stripe retries them, so we send duplicate receipts. Find where we handle `invoice.paid`.",
				q("customers got two receipt emails for one payment", "paraphrase"),
			),
			sh(
				'grep -rn "invoice.paid" src/',
				'src/webhooks/stripe.ts:48:    case "invoice.paid":\nsrc/webhooks/stripe.ts:49:      await sendReceipt(event.data.object);\nsrc/webhooks/stripe.ts:50:      await markInvoicePaid(event.data.object.id);\nsrc/email/receipts.ts:12:// invoice.paid -> receipt email',
				q("where is the invoice.paid webhook handled", "identifier"),
			),
			a(
				"The handler sends the receipt before marking the invoice paid and never records the event id, so every retry sends another email. I'll store `event.id` in a `processed_webhook_events` table with a unique constraint and skip events we've already seen (idempotency).",
				q("how do we make the webhook handler idempotent", "inflection"),
			),
			rd(
				"/home/dev/src/billing-api/src/config/retry.ts",
				"export const RETRY_BUDGET_MS = Number(process.env.RETRY_BUDGET_MS ?? 45_000);\nexport const RETRY_BASE_DELAY_MS = 250;\nexport const RETRY_MAX_ATTEMPTS = 6;\n\n/** Exponential backoff with full jitter, capped by the budget. */\nexport function retryDelay(attempt: number): number {\n  const cap = Math.min(RETRY_BUDGET_MS, RETRY_BASE_DELAY_MS * 2 ** attempt);\n  return Math.floor(Math.random() * cap);\n}",
				q("what is RETRY_BUDGET_MS set to by default", "identifier"),
				q("RETRY_MAX_ATTEMPTS value", "identifier"),
				q("exponential backoff jitter settings for retries", "inflection"),
			),
			u(
				"The handler calls the mail provider with retries for up to 45 seconds, that's why Stripe times out (it waits 10s). Move the email to the job queue.",
				q("why did stripe give up waiting for our webhook", "paraphrase"),
			),
			a(
				"Moved `sendReceipt` into a BullMQ job (`receipts` queue, 5 attempts, backoff 'exponential' 2s). The webhook now only verifies the signature, inserts the event id and enqueues, answering Stripe in about 40 ms.",
				q("which queue sends the receipt emails now", "inflection"),
				q("BullMQ receipt job retry attempts", "identifier"),
			),
			noise(2),
			shFail(
				"npm run test:webhooks",
				'> billing-api@3.2.0 test:webhooks\n> vitest run test/webhooks\n\n FAIL  test/webhooks/stripe.test.ts > invoice.paid > ignores a replayed event\nError: duplicate key value violates unique constraint "processed_webhook_events_pkey"\n ❯ src/webhooks/stripe.ts:37:11',
				q("replayed event test crashing on the primary key", "paraphrase"),
			),
			a(
				"The insert into processed_webhook_events must be `ON CONFLICT (event_id) DO NOTHING RETURNING event_id`; when nothing comes back we return 200 without enqueueing. Fixed, and the replay test passes.",
				q("what SQL did we use to skip already processed stripe events", "question-form"),
			),
			u(
				"Nice. Also lower RETRY_BUDGET_MS to 20 seconds in production, set it in the helm values.",
				q("did we change the retry budget for prod", "question-form"),
			),
		],
	},
];
