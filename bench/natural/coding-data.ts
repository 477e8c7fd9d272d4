/** Coding conversations of the natural-question set: data-pipeline (Python, pandas, Airflow) and a Rust CLI. */
import { a, type NaturalSession, noise, q, rd, sh, shFail, u } from "./set.js";

export const DATA_SESSIONS: NaturalSession[] = [
	{
		label: "pipeline-pandas",
		cwd: "/home/dev/src/data-pipeline",
		start: "2026-04-28T08:15:00.000Z",
		turns: [
			u(
				"load_events.py dies on the March export, the CSV is 9 GB. The box has 16 GB of RAM.",
				q("which export crashed the loader", "paraphrase"),
			),
			shFail(
				"python load_events.py --month 2026-03",
				'Traceback (most recent call last):\n  File "load_events.py", line 88, in <module>\n    df = pd.read_csv(path, parse_dates=["ts"])\n  File "pandas/io/parsers/readers.py", line 1026, in read_csv\nnumpy.core._exceptions._ArrayMemoryError: Unable to allocate 7.45 GiB for an array with shape (12, 83312000) and data type object',
				q("how much memory did pandas try to allocate", "inflection"),
				q("_ArrayMemoryError read_csv stack trace", "identifier"),
			),
			a(
				"`read_csv` loads everything as `object` columns. Two changes: read in chunks of 1,000,000 rows with explicit dtypes (`category` for country and event_type, `int32` for ids), and write each chunk to a partitioned Parquet dataset instead of keeping the frame.",
				q("how did we stop the csv loader from running out of memory", "paraphrase"),
				q("chunked reading dtypes category", "inflection"),
			),
			noise(2),
			sh(
				"/usr/bin/time -v python load_events.py --month 2026-03",
				"wrote 83,312,000 rows to data/events/month=2026-03 (84 parquet files)\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 6:41.20\n\tMaximum resident set size (kbytes): 2318440",
				q("maximum resident size of load_events.py after chunking", "paraphrase"),
			),
			u(
				"Only 2.3 GB peak now. Why 84 files though? Downstream Spark hates small files.",
				q("complaint about too many small parquet files", "inflection"),
			),
			a(
				"One file per chunk per partition. I'll buffer chunks and flush when the buffer reaches about 512 MB, which gives 12 files of ~400 MB for March, and set `row_group_size=1_000_000`.",
				q("target file size for the parquet writer", "paraphrase"),
			),
			rd(
				"/home/dev/src/data-pipeline/config/pipeline.toml",
				'[load]\nchunk_rows = 1_000_000\nflush_bytes = 536_870_912\noutput = "data/events"\npartition_by = ["month"]\ncompression = "zstd"',
				q("which compression codec does the events dataset use", "paraphrase"),
			),
		],
	},
	{
		label: "pipeline-airflow",
		cwd: "/home/dev/src/data-pipeline",
		start: "2026-07-07T06:30:00.000Z",
		turns: [
			u(
				"The daily_revenue DAG ran at 02:00 UTC but finance expects it after midnight Berlin time, and on the day of the clock change it ran twice.",
				q("daily revenue dag running twice on daylight saving day", "paraphrase"),
			),
			rd(
				"/home/dev/src/data-pipeline/dags/daily_revenue.py",
				'with DAG(\n    dag_id="daily_revenue",\n    schedule="0 2 * * *",\n    start_date=datetime(2026, 1, 1),\n    catchup=False,\n) as dag:\n    extract = PythonOperator(task_id="extract", python_callable=extract_orders)\n    load = PythonOperator(task_id="load", python_callable=load_revenue)\n    extract >> load',
				q("the daily_revenue DAG definition", "identifier"),
			),
			a(
				'`start_date` is a naive datetime, so Airflow treats it as UTC. Use `pendulum.datetime(2026, 1, 1, tz="Europe/Berlin")` and `schedule="30 0 * * *"`: it then runs at 00:30 Berlin time and a DST change can\'t schedule it twice.',
				q("how to make the dag schedule use Berlin time", "paraphrase"),
				q("pendulum timezone aware start_date", "identifier"),
				q("airflow naive start date daylight saving", "keywords"),
			),
			noise(2),
			u(
				"We also need to backfill June, the extract task had a bug for the whole month.",
				q("which month of revenue had to be recomputed", "paraphrase"),
			),
			sh(
				"airflow dags backfill daily_revenue -s 2026-06-01 -e 2026-06-30 --reset-dagruns -y",
				"[2026-07-07 07:02:11] INFO - Backfill done for DAG <DAG: daily_revenue>. Exiting.\nSummary: 30 dag runs succeeded, 0 failed, 0 skipped",
				q("result of the june backfill", "keywords"),
			),
			u("Finance asks if the backfill double counted refunds."),
			sh(
				"psql analytics -c \"select day, count(*) from revenue_daily where day >= '2026-06-01' group by day having count(*) > 1\"",
				" day | count\n-----+-------\n(0 rows)",
				q("did the query find duplicated days in revenue_daily", "inflection"),
			),
			a(
				"No duplicates: `load_revenue` deletes the day's rows before inserting, so re-running a day is idempotent. Refunds are counted once per day.",
				q("is rerunning the load task safe", "paraphrase"),
			),
		],
	},
	{
		label: "rust-cli",
		cwd: "/home/dev/src/logtail",
		start: "2026-11-03T19:00:00.000Z",
		turns: [
			u(
				"I'm getting a borrow checker error in src/follow.rs when I keep a reference to the line buffer across the loop.",
				q("borrow error in the follow module", "inflection"),
			),
			shFail(
				"cargo build",
				"error[E0502]: cannot borrow `buf` as mutable because it is also borrowed as immutable\n  --> src/follow.rs:42:9\n   |\n38 |         let line = buf.last_line();\n   |                    --- immutable borrow occurs here\n...\n42 |         buf.push(chunk);\n   |         ^^^^^^^^^^^^^^^ mutable borrow occurs here\n43 |         emit(line);\n   |              ---- immutable borrow later used here",
				q("E0502 mutably borrowing buf", "identifier"),
			),
			a(
				"`line` borrows `buf`, and `buf.push` needs `&mut buf` while `line` is still alive. Emit before pushing, or make `last_line()` return an owned `String` (it's one line, the clone is cheap).",
				q("how to fix the cannot borrow as mutable error", "paraphrase"),
				q("owned string instead of borrowed line", "keywords"),
			),
			noise(1),
			u(
				"Switch the argument parsing to clap derive while you're at it, and add --since.",
				q("which crate parses the command line options", "paraphrase"),
			),
			rd(
				"/home/dev/src/logtail/src/cli.rs",
				'#[derive(Parser, Debug)]\n#[command(version, about = "Follow and filter log files")]\npub struct Args {\n    /// Files to follow\n    pub files: Vec<PathBuf>,\n    /// Only lines newer than this duration, e.g. 10m\n    #[arg(long, value_parser = humantime::parse_duration)]\n    pub since: Option<Duration>,\n    #[arg(short, long)]\n    pub grep: Option<Regex>,\n}',
				q("how is the since flag parsed", "inflection"),
			),
			sh(
				"cargo build --release && ls -lh target/release/logtail",
				"    Finished `release` profile [optimized] target(s) in 41.02s\n-rwxr-xr-x 1 dev dev 8.9M Nov  3 19:31 target/release/logtail",
				q("release binary size of logtail", "keywords"),
			),
			u("8.9 MB for a log tailer binary is silly. Shrink it."),
			a(
				'Set `[profile.release] lto = true, codegen-units = 1, strip = true, panic = "abort"` and dropped the `regex` unicode features we don\'t use. The binary is 2.1 MB now.',
				q("how did we reduce the binary size", "inflection"),
				q("cargo release profile lto strip settings", "paraphrase"),
			),
		],
	},
];
