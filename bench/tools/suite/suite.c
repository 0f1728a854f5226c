/*
 * bench suite NAME|FILE: every entry of a suite run in one session (one device, context
 * and queue), each entry a harness run of its row. The output is one results document
 * whose points each say their benchmark (and the run they came from), or with -o DIR
 * that document named for the baselines (DEVICE--SUITE.json) beside one document per
 * entry. Interrupts and hung points write what was measured, as a single run does.
 */
#include "suite.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct suite_opts {
	struct bench_shared shared;   /* the shared options, handed to every entry */
	struct cli_operands operands; /* NAME|FILE */
	const char *out_dir;          /* -o DIR */
	bool list;                    /* --list */
	const char *baseline;         /* --baseline FILE: judged against it, changes confirmed */
	const char *calibration;      /* --calibration FILE: its calibrated values reused */
	unsigned confirm;             /* --confirm N: re-measurements of a change at the most */
};

/* A suite's run: its session, the documents of the entries run so far, the outputs. */
struct suite_run {
	struct suite su;
	const struct suite_opts *o;
	struct bench_session sess;
	json_t **docs;                /* per entry (NULL: not run) */
	int *rc;
	size_t done;                  /* entries with a document */
	double t0;
	char started[32];             /* UTC, ISO 8601: the document's timestamp */
	struct outf json, csv, dir_suite, *dir_entry;
	char *dir_suite_path;
	bool running;                 /* entries are being run: an exit writes what there is */
	bool confirming;              /* --baseline's rounds are running entries again */
	struct suite_confirm confirm; /* --baseline (path NULL: none) */
	struct cmp_doc calib;         /* --calibration (path NULL: none) */
};

/* bench_calibrated's reference (tool.h): the --calibration document's, else the baseline's. */
static json_t *calibrated(const char *bench, json_t *params, const char *const *names, void *arg)
{
	return cmp_doc_calibrated(arg, bench, params, names);
}

/* The run whose reserved files an early exit removes. */
static struct suite_run *live;

static int suite_write(struct suite_run *sr);

/*
 * At exit: an entry's set-up that ended the process (a kernel that does not build, a size the
 * device refuses) leaves the entries before it written, the suite marked stopped by `error`;
 * an exit before any entry ran leaves nothing.
 */
static void drop_outputs(void)
{
	if (!live)
		return;
	if (live->running && live->done) {
		live->running = false;
		fprintf(stderr, "bench suite: stopped in entry %zu of %zu: what the %s before it measured "
			"is written\n", live->done + 1, live->su.n, live->done == 1 ? "entry" : "entries");
		suite_write(live);
		return;
	}
	outf_abort(&live->json);
	outf_abort(&live->csv);
	outf_abort(&live->dir_suite);
	for (size_t i = 0; live->dir_entry && i < live->su.n; i++)
		outf_abort(&live->dir_entry[i]);
}

/* ---- the suite's document ---- */

/* Members of a run's document that the suite's document states once, at its top. */
/* What the suite's document holds once, not per entry. */
static const char *const shared_keys[] = { "schema_version", "tool", "timestamp", "end_timestamp",
					   "command", "host", "environment", "device_hierarchy",
					   "device", "model_device", "benchmark", "points", "time_origin",
					   NULL };

static const char *doc_benchmark(const json_t *doc, const struct suite_entry *e)
{
	const json_t *b = json_object_get(doc, "benchmark");

	return json_is_string(b) ? json_string_value(b) : e->bench;
}

/* runs[i]: the entry, its exit code, where its points are, and its own top-level members. */
static json_t *run_json(const struct suite_run *sr, size_t i, size_t first)
{
	const struct suite_entry *e = &sr->su.e[i];
	json_t *doc = sr->docs[i], *r = json_object();

	json_object_set_new(r, "entry", json_integer((json_int_t)i + 1));
	json_object_set_new(r, "bench", json_string(e->bench));
	json_object_set_new(r, "benchmark", json_string(doc_benchmark(doc, e)));
	json_object_set_new(r, "args", e->args ? json_copy(e->args) : json_array());
	json_object_set_new(r, "about", bench_json_str0(e->about));
	json_object_set_new(r, "exit_code", json_integer(sr->rc[i]));
	double floor_pct;
	if (suite_noise_for(e->band_floor, sr->sess.dev->type, &floor_pct))
		json_object_set_new(r, "band_floor_pct", json_real(floor_pct));
	if (e->figures)   /* the guide's figures it is set beside (bench report draws both) */
		json_object_set(r, "figures", e->figures);
	harness_run_members(r, doc, first, shared_keys);
	return r;
}

/* noise: the band each benchmark run gets for this device, by the suite's entries. */
static json_t *noise_json(const struct suite_run *sr)
{
	json_t *m = json_object();
	double pct;

	for (size_t i = 0; i < sr->done; i++) {
		const struct suite_entry *e = &sr->su.e[i];
		if (suite_noise_for(e->noise ? e->noise : sr->su.noise, sr->sess.dev->type, &pct))
			json_object_set_new(m, doc_benchmark(sr->docs[i], e), json_real(pct));
	}
	return m;
}

/*
 * Whether the suite stopped early: a run interrupted, entries not run, or a signal while
 * --baseline's confirmation rounds ran again entries that had all ended (their verdicts unsettled).
 */
static bool interrupted(const struct suite_run *sr)
{
	if (watch_signal())
		return true;
	for (size_t i = 0; i < sr->done; i++)
		if (json_object_get(sr->docs[i], "interrupted"))
			return true;
	return sr->done < sr->su.n;
}

static json_t *suite_json(const struct suite_run *sr)
{
	json_t *doc = res_doc_new(cli_argc, cli_argv, sr->sess.dev, "suite");
	json_t *runs = json_array(), *points = json_array();

	json_object_set_new(doc, "timestamp", json_string(sr->started));
	json_object_del(doc, "benchmark");   /* each point says its own */
	json_object_del(doc, "points");
	json_object_set_new(doc, "suite", json_string(sr->su.name));
	json_object_set_new(doc, "suite_source", json_string(sr->su.source));
	json_object_set_new(doc, "suite_description", bench_json_str0(sr->su.description));
	json_object_set_new(doc, "model_device", sr->sess.model.known ? occ_params_json(&sr->sess.model.dev)
								      : json_string(sr->sess.model.note));
	json_object_set_new(doc, "noise", noise_json(sr));
	for (size_t i = 0; i < sr->done; i++) {
		const char *b = doc_benchmark(sr->docs[i], &sr->su.e[i]);
		json_t *p;
		size_t k;
		json_array_append_new(runs, run_json(sr, i, json_array_size(points)));
		json_array_foreach(json_object_get(sr->docs[i], "points"), k, p) {
			json_t *q = json_pack("{s:s, s:I}", "benchmark", b, "run", (json_int_t)i + 1);
			json_object_update(q, p);
			json_array_append_new(points, q);
		}
	}
	json_object_set_new(doc, "runs", runs);
	if (interrupted(sr)) {
		json_t *it = json_pack("{s:s, s:I, s:I}", "by",
			watch_signal() ? watch_sig_name(watch_signal()) : sr->running ? "timeout" : "error",
			"entries_done", (json_int_t)sr->done, "entries_planned", (json_int_t)sr->su.n);
		if (sr->confirming)   /* every entry ended: what was cut short is the re-measuring */
			json_object_set_new(it, "during", json_string("confirmation"));
		json_object_set_new(doc, "interrupted", it);
	}
	json_object_set_new(doc, "time_origin", harness_origin_json(&sr->sess));
	json_object_set_new(doc, "suite_s", json_real((time_now_ns() - sr->t0) / 1e9));
	json_object_set_new(doc, "points", points);
	return doc;
}

/* ---- outputs ---- */

/*
 * The suite's file and --baseline, --json, --csv, the folder of -o (made as `mkdir -p` makes
 * it) and its entries' documents, before any work.
 */
static void outputs_open(struct suite_run *sr)
{
	const struct common_opts *co = &sr->o->shared.co;
	const char *dir = sr->o->out_dir;
	char err[1024], name[128], *path;

	live = sr;
	atexit(drop_outputs);
	if (strcmp(sr->su.source, "built-in") != 0)
		bench_input("the suite", sr->su.source);
	if (dir && !outf_mkdirs(dir, err, sizeof(err)))
		cli_usage_error("-o %s: %s", dir, err);
	if (co->json_path)
		bench_output(&sr->json, "--json", co->json_path);
	if (co->csv_path)
		bench_output(&sr->csv, "--csv", co->csv_path);
	sr->dir_entry = bench_alloc(sr->su.n * sizeof(*sr->dir_entry));
	for (size_t i = 0; i < sr->su.n; i++)
		sr->dir_entry[i] = OUTF_NONE;
	if (!dir)
		return;
	cmp_slug(sr->su.name, name, sizeof(name));
	for (size_t i = 0; i < sr->su.n; i++) {
		if (asprintf(&path, "%s/%s-%02zu-%s.json", dir, name, i + 1, sr->su.e[i].bench) < 0)
			cli_die(EXIT_FAIL, "out of host memory");
		bench_output(&sr->dir_entry[i], "-o", path);
		free(path);
	}
}

/* -o DIR's suite document, DIR/DEVICE--SUITE.json, once the device is known. */
static void dir_open(struct suite_run *sr)
{
	char dev[256], name[128];
	const char *dir = sr->o->out_dir;

	if (!dir)
		return;
	cmp_slug(sr->sess.dev->name, dev, sizeof(dev));
	cmp_slug(sr->su.name, name, sizeof(name));
	if (asprintf(&sr->dir_suite_path, "%s/%s--%s.json", dir, dev, name) < 0)
		cli_die(EXIT_FAIL, "out of host memory");
	bench_output(&sr->dir_suite, "-o", sr->dir_suite_path);
}

static int commit_json(struct outf *o, json_t *doc)
{
	char err[1024];

	if (res_write_json(o, doc, err, sizeof(err)))
		return EXIT_OK;
	fprintf(stderr, "bench suite: %s\n", err);
	return EXIT_FAIL;
}

/* -o DIR's documents of the entries: each as its run wrote it, with the suite it came from. */
static int write_entries(struct suite_run *sr)
{
	int rc = EXIT_OK;

	for (size_t i = 0; i < sr->su.n; i++) {
		if (i >= sr->done) {
			outf_abort(&sr->dir_entry[i]);
			continue;
		}
		json_object_set_new(sr->docs[i], "suite_entry", json_pack("{s:s, s:I, s:I}", "suite",
			sr->su.name, "entry", (json_int_t)i + 1, "of", (json_int_t)sr->su.n));
		res_doc_finish(sr->docs[i]);
		if (commit_json(&sr->dir_entry[i], sr->docs[i]) != EXIT_OK)
			rc = EXIT_FAIL;
	}
	return rc;
}

/* Every output of what was measured so far; 0, or 1 where a file could not be written. */
static int suite_write(struct suite_run *sr)
{
	json_t *doc = suite_json(sr);
	char err[1024];
	int rc = EXIT_OK;

	res_doc_finish(doc);
	if (sr->o->shared.co.json_path && commit_json(&sr->json, doc) != EXIT_OK)
		rc = EXIT_FAIL;
	if (sr->o->shared.co.csv_path && !res_write_csv(&sr->csv, doc, err, sizeof(err))) {
		fprintf(stderr, "bench suite: %s\n", err);
		rc = EXIT_FAIL;
	}
	if (sr->o->out_dir && (commit_json(&sr->dir_suite, doc) != EXIT_OK || write_entries(sr) != EXIT_OK))
		rc = EXIT_FAIL;
	json_decref(doc);
	return rc;
}

/* The watchdog's writer (a second signal, a point past --timeout): r's document is partial. */
static int write_now(struct bench_session *s, struct bench_run *r)
{
	struct suite_run *sr = s->owner;

	if (r && sr->done < sr->su.n && !sr->docs[sr->done]) {
		sr->docs[sr->done] = json_incref(r->doc);
		sr->rc[sr->done] = EXIT_FAIL;
		sr->done++;
	}
	return suite_write(sr);
}

/* ---- the run ---- */

/* A line per entry above its table, and the totals at the end (stdout, unless --quiet). */
static void header(const struct suite_run *sr, size_t i)
{
	const struct suite_entry *e = &sr->su.e[i];

	if (sr->o->shared.co.quiet)
		return;
	printf("%s== suite %s, %zu of %zu: bench", i ? "\n" : "", sr->su.name, i + 1, sr->su.n);
	for (int k = 0; k < e->argc; k++)
		printf(" %s", e->argv[k]);
	printf("\n");
	fflush(stdout);
}

static void summary(const struct suite_run *sr)
{
	size_t n[4] = { 0 }, total = 0, k, skipped = 0;   /* per enum point_status */
	char entries[32] = "";
	json_t *p;

	for (size_t i = 0; i < sr->done; i++) {
		skipped += json_is_string(json_object_get(sr->docs[i], "skipped"));
		json_array_foreach(json_object_get(sr->docs[i], "points"), k, p) {
			const char *s = json_string_value(json_object_get(p, "status"));
			for (int j = POINT_OK; j <= POINT_SUSPECT; j++)
				n[j] += s && strcmp(s, bench_status_names[j]) == 0;
			total++;
		}
	}
	if (skipped)
		snprintf(entries, sizeof(entries), " (%zu skipped)", skipped);
	printf("%ssuite %s on '%s': %zu of %zu entries%s, %zu points (%zu ok, %zu failed, %zu skipped, "
	       "%zu suspect) in %.1f s\n", sr->o->shared.co.quiet ? "" : "\n", sr->su.name,
	       sr->sess.dev->name, sr->done, sr->su.n, entries, total, n[POINT_OK], n[POINT_FAILED],
	       n[POINT_SKIPPED], n[POINT_SUSPECT], (time_now_ns() - sr->t0) / 1e9);
	if (n[POINT_SUSPECT])   /* their figures are printed above: say they are not results */
		printf("  %zu suspect points: %s; their figures are not results (each point's reason "
		       "says why)\n", n[POINT_SUSPECT], CMP_SUSPECT_WHY);
	for (size_t i = 0; i < sr->done; i++)   /* each skipped entry: why */
		if (json_is_string(json_object_get(sr->docs[i], "skipped")))
			printf("  entry %zu (%s): skipped: %s\n", i + 1, sr->su.e[i].bench,
			       json_string_value(json_object_get(sr->docs[i], "skipped")));
	if (!sr->o->shared.co.quiet)
		suite_figures_print(&sr->su, sr->docs, sr->done, sr->sess.dev->name, stdout);
	if (sr->dir_suite_path)
		printf("the suite's document: %s (the name bench compare --baseline DIR looks for "
		       "in DIR)\n", sr->dir_suite_path);
	fflush(stdout);
}

/* An entry's run: across the devices of one context for a row that needs them, else on the session's. */
static int run_entry(struct suite_run *sr, struct bench_job *job, json_t **doc)
{
	return job->cmd->flags & BENCH_PEERS ? bench_run_job_peers(&sr->sess, job, doc)
					     : bench_run_job(&sr->sess, job, doc);
}

/*
 * Runs the entries in order; stops after a run a signal interrupted. An entry skipped (77:
 * not a device it measures on) leaves the suite's exit code alone; all of them skipped is 77.
 */
static int run_entries(struct suite_run *sr)
{
	int rc = EXIT_OK;
	bool claimed = false;
	size_t skipped = 0;

	for (size_t i = 0; i < sr->su.n && !claimed; i++) {
		struct suite_entry *e = &sr->su.e[i];
		header(sr, i);
		suite_where(&sr->su, i);
		cli_cmd = e->bench;
		sr->rc[i] = run_entry(sr, &e->job, &sr->docs[i]);
		sr->done = i + 1;
		cli_cmd = "suite";
		suite_where(&sr->su, sr->su.n);
		skipped += sr->rc[i] == EXIT_SKIP;
		if (sr->rc[i] != EXIT_OK && sr->rc[i] != EXIT_SKIP && (rc == EXIT_OK || sr->rc[i] > EXIT_FAIL))
			rc = sr->rc[i];
		claimed = !watch_release_finish();   /* a signal came: write what there is */
	}
	if (rc == EXIT_OK && skipped == sr->su.n)
		rc = EXIT_SKIP;
	if (!claimed)
		watch_claim_finish();
	if (watch_signal())
		rc = watch_exit_code(watch_signal());
	return rc;
}

/*
 * --baseline: up to --confirm rounds, the entries holding an unsettled point run again, their
 * new points the flagged points' attempts; then the verdicts (an exit code: 1 where a point
 * regressed or failed).
 */
/*
 * The suite's document as the confirmation judges it: a signal during the rounds marks the
 * document written (interrupted, during: confirmation), not the points judged, every entry
 * having ended; the verdicts are of what was measured.
 */
static json_t *judged_json(const struct suite_run *sr)
{
	json_t *doc = suite_json(sr);
	json_t *it = json_object_get(doc, "interrupted");

	if (it && json_object_get(it, "during"))
		json_object_del(doc, "interrupted");
	return doc;
}

static int confirm_rounds(struct suite_run *sr)
{
	bool *again = bench_zalloc(sr->su.n * sizeof(*again));
	int rc;

	for (unsigned round = 0; round < sr->confirm.rounds && !watch_signal(); round++) {
		json_t *doc = judged_json(sr);
		size_t n = confirm_flag(&sr->confirm, doc, again, sr->done);
		json_decref(doc);
		if (!n)
			break;
		for (size_t i = 0; i < sr->done && !watch_signal(); i++) {
			json_t *rerun = NULL;
			if (!again[i])
				continue;
			suite_entry_reparse(&sr->su, i);
			bench_shared_override(sr->su.e[i].job.shared, &sr->o->shared,
					      sr->su.e[i].job.cmd->flags & BENCH_SG);
			if (!sr->o->shared.co.quiet)
				printf("\n== suite %s: entry %zu again, round %u of %u of confirmation\n",
				       sr->su.name, i + 1, round + 1, sr->confirm.rounds);
			cli_cmd = sr->su.e[i].bench;
			run_entry(sr, &sr->su.e[i].job, &rerun);
			cli_cmd = "suite";
			confirm_attach(&sr->confirm, sr->docs[i], rerun, doc_benchmark(sr->docs[i], &sr->su.e[i]));
			json_decref(rerun);
			if (!watch_release_finish())
				break;
		}
	}
	free(again);
	json_t *doc = judged_json(sr);
	rc = confirm_report(&sr->confirm, doc, sr->o->shared.co.quiet);
	json_decref(doc);
	return rc;
}

/*
 * The entries with the command line's shared options, the suite's arrays, --baseline read and
 * every input and output checked: all before any work.
 */
static void suite_prepare(struct suite_run *sr)
{
	const struct suite_opts *o = sr->o;

	for (size_t i = 0; i < sr->su.n; i++) {   /* the command line's shared options win */
		suite_where(&sr->su, i);
		bench_shared_override(sr->su.e[i].job.shared, &o->shared,
				      sr->su.e[i].job.cmd->flags & BENCH_SG);
	}
	suite_where(&sr->su, sr->su.n);
	sr->docs = bench_alloc(sr->su.n * sizeof(*sr->docs));
	memset(sr->docs, 0, sr->su.n * sizeof(*sr->docs));
	sr->rc = bench_alloc(sr->su.n * sizeof(*sr->rc));
	sr->json = sr->csv = sr->dir_suite = OUTF_NONE;
	if (o->baseline) {   /* read and checked before any work */
		bench_input("--baseline", o->baseline);
		confirm_open(&sr->confirm, o->baseline, o->confirm, sr->su.name);
	}
	if (o->calibration) {
		bench_input("--calibration", o->calibration);
		cmp_doc_load(&sr->calib, o->calibration);
		if (!sr->calib.name || strcmp(sr->calib.name, sr->su.name) != 0)
			cli_usage_error("--calibration %s is a document of '%s', not of the suite '%s'",
					o->calibration, sr->calib.name ? sr->calib.name : "(no suite)",
					sr->su.name);
	}
	if (o->calibration || o->baseline)
		bench_set_calibration(calibrated, o->calibration ? &sr->calib : &sr->confirm.base);
	outputs_open(sr);
}

/* What a run held, released once its documents are written. */
static void suite_release(struct suite_run *sr)
{
	bench_set_calibration(NULL, NULL);
	if (sr->o->baseline)
		confirm_close(&sr->confirm);
	if (sr->o->calibration)
		cmp_doc_free(&sr->calib);
	bench_session_close(&sr->sess);
	for (size_t i = 0; i < sr->su.n; i++)
		json_decref(sr->docs[i]);
	live = NULL;
	free(sr->docs);
	free(sr->rc);
	free(sr->dir_entry);
	free(sr->dir_suite_path);
	suite_free(&sr->su);
	free(sr);
}

/* What a device's process of a suite gets of its own: its device and its folder. */
static const char *const suite_per_device[] = { "--device", "--out", "-o", NULL };

/*
 * --list (a suite's entries), or a set of devices (bench_fleet_run: one process each, o's
 * --device made one device's where the set holds one): true with *rc where that was all.
 */
static bool suite_elsewhere(struct suite_run *sr, struct suite_opts *o, int *rc)
{
	const char *file = strcmp(sr->su.source, "built-in") == 0 ? NULL : sr->su.source;

	if (o->list) {
		suite_print_entries(&sr->su, stdout);
		*rc = EXIT_OK;
	} else if (!bench_fleet_run(&(struct bench_fleet){
			.tool = "suite", .dir_opt = "-o", .per_device = suite_per_device,
			.input_what = "the suite", .input = file,
			.refuse = o->shared.co.json_path || o->shared.co.csv_path || o->baseline,
			.needs = "give -o DIR; --json, --csv and --baseline are one device's" },
			&o->shared.co, o->out_dir, rc)) {
		return false;
	}
	suite_free(&sr->su);
	free(sr);
	return true;
}

static int suite_main(void *opts)
{
	struct suite_opts *o = opts;
	struct suite_run *sr;
	int rc, wrc;

	if (o->list && !o->operands.n) {
		suite_list_builtin(stdout);
		return EXIT_OK;
	}
	sr = bench_alloc(sizeof(*sr));
	memset(sr, 0, sizeof(*sr));
	sr->o = o;
	suite_load(&sr->su, o->operands.v[0]);
	if (suite_elsewhere(sr, o, &rc))
		return rc;
	suite_prepare(sr);
	sr->t0 = time_now_ns();
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(sr->started, sizeof(sr->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	bench_session_open(&sr->sess, &o->shared.co);
	sr->sess.open_ns = time_now_ns() - sr->t0;
	sr->sess.write_now = write_now;
	sr->sess.owner = sr;
	dir_open(sr);
	sr->running = true;
	rc = run_entries(sr);
	if (o->baseline && !watch_signal() && sr->done == sr->su.n) {
		watch_release_finish();
		sr->confirming = true;
		int crc = confirm_rounds(sr);
		watch_claim_finish();
		rc = watch_signal() ? watch_exit_code(watch_signal()) : rc != EXIT_OK ? rc : crc;
	}
	sr->running = false;
	wrc = suite_write(sr);
	summary(sr);
	suite_release(sr);
	return rc != EXIT_OK ? rc : wrc;
}

static void suite_check(void *opts, const struct cli_set *given)
{
	struct suite_opts *o = opts;

	if (o->operands.n > 1 || (!o->list && o->operands.n != 1))
		cli_usage_error("give one suite: a built-in name (bench suite --list) or a file (got %zu)",
				o->operands.n);
	if (cli_given(given, "confirm") && !o->baseline)
		cli_usage_error("--confirm re-measures what differs from a baseline: give --baseline FILE");
}

#define SO(f) offsetof(struct suite_opts, f)
static const struct cli_opt suite_cli[] = {
	{ "out", "DIR", CLI_STR, SO(out_dir), .short_name = 'o',
	  .help = "write DIR/DEVICE--SUITE.json (the suite's document, named as a\n"
		  "baseline) and DIR/SUITE-NN-BENCH.json (each entry's own document)" },
	{ "list", NULL, CLI_FLAG, SO(list),
	  .help = "list the built-in suites, or a suite's entries; run nothing" },
	{ "baseline", "FILE", CLI_STR, SO(baseline),
	  .help = "judge every point against this document of the suite (bench\n"
		  "compare's verdicts), and measure a change again before reporting it;\n"
		  "exit 1 where a point regressed or failed" },
	{ "calibration", "FILE", CLI_STR, SO(calibration),
	  .help = "time every calibrated point (occupancy's spin and launch size)\n"
		  "with the values of this document of the suite, so that the\n"
		  "runs time the same work (a baseline's runs after the first);\n"
		  "--baseline does the same with the baseline's" },
	{ "confirm", "N", CLI_UINT, SO(confirm), 0, CONFIRM_MAX, .def = CLI_XSTR(CONFIRM_DEFAULT),
	  .help = "with --baseline: an entry with a point regressed, improved or\n"
		  "inconclusive runs again, at most N more times, until two attempts\n"
		  "agree; the document keeps every attempt" },
	{ 0 } };

const struct bench_tool suite_tool = {
	.cmd = {
		.name = "suite",
		.summary = "run a named set of benchmark configurations in one session",
		.synopsis =
			"usage: bench suite NAME|FILE [-o DIR] [--json FILE] [--require-device gpu|cpu|NAME]\n"
			"                   [shared options]\n"
			"       bench suite --list [NAME|FILE]\n"
			"  Runs every entry of a suite (results/suites/NAME.json, built in, or a file of the\n"
			"  same form: results/suites/README.md) on one device in one process, and writes one\n"
			"  results document whose points each name their benchmark, with the suite's noise\n"
			"  bands for bench compare. Shared options given here apply to every entry, over\n"
			"  the entry's own. Exit: 0 ok, 1 a point or a check failed, 2 bad usage or a bad\n"
			"  suite, 77 no device of the kind --require-device asks for.\n",
		.flags = BENCH_DEVICE | BENCH_SG | BENCH_OPERANDS,
		.opts = suite_cli,
		.opts_size = sizeof(struct suite_opts),
		.check = suite_check,
		.operands_off = SO(operands),
		.shared_off = SO(shared),
	},
	.main = suite_main,
};
