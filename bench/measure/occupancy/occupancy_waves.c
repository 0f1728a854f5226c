/*
 * bench occupancy-waves (also `bench occupancy --waves`): each work-group does the same
 * fixed work (the probe's chain); the launch time against the number of groups steps up
 * where the device runs out of room for another group, once per wave.
 *
 * A step is where one more group (G to G + 1) costs more than a quarter of one
 * group's time: within a wave the time also grows, gradually, because the groups
 * on a compute unit share its issue slots, so only single-group increments can
 * tell a step from that slope. The default sweep has G and G + 1 at each multiple
 * of the model's capacity.
 */
#include "host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The spin of every group without --spin. */
#define WAVES_SPIN_DEFAULT 16384
/* The rule relate applies, as the results document states it. */
#define WAVES_RULE "one more group (G to G + 1) costs more than a quarter of one group's time"

/* 1, then fractions and multiples of the capacity c, with c +- 1 at each step. */
static void default_groups(uint64_t c, struct range *r)
{
	static const double f[] = { 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3 };
	uint64_t v[64];
	size_t n = 0;

	v[n++] = 1;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		uint64_t g = (uint64_t)llround(f[i] * (double)c);
		if (f[i] == floor(f[i])) {
			v[n++] = g > 1 ? g - 1 : 1;
			v[n++] = g;
			v[n++] = g + 1;
		} else {
			v[n++] = g ? g : 1;
		}
	}
	r->v = bench_alloc(n * sizeof(*r->v));
	r->n = 0;
	for (size_t i = 0; i < n; i++)   /* ascending, no repeats */
		if (r->n == 0 || v[i] > r->v[r->n - 1])
			r->v[r->n++] = v[i];
}

/* ---- options ---- */

/* --check is the residency probe's. */
static void waves_check(void *opts, const struct cli_set *given)
{
	(void)opts;
	if (cli_given(given, "check"))
		cli_usage_error("--check applies to the residency probe, not to --waves");
}

#define WO(f) offsetof(struct occ_opts, f)
static const struct cli_opt waves_cli[] = {
	OCC_OPT_WG,
	OCC_OPT_SG,
	OCC_OPT_SLM,
	OCC_OPT_BARRIER,
	{ "groups", "RANGE", CLI_RANGE, WO(groups), 1, 1u << 22, .help = "the sweep of work-groups",
	  .def_note = "1, then fractions and multiples of the model's capacity, with G and G + 1 at "
		      "each multiple" },
	{ "spin", "N", CLI_UINT, WO(spin), 1, 1u << 26, .def = CLI_XSTR(WAVES_SPIN_DEFAULT),
	  .help = "dependent rounds per work-item: the fixed work of a group" },
	{ "waves", NULL, CLI_FLAG, WO(waves), .help = NULL },   /* bench occupancy --waves */
	{ "check", NULL, CLI_FLAG, WO(check), .help = NULL },   /* the probe's: refused */
	{ 0 } };

/* ---- plan ---- */

/* One kernel (the first --wg, --sg, --slm; a barrier only with --barrier on), the sweep. */
static size_t waves_plan(struct bench_run *r)
{
	struct occ_opts *o = r->opts;
	struct occ_state *s = bench_zalloc(sizeof(*s));
	struct probe_cfg cfg;
	uint64_t cap;

	r->state = s;
	occ_plan_common(r, o, s);
	cfg = (struct probe_cfg){ .sg = o->sg.n ? (unsigned)o->sg.v[0] : 0, .slm = o->slm.v[0],
				  .barrier = o->barrier_on && !o->barrier_off };
	s->kern = bench_alloc(sizeof(*s->kern));
	probe_build(r, &cfg, &s->kern[0]);
	s->n_kern = 1;
	s->spin = o->spin;
	s->simd = probe_simd(r, &s->kern[0]);
	cap = probe_model_resident(r, &s->kern[0], (unsigned)o->wg.v[0], s->simd);
	s->cap = cap ? cap : r->dev->compute_units;
	if (!o->groups.n)
		default_groups(s->cap, &o->groups);
	return o->groups.n;
}

static void waves_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "groups=%llu",
		 (unsigned long long)((const struct occ_opts *)r->opts)->groups.v[i]);
}

/* A validated launch, then the harness times the same launch. */
static void waves_point(struct bench_run *r, struct bench_point *pt)
{
	const struct occ_opts *o = r->opts;
	struct occ_state *s = r->state;
	struct occ_point *a = pt->params;
	const struct probe_kernel *pk = &s->kern[0];
	struct probe_result res;
	char err[4096];

	a->wg = (unsigned)o->wg.v[0];
	a->groups = o->groups.v[pt->index];
	a->spin = s->spin;
	a->barrier = pk->cfg.barrier;
	a->slm = pk->cfg.slm;
	a->sgc = r->co->sg_backend ? &pk->sgc : NULL;
	bench_point_model(pt, &pk->res, a->wg, s->simd, a->barrier, a->groups);
	if (!probe_launch(r, pk, &s->bufs, a->wg, a->groups, a->spin, &res, err, sizeof(err))) {
		bench_fail(pt, "%s", err);
		return;
	}
	pt->validated = true;
	bench_point_time_launch(pt, pk->k, (size_t)(a->groups * a->wg), a->wg);
}

static double median_ns(const struct bench_point *pt)
{
	return pt->n ? pt->time.median : 0;
}

/* The steps: each G where G + 1 groups took WAVES_RULE longer. */
static void waves_relate(struct bench_run *r)
{
	struct occ_state *s = r->state;
	double t1 = r->n_points ? median_ns(&r->points[0]) : 0, prev = 0;

	s->steps = bench_alloc((r->n_points ? r->n_points : 1) * sizeof(*s->steps));
	for (size_t i = 0; i < r->n_points; i++) {
		uint64_t g = ((const struct occ_point *)r->points[i].params)->groups;
		uint64_t pg = i ? ((const struct occ_point *)r->points[i - 1].params)->groups : 0;
		double med = median_ns(&r->points[i]);
		if (med > 0 && prev > 0 && g == pg + 1 && med - prev > 0.25 * t1)
			s->steps[s->n_steps++] = pg;
		prev = med;
	}
}

static int waves_report(struct bench_run *r)
{
	const struct occ_state *s = r->state;
	json_t *sum = json_object(), *steps = json_array();

	for (size_t i = 0; i < s->n_steps; i++)
		json_array_append_new(steps, json_integer((json_int_t)s->steps[i]));
	json_object_set_new(sum, "model_capacity_wg", json_integer((json_int_t)s->cap));
	json_object_set_new(sum, "steps_after", steps);
	json_object_set_new(sum, "rule", json_string(WAVES_RULE));
	json_object_set_new(r->doc, "waves", sum);
	if (r->co->quiet)
		return EXIT_OK;
	printf("steps after %s", s->n_steps ? "" : "none of the G, G + 1 pairs swept");
	for (size_t i = 0; i < s->n_steps; i++)
		printf("%s%llu", i ? ", " : "", (unsigned long long)s->steps[i]);
	printf(" groups (model: every %llu); the gradual rise between steps is the groups sharing each "
	       "compute unit's issue slots\n", (unsigned long long)s->cap);
	return EXIT_OK;
}

static void waves_title(const struct bench_run *r, FILE *f)
{
	const struct occ_state *s = r->state;

	fprintf(f, "fixed work per group (spin %u) on %s: model capacity %llu work-groups\n", s->spin,
		r->dev->name, (unsigned long long)s->cap);
}

#define PA(pt) ((const struct occ_point *)(pt)->params)
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

CELL(cell_groups) { (void)r; snprintf(b, n, "%llu", (unsigned long long)PA(pt)->groups); }
CELL(cell_waves)
{
	uint64_t cap = ((const struct occ_state *)r->state)->cap;

	snprintf(b, n, "%llu", (unsigned long long)((PA(pt)->groups + cap - 1) / cap));
}
CELL(cell_vs_first)
{
	double t1 = median_ns(&r->points[0]), med = median_ns(pt);

	snprintf(b, n, med > 0 && t1 > 0 ? "%.2f" : "-", med / (t1 > 0 ? t1 : 1));
}

static const struct bench_col waves_cols[] = {
	{ "Groups", cell_groups }, { "Model waves", cell_waves }, { "median us", bench_cell_median_us },
	{ "CV %", bench_cell_cv }, { "t / t(1)", cell_vs_first }, { "Status", bench_cell_status },
	{ 0 } };

/* What plan builds with the defaults (--barrier both: none): the probe without a barrier. */
static void waves_builds(struct bench_builds *b)
{
	occ_builds_add(b, true, false);
}

/* ---- bench validate ---- */

static void waves_checks(struct bench_check_plan *p)
{
	unsigned wg = p->dev->max_wg < 64 ? (unsigned)p->dev->max_wg : 64;
	struct bench_check c = { 0 };

	snprintf(c.args, sizeof(c.args), "--wg %u --groups 1..4 --spin 64", wg);
	snprintf(c.id, sizeof(c.id), "occupancy-waves/wg=%u", wg);
	snprintf(c.desc, sizeof(c.desc), "fixed work per group at 1 to 4 work-groups of %u: every "
		 "launch's counters checked (each group's chain complete)", wg);
	bench_check_add(p, &c);
}

static const struct bench_param waves_params[] = {
	OCC_PARAM_WG, OCC_PARAM_GROUPS, OCC_PARAM_SPIN, OCC_PARAM_BARRIER, OCC_PARAM_SLM,
	BENCH_PARAMS_SG_LAYER(true, struct occ_point, sgc),
	{ 0 } };

const struct bench_row occupancy_waves_row = {
	.cmd = {
		.name = "occupancy-waves",
		.summary = "fixed work per group against the number of groups: the steps of the waves",
		.synopsis = "usage: bench occupancy-waves [options]\n"
			    "  Also `bench occupancy --waves`. Every work-group spins the same chain; the\n"
			    "  launch time steps up where one more group no longer fits beside the others.\n",
		.flags = BENCH_DEVICE | BENCH_SG | BENCH_SG_NATIVE,
		.opts = waves_cli,
		.opts_size = sizeof(struct occ_opts),
		.check = waves_check,
	},
	.params_size = sizeof(struct occ_point),
	.plan = waves_plan,
	.label = waves_label,
	.point = waves_point,
	.params = waves_params,
	.cols = waves_cols,
	.title = waves_title,
	.relate = waves_relate,
	.report = waves_report,
	.teardown = occ_teardown,
	.builds = waves_builds,
	.checks = waves_checks,
};
