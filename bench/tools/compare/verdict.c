/*
 * The verdict of every point of two results documents (compare.h).
 *
 * Points are matched by benchmark and params (less the members in cmp_ignored_params). A
 * matched pair with timings passes two gates:
 *   1. significance: the exact two-sided Mann-Whitney U test (host/mwu.c) on the
 *      per-repetition samples, p < alpha, with at least CMP_MIN_REPS repetitions a side
 *      (fewer: inconclusive, never a guess);
 *   2. magnitude against the noise band 1 +- b: the bootstrap interval of
 *      median(NEW) / median(BASE) (host/boot.c).
 * Significant and the interval wholly outside the band: regressed (slower) or improved,
 * where the U test agrees on the direction. The interval wholly inside the band: unchanged,
 * shown to lie within b of no change (equivalence, whatever the U test says). Anything
 * else is inconclusive, and the note says why: an interval wider than the band (too noisy
 * for it), or one that reaches past its edge (a change near b). The band is, per point:
 * --noise-for, else, where BASE is a baseline of several runs (bench baseline), the larger
 * of --noise-floor and --spread-mult times how much the point moves (the largest of its
 * run-to-run spread, the noise inside one run, and its entry's typical spread), else the suite's
 * (a document's noise map), else --noise.
 *
 * The clock gate is directional: where the clock probe (a fixed kernel timed beside every
 * point) moved between the documents the same way as the point's time, the device's speed
 * explains some of the change, and the point is judged again in probe units (its interval
 * divided by the probe's ratio, as nvbench compares in cycles): a change that remains there
 * stands, one the clock accounts for is inconclusive (a kernel whose time does not follow the
 * clock could still have changed). A probe that moved the other way excuses nothing. A point whose NEW was measured again (bench suite's confirmation)
 * takes the verdict most of its attempts give, a tie inconclusive.
 */
#include "compare.h"
#include "boot.h"
#include "mwu.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cmp_rules_default(struct cmp_rules *r)
{
	*r = (struct cmp_rules){ .alpha = CMP_ALPHA_DEFAULT, .noise_pct = CMP_NOISE_DEFAULT,
				 .floor_pct = CMP_FLOOR_DEFAULT, .spread_mult = 0 };
}

/* ---- the band ---- */

/*
 * The band of a pair, percent, and where it comes from: --noise-for, else the learned band
 * of a baseline of several runs, else the suite's (a document's noise map), else --noise;
 * raised to the least band the point's suite entry declares in either document (band_floor).
 */
static double band_of(const struct cmp_result *c, const struct cmp_point *b,
		      const struct cmp_point *n, const char *bench, const char **from)
{
	const struct cmp_rules *o = c->o;
	json_t *v;

	for (size_t i = o->n_noise_for; i-- > 0;)
		if (strlen(bench) == o->noise_for[i].len &&
		    strncmp(bench, o->noise_for[i].bench, o->noise_for[i].len) == 0) {
			*from = "--noise-for";
			return o->noise_for[i].pct;
		}
	double band;
	if (b && b->spread_pct >= 0) {
		double mult = o->spread_mult > 0 ? o->spread_mult
			: b->spread_runs >= CMP_SPREAD_RUNS ? CMP_SPREAD_MULT_MANY : CMP_SPREAD_MULT_FEW;
		*from = "learned";
		band = fmax(o->floor_pct, mult * fmax(b->spread_pct, fmax(b->within_pct, b->entry_spread_pct)));
	} else if (c->noise_from && (v = json_object_get(c->noise_from->noise, bench))) {
		*from = "suite";
		band = json_number_value(v);
	} else {
		*from = "--noise";
		band = o->noise_pct;
	}
	/* the least band its suite entry declares in either document (runs[].band_floor_pct) */
	double floor_pct = fmax(b ? b->band_floor_pct : 0, n ? n->band_floor_pct : 0);
	if (floor_pct > band) {
		*from = "band_floor";
		band = floor_pct;
	}
	return band;
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

/* ---- outcomes ---- */

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

/* ---- the times ---- */

/* The verdict of an interval [lo, hi] of a ratio against the band 1 +- band, with its reason. */
static enum cmp_verdict interval_verdict(struct cmp_row *r, double lo, double hi, double band,
					 bool significant, bool u_slower, const char *units)
{
	if ((lo > 1 + band || hi < 1 - band) && significant) {
		bool slower = lo > 1;
		if (slower != u_slower) {
			note(r, "the medians%s and the U test disagree on the direction: differently "
			     "shaped samples", units);
			return CMP_INCONCLUSIVE;
		}
		note(r, "%s by %.1f %%%s (interval %+.1f..%+.1f %%), p = %.2g", slower ? "slower" : "faster",
		     fabs((lo + hi) / 2 - 1) * 100, units, (lo - 1) * 100, (hi - 1) * 100, r->p);
		return slower ? CMP_REGRESSED : CMP_IMPROVED;
	}
	if (lo >= 1 - band && hi <= 1 + band) {
		if (significant)
			note(r, "a significant change (p = %.2g) within the +-%g %% noise band%s", r->p,
			     band * 100, units);
		return CMP_UNCHANGED;
	}
	if (hi - lo > 2 * band)
		note(r, "too noisy for the band: the interval %+.1f..%+.1f %%%s is wider than +-%g %%",
		     (lo - 1) * 100, (hi - 1) * 100, units, band * 100);
	else if (lo <= 1 && hi >= 1)
		/* no change seen, yet not shown to lie inside the band: the spread, not a change */
		note(r, "too noisy to place inside the band: the interval %+.1f..%+.1f %%%s holds no "
		     "change but reaches past +-%g %%", (lo - 1) * 100, (hi - 1) * 100, units, band * 100);
	else
		note(r, "a change near the band's edge: the interval %+.1f..%+.1f %%%s reaches past "
		     "+-%g %%%s", (lo - 1) * 100, (hi - 1) * 100, units, band * 100,
		     significant ? "" : ", and the U test does not find it");
	return CMP_INCONCLUSIVE;
}

/* How one side's launches stand, for the note of a point judged by pairs. */
static const char *alternation(const struct cmp_point *p, char *buf, size_t len)
{
	if (p->n >= CMP_ALT_MIN && p->lag1 <= CMP_ALT_LAG1)
		snprintf(buf, len, "they alternate, lag-1 autocorrelation %.2f", p->lag1);
	else if (p->alternates)   /* run_spread.paired: another run did */
		snprintf(buf, len, "a run of its baseline's alternated (run_spread.paired)");
	else
		snprintf(buf, len, "lag-1 autocorrelation %.2f", p->lag1);
	return buf;
}

/* The two gates on one attempt of a pair with timings: the verdict from the times alone. */
static enum cmp_verdict timing_verdict(const struct cmp_rules *o, struct cmp_row *r,
				       const struct cmp_point *b, const struct cmp_point *n)
{
	struct boot_ci ci;
	struct mwu_result t;
	/* where either side alternates between two levels, both sides by their pairs' means */
	bool paired = (b->alternates || n->alternates) && b->n_pairs >= CMP_MIN_REPS &&
		      n->n_pairs >= CMP_MIN_REPS;
	const double *bs = paired ? b->pairs : b->samples, *ns = paired ? n->pairs : n->samples;
	size_t bn = paired ? b->n_pairs : b->n, nn = paired ? n->n_pairs : n->n;

	r->have_ratio = true;
	r->ratio = paired ? n->pairs_median / b->pairs_median : n->median / b->median;
	if (paired && !r->paired) {   /* said once, not again for each attempt */
		char bw[96], nw[96];
		note(r, "launches alternating between two levels (BASE: %s; NEW: %s): compared by the "
		     "means of consecutive pairs (%zu and %zu)", alternation(b, bw, sizeof(bw)),
		     alternation(n, nw, sizeof(nw)), bn, nn);
	}
	r->paired = r->paired || paired;
	if (bn < CMP_MIN_REPS || nn < CMP_MIN_REPS) {
		note(r, "%zu and %zu repetitions: the U test needs at least %d a side", bn, nn,
		     CMP_MIN_REPS);
		return CMP_INCONCLUSIVE;
	}
	if (!mwu_test(ns, nn, bs, bn, &t) ||
	    !boot_median_ratio(bs, bn, ns, nn, BOOT_RESAMPLES, BOOT_CONFIDENCE, BOOT_SEED, &ci))
		cli_die(EXIT_FAIL, "out of host memory for the statistics of %zu samples", bn + nn);
	r->have_test = true;
	r->u = t.u;
	r->p = t.p;
	r->p_method = mwu_method_name(&t);
	r->lo = ci.lo;
	r->hi = ci.hi;
	r->significant = t.p < o->alpha;
	r->outside_noise = ci.lo > 1 + r->noise_pct / 100 || ci.hi < 1 - r->noise_pct / 100;
	/* U above n m / 2: NEW's repetitions tend to be the longer ones */
	return interval_verdict(r, ci.lo, ci.hi, r->noise_pct / 100, r->significant,
				t.u > (double)(bn * nn) / 2, "");
}

/* Whether the times in [lo2, hi2] lie wholly beyond +-tol of those in [lo1, hi1]. */
static bool apart(double lo1, double hi1, double lo2, double hi2, double tol)
{
	return lo2 > hi1 * (1 + tol) || hi2 < lo1 * (1 - tol);
}

/* Whether the change tv remains with the point's interval divided by a clock ratio. */
static bool stands_at_clock(struct cmp_row *r, double ratio, enum cmp_verdict tv, const char *units)
{
	return interval_verdict(r, r->lo / ratio, r->hi / ratio, r->noise_pct / 100, r->significant,
				tv == CMP_REGRESSED, units) == tv;
}

/*
 * The clock of one side while its point was measured, as its probe's times: where the launches
 * before and after the point lie apart (the device's speed changed while it was measured), from
 * the median of the one group to that of the other; else the median of all, both ends. A
 * baseline's point pooled from several runs is taken as steady: its probe is the last run's
 * alone, its times every run's, and its band already spans how far the runs moved.
 */
static bool clock_span(const struct cmp_point *s, double tol, double *lo, double *hi)
{
	if (s->spread_runs < 2 &&
	    apart(s->probe_lo[0], s->probe_hi[0], s->probe_lo[1], s->probe_hi[1], tol)) {
		*lo = fmin(s->probe_mid[0], s->probe_mid[1]);
		*hi = fmax(s->probe_mid[0], s->probe_mid[1]);
		return true;
	}
	*lo = *hi = s->probe_med;
	return false;
}

/*
 * The gate of a probe that moved within either point: the change is judged again at the
 * clock ratio of NEW to BASE most in its favour that the two spans allow (for a slowdown
 * NEW's slowest clock against BASE's fastest), as the gate between documents judges in probe
 * units. INCONCLUSIVE where that could explain the change; tv where it stands, or where
 * neither probe moved (*moved false: the gate between the documents decides).
 */
static enum cmp_verdict clock_within(struct cmp_row *r, const struct cmp_point *b,
				     const struct cmp_point *n, enum cmp_verdict tv, double tol,
				     bool *moved)
{
	static const char *const names[2] = { "BASE", "NEW" };
	const struct cmp_point *side[2] = { b, n };
	double lo[2], hi[2], worst;
	bool slower = tv == CMP_REGRESSED, m[2];

	for (int i = 0; i < 2; i++) {
		m[i] = clock_span(side[i], tol, &lo[i], &hi[i]);
		if (m[i])
			note(r, "the clock probe moved within %s's point (%.2f-%.2f us before, %.2f-%.2f "
			     "after): the device's speed changed while it was measured", names[i],
			     side[i]->probe_lo[0] / 1e3, side[i]->probe_hi[0] / 1e3,
			     side[i]->probe_lo[1] / 1e3, side[i]->probe_hi[1] / 1e3);
	}
	*moved = m[0] || m[1];
	if (!*moved)
		return tv;
	worst = slower ? hi[1] / lo[0] : lo[1] / hi[0];
	if (slower ? worst <= 1 : worst >= 1) {
		note(r, "at every clock the probes saw, NEW's device ran as %s or %s: that does not "
		     "explain a %s kernel", slower ? "fast" : "slow", slower ? "faster" : "slower",
		     slower ? "slower" : "faster");
		return tv;
	}
	if (stands_at_clock(r, worst, tv, " at the probes' most favourable clock ratio")) {
		note(r, "beyond what the clock's movement explains (x%.3f at most)", worst);
		return tv;
	}
	note(r, "the clock's movement (up to x%.3f) could explain the change", worst);
	return CMP_INCONCLUSIVE;
}

/*
 * The clock gate of one attempt, directional. Only where both points carry the clock probe
 * and neither is a CPU's (there a launch of a few us is the runtime's dispatch as much as the
 * cores' cycles: PoCL 3.1 here took 5.7 to 22 us for one point's probe, so the probe is
 * recorded and decides nothing). A probe that moved within a point: the change stands only
 * beyond what the clock's movement could explain (clock_within). A probe that moved between
 * the documents by more than the band (at least CMP_PROBE_MIN_PCT), the same way as the point,
 * makes it judged in probe units; one that moved against it excuses nothing.
 */
static enum cmp_verdict clock_gate(const struct cmp_result *c, struct cmp_row *r,
				   const struct cmp_point *b, const struct cmp_point *n, enum cmp_verdict tv)
{
	double tol = fmax(r->noise_pct, CMP_PROBE_MIN_PCT) / 100, pr;
	bool moved;

	if (!(b->probe_med > 0 && n->probe_med > 0))
		return tv;
	pr = r->probe_ratio = n->probe_med / b->probe_med;
	if ((tv != CMP_REGRESSED && tv != CMP_IMPROVED) || c->base.cpu || c->new_.cpu)
		return tv;
	tv = clock_within(r, b, n, tv, tol, &moved);
	if (moved)
		return tv;
	double blo = fmin(b->probe_lo[0], b->probe_lo[1]), bhi = fmax(b->probe_hi[0], b->probe_hi[1]);
	double nlo = fmin(n->probe_lo[0], n->probe_lo[1]), nhi = fmax(n->probe_hi[0], n->probe_hi[1]);
	if (!apart(blo, bhi, nlo, nhi, tol))
		return tv;
	if ((tv == CMP_REGRESSED) != (pr > 1)) {
		note(r, "the clock probe moved the other way (x%.3f: the device ran %s), which does "
		     "not explain a %s kernel", pr, pr > 1 ? "slower" : "faster",
		     tv == CMP_REGRESSED ? "slower" : "faster");
		return tv;
	}
	r->probe_units = true;
	note(r, "the clock probe, a fixed kernel, moved too, the same way (x%.3f: the device's clock "
	     "or power state): judged in probe units", pr);
	if (stands_at_clock(r, pr, tv, " in probe units"))
		return tv;   /* beyond what the clock explains */
	note(r, "the device's speed explains the change: not the kernel's alone");
	return CMP_INCONCLUSIVE;
}

static bool is(const struct cmp_point *p, const char *status)
{
	return strcmp(p->status, status) == 0;
}

/*
 * A pair either of whose sides is suspect: its times are not to be believed, so neither
 * unchanged, improved nor regressed. The note names the side and why.
 */
static enum cmp_verdict suspect_pair(struct cmp_row *r, const struct cmp_point *b,
				     const struct cmp_point *n)
{
	if (n->suspect) {
		r->suspect |= CMP_SIDE_NEW;
		note(r, "NEW suspect (%s), its times not judged: %s", n->suspect_what, n->suspect_why);
	}
	if (b->suspect) {
		r->suspect |= CMP_SIDE_BASE;
		note(r, "BASE suspect (%s), NEW not judged against it: %s", b->suspect_what,
		     b->suspect_why);
	}
	return CMP_SUSPECT;
}

/* The verdict of BASE against one of NEW's attempts n, from its status and its times. */
static enum cmp_verdict judge_attempt(const struct cmp_result *c, struct cmp_row *r,
				      const struct cmp_point *n)
{
	const struct cmp_point *b = r->base;
	char why[128];

	if (is(n, "failed")) {
		note(r, "NEW failed: %s%s", n->reason ? n->reason : "no reason given",
		     is(b, "failed") ? " (BASE failed too)" : "");
		return CMP_FAILED;
	}
	if (b->validated && !n->validated && !is(n, "skipped")) {
		note(r, "NEW was not validated");
		return CMP_FAILED;
	}
	if ((is(b, "ok") || is(b, "suspect")) && is(n, "skipped")) {   /* measured, now not */
		note(r, "status %s -> skipped: %s", b->status, n->reason ? n->reason : "no reason given");
		return CMP_FAILED;
	}
	if (b->suspect || n->suspect)
		return suspect_pair(r, b, n);
	if (b->samples && n->samples && !cmp_same_calibration(b, n, why, sizeof(why))) {
		note(r, "times not compared: %s", why);
		return CMP_INCONCLUSIVE;
	}
	if (b->samples && n->samples)
		return clock_gate(c, r, b, n, timing_verdict(c->o, r, b, n));
	if (!b->samples && !n->samples) {
		if (!is(b, "ok") || !is(n, "ok"))
			note(r, "%s in BASE, %s in NEW", b->status, n->status);
		return CMP_UNCHANGED;
	}
	note(r, "no times in %s (%s)", b->samples ? "NEW" : "BASE", b->samples ? n->status : b->status);
	return CMP_INCONCLUSIVE;
}

/*
 * The verdict most of the attempts give (a failure among them wins: a point that failed once
 * failed; then a suspect one: a change is never confirmed by attempts one of which could not
 * be timed); a tie between the most given, inconclusive.
 */
static enum cmp_verdict majority(struct cmp_row *r)
{
	unsigned count[CMP_N_VERDICTS] = { 0 }, best = 0;
	enum cmp_verdict v = CMP_INCONCLUSIVE;
	bool tie = false;

	for (size_t i = 0; i < r->n_attempts; i++)
		if (r->attempt[i] == CMP_FAILED)
			return CMP_FAILED;
	for (size_t i = 0; i < r->n_attempts; i++)
		if (r->attempt[i] == CMP_SUSPECT)
			return CMP_SUSPECT;
	for (size_t i = 0; i < r->n_attempts; i++)
		count[r->attempt[i]]++;
	for (int k = 0; k < CMP_N_VERDICTS; k++) {
		if (count[k] > best) {
			best = count[k];
			v = (enum cmp_verdict)k;
			tie = false;
		} else if (count[k] && count[k] == best) {
			tie = true;
		}
	}
	if (r->n_attempts > 1) {
		char list[256] = "";
		for (size_t i = 0; i < r->n_attempts; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
				 cmp_verdict_name(r->attempt[i]));
		note(r, "%zu attempts: %s%s", r->n_attempts, list, tie ? ": no majority" : "");
	}
	return tie ? CMP_INCONCLUSIVE : v;
}

/* The verdict of a matched pair (most serious first), over NEW's attempts. */
static enum cmp_verdict judge(const struct cmp_result *c, struct cmp_row *r)
{
	const struct cmp_point *n = r->new_;
	bool regressed, changed;

	r->noise_pct = band_of(c, r->base, n, n->bench, &r->band_from);
	r->n_attempts = 0;
	r->suspect = 0;
	r->attempt[r->n_attempts++] = judge_attempt(c, r, n);
	for (size_t i = 0; i < n->n_attempts && r->n_attempts < CMP_MAX_ATTEMPTS; i++)
		r->attempt[r->n_attempts++] = judge_attempt(c, r, &n->attempts[i]);
	enum cmp_verdict tv = majority(r);
	if (tv == CMP_FAILED || tv == CMP_SUSPECT)
		return tv;
	if (tv != CMP_UNCHANGED && r->base->between_runs && strcmp(r->band_from, "learned") == 0)
		note(r, "its level moves between processes (the baseline's runs %.1f %% apart, a run's "
		     "noise %.1f %%): banded by the runs' spread", r->base->spread_pct, r->base->within_pct);
	if (strcmp(r->band_from, "band_floor") == 0)
		note(r, "banded by the +-%g %% its suite entry gives at least (band_floor: its level "
		     "moves between processes more than a few runs show)", r->noise_pct);
	changed = outcomes_differ(r, &regressed);
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
		r->noise_pct = band_of(c, b, n, n ? n->bench : b->bench, &r->band_from);
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
		fprintf(stderr, "bench %s: note: different devices: %s -> %s\n", cli_cmd, bs, ns);
	}
	free(bs);
	free(ns);
	if (strcmp(b->device, n->device) == 0 && strcmp(b->platform, n->platform) == 0 &&
	    strcmp(b->driver, n->driver) == 0)
		return;
	if (c->o->allow_different_device) {
		fprintf(stderr, "bench %s: note: different devices or drivers: '%s' (%s, driver %s) "
			"-> '%s' (%s, driver %s)\n", cli_cmd, b->device, b->platform, b->driver,
			n->device, n->platform, n->driver);
		return;
	}
	cli_die(EXIT_USAGE, "%s and %s come from different devices or drivers: '%s' (%s, driver %s) "
		"vs '%s' (%s, driver %s); --allow-different-device compares them anyway",
		b->path, n->path, b->device, b->platform, b->driver, n->device, n->platform, n->driver);
}

unsigned cmp_suspect_new(const struct cmp_result *c)
{
	unsigned k = 0;

	for (size_t i = 0; i < c->n; i++)
		k += c->rows[i].verdict == CMP_SUSPECT && (c->rows[i].suspect & CMP_SIDE_NEW);
	return k;
}

void cmp_compare(struct cmp_result *c)
{
	for (size_t i = 0; i < c->base.n; i++)   /* a document may be judged again (a suite's rounds) */
		c->base.pts[i].matched = false;
	for (size_t i = 0; i < c->new_.n; i++)
		c->new_.pts[i].matched = false;
	memset(c->counts, 0, sizeof(c->counts));
	same_device(c);
	if (c->base.several || c->new_.several) {   /* points matched by their devices too */
		cmp_doc_keys(&c->base, true);
		cmp_doc_keys(&c->new_, true);
	}
	c->noise_from = c->new_.noise ? &c->new_ : c->base.noise ? &c->base : NULL;
	match(c);
	c->exit_code = c->counts[CMP_REGRESSED] || c->counts[CMP_FAILED] || cmp_suspect_new(c)
			       ? EXIT_FAIL : EXIT_OK;
}

void cmp_result_free(struct cmp_result *c)
{
	for (size_t i = 0; i < c->n; i++)
		json_decref(c->rows[i].changed);
	free(c->rows);
	c->rows = NULL;
	c->n = 0;
}
