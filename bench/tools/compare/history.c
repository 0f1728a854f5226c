/*
 * bench history DIR|DOC...: a series of runs read by a change-point detector. The results
 * documents (a folder's, searched down its subfolders) are grouped by suite or benchmark and
 * device, ordered by time, written as Apache Otava's CSV (otava.c), and Otava's E-Divisive
 * analysis (`otava analyze`, apache-otava on PyPI) reports for every point the runs where
 * its series changed. Otava is found as BENCH_OTAVA, else `otava` on PATH, else in a build
 * tree's .deps/otava (scripts/setup.sh installs it there), else in the user's virtual
 * environment $XDG_DATA_HOME/bench/otava (~/.local/share/bench/otava: an installed bench's
 * one command makes it); without it, exit 77 saying how to get it.
 */
#include "tool.h"
#include "compare.h"
#include "jsonfile.h"
#include "paths.h"
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define HISTORY_MIN_RUNS 3
/* Otava itself failed (exit status, signal, no report): neither a verdict (0, 1) nor bad input */
#define HISTORY_EXIT_OTAVA 3

struct history_opts {
	struct cli_operands operands;
	const char *json;        /* --json FILE */
	double pvalue;           /* --p-value */
	double magnitude;        /* --magnitude, percent */
	unsigned window;         /* --window */
	bool quiet;
	bool allow_partial;      /* --allow-partial */
};

#define HO(f) offsetof(struct history_opts, f)
static void parse_pvalue(void *base, const char *arg)
{
	((struct history_opts *)base)->pvalue = cli_real("p-value", arg, 0, 0.5);
}

static void parse_magnitude(void *base, const char *arg)
{
	((struct history_opts *)base)->magnitude = cli_real("magnitude", arg, 0, 1000);
}

static const struct cli_opt history_cli[] = {
	{ "json", "FILE", CLI_STR, HO(json), .help = "write the change points as a document" },
	{ "p-value", "P", CLI_FN, 0, .fn = parse_pvalue, .def = "0.001",
	  .help = "Otava's largest p-value of a change point (0..0.5)" },
	{ "magnitude", "PCT", CLI_FN, 0, .fn = parse_magnitude, .def = "0",
	  .help = "Otava's smallest change of a change point, percent (0..1000)" },
	{ "window", "N", CLI_UINT, HO(window), 3, 100000, .def = "50",
	  .help = "Otava's window of runs each change point is tested in" },
	{ "quiet", NULL, CLI_FLAG, HO(quiet), .help = "print no table" },
	{ "allow-partial", NULL, CLI_FLAG, HO(allow_partial),
	  .help = "read interrupted and empty documents as runs with the points they\n"
		  "have (each named; in --json, the run's `interrupted`); refused without" },
	{ 0 } };

static void history_check(void *opts, const struct cli_set *given)
{
	const struct history_opts *o = opts;

	(void)given;
	if (!o->operands.n)
		cli_usage_error("name a folder of results documents, or the documents");
}

/* ---- the documents ---- */

/* The documents found: each path, its JSON read strictly (NULL: an operand, read later). */
static char **paths;
static json_t **roots;
static size_t n_paths, cap_paths, cap_roots;

static void found(const char *path, json_t *root)
{
	size_t n = n_paths;
	char **p = bench_push(&paths, &n_paths, &cap_paths, sizeof(*p), 16);
	json_t **r = bench_push(&roots, &n, &cap_roots, sizeof(*r), 16);
	char what[64];

	if (!(*p = strdup(path)))
		cli_die(EXIT_FAIL, "out of host memory");
	*r = root;
	snprintf(what, sizeof(what), "document %zu", n_paths);
	bench_input(what, path);   /* no output may replace it */
}

/*
 * The JSON file at path read strictly (host/jsonfile.h): a results document, or NULL for
 * another kind of file (a comparison, a baseline, a history, a suite). A *.json file of the
 * folder that does not read as JSON exits 2: a run left out unseen would hide a change.
 */
static json_t *results_doc(const char *path)
{
	char err[1024];
	json_t *j = jf_load(path, err, sizeof(err)), *kind;

	if (!j)
		cli_die(EXIT_USAGE, "%s: %s (a *.json file of the folder; give the documents themselves "
			"to leave it out)", path, err);
	kind = json_object_get(j, "kind");
	if (json_is_object(j) && json_is_array(json_object_get(j, "points")) &&
	    json_object_get(j, "schema_version") && !json_object_get(j, "baseline") &&
	    (!kind || (json_is_string(kind) && strcmp(json_string_value(kind), "results") == 0)))
		return j;
	json_decref(j);
	return NULL;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *f)
{
	size_t len = strlen(path);
	json_t *j;

	(void)st;
	(void)f;
	if (type == FTW_F && len > 5 && strcmp(path + len - 5, ".json") == 0 && (j = results_doc(path)))
		found(path, j);
	return 0;
}

/* The documents found under one folder, sorted by path. */
static void sort_from(size_t before)
{
	for (size_t i = before + 1; i < n_paths; i++)
		for (size_t j = i; j > before && strcmp(paths[j - 1], paths[j]) > 0; j--) {
			char *p = paths[j];
			json_t *r = roots[j];
			paths[j] = paths[j - 1];
			roots[j] = roots[j - 1];
			paths[j - 1] = p;
			roots[j - 1] = r;
		}
}

/* The `suite_entry` member of a document (`bench suite -o`'s entry documents), else NULL. */
static json_t *entry_of(json_t *root)
{
	json_t *e = json_object_get(root, "suite_entry");

	return json_is_object(e) ? e : NULL;
}

/* A series' name: its suite or benchmark, or "SUITE entry N (BENCHMARK)" for a suite's entry. */
static const char *series_name(const struct cmp_doc *d, char *buf, size_t len)
{
	json_t *e = entry_of(d->root);

	if (!e)
		return d->name ? d->name : "?";
	snprintf(buf, len, "%s entry %lld (%s)", json_string_value(json_object_get(e, "suite")),
		 (long long)json_integer_value(json_object_get(e, "entry")), d->name ? d->name : "?");
	return buf;
}

/* Whether a and b lie in one folder. */
static bool same_folder(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	size_t la = sa ? (size_t)(sa - a) : 0, lb = sb ? (size_t)(sb - b) : 0;

	return la == lb && strncmp(a, b, la) == 0;
}

/* Whether the documents from before on hold, in path i's folder, the suite document of entry e. */
static bool suite_doc_beside(size_t before, size_t i, json_t *e)
{
	const char *suite = json_string_value(json_object_get(e, "suite"));

	for (size_t j = before; j < n_paths && suite; j++) {
		const char *s = json_string_value(json_object_get(roots[j], "suite"));
		if (j != i && roots[j] && !entry_of(roots[j]) && s && strcmp(s, suite) == 0 &&
		    same_folder(paths[i], paths[j]))
			return true;
	}
	return false;
}

/*
 * `bench suite -o DIR` writes the suite's document and each entry's: the suite's holds every
 * entry's points, so an entry document beside its suite's is the same run again and is left out
 * (each run counted once). Returns how many were.
 */
static size_t drop_entries(size_t before)
{
	size_t kept = before, dropped = 0;
	bool *drop = bench_zalloc((n_paths - before + 1) * sizeof(*drop));

	for (size_t i = before; i < n_paths; i++)
		drop[i - before] = roots[i] && entry_of(roots[i]) &&
				   suite_doc_beside(before, i, entry_of(roots[i]));
	for (size_t i = before; i < n_paths; i++) {
		if (drop[i - before]) {
			json_decref(roots[i]);
			free(paths[i]);
			dropped++;
			continue;
		}
		paths[kept] = paths[i];
		roots[kept++] = roots[i];
	}
	n_paths = kept;
	free(drop);
	return dropped;
}

/* Every operand: a folder's results documents (sorted by path), or a document itself. */
static void collect(const struct history_opts *o)
{
	struct stat st;

	for (size_t i = 0; i < o->operands.n; i++) {
		const char *a = o->operands.v[i];
		size_t before = n_paths;
		if (stat(a, &st) != 0)
			cli_usage_error("'%s': %s", a, strerror(errno));
		if (!S_ISDIR(st.st_mode)) {
			found(a, NULL);
			continue;
		}
		if (nftw(a, visit, 16, FTW_PHYS) != 0)
			cli_usage_error("'%s': cannot read the folder: %s", a, strerror(errno));
		if (n_paths == before)
			cli_usage_error("'%s' holds no results document (*.json)", a);
		sort_from(before);
		size_t dropped = drop_entries(before);
		if (dropped && !o->quiet)
			fprintf(stderr, "bench history: %s: %zu entry document%s of `bench suite -o` left "
				"out: %s suite's document holds %s points\n", a, dropped,
				dropped == 1 ? "" : "s", dropped == 1 ? "its" : "their",
				dropped == 1 ? "its" : "their");
	}
}

/* A document given twice (or found twice: a folder and a document of it) would be two runs. */
static void distinct(void)
{
	struct stat *st = bench_alloc((n_paths ? n_paths : 1) * sizeof(*st));

	for (size_t i = 0; i < n_paths; i++)
		if (stat(paths[i], &st[i]) != 0)
			cli_die(EXIT_USAGE, "%s: cannot read: %s", paths[i], strerror(errno));
	for (size_t i = 0; i < n_paths; i++)
		for (size_t j = i + 1; j < n_paths; j++)
			if (st[i].st_dev == st[j].st_dev && st[i].st_ino == st[j].st_ino)
				cli_usage_error("'%s' is '%s' again: one run would count twice", paths[j],
						paths[i]);
	free(st);
}

/* Documents sorted by timestamp (ISO 8601 UTC sorts as text), stable. */
static void by_time(struct cmp_doc *d, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(d[j - 1].timestamp ? d[j - 1].timestamp : "",
						   d[j].timestamp ? d[j].timestamp : "") > 0; j--) {
			struct cmp_doc x = d[j];
			d[j] = d[j - 1];
			d[j - 1] = x;
		}
}

/* ---- Otava ---- */

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fputs(text, f) >= 0;

	return f ? fclose(f) == 0 && ok : false;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = bench_alloc((size_t)n + 1);
		buf[fread(buf, 1, (size_t)n, f)] = '\0';
	}
	if (f)
		fclose(f);
	return buf;
}

/* The child's side of run_to: its outputs, its end with this process's, then argv. */
static noreturn void exec_child(char *const argv[], const char *out, const char *err, pid_t parent)
{
	int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	/* --timeout or a signal ends bench at once: Otava ends with it, not orphaned */
	if (fo < 0 || fe < 0 || dup2(fo, STDOUT_FILENO) < 0 || dup2(fe, STDERR_FILENO) < 0 ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(127);
	execve(argv[0], argv, environ);
	_exit(127);
}

/* Runs argv with stdout and stderr into files of dir; its exit status, -1 where it did not run. */
static int run_to(char *const argv[], const char *out, const char *err)
{
	pid_t parent = getpid(), pid;
	int st = -1;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == 0)
		exec_child(argv, out, err, parent);
	while (pid > 0 && waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (pid < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Otava's change points of the test in cfg, as its JSON report's array; exits 1 where it fails. */
static json_t *analyze(const char *otava, const char *dir, const struct history_opts *o,
		       const char *since)
{
	char cfg[4200], out[4200], err[4200], p[32], m[32], w[32], why[512] = "";
	snprintf(cfg, sizeof(cfg), "%s/otava.yaml", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(p, sizeof(p), "%g", o->pvalue);
	snprintf(m, sizeof(m), "%g", o->magnitude / 100);
	snprintf(w, sizeof(w), "%u", o->window);
	char *argv[] = { (char *)otava, "analyze", "bench", "--config-file", cfg, "--output", "json",
			 "--since", (char *)since, "-P", p, "-M", m, "--window", w, NULL };
	int rc = run_to(argv, out, err);
	char *text = slurp(out), *line = text ? strrchr(text, '{') : NULL;
	json_t *j = NULL;

	/* the report is the last line that starts with '{'; Otava logs before it */
	while (line && line > text && line[-1] != '\n') {
		char *prev = memrchr(text, '{', (size_t)(line - text));
		line = prev ? prev : text;
	}
	if (rc == 0 && line)
		j = jf_parse(line, strlen(line), why, sizeof(why));
	if (!json_is_array(json_object_get(j, "bench"))) {
		char *e = slurp(err), status[600];
		if (rc < 0)
			snprintf(status, sizeof(status), "it could not be started");
		else if (rc > 128)
			snprintf(status, sizeof(status), "it was killed by signal %d", rc - 128);
		else if (rc)
			snprintf(status, sizeof(status), "exit status %d", rc);
		else
			snprintf(status, sizeof(status), "exit status 0 but no report: %s",
				 why[0] ? why : "no JSON line on its standard output");
		/* not 1, which says a series became slower: Otava's own failure is no verdict */
		cli_die(HISTORY_EXIT_OTAVA, "Apache Otava failed, so no series was analyzed: %s analyze: "
			"%s; its output: %s", otava, status, e && *e ? e : text && *text ? text : "none");
	}
	json_t *a = json_incref(json_object_get(j, "bench"));
	json_decref(j);
	free(text);
	return a;
}

/* ---- one series ---- */

struct series {
	struct cmp_doc *docs;
	size_t n;
	json_t *groups;          /* the change point groups (Otava's JSON report) */
	json_t *metrics;
	size_t left;
	size_t suspect;          /* the runs' suspect points: never in the series */
};

static double num(json_t *v)
{
	return json_is_string(v) ? strtod(json_string_value(v), NULL) : json_number_value(v);
}

/* Whether any change of the series makes a point slower (a time that rose). */
static bool slower(const struct series *s)
{
	json_t *g, *c;
	size_t i, k;

	json_array_foreach(s->groups, i, g)
		json_array_foreach(json_object_get(g, "changes"), k, c)
			if (num(json_object_get(c, "forward_change_percent")) > 0)
				return true;
	return false;
}

/* What cut a document short, where --allow-partial read one ("?" where it does not say); NULL: whole. */
static const char *partial_by(const struct cmp_doc *d)
{
	if (!json_object_get(d->root, "interrupted") && d->n)
		return NULL;
	return d->interrupted ? d->interrupted : d->n ? "?" : "nothing: no point";
}

static void print_series(const struct series *s)
{
	json_t *g, *c;
	size_t i, k;

	char nm[512];

	printf("history of %s on %s: %zu runs, %s .. %s; %zu points%s\n",
	       series_name(&s->docs[0], nm, sizeof(nm)),
	       s->docs[0].device, s->n, s->docs[0].timestamp, s->docs[s->n - 1].timestamp,
	       json_array_size(s->metrics), s->left ? " (others not timed in every run: left out)" : "");
	for (i = 0; i < s->n; i++)
		if (partial_by(&s->docs[i]))
			printf("  run %zu (%s) was cut short (by %s): the points it measured\n", i + 1,
			       s->docs[i].path, partial_by(&s->docs[i]));
	if (s->suspect)   /* a point suspect in one run leaves the series: Otava needs every run */
		printf("  %zu suspect point%s of the runs left out (%s)\n", s->suspect,
		       s->suspect > 1 ? "s" : "", CMP_SUSPECT_WHY);
	if (!json_array_size(s->groups))
		printf("  no change point\n");
	json_array_foreach(s->groups, i, g) {
		size_t run = (size_t)json_integer_value(json_object_get(json_array_get(
				json_object_get(g, "changes"), 0), "index"));
		printf("  from run %zu (%s, %s):\n", run + 1, run < s->n ? s->docs[run].path : "?",
		       run < s->n ? s->docs[run].timestamp : "?");
		json_array_foreach(json_object_get(g, "changes"), k, c) {
			double pct = num(json_object_get(c, "forward_change_percent"));
			printf("    %s: %s %.0f %% (%.2f -> %.2f us, p = %s)\n",
			       json_string_value(json_object_get(c, "metric")), pct > 0 ? "slower" : "faster",
			       pct > 0 ? pct : -pct, num(json_object_get(c, "mean_before")) / 1e3,
			       num(json_object_get(c, "mean_after")) / 1e3,
			       json_string_value(json_object_get(c, "pvalue")));
		}
	}
}

static json_t *series_json(const struct series *s)
{
	json_t *runs = json_array(), *cps = json_array(), *g;
	size_t i;

	for (i = 0; i < s->n; i++)
		json_array_append_new(runs, json_pack("{s:s, s:s?, s:s*}", "document", s->docs[i].path,
						      "timestamp", s->docs[i].timestamp, "interrupted",
						      partial_by(&s->docs[i])));
	json_array_foreach(s->groups, i, g) {
		size_t run = (size_t)json_integer_value(json_object_get(json_array_get(
				json_object_get(g, "changes"), 0), "index"));
		json_array_append_new(cps, json_pack("{s:I, s:O}", "run", (json_int_t)run + 1,
						     "changes", json_object_get(g, "changes")));
	}
	char nm[512];

	return json_pack("{s:s?, s:s, s:o, s:O, s:I, s:I, s:o}", "name",
			 series_name(&s->docs[0], nm, sizeof(nm)), "device",
			 s->docs[0].device, "runs", runs, "points", s->metrics, "points_left_out",
			 (json_int_t)s->left, "points_suspect", (json_int_t)s->suspect, "change_points", cps);
}

/* Otava over one series of documents of one suite and device; false where no point was timed
 * in every run (--allow-partial: an empty document), nothing to analyze. */
static bool analyze_series(struct series *s, const char *otava, const struct history_opts *o)
{
	static const char *const names[] = { "runs.csv", "otava.yaml", "out", "err", NULL };
	char dir[4096], csv_path[4200], cfg_path[4200], since[32], err[4400];
	char *csv = otava_csv(s->docs, s->n, &s->metrics, &s->left);

	s->suspect = 0;
	for (size_t i = 0; i < s->n; i++)
		s->suspect += cmp_doc_suspects(&s->docs[i]);
	if (!json_array_size(s->metrics)) {
		free(csv);
		return false;
	}
	/* removed by outf_scratch_remove, at exit (Otava failing) and on a signal alike */
	if (!outf_scratch_make("bench-history", names, dir, sizeof(dir), err, sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	snprintf(csv_path, sizeof(csv_path), "%s/runs.csv", dir);
	snprintf(cfg_path, sizeof(cfg_path), "%s/otava.yaml", dir);
	json_t *cfg = otava_config("bench", csv_path, s->metrics);
	char *cfg_text = json_dumps(cfg, JSON_INDENT(1));
	if (!write_file(csv_path, csv) || !cfg_text || !write_file(cfg_path, cfg_text))
		cli_die(EXIT_FAIL, "cannot write %s: %s", dir, strerror(errno));
	/* Otava leaves out rows older than --since, a year ago unless given */
	snprintf(since, sizeof(since), "%.4d-01-01", atoi(s->docs[0].timestamp) - 1);
	s->groups = analyze(otava, dir, o, since);
	free(csv);
	free(cfg_text);
	json_decref(cfg);
	outf_scratch_remove();
	return true;
}

/* ---- the command ---- */

/* Whether documents a and b are runs of one series: one suite or benchmark, one device. */
static bool same_series(const struct cmp_doc *a, const struct cmp_doc *b)
{
	json_t *ea = entry_of(a->root), *eb = entry_of(b->root);

	/* a suite's entry documents: one series per entry, never two entries of one benchmark */
	if (!ea != !eb || (ea && (!json_equal(json_object_get(ea, "suite"), json_object_get(eb, "suite")) ||
				  !json_equal(json_object_get(ea, "entry"), json_object_get(eb, "entry")))))
		return false;
	return strcmp(a->name ? a->name : "", b->name ? b->name : "") == 0 &&
	       strcmp(a->device, b->device) == 0 && strcmp(a->platform, b->platform) == 0;
}


/*
 * The series of documents in turn (one suite or benchmark on one device, in the order first
 * seen), each through Otava, into all; whether a point of one became slower.
 */
static bool all_series(struct cmp_doc *docs, const char *otava, const struct history_opts *o,
		       json_t *all)
{
	bool *done = bench_zalloc((n_paths ? n_paths : 1) * sizeof(*done)), any_slower = false;
	struct series s = { .docs = bench_alloc((n_paths ? n_paths : 1) * sizeof(*docs)) };
	char nm[512];

	for (size_t i = 0; i < n_paths; i++) {
		s.n = 0;
		for (size_t j = i; j < n_paths && !done[i]; j++)
			if (!done[j] && same_series(&docs[i], &docs[j]))
				s.docs[s.n++] = docs[j];
		for (size_t j = i; j < n_paths; j++)
			done[j] |= same_series(&docs[i], &docs[j]);
		if (!s.n)
			continue;
		if (s.n < HISTORY_MIN_RUNS) {
			fprintf(stderr, "bench history: %zu run%s of %s on %s: a series needs %d or more\n",
				s.n, s.n == 1 ? "" : "s", series_name(&s.docs[0], nm, sizeof(nm)),
				s.docs[0].device, HISTORY_MIN_RUNS);
			continue;
		}
		by_time(s.docs, s.n);
		if (!analyze_series(&s, otava, o)) {
			fprintf(stderr, "bench history: %s on %s: no point timed in every one of its %zu runs "
				"(%zu suspect points left out): nothing to analyze\n",
				series_name(&s.docs[0], nm, sizeof(nm)),
				s.docs[0].device, s.n, s.suspect);
			json_decref(s.metrics);
			continue;
		}
		any_slower |= slower(&s);
		if (!o->quiet)
			print_series(&s);
		json_array_append_new(all, series_json(&s));
		json_decref(s.groups);
		json_decref(s.metrics);
	}
	free(s.docs);
	free(done);
	return any_slower;
}

static struct outf jout = OUTF_INIT;

static void drop_json(void)
{
	outf_abort(&jout);
}

/* The documents found, read and judged (an interrupted or empty one: --allow-partial). */
static struct cmp_doc *load_all(const struct history_opts *o)
{
	struct cmp_doc *docs = bench_zalloc((n_paths ? n_paths : 1) * sizeof(*docs));

	cmp_doc_allow_partial(o->allow_partial);
	for (size_t i = 0; i < n_paths; i++)
		if (roots[i])
			cmp_doc_from_json(&docs[i], roots[i], paths[i]);   /* the reference taken */
		else
			cmp_doc_load(&docs[i], paths[i]);
	return docs;
}

static int history_main(void *opts)
{
	struct history_opts *o = opts;
	char otava[4096], err[1024];
	json_t *all = json_array(), *doc;
	bool any_slower;

	atexit(drop_json);
	collect(o);   /* every document an input of the command */
	distinct();
	if (o->json)
		bench_output(&jout, "--json", o->json);
	struct cmp_doc *docs = load_all(o);
	otava_find(otava, sizeof(otava));   /* bad documents first: exit 2 with or without Otava */
	any_slower = all_series(docs, otava, o, all);
	if (!json_array_size(all))
		cli_usage_error("no series of %d runs or more of one suite or benchmark on one device",
				HISTORY_MIN_RUNS);
	doc = json_pack("{s:s, s:i, s:o, s:{s:f, s:f, s:i}, s:o}", "kind", "history", "schema_version",
			1, "tool", json_pack("{s:s, s:s, s:s}", "name", "bench", "version",
					     res_tool_version(), "git_describe", res_tool_describe()),
			"otava", "p_value", o->pvalue, "magnitude_pct", o->magnitude, "window", o->window,
			"series", all);
	if (o->json && !res_write_json(&jout, doc, err, sizeof(err)))
		cli_die(EXIT_FAIL, "--json %s", err);
	json_decref(doc);
	for (size_t i = 0; i < n_paths; i++) {
		cmp_doc_free(&docs[i]);
		free(paths[i]);
	}
	free(docs);
	free(paths);
	free(roots);
	return any_slower ? EXIT_FAIL : EXIT_OK;
}

const struct bench_tool history_tool = {
	.cmd = {
		.name = "history",
		.summary = "the runs where each point's series changed (Apache Otava's change points)",
		.synopsis =
			"usage: bench history DIR|DOC... [--json FILE] [--p-value P] [--magnitude PCT]\n"
			"                     [--window N] [--quiet] [--allow-partial]\n"
			"  Reads results documents (a folder's, down its subfolders; comparisons and\n"
			"  baselines left out), groups them by suite or benchmark and device, orders\n"
			"  each series by time, and runs Apache Otava's E-Divisive change-point\n"
			"  analysis on the medians of the points every run timed (bench export otava\n"
			"  writes the same CSV). Prints, for each series, the runs from which points\n"
			"  changed, by how much, and Otava's p-value. Needs 3 runs or more; Otava from\n"
			"  BENCH_OTAVA, PATH, a build tree's .deps/otava or ~/.local/share/bench/otava\n"
			"  (XDG_DATA_HOME; exit 77 without it, saying how to install it). Exit\n"
			"  1 where a point's series became slower, 0 otherwise, 3 where Otava itself\n"
			"  fails (its status named). Every document is read\n"
			"  as bench compare reads it: one that does not read, or an interrupted or\n"
			"  empty one (unless --allow-partial), is exit 2 naming it.\n",
		.opts = history_cli,
		.opts_size = sizeof(struct history_opts),
		.check = history_check,
		.flags = BENCH_OPERANDS,
		.operands_off = offsetof(struct history_opts, operands),
	},
	.main = history_main,
};
