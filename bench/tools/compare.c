/*
 * bench compare BASE NEW: a verdict for every point of two results documents.
 *
 * Points are matched by benchmark and params (less the members in
 * cmp_ignored_params). A matched pair with timings passes two gates:
 *   1. significance: the exact two-sided Mann-Whitney U test (host/mwu.c) on the
 *      per-repetition samples, p < alpha, with at least CMP_MIN_REPS repetitions a
 *      side (fewer: inconclusive, never a guess);
 *   2. magnitude: the bootstrap interval of median(NEW) / median(BASE) (host/boot.c)
 *      lies wholly outside the noise band 1 +- noise.
 * Both passed: regressed (slower) or improved, where U agrees on the direction
 * (inconclusive where it does not); otherwise unchanged. A status gone
 * to failed (or skipped), or a validation lost, is failed; a different residency or
 * sub-group size is changed. The gates follow Google Benchmark's U test, criterion's
 * noise band and Pinpoint's inconclusive.
 */
#include "rows.h"
#include "tool.h"
#include "boot.h"
#include "compare_doc.h"
#include "mwu.h"
#include "results.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- options ---- */

/* A real number in [min, max], strictly: no trailing characters, no NaN. */
static double parse_real(const char *opt, const char *arg, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v) || v < min || v > max)
		cli_usage_error("--%s '%s' is not a number in %g..%g", opt, arg, min, max);
	return v;
}

static void parse_alpha(void *base, const char *arg)
{
	double a = parse_real("alpha", arg, 0, 0.5);

	if (a == 0)
		cli_usage_error("--alpha 0 rejects nothing: give a level in (0, 0.5]");
	((struct compare_opts *)base)->alpha = a;
}

static void parse_noise(void *base, const char *arg)
{
	((struct compare_opts *)base)->noise_pct = parse_real("noise", arg, 0, 1000);
}

static void parse_noise_for(void *base, const char *arg)
{
	struct compare_opts *o = base;
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		cli_usage_error("--noise-for '%s' is not BENCH=PCT (e.g. vecadd=5)", arg);
	if (o->n_noise_for == CMP_MAX_NOISE_FOR)
		cli_usage_error("--noise-for given more than %d times", CMP_MAX_NOISE_FOR);
	o->noise_for[o->n_noise_for++] = (struct cmp_noise_for){
		arg, (size_t)(eq - arg), parse_real("noise-for", eq + 1, 0, 1000) };
}

#define CO(f) offsetof(struct compare_opts, f)
static const struct cli_opt compare_cli[] = {
	{ "alpha", "P", CLI_FN, 0, .fn = parse_alpha, .def = "0.05",
	  .help = "significance level of the U test" },
	{ "noise", "PCT", CLI_FN, 0, .fn = parse_noise, .def = "2",
	  .help = "noise band: a change whose interval reaches within +-PCT % of\n"
		  "no change is unchanged (a suite's document gives its benchmarks\n"
		  "their own, in its `noise` map)" },
	{ "noise-for", "BENCH=PCT", CLI_FN, 0, .fn = parse_noise_for,
	  .help = "the noise band of one benchmark, over the suite's (repeatable):\n"
		  "--noise-for atomics=5" },
	{ "allow-different-device", NULL, CLI_FLAG, CO(allow_different_device),
	  .help = "compare documents of different devices or drivers" },
	{ "baseline", "DIR", CLI_STR, CO(baseline_dir),
	  .help = "take BASE from DIR: the file named for NEW's device and suite" },
	{ "json", "FILE", CLI_STR, CO(json_path), .help = "write the comparison document" },
	{ "junit", "FILE", CLI_STR, CO(junit_path), .help = "write JUnit XML: a testcase per point" },
	{ "markdown", "FILE", CLI_STR, CO(markdown_path),
	  .help = "write a Markdown summary (for a merge-request comment)" },
	{ "quiet", NULL, CLI_FLAG, CO(quiet), .help = "print no table" },
	{ 0 } };

static void compare_check(void *opts, const struct cli_set *given)
{
	struct compare_opts *o = opts;
	size_t want = o->baseline_dir ? 1 : 2;

	(void)given;
	if (o->operands.n != want)
		cli_usage_error("%s (got %zu file%s)", o->baseline_dir ? "with --baseline give one "
				"document, NEW" : "give two results documents, BASE and NEW",
				o->operands.n, o->operands.n == 1 ? "" : "s");
}

/* ---- outputs, reserved before any work ---- */

static struct res_out out_json, out_junit, out_md;

static void drop_outputs(void)
{
	res_out_abort(&out_json);
	res_out_abort(&out_junit);
	res_out_abort(&out_md);
}

static void reserve(struct res_out *o, const char *opt, const char *path)
{
	char err[1024];

	if (path && !res_out_open(o, path, err, sizeof(err)))
		cli_usage_error("--%s %s", opt, err);
}

static void outputs_open(const struct compare_opts *o)
{
	const char *p[3] = { o->json_path, o->junit_path, o->markdown_path };

	out_json.fd = out_junit.fd = out_md.fd = -1;
	atexit(drop_outputs);
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (p[i] && p[j] && strcmp(p[i], p[j]) == 0)
				cli_usage_error("two outputs name the same file '%s'", p[i]);
	reserve(&out_json, "json", o->json_path);
	reserve(&out_junit, "junit", o->junit_path);
	reserve(&out_md, "markdown", o->markdown_path);
}

static void commit(struct res_out *o, const char *path, char *text)
{
	char err[1024];

	if (!path)
		return;
	if (!text)
		cli_die(EXIT_FAIL, "out of host memory writing %s", path);
	if (!res_out_commit(o, text, strlen(text), err, sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	free(text);
}

/* ---- the baseline ---- */

/* DIR/NAME for NEW, or exit 2 saying which file was looked for and what DIR holds. */
static char *baseline_path(const char *dir, const struct cmp_doc *nw)
{
	char name[512], have[1024] = "";
	char *path;
	DIR *d;
	struct dirent *e;

	cmp_baseline_name(nw, name, sizeof(name));
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		cli_die(EXIT_FAIL, "out of host memory");
	if (access(path, R_OK) == 0)
		return path;
	if (!(d = opendir(dir)))
		cli_usage_error("--baseline %s: %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".json") && strlen(have) + strlen(e->d_name) + 3 < sizeof(have))
			snprintf(have + strlen(have), sizeof(have) - strlen(have), "%s%s",
				 have[0] ? ", " : "", e->d_name);
	closedir(d);
	cli_die(EXIT_USAGE, "%s: no baseline %s for device '%s' and suite '%s' (%s holds: %s); "
		"copy a results document there under that name to make one", nw->path, path,
		nw->device, nw->name ? nw->name : "results", dir, have[0] ? have : "no .json file");
}

/* ---- verdicts ---- */

/* The band of a benchmark: --noise-for, else the suite's (a document's noise map), else --noise. */
static double noise_for(const struct cmp_result *c, const char *bench)
{
	const struct compare_opts *o = c->o;
	json_t *v;

	for (size_t i = o->n_noise_for; i-- > 0;)
		if (strlen(bench) == o->noise_for[i].len &&
		    strncmp(bench, o->noise_for[i].bench, o->noise_for[i].len) == 0)
			return o->noise_for[i].pct;
	if (c->noise_from && (v = json_object_get(c->noise_from->noise, bench)))
		return json_number_value(v);
	return o->noise_pct;
}

static void note(struct cmp_row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct cmp_row *r, const char *fmt, ...)
{
	size_t at = strlen(r->notes);
	va_list ap;

	if (at && at + 2 < sizeof(r->notes))
		at += (size_t)snprintf(r->notes + at, sizeof(r->notes) - at, "; ");
	va_start(ap, fmt);
	vsnprintf(r->notes + at, sizeof(r->notes) - at, fmt, ap);
	va_end(ap);
}

/* A member by dotted path ("measured.resident_wg"), NULL where absent. */
static json_t *at_path(json_t *v, const char *path)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *t = strtok_r(buf, ".", &save); t && v; t = strtok_r(NULL, ".", &save))
		v = json_object_get(v, t);
	return v;
}

/* Whether an outcome went the worse way (cmp_outcome.worse). */
static bool worse(const struct cmp_outcome *o, json_t *b, json_t *n)
{
	if (o->worse == CMP_WORSE_ANY)
		return true;
	return o->worse == CMP_WORSE_UP && json_is_number(n) &&
	       json_number_value(n) > (json_is_number(b) ? json_number_value(b) : 0);
}

/*
 * The outcomes of cmp_outcomes that differ, each into r->changed; *regressed where one got
 * worse. True when any differs.
 */
static bool outcomes_differ(struct cmp_row *r, bool *regressed)
{
	bool any = false;

	r->changed = json_array();
	*regressed = false;
	for (const struct cmp_outcome *o = cmp_outcomes; o->path; o++) {
		json_t *b = at_path(r->base->pt, o->path), *n = at_path(r->new_->pt, o->path);
		if ((!b && !n) || (b && n && json_equal(b, n)))
			continue;
		bool w = b && n && worse(o, b, n);
		json_t *c = json_pack("{s:s, s:O?, s:O?}", "field", o->path, "base", b, "new", n);
		if (w)
			json_object_set_new(c, "worse", json_true());
		json_array_append_new(r->changed, c);
		char *sb = b ? json_dumps(b, JSON_ENCODE_ANY) : NULL, *sn = n ? json_dumps(n, JSON_ENCODE_ANY) : NULL;
		note(r, "%s %s -> %s%s", o->path, sb ? sb : "absent", sn ? sn : "absent",
		     w ? " (worse)" : "");
		free(sb);
		free(sn);
		any = true;
		*regressed |= w;
	}
	return any;
}

/* The two gates on a pair with timings; the verdict from the times alone. */
static enum cmp_verdict timing_verdict(const struct compare_opts *o, struct cmp_row *r)
{
	const struct cmp_point *b = r->base, *n = r->new_;
	struct boot_ci ci;
	struct mwu_result t;
	double band = r->noise_pct / 100;

	r->have_ratio = true;
	r->ratio = n->median / b->median;
	if (b->n < CMP_MIN_REPS || n->n < CMP_MIN_REPS) {
		note(r, "%zu and %zu repetitions: the U test needs at least %d a side", b->n, n->n,
		     CMP_MIN_REPS);
		return CMP_INCONCLUSIVE;
	}
	if (!mwu_test(n->samples, n->n, b->samples, b->n, &t) ||
	    !boot_median_ratio(b->samples, b->n, n->samples, n->n, BOOT_RESAMPLES, BOOT_CONFIDENCE,
			       BOOT_SEED, &ci))
		cli_die(EXIT_FAIL, "out of host memory for the statistics of %zu samples", b->n + n->n);
	r->have_test = true;
	r->u = t.u;
	r->p = t.p;
	r->p_method = mwu_method_name(&t);
	r->lo = ci.lo;
	r->hi = ci.hi;
	r->significant = t.p < o->alpha;
	r->outside_noise = ci.lo > 1 + band || ci.hi < 1 - band;
	if (r->significant && r->outside_noise) {
		/* U above n m / 2: NEW's repetitions tend to be the longer ones */
		bool slower = ci.lo > 1, u_slower = t.u > (double)(b->n * n->n) / 2;
		if (slower != u_slower) {
			note(r, "the medians (ratio %.3f) and the U test (U %g of %zu) disagree on the "
			     "direction: differently shaped samples", r->ratio, t.u, b->n * n->n);
			return CMP_INCONCLUSIVE;
		}
		note(r, "%s by %.1f %% (interval %+.1f..%+.1f %%), p = %.2g", slower ? "slower" : "faster",
		     fabs(r->ratio - 1) * 100, (ci.lo - 1) * 100, (ci.hi - 1) * 100, t.p);
		return slower ? CMP_REGRESSED : CMP_IMPROVED;
	}
	if (r->significant)
		note(r, "a significant change (p = %.2g) within the +-%g %% noise band", t.p, r->noise_pct);
	return CMP_UNCHANGED;
}

/* Whether the times in [lo2, hi2] lie wholly beyond +-tol of those in [lo1, hi1]. */
static bool apart(double lo1, double hi1, double lo2, double hi2, double tol)
{
	return lo2 > hi1 * (1 + tol) || hi2 < lo1 * (1 - tol);
}

/*
 * The clock gate: a change the two gates found is the kernel's only where the device ran at
 * the same speed. Where both points carry the clock probe, probe times that moved apart by
 * more than the noise band (at least CMP_PROBE_MIN_PCT), every one of one side beyond every
 * one of the other, between the documents or within either point, make the change
 * inconclusive. Not on a CPU: there a launch of a few us is the runtime's dispatch as much as
 * the cores' cycles (PoCL 3.1 here: 5.7 to 22 us for one point's probe), so the probe is
 * recorded and decides nothing.
 */
static enum cmp_verdict clock_gate(const struct cmp_result *c, struct cmp_row *r, enum cmp_verdict tv)
{
	const struct cmp_point *side[2] = { r->base, r->new_ };
	static const char *const names[2] = { "BASE", "NEW" };
	double tol = fmax(r->noise_pct, CMP_PROBE_MIN_PCT) / 100;

	if (!(side[0]->probe_med > 0 && side[1]->probe_med > 0))
		return tv;
	r->probe_ratio = side[1]->probe_med / side[0]->probe_med;
	if ((tv != CMP_REGRESSED && tv != CMP_IMPROVED) || c->base.cpu || c->new_.cpu)
		return tv;
	for (int i = 0; i < 2; i++) {
		const struct cmp_point *s = side[i];
		if (apart(s->probe_lo[0], s->probe_hi[0], s->probe_lo[1], s->probe_hi[1], tol)) {
			note(r, "but the clock probe moved within %s's point (%.2f-%.2f us before, "
			     "%.2f-%.2f after): the device's speed changed while it was measured", names[i],
			     s->probe_lo[0] / 1e3, s->probe_hi[0] / 1e3, s->probe_lo[1] / 1e3,
			     s->probe_hi[1] / 1e3);
			return CMP_INCONCLUSIVE;
		}
	}
	double blo = fmin(side[0]->probe_lo[0], side[0]->probe_lo[1]);
	double bhi = fmax(side[0]->probe_hi[0], side[0]->probe_hi[1]);
	double nlo = fmin(side[1]->probe_lo[0], side[1]->probe_lo[1]);
	double nhi = fmax(side[1]->probe_hi[0], side[1]->probe_hi[1]);
	if (apart(blo, bhi, nlo, nhi, tol)) {
		note(r, "but the clock probe, a fixed kernel, moved too (%.2f-%.2f us in BASE, %.2f-%.2f "
		     "in NEW, x%.3f): the device ran everything at another speed (its clock or power "
		     "state), so the change is not the kernel's alone",
		     blo / 1e3, bhi / 1e3, nlo / 1e3, nhi / 1e3, r->probe_ratio);
		return CMP_INCONCLUSIVE;
	}
	return tv;
}

static bool is(const struct cmp_point *p, const char *status)
{
	return strcmp(p->status, status) == 0;
}

/* The verdict of a matched pair (most serious first). */
static enum cmp_verdict judge(const struct cmp_result *c, struct cmp_row *r)
{
	const struct compare_opts *o = c->o;
	const struct cmp_point *b = r->base, *n = r->new_;
	enum cmp_verdict tv;

	r->noise_pct = noise_for(c, n->bench);
	if (is(n, "failed")) {
		note(r, "NEW failed: %s%s", n->reason ? n->reason : "no reason given",
		     is(b, "failed") ? " (BASE failed too)" : "");
		return CMP_FAILED;
	}
	if (b->validated && !n->validated && !is(n, "skipped")) {
		note(r, "NEW was not validated");
		return CMP_FAILED;
	}
	if (is(b, "ok") && is(n, "skipped")) {
		note(r, "status ok -> skipped: %s", n->reason ? n->reason : "no reason given");
		return CMP_FAILED;
	}
	bool regressed;
	bool changed = outcomes_differ(r, &regressed);
	json_t *sb = json_object_get(b->params, "spin"), *sn = json_object_get(n->params, "spin");
	if (b->samples && n->samples && sb && sn && !json_equal(sb, sn)) {
		note(r, "times not compared: params.spin %lld -> %lld (calibrated differently)",
		     (long long)json_integer_value(sb), (long long)json_integer_value(sn));
		tv = CMP_INCONCLUSIVE;
	} else if (b->samples && n->samples) {
		tv = clock_gate(c, r, timing_verdict(o, r));
	} else if (!b->samples && !n->samples) {
		if (!is(b, "ok") || !is(n, "ok"))
			note(r, "%s in BASE, %s in NEW", b->status, n->status);
		tv = CMP_UNCHANGED;
	} else {
		note(r, "no times in %s (%s)", b->samples ? "NEW" : "BASE", b->samples ? n->status : b->status);
		tv = CMP_INCONCLUSIVE;
	}
	if (tv == CMP_REGRESSED || regressed)
		return CMP_REGRESSED;
	return changed ? CMP_CHANGED : tv;
}

/* ---- matching ---- */

/* The params that tell a benchmark's points apart (differ between two of its points). */
static void varying_params(struct cmp_result *c, struct cmp_row *r)
{
	const struct cmp_point *me = r->new_ ? r->new_ : r->base;
	const char *k;
	json_t *v;
	size_t at = 0;

	r->params[0] = '\0';
	if (c->base.several || c->new_.several)   /* the device first: the points of several */
		at = (size_t)snprintf(r->params, sizeof(r->params), "device=%s%s",
				      me->device ? me->device : (r->new_ ? c->new_.label : c->base.label),
				      me->concurrent < 0 ? "" : me->concurrent ? " (at once)" : " (alone)");
	at = at < sizeof(r->params) ? at : sizeof(r->params) - 1;
	json_object_foreach(me->params, k, v) {
		bool ignored = false, varies = false;
		for (size_t i = 0; cmp_ignored_params[i].key; i++)
			ignored |= strcmp(k, cmp_ignored_params[i].key) == 0;
		for (size_t i = 0; !ignored && !varies && i < c->n; i++) {
			const struct cmp_point *o = c->rows[i].new_ ? c->rows[i].new_ : c->rows[i].base;
			json_t *ov = json_object_get(o->params, k);
			varies = strcmp(o->bench, me->bench) == 0 && (!ov || !json_equal(ov, v));
		}
		if (!varies)
			continue;
		char *s = json_is_string(v) ? strdup(json_string_value(v)) : json_dumps(v, JSON_ENCODE_ANY);
		if (s && at + strlen(k) + strlen(s) + 3 < sizeof(r->params))
			at += (size_t)snprintf(r->params + at, sizeof(r->params) - at, "%s%s=%s",
					       at ? " " : "", k, s);
		free(s);
	}
}

static void add_row(struct cmp_result *c, const struct cmp_point *b, const struct cmp_point *n)
{
	struct cmp_row *r = &c->rows[c->n++];

	memset(r, 0, sizeof(*r));
	r->base = b;
	r->new_ = n;
	if (b && n) {
		r->verdict = judge(c, r);
	} else {
		r->verdict = n ? CMP_NEW : CMP_MISSING;
		r->noise_pct = noise_for(c, n ? n->bench : b->bench);
		note(r, n ? "only in NEW" : "only in BASE");
	}
	c->counts[r->verdict]++;
}

/* Pairs points with equal keys, in order (the k-th of a key with the k-th). */
static void match(struct cmp_result *c)
{
	struct cmp_doc *b = &c->base, *n = &c->new_;

	if (!(c->rows = calloc(b->n + n->n + 1, sizeof(*c->rows))))
		cli_die(EXIT_FAIL, "out of host memory");
	for (size_t i = 0; i < n->n; i++) {
		struct cmp_point *hit = NULL;
		for (size_t j = 0; j < b->n && !hit; j++)
			if (!b->pts[j].matched && strcmp(b->pts[j].key, n->pts[i].key) == 0)
				hit = &b->pts[j];
		if (hit)
			hit->matched = n->pts[i].matched = true;
		add_row(c, hit, &n->pts[i]);
	}
	for (size_t j = 0; j < b->n; j++)
		if (!b->pts[j].matched)
			add_row(c, &b->pts[j], NULL);
	for (size_t i = 0; i < c->n; i++)
		varying_params(c, &c->rows[i]);
}

/* The devices a document's points name, sorted, as one string (a document of one: its own). */
static char *device_set(const struct cmp_doc *d)
{
	json_t *set = json_array();
	char *s;

	for (size_t i = 0; i < d->n; i++) {
		const char *dev = d->pts[i].device ? d->pts[i].device : d->label;
		bool seen = false;
		for (size_t k = 0; k < json_array_size(set) && !seen; k++)
			seen = strcmp(json_string_value(json_array_get(set, k)), dev) == 0;
		if (!seen)
			json_array_append_new(set, json_string(dev));
	}
	if (!d->n)
		json_array_append_new(set, json_string(d->label));
	for (size_t i = 0; i < json_array_size(set); i++)   /* insertion sort, a few names */
		for (size_t k = i; k > 0 && strcmp(json_string_value(json_array_get(set, k - 1)),
						   json_string_value(json_array_get(set, k))) > 0; k--) {
			json_t *a = json_incref(json_array_get(set, k - 1));
			json_array_set(set, k - 1, json_array_get(set, k));
			json_array_set_new(set, k, a);
		}
	s = json_dumps(set, JSON_COMPACT);
	json_decref(set);
	if (!s)
		cli_die(EXIT_FAIL, "out of host memory");
	return s;
}

/*
 * Refuses documents of different devices or drivers unless allowed; documents of several
 * devices must hold the same devices.
 */
static void same_device(const struct cmp_result *c)
{
	const struct cmp_doc *b = &c->base, *n = &c->new_;
	char *bs = device_set(b), *ns = device_set(n);
	bool same_set = strcmp(bs, ns) == 0;

	if ((b->several || n->several) && !same_set) {
		if (!c->o->allow_different_device)
			cli_die(EXIT_USAGE, "%s and %s hold different devices: %s vs %s; "
				"--allow-different-device compares the points they share",
				b->path, n->path, bs, ns);
		fprintf(stderr, "bench compare: note: different devices: %s -> %s\n", bs, ns);
	}
	free(bs);
	free(ns);
	if (strcmp(b->device, n->device) == 0 && strcmp(b->platform, n->platform) == 0 &&
	    strcmp(b->driver, n->driver) == 0)
		return;
	if (c->o->allow_different_device) {
		fprintf(stderr, "bench compare: note: different devices or drivers: '%s' (%s, driver %s) "
			"-> '%s' (%s, driver %s)\n", b->device, b->platform, b->driver, n->device,
			n->platform, n->driver);
		return;
	}
	cli_die(EXIT_USAGE, "%s and %s come from different devices or drivers: '%s' (%s, driver %s) "
		"vs '%s' (%s, driver %s); --allow-different-device compares them anyway",
		b->path, n->path, b->device, b->platform, b->driver, n->device, n->platform, n->driver);
}

static int compare_main(void *opts)
{
	struct compare_opts *o = opts;
	struct cmp_result c = { .o = o };
	char *base_path = NULL;

	outputs_open(o);
	cmp_doc_load(&c.new_, o->operands.v[o->baseline_dir ? 0 : 1]);
	if (o->baseline_dir)
		base_path = baseline_path(o->baseline_dir, &c.new_);
	cmp_doc_load(&c.base, base_path ? base_path : o->operands.v[0]);
	same_device(&c);
	if (c.base.several || c.new_.several) {   /* points matched by their devices too */
		cmp_doc_keys(&c.base, true);
		cmp_doc_keys(&c.new_, true);
	}
	c.noise_from = c.new_.noise ? &c.new_ : c.base.noise ? &c.base : NULL;
	match(&c);
	c.exit_code = c.counts[CMP_REGRESSED] || c.counts[CMP_FAILED] ? EXIT_FAIL : EXIT_OK;
	if (!o->quiet)
		cmp_print(&c, stdout);
	if (o->json_path) {
		json_t *j = cmp_json(&c);
		char err[1024];
		if (!res_write_json(&out_json, j, err, sizeof(err)))
			cli_die(EXIT_FAIL, "%s", err);
		json_decref(j);
	}
	commit(&out_junit, o->junit_path, o->junit_path ? cmp_junit(&c) : NULL);
	commit(&out_md, o->markdown_path, o->markdown_path ? cmp_markdown(&c) : NULL);
	for (size_t i = 0; i < c.n; i++)
		json_decref(c.rows[i].changed);
	free(c.rows);
	cmp_doc_free(&c.base);
	cmp_doc_free(&c.new_);
	free(base_path);
	return c.exit_code;
}

const struct bench_tool compare_tool = {
	.cmd = {
		.name = "compare",
		.summary = "compare two results documents: a verdict per point",
		.synopsis =
			"usage: bench compare [options] BASE NEW\n"
			"       bench compare --baseline DIR [options] NEW\n"
			"  Matches the points of two results documents by benchmark and params (less\n"
			"  seed, new every run; spin, calibrated every run; sg_size_compiled and\n"
			"  sg_size_kernel, which are outcomes and are compared instead) and gives each a\n"
			"  verdict: regressed or improved where an exact two-sided Mann-Whitney U test on\n"
			"  the repetitions is significant (p < alpha, at least 9 repetitions a side;\n"
			"  fewer: inconclusive) and the bootstrap 95 % interval of median(NEW) /\n"
			"  median(BASE) (2000 resamples, fixed seed) lies wholly outside the noise band\n"
			"  (--noise-for, else the band NEW's suite gives the benchmark, else BASE's, else\n"
			"  --noise); unchanged otherwise; failed where NEW failed, was skipped or lost its\n"
			"  validation; changed where the residency, a sub-group size or what the\n"
			"  compiler made of the kernel differs (regressed where it is worse: a new or\n"
			"  larger spill, more private memory, another compiled SIMD width); new and\n"
			"  missing for points on one side only. Documents of different devices or\n"
			"  drivers are refused. --baseline DIR takes BASE from DIR/DEVICE--SUITE.json,\n"
			"  DEVICE and SUITE the device name and the document's suite (or benchmark) in\n"
			"  lower case, other characters as '-'.\n"
			"  Exit: 0 nothing regressed or failed, 1 something did, 2 bad input.\n",
		.opts = compare_cli,
		.opts_size = sizeof(struct compare_opts),
		.check = compare_check,
		.flags = BENCH_OPERANDS,
		.operands_off = offsetof(struct compare_opts, operands),
	},
	.main = compare_main,
};
