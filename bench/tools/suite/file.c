/*
 * bench suite: reading a suite. A suite is a JSON document (results/suites/README.md):
 *   {"name": "quick", "description": "...", "noise": BAND, "args": ["--min-time", "0.1"],
 *    "figures": "guide-figures.json",
 *    "entries": [{"bench": "vecadd", "args": ["--groups", "1..8"], "noise": BAND,
 *                 "about": "...", "figures": "vectoradd2-tgl"}, ...]}
 * The suite's args come before every entry's own (which win where both set an option).
 * BAND is a percent, or {"gpu": PCT, "cpu": PCT, "default": PCT}. Every member is checked
 * and every entry's arguments parsed by its row before anything runs, so a bad suite is
 * an exit 2 naming the suite, the entry and the member, never a half-run suite.
 */
#include "rows.h"
#include "tool.h"
#include "suite.h"
#include "embedded.h"
#include "jsonfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The suites built into the binary (results/suites/NAME.json, by scripts/embed.py). */
extern const struct embedded_file suite_files[];
extern const size_t suite_files_count;

noreturn static void bad(const struct suite *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void bad(const struct suite *s, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_usage_error("suite %s: %s", s->source, msg);
}

/* "quick" of "quick.json" */
static void builtin_name(const struct embedded_file *f, char *buf, size_t len)
{
	size_t n = strlen(f->name);

	if (n > 5 && strcmp(f->name + n - 5, ".json") == 0)
		n -= 5;
	snprintf(buf, len, "%.*s", (int)n, f->name);
}

static json_t *parse_text(struct suite *s, const char *text, size_t len)
{
	char err[1024];
	json_t *root = jf_parse(text, len, err, sizeof(err));

	if (!root)
		bad(s, "%s", err);
	return root;
}

/* The built-in suite `name`, or exit 2 listing them. */
static json_t *load_builtin(struct suite *s, const char *name)
{
	char n[128], list[512] = "";

	for (size_t i = 0; i < suite_files_count; i++) {
		builtin_name(&suite_files[i], n, sizeof(n));
		if (strcmp(n, name) == 0) {
			s->source = "built-in";
			return parse_text(s, suite_files[i].data, suite_files[i].len);
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "", n);
	}
	cli_usage_error("no built-in suite '%s': the suites are %s, or give a file (a path with a "
			"'/' or ending in .json)", name, list);
}

static json_t *load_file(struct suite *s, const char *path)
{
	char err[1024];
	json_t *root = jf_load(path, err, sizeof(err));

	s->source = path;
	if (!root)
		bad(s, "%s", err);
	return root;
}

/* Refuses members other than the allowed ones (results/schema/suite.schema.json). */
static void only(const struct suite *s, const char *at, json_t *o, const char *const *allowed)
{
	char err[1024];

	if (!jf_members(o, allowed, err, sizeof(err)))
		bad(s, "%s: %s", at, err);
}

static const char *opt_string(const struct suite *s, const char *at, json_t *o, const char *key,
			      bool required)
{
	json_t *v = json_object_get(o, key);

	if (!v && !required)
		return NULL;
	if (!json_is_string(v) || !json_string_length(v))
		bad(s, "%s.%s: %s", at, key, v ? "is not a non-empty string" : "missing");
	return json_string_value(v);
}

/* A band, o's member key (noise, band_floor): a percent in [0, 1000], or {gpu, cpu, default}
 * of them. */
static json_t *band(const struct suite *s, const char *at, json_t *o, const char *key)
{
	static const char *const keys[] = { "gpu", "cpu", "default", NULL };
	json_t *v = json_object_get(o, key), *m;
	const char *k;

	if (!v)
		return NULL;
	if (json_is_object(v)) {
		only(s, at, v, keys);
		json_object_foreach(v, k, m)
			if (!json_is_number(m) || json_number_value(m) < 0 || json_number_value(m) > 1000)
				bad(s, "%s.%s.%s: is not a percent in 0..1000", at, key, k);
	} else if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 1000) {
		bad(s, "%s.%s: is not a percent in 0..1000, nor {\"gpu\": PCT, \"cpu\": PCT, "
		    "\"default\": PCT}", at, key);
	}
	return v;
}

bool suite_noise_for(const json_t *spec, cl_device_type type, double *pct)
{
	json_t *v;

	if (!spec)
		return false;
	if (json_is_number(spec)) {
		*pct = json_number_value(spec);
		return true;
	}
	v = json_object_get(spec, type & CL_DEVICE_TYPE_GPU ? "gpu" : type & CL_DEVICE_TYPE_CPU ? "cpu"
											  : "default");
	if (!v)
		v = json_object_get(spec, "default");
	if (!v)
		return false;
	*pct = json_number_value(v);
	return true;
}

void suite_where(struct suite *s, size_t i)
{
	if (i >= s->n) {
		cli_where = "";
		return;
	}
	/* an entry's arguments follow the suite's: a message may be about either */
	snprintf(s->where, sizeof(s->where), " (suite %s, entry %zu of %zu%s)", s->name, i + 1, s->n,
		 json_array_size(s->args) ? ": the suite's top-level args, then its own" : "");
	cli_where = s->where;
}

/* The row an entry runs (its arguments may name an alias's): a row that measures points. */
static const struct bench_row *entry_row(const struct suite *s, const char *at,
					 const struct suite_entry *e)
{
	const struct bench_row *row = bench_row_resolve(e->argc, e->argv);

	if (!row && cli_is_command(e->bench))
		bad(s, "%s.bench: '%s' measures no points: a suite runs the benchmarks (bench list)",
		    at, e->bench);
	if (!row)
		bad(s, "%s.bench: '%s' is not a benchmark ('bench list' lists them)", at, e->bench);
	return row;
}

/* The options that belong to the suite's command line, not to one entry. */
static const char *const session_opts[] = { "device", "require-device", "kernels", "json", "csv" };

/* Appends the strings of args (from `at`) to argv at *n. */
static void add_args(const struct suite *s, const char *at, json_t *args, char **argv, int *n)
{
	for (size_t k = 0; k < json_array_size(args); k++) {
		json_t *a = json_array_get(args, k);
		if (!json_is_string(a))
			bad(s, "%s.args[%zu]: is not a string", at, k);
		argv[*n] = (char *)json_string_value(a);
		if (strcmp(argv[*n], "--help") == 0 || strcmp(argv[*n], "-h") == 0)
			bad(s, "%s.args[%zu]: --help has no place in a suite", at, k);
		(*n)++;
	}
}

/* entries[].figures: a table of the suite's figures file whose bench is the entry's benchmark. */
static void entry_figures(struct suite *s, size_t i, const char *at, const struct bench_row *row)
{
	struct suite_entry *e = &s->e[i];
	const char *file = s->figures ? s->figures : BENCH_FIGURES_FILE, *bench;
	const char *runs = row->benchmark ? row->benchmark : row->cmd.name;   /* its documents' */
	char err[512];

	if (!e->figures_id)
		return;
	if (!(e->figures = bench_figures_table(file, e->figures_id, err, sizeof(err))))
		bad(s, "%s.figures: %s", at, err);
	bench = json_string_value(json_object_get(e->figures, "bench"));
	if (!bench || strcmp(bench, runs) != 0)
		bad(s, "%s.figures: table '%s' is bench %s's, the entry runs %s", at, e->figures_id,
		    bench ? bench : "(none)", runs);
}

/*
 * An option of the suite's command line among the suite's top-level args, blamed on them (the
 * check after each entry's parse would name the entry, which never gave it).
 */
static void top_args_check(const struct suite *s)
{
	for (size_t k = 0; k < json_array_size(s->args); k++) {
		const char *a = json_string_value(json_array_get(s->args, k));
		for (size_t o = 0; a && o < sizeof(session_opts) / sizeof(session_opts[0]); o++) {
			size_t n = strlen(session_opts[o]);
			if (strncmp(a, "--", 2) == 0 && strncmp(a + 2, session_opts[o], n) == 0 &&
			    (a[2 + n] == '\0' || a[2 + n] == '='))
				bad(s, "(top level).args[%zu]: --%s belongs to the suite's command line (one "
				    "device, one set of outputs for the whole suite)", k, session_opts[o]);
		}
	}
}

static void entry_parse(struct suite *s, size_t i, const char *at)
{
	struct suite_entry *e = &s->e[i];

	e->argv = bench_alloc((json_array_size(s->args) + json_array_size(e->args) + 2) * sizeof(*e->argv));
	e->argv[0] = (char *)e->bench;
	e->argc = 1;
	add_args(s, "(top level)", s->args, e->argv, &e->argc);
	add_args(s, at, e->args, e->argv, &e->argc);
	e->argv[e->argc] = NULL;
	const struct bench_row *row = entry_row(s, at, e);
	entry_figures(s, i, at, row);
	suite_where(s, i);
	cli_cmd = e->bench;
	bench_job_parse(&e->job, &row->cmd, row, e->argc, e->argv);
	cli_cmd = "suite";
	suite_where(s, s->n);
	for (size_t k = 0; k < sizeof(session_opts) / sizeof(session_opts[0]); k++)
		if (bench_shared_given(e->job.shared, session_opts[k]))
			bad(s, "%s.args: --%s belongs to the suite's command line (one device, one set of "
			    "outputs for the whole suite)", at, session_opts[k]);
}

void suite_entry_reparse(struct suite *s, size_t i)
{
	struct suite_entry *e = &s->e[i];
	const struct bench_row *row = bench_row_resolve(e->argc, e->argv);

	bench_job_free(&e->job);
	suite_where(s, i);
	cli_cmd = e->bench;
	bench_job_parse(&e->job, &row->cmd, row, e->argc, e->argv);
	cli_cmd = "suite";
	suite_where(s, s->n);
}

/* Two entries of one benchmark with different bands: the document's map has one per benchmark. */
static void same_bands(const struct suite *s)
{
	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(s->e[i].bench, s->e[j].bench) == 0 &&
			    !(s->e[i].noise ? s->e[j].noise && json_equal(s->e[i].noise, s->e[j].noise)
					    : !s->e[j].noise))
				bad(s, "entries[%zu] and entries[%zu] give %s different noise bands: compare "
				    "takes one band per benchmark", j, i, s->e[i].bench);
}

static void check_entries(struct suite *s)
{
	static const char *const keys[] = { "bench", "args", "noise", "band_floor", "about", "figures",
					    NULL };
	json_t *entries = json_object_get(s->root, "entries");
	char at[64];

	if (!json_is_array(entries) || !json_array_size(entries))
		bad(s, "entries: %s", entries ? "is not a non-empty array" : "missing");
	s->n = json_array_size(entries);
	s->e = bench_alloc(s->n * sizeof(*s->e));
	memset(s->e, 0, s->n * sizeof(*s->e));
	for (size_t i = 0; i < s->n; i++) {
		struct suite_entry *e = &s->e[i];
		json_t *o = json_array_get(entries, i);
		snprintf(at, sizeof(at), "entries[%zu]", i);
		if (!json_is_object(o))
			bad(s, "%s: is not an object", at);
		only(s, at, o, keys);
		e->bench = opt_string(s, at, o, "bench", true);
		e->about = opt_string(s, at, o, "about", false);
		e->figures_id = opt_string(s, at, o, "figures", false);
		e->args = json_object_get(o, "args");
		if (e->args && !json_is_array(e->args))
			bad(s, "%s.args: is not an array of strings", at);
		e->noise = band(s, at, o, "noise");
		e->band_floor = band(s, at, o, "band_floor");
	}
	same_bands(s);
	for (size_t i = 0; i < s->n; i++) {
		snprintf(at, sizeof(at), "entries[%zu]", i);
		entry_parse(s, i, at);
	}
}

void suite_load(struct suite *s, const char *spec)
{
	static const char *const keys[] = { "name", "description", "noise", "args", "figures", "entries",
					    NULL };
	size_t len = strlen(spec);
	bool file = strchr(spec, '/') || (len > 5 && strcmp(spec + len - 5, ".json") == 0);

	memset(s, 0, sizeof(*s));
	s->root = file ? load_file(s, spec) : load_builtin(s, spec);
	if (!json_is_object(s->root))
		bad(s, "the top level is not an object");
	only(s, "(top level)", s->root, keys);
	s->name = opt_string(s, "(top level)", s->root, "name", true);
	s->description = opt_string(s, "(top level)", s->root, "description", false);
	s->figures = opt_string(s, "(top level)", s->root, "figures", false);
	s->noise = band(s, "(top level)", s->root, "noise");
	s->args = json_object_get(s->root, "args");
	if (s->args && !json_is_array(s->args))
		bad(s, "(top level).args: is not an array of strings");
	top_args_check(s);
	if (!file && strcmp(s->name, spec) != 0)
		bad(s, "name: '%s', but the suite is built in as '%s'", s->name, spec);
	check_entries(s);
}

void suite_free(struct suite *s)
{
	for (size_t i = 0; i < s->n; i++) {
		bench_job_free(&s->e[i].job);
		free(s->e[i].argv);
		json_decref(s->e[i].figures);
	}
	free(s->e);
	json_decref(s->root);
	memset(s, 0, sizeof(*s));
}

void suite_list_builtin(FILE *f)
{
	char n[128];

	for (size_t i = 0; i < suite_files_count; i++) {
		json_t *root = json_loadb(suite_files[i].data, suite_files[i].len, 0, NULL);
		json_t *d = json_object_get(root, "description");
		builtin_name(&suite_files[i], n, sizeof(n));
		fprintf(f, "%-8s %3zu entries  %s\n", n, json_array_size(json_object_get(root, "entries")),
			json_is_string(d) ? json_string_value(d) : "");
		json_decref(root);
	}
}

/* " 5 %" or " none" */
static const char *band_str(bool has, double pct, char *buf, size_t len)
{
	if (has)
		snprintf(buf, len, "%g %%", pct);
	else
		snprintf(buf, len, "none");
	return buf;
}

void suite_print_entries(const struct suite *s, FILE *f)
{
	fprintf(f, "suite %s (%s): %s\n", s->name, s->source, s->description ? s->description : "");
	for (size_t i = 0; i < s->n; i++) {
		const struct suite_entry *e = &s->e[i];
		const json_t *b = e->noise ? e->noise : s->noise;
		char gs[32], cs[32];
		double g = 0, c = 0;
		bool has_g = suite_noise_for(b, CL_DEVICE_TYPE_GPU, &g);
		bool has_c = suite_noise_for(b, CL_DEVICE_TYPE_CPU, &c);
		fprintf(f, "%3zu  bench", i + 1);
		for (int k = 0; k < e->argc; k++)
			fprintf(f, " %s", e->argv[k]);
		fputc('\n', f);
		if (e->about)
			fprintf(f, "     %s\n", e->about);
		if (e->figures)
			fprintf(f, "     beside the guide's figures: %s (%s)\n",
				json_string_value(json_object_get(e->figures, "title")),
				json_string_value(json_object_get(e->figures, "section")));
		if (has_g || has_c)
			fprintf(f, "     noise band for bench compare: gpu %s, cpu %s\n",
				band_str(has_g, g, gs, sizeof(gs)), band_str(has_c, c, cs, sizeof(cs)));
	}
}
