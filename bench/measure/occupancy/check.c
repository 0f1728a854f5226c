/*
 * bench occupancy: the three answers of every probe point side by side (the model's
 * prediction, the driver's count through cl_intel_concurrent_dispatch, the probe's
 * measurement), every disagreement between them printed and kept in the document, the exit
 * codes of --check and --check-driver, and the checks bench validate runs.
 *
 * What fails and what is only reported. The measurement is the arbiter: a count that
 * differs from what the device held at once is wrong. --check holds the model to the
 * measurement (its failures are the model's); --check-driver holds the driver to it, and to
 * the model where the model knows the device (its failures are the driver's: a count above
 * the measurement promises groups a device-wide barrier would wait for forever, one below it
 * leaves resident slots unused). Whatever neither flag holds is still printed and written,
 * marked reported: a driver disagreement under --check alone, anything without a flag.
 */
#include "host.h"

#include <stdlib.h>
#include <string.h>

#define PA(pt) ((const struct occ_point *)(pt)->params)

/* The pairs of answers, in the order they are printed: (a, b) of pair_values. */
enum occ_pair { OCC_MODEL_MEASURED, OCC_DRIVER_MEASURED, OCC_DRIVER_MODEL, OCC_NPAIRS };
static const char *const pair_names[OCC_NPAIRS] = {
	"model-measured", "driver-measured", "driver-model" };
static const char *const pair_words[OCC_NPAIRS][2] = {
	{ "measured", "model" }, { "driver", "measured" }, { "driver", "model" } };
static const char *const pair_heads[OCC_NPAIRS] = {
	"disagree with the model", "where the driver's count and the measurement disagree",
	"where the driver's count and the model disagree" };

/* The two counts of pair k at pt; false where either answer is missing. */
static bool pair_values(const struct bench_run *r, const struct bench_point *pt, enum occ_pair k,
			uint64_t *a, uint64_t *b)
{
	const struct occ_point *p = PA(pt);
	bool model = r->model.known && pt->model.launchable, drv = p->driver.known;

	switch (k) {
	case OCC_MODEL_MEASURED:
		*a = p->resident;
		*b = pt->model.resident_wg;
		return model && p->measured;
	case OCC_DRIVER_MEASURED:
		*a = p->driver.groups;
		*b = p->resident;
		return drv && p->measured;
	default:
		*a = p->driver.groups;
		*b = pt->model.resident_wg;
		return drv && model;
	}
}

/* Whether a disagreement of pair k fails the run under the flags given. */
static bool pair_fails(const struct occ_opts *o, enum occ_pair k)
{
	return k == OCC_MODEL_MEASURED ? o->check : o->check_driver;
}

/* Why the two answers of pair k differ, into buf ("" where pair_tag says it all). */
static const char *why(const struct bench_run *r, const struct bench_point *pt, enum occ_pair k,
		       uint64_t a, uint64_t b, char *buf, size_t len)
{
	if (k == OCC_MODEL_MEASURED)
		snprintf(buf, len, "the model's limiter: %s",
			 pt->model.cu_limiter ? pt->model.cu_limiter : "-");
	else
		conc_explain(r->dev, a, b, k == OCC_DRIVER_MEASURED ? CONC_MEASURED : CONC_MODEL, buf,
			     len);
	return buf;
}

/* The line's bracket: the model's limiter, or the driver's count above or below the other. */
static void pair_tag(const struct bench_point *pt, enum occ_pair k, uint64_t a, uint64_t b,
		     char *buf, size_t len)
{
	if (k == OCC_MODEL_MEASURED)
		snprintf(buf, len, "%s", pt->model.cu_limiter ? pt->model.cu_limiter : "-");
	else
		snprintf(buf, len, "the driver's count %s", a > b ? "above" : "below");
}

/* One disagreement: a line on f, an entry of the document's list. */
static void disagreement(const struct bench_run *r, const struct bench_point *pt, enum occ_pair k,
			 uint64_t a, uint64_t b, bool fails, FILE *f, json_t *list)
{
	const struct occ_point *p = PA(pt);
	json_t *e = json_object();
	char w[640], tag[64];

	pair_tag(pt, k, a, b, tag, sizeof(tag));
	if (f)
		fprintf(f, "  wg %u, slm %llu B, barrier %s: %s %llu, %s %llu (%s)\n", p->wg,
			(unsigned long long)p->local_mem, p->barrier ? "yes" : "no", pair_words[k][0],
			(unsigned long long)a, pair_words[k][1], (unsigned long long)b, tag);
	json_object_set_new(e, "point", json_integer((json_int_t)pt->index));
	json_object_set_new(e, "pair", json_string(pair_names[k]));
	json_object_set_new(e, pair_words[k][0], json_integer((json_int_t)a));
	json_object_set_new(e, pair_words[k][1], json_integer((json_int_t)b));
	json_object_set_new(e, "fails", json_boolean(fails));
	json_object_set_new(e, "why", json_string(why(r, pt, k, a, b, w, sizeof(w))));
	json_array_append_new(list, e);
}

/* After a driver's pair's list: why, once for each direction its points take. */
static void pair_why(const struct bench_run *r, enum occ_pair k, FILE *f)
{
	char w[640];
	uint64_t a, b;

	for (int above = 1; f && k != OCC_MODEL_MEASURED && above >= 0; above--)
		for (size_t i = 0; i < r->n_points; i++)
			if (pair_values(r, &r->points[i], k, &a, &b) && a != b && (a > b) == above) {
				fprintf(f, "  why, the driver's count %s: %s\n", above ? "above" : "below",
					why(r, &r->points[i], k, a, b, w, sizeof(w)));
				break;
			}
}

/* Every disagreement of pair k: listed (stderr where it fails, else stdout unless --quiet). */
static size_t pair_report(const struct bench_run *r, enum occ_pair k, json_t *list)
{
	const struct occ_opts *o = r->opts;
	bool fails = pair_fails(o, k);
	FILE *f = fails ? stderr : r->co->quiet ? NULL : stdout;
	size_t n = 0;
	uint64_t a, b;

	for (size_t i = 0; i < r->n_points; i++)
		n += pair_values(r, &r->points[i], k, &a, &b) && a != b;
	if (n && f && fails)
		fprintf(f, "bench %s: %s: %zu point(s) %s:\n", cli_cmd,
			k == OCC_MODEL_MEASURED ? "--check" : "--check-driver", n, pair_heads[k]);
	else if (n && f)
		fprintf(f, "residency: %zu point(s) %s (reported%s):\n", n, pair_heads[k],
			k == OCC_MODEL_MEASURED ? "; --check fails on it" : "; --check-driver fails on it");
	for (size_t i = 0; i < r->n_points; i++)
		if (pair_values(r, &r->points[i], k, &a, &b) && a != b)
			disagreement(r, &r->points[i], k, a, b, fails, n ? f : NULL, list);
	pair_why(r, k, n ? f : NULL);
	return fails ? n : 0;
}

/* The driver's answer as a whole: the first point's (offered or not is the device's). */
static json_t *driver_json(const struct bench_run *r)
{
	const struct conc_answer *a = r->n_points ? &PA(&r->points[0])->driver : NULL;
	json_t *d = json_object();

	json_object_set_new(d, "offered", json_boolean(a && a->offered));
	json_object_set_new(d, "source", json_string(CONC_SOURCE));
	json_object_set_new(d, "reason", a && !a->offered ? json_string(a->note) : json_null());
	return d;
}

/* What cannot be compared, said once: no model, or no driver's count. */
static void print_missing(const struct bench_run *r)
{
	const struct occ_opts *o = r->opts;
	const struct conc_answer *a = r->n_points ? &PA(&r->points[0])->driver : NULL;

	if (!r->co->quiet && !r->model.known)
		printf("model: %s\n", r->model.note);
	if (!r->co->quiet && a && !a->offered)
		printf("driver: %s\n", a->note);
	if (o->check && !r->model.known)
		fprintf(stderr, "bench %s: --check: no model for '%s': %s\n", cli_cmd, r->dev->name,
			r->model.note);
	if (o->check_driver && a && !a->offered)
		fprintf(stderr, "bench %s: --check-driver: %s\n", cli_cmd, a->note);
}

/* --check-driver and a point whose driver refused the query: failed, naming the error. */
static size_t refusals(const struct bench_run *r)
{
	const struct occ_opts *o = r->opts;
	size_t n = 0;

	for (size_t i = 0; i < r->n_points; i++) {
		const struct occ_point *p = PA(&r->points[i]);
		if (!p->driver.offered || p->driver.known)
			continue;
		n++;
		if (o->check_driver)
			fprintf(stderr, "bench %s: --check-driver: wg %u: the driver gave no count: %s\n",
				cli_cmd, p->wg, p->driver.note);
	}
	return o->check_driver ? n : 0;
}

int occ_answers_report(struct bench_run *r)
{
	const struct occ_opts *o = r->opts;
	const struct conc_answer *a = r->n_points ? &PA(&r->points[0])->driver : NULL;
	json_t *top = json_object(), *list = json_array();
	size_t bad = 0;
	bool missing = (o->check && !r->model.known) || (o->check_driver && (!a || !a->offered));

	print_missing(r);
	for (int k = 0; k < OCC_NPAIRS; k++)
		bad += pair_report(r, (enum occ_pair)k, list);
	bad += refusals(r);
	json_object_set_new(top, "dispatch", json_string(o->dispatch == OCC_DISPATCH_CONCURRENT
							  ? "concurrent" : "normal"));
	json_object_set_new(top, "model_known", json_boolean(r->model.known));
	json_object_set_new(top, "driver", driver_json(r));
	json_object_set_new(top, "checked", json_pack("{s:b, s:b}", "model", o->check, "driver",
						      o->check_driver));
	json_object_set_new(top, "disagreements", list);
	json_object_set_new(r->doc, "residency_answers", top);
	return bad || missing ? EXIT_FAIL : EXIT_OK;
}

/* ---- bench validate ---- */

/* The residency probe at wg and slm bytes of local memory, with a barrier or none. */
static void probe_check(struct bench_check_plan *p, const char *flag, const char *kind, unsigned wg,
			uint64_t slm, bool bar, const char *what)
{
	struct bench_check c = { .retries = 2 };

	snprintf(c.args, sizeof(c.args), "--wg %u --slm %llu --barrier %s --reps 5%s%s", wg,
		 (unsigned long long)slm, bar ? "on" : "off", flag[0] ? " " : "", flag);
	snprintf(c.id, sizeof(c.id), "occupancy/%swg=%u/slm=%llu%s", kind, wg,
		 (unsigned long long)slm, bar ? "/barrier" : "");
	snprintf(c.desc, sizeof(c.desc), "%s", what);
	bench_check_add(p, &c);
}

/* Without and with a barrier, at a small and a large work-group. */
static void sizes_checks(struct bench_check_plan *p, const char *flag, const char *kind,
			 const char *held)
{
	const struct dev_info *d = p->dev;
	unsigned big = d->max_wg < 256 ? (unsigned)d->max_wg : 256;
	unsigned small = d->max_wg < 32 ? (unsigned)d->max_wg : 32;
	char what[1024];

	for (int bar = 1; bar >= 0; bar--)
		for (unsigned w = small;; w = big) {
			snprintf(what, sizeof(what), "residency probe, work-group %u%s: the probe's counts "
				 "checked; %s", w, bar ? " with a barrier" : "", held);
			probe_check(p, flag, kind, w, 0, bar, what);
			if (w == big)
				break;
		}
}

void occ_answers_checks(struct bench_check_plan *p)
{
	const struct dev_info *d = p->dev;
	struct occ_live m;
	unsigned small = d->max_wg < 32 ? (unsigned)d->max_wg : 32;
	uint64_t slm[] = { 1024, d->local_mem / 2, d->local_mem };
	char what[1024];

	occ_live_init(&m, d);
	sizes_checks(p, m.known ? "--check" : "", "", m.known ? "resident work-groups equal to the "
		     "model's" : m.note);
	/* local memory up to the device limit (the probe's own words come out of the last) */
	for (size_t i = 0; i < sizeof(slm) / sizeof(slm[0]); i++) {
		uint64_t b = i == 2 ? slm[i] - 1024 : slm[i];
		snprintf(what, sizeof(what), "local memory %llu of CL_DEVICE_LOCAL_MEM_SIZE %llu bytes "
			 "per work-group: the probe runs and its counts are exact; %s",
			 (unsigned long long)b, (unsigned long long)d->local_mem,
			 m.known ? "residency equal to the model's (local-memory limited)" : m.note);
		probe_check(p, m.known ? "--check" : "", "", small, b, true, what);
	}
	if (conc_offered(d))   /* the driver's count: where it is offered alone */
		sizes_checks(p, "--check-driver", "driver/", m.known
			     ? "the driver's count (" CONC_SOURCE ") equal to the measured residency "
			       "and to the model's" : "the driver's count (" CONC_SOURCE ") equal to "
			       "the measured residency");
}
