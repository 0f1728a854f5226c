/*
 * bench atomics: fetch-add throughput by contention pattern and memory order, and the
 * latency of a dependent chain of atomics (the guide's Data Center GPU Max chapter).
 * A point poisons the counters, launches once and checks every counter exactly, times
 * its launches (each after a flush of the last-level cache with --cache cold) and checks the
 * accumulated counters again; the chain subtracts the time of a launch of 0 atomics.
 * Builds, launch arguments and the validation are in kernels.c.
 */
#include "host.h"
#include "chase.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

const char *const at_pattern_names[AT_NPATTERNS] = {
	"own", "neighbours", "sg", "wg", "single", "local", "local-wg", "chain" };
const char *const at_order_names[AT_NORDERS] = { "relaxed", "acq_rel" };
static const char *const at_api_names[] = { "auto", "c11", "1.x" };
/* The work-group without --wg (the device maximum if lower). */
#define AT_WG_DEFAULT 256

/* The kernels' counts per launch (kernels/atomics.cl states them). */
static double at_atomics(uint64_t items, enum at_pattern pat, unsigned ops)
{
	return pat == AT_CHAIN ? ops : (double)items * ops;
}

/* ---- options ---- */

#define AO(f) offsetof(struct atomics_opts, f)
static const struct cli_opt atomics_cli[] = {
	{ "patterns", "LIST", CLI_NAMES, AO(patterns), .names = at_pattern_names,
	  .n_names = AT_NPATTERNS,
	  .def = "all",
	  .help = "comma-separated, or 'all':\n"
		  "own         own counter on its own cache line\n"
		  "neighbours  own counter, adjacent 4-byte words (the guide's layout:\n"
		  "            cache-line-size / 4 work-items share a line)\n"
		  "sg          one counter per sub-group of the --sg-backend layer (without\n"
		  "            it: the driver's, 32 required where it can be; else the warp,\n"
		  "            else 32 work-items emulated)\n"
		  "wg          one counter per work-group\n"
		  "single      one counter for all work-items\n"
		  "local       own counter in local memory\n"
		  "local-wg    one local-memory counter per work-group\n"
		  "chain       one work-item, each atomic's result picks the next\n"
		  "            counter: latency in ns and cycles" },
	{ "orders", "LIST", CLI_NAMES, AO(orders), .names = at_order_names, .n_names = AT_NORDERS,
	  .def = "all", .help = "relaxed,acq_rel or all: device scope on global memory,\n"
		  "work-group scope on local memory" },
	{ "api", "API", CLI_CHOICE, AO(api), .names = at_api_names, .n_names = 3, .def = "auto",
	  .help = "auto|c11|1.x: atomic_fetch_add_explicit (OpenCL C 2.0/3.0) or atomic_add\n"
		  "(OpenCL 1.x, no memory order: acq_rel points are skipped);\n"
		  "auto: c11 where the device offers OpenCL C 2.0 or later" },
	{ "scale", "N", CLI_UINT, AO(scale), 1, 65536, .def = "1", .help = "work-items = 1024 x N" },
	{ "ops", "N", CLI_UINT, AO(ops), 1, 1u << 20, .def = "1024", .help = "fetch-adds per work-item" },
	{ "wg", "N", CLI_UINT, AO(wg), 1, 1u << 20, .help = "work-group size",
	  .def_note = CLI_XSTR(AT_WG_DEFAULT) ", or the device maximum if lower" },
	{ 0 } };

/* ---- plan: launch shape, sub-groups, memory ---- */

/*
 * The sub-group layer the sg pattern groups work-items by: --sg-backend, or the first
 * backend available (intel, khr: 32 required where the driver can require it; nv: the
 * warp; emulated: 32 consecutive work-items).
 */
static void plan_sg(const struct dev_info *d, const char *backend, bool grf_large,
		    struct at_state *p)
{
	struct sgb_choice *c = &p->sgc;
	const char *src;
	char err[1024];

	if (!sgb_select(d, backend, 0, c, err, sizeof(err)) ||
	    !sgb_set_width(d, c, false, 0, 32, err, sizeof(err)) ||
	    !sgb_set_grf(d, c, grf_large, err, sizeof(err)))
		cli_usage_error("%s", err);
	src = c->forced ? c->width_source
	      : c->required ? "required (cl_intel_required_subgroup_size)"
	      : sgb_native(c->backend) ? "chosen by the driver (32 cannot be required)"
	      : c->backend == SGB_NV ? "no sub-groups: fixed width = warp size (CL_DEVICE_WARP_SIZE_NV)"
	      : NULL;
	if (src)
		snprintf(p->sg_source, sizeof(p->sg_source), "%s", src);
	else
		snprintf(p->sg_source, sizeof(p->sg_source), "no sub-groups: fixed width %u", c->width);
}

/* What plan builds with the default options (atomics takes no --sg: at auto only). */
static void atomics_builds(struct bench_builds *b)
{
	struct at_state p;

	if (b->sg)
		return;
	memset(&p, 0, sizeof(p));
	plan_sg(b->dev, NULL, b->grf_large, &p);
	p.wg = (unsigned)(b->dev->max_wg < AT_WG_DEFAULT ? b->dev->max_wg : AT_WG_DEFAULT);
	at_builds(b, &p);
}

static void plan_shape(const struct bench_run *r, const struct atomics_opts *o, struct at_state *p)
{
	const struct dev_info *d = r->dev;

	p->items = 1024ull * o->scale;
	plan_sg(r->dev, r->co->sg_backend, r->co->grf, p);
	p->wg = o->wg ? o->wg : (unsigned)(d->max_wg < AT_WG_DEFAULT ? d->max_wg : AT_WG_DEFAULT);
	if (p->wg > d->max_wg || p->wg > d->max_item_sizes[0])
		cli_usage_error("--wg %u exceeds the device's work-group limit on '%s': allowed 1..%zu",
				p->wg, d->name, d->max_wg < d->max_item_sizes[0] ? d->max_wg
										 : d->max_item_sizes[0]);
	if (p->items % p->wg)
		cli_usage_error("--wg %u does not divide the %llu work-items (1024 x --scale %u)", p->wg,
				(unsigned long long)p->items, o->scale);
	if (at_sg_req(p) && p->wg % at_sg_req(p))
		cli_usage_error("--wg %u is not a multiple of the required sub-group size %u", p->wg,
				at_sg_req(p));
	if ((uint64_t)p->wg * 4 > d->local_mem)
		cli_usage_error("--wg %u needs %u bytes of local memory for the local pattern; '%s' has "
				"%llu", p->wg, p->wg * 4, d->name, (unsigned long long)d->local_mem);
	p->groups = (unsigned)(p->items / p->wg);
	p->line_bytes = d->global_cacheline > 64 ? (unsigned)d->global_cacheline : 64;
	p->line_words = p->line_bytes / 4;
}

static void plan_memory(const struct bench_run *r, const struct atomics_opts *o, struct at_state *p)
{
	const struct dev_info *d = r->dev;
	uint64_t bytes;

	p->ctr_words = p->items * p->line_words;
	bytes = p->ctr_words * 4;
	if (bytes > d->max_alloc)
		cli_usage_error("--scale %u needs a counter buffer of %llu bytes (%llu work-items x %u-byte "
				"lines), above CL_DEVICE_MAX_MEM_ALLOC_SIZE of '%s': at most %llu bytes",
				o->scale, (unsigned long long)bytes, (unsigned long long)p->items,
				p->line_bytes, d->name, (unsigned long long)d->max_alloc);
	p->llc = bench_llc(r, &p->llc_source);
	p->flush_bytes = r->cold ? bench_flush_bytes(r) : 0;
}

static void alloc_bufs(struct bench_run *r, struct at_state *p)
{
	size_t words = (size_t)(p->ctr_words > p->items ? p->ctr_words : p->items);

	p->ctr = bench_buffer(r, CL_MEM_READ_WRITE, (size_t)p->ctr_words * 4);
	p->where = bench_buffer(r, CL_MEM_READ_WRITE, (size_t)p->items * 4);
	p->out = bench_buffer(r, CL_MEM_READ_WRITE, (size_t)p->items * 4);
	p->info = bench_buffer(r, CL_MEM_READ_WRITE, 16);
	if (p->kc.scope != KCLOCK_NONE)
		p->ticks = bench_buffer(r, CL_MEM_WRITE_ONLY, 8);
	p->h_ctr = bench_alloc(words * 4);
	p->h_where = bench_alloc((size_t)p->items * 4);
	p->h_out = bench_alloc((size_t)p->items * 4);
	p->h_ref = bench_alloc(words * 4);
	p->h_sum = bench_alloc(words * 4);
}

static json_t *setup_json(const struct dev_info *d, const struct at_state *p)
{
	json_t *j = json_object();

	json_object_set_new(j, "clock", dev_clock_json(d));
	json_object_set_new(j, "line_bytes", json_integer(p->line_bytes));
	json_object_set_new(j, "llc_bytes", json_integer((json_int_t)p->llc));
	json_object_set_new(j, "llc_source", json_string(p->llc_source));
	json_object_set_new(j, "flush_bytes", bench_json_uint0(p->flush_bytes));
	json_object_set_new(j, "chain_counters", json_integer(AT_CHAIN_SLOTS));
	json_object_set_new(j, "kernel_clock", kclock_json(&p->kc, "the chain of dependent atomics: "
		"ticks per atomic, median over the launches", AT_KCLOCK_LAUNCHES));
	return j;
}

static size_t atomics_plan(struct bench_run *r)
{
	const struct atomics_opts *o = r->opts;
	struct at_state *p = bench_alloc(sizeof(*p));

	memset(p, 0, sizeof(*p));
	r->state = p;
	plan_shape(r, o, p);
	plan_memory(r, o, p);
	kclock_pick(r->dev, &p->kc);
	if (p->kc.scope != KCLOCK_NONE && !o->patterns[AT_CHAIN])
		kclock_drop(&p->kc, "the clock times the chain pattern alone, not asked for "
			    "(--patterns)");
	at_build(r, (enum at_api)o->api, o->orders, p);
	alloc_bufs(r, p);
	json_object_set_new(r->doc, "setup", setup_json(r->dev, p));
	for (int pat = 0; pat < AT_NPATTERNS; pat++)
		for (int ord = 0; ord < AT_NORDERS; ord++)
			if (o->patterns[pat] && o->orders[ord])
				p->list[p->n++] = (struct at_pair){ (enum at_pattern)pat, (enum at_order)ord };
	return p->n;
}

static void atomics_teardown(struct bench_run *r)
{
	struct at_state *p = r->state;
	cl_mem m[] = { p->ctr, p->where, p->out, p->info, p->ticks };

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i])
			clReleaseMemObject(m[i]);
	for (int o = 0; o < AT_NORDERS; o++) {
		struct at_prog *g = &p->prog[o];
		for (int k = 0; k < AT_NKERNELS; k++)
			if (g->k[k])
				clReleaseKernel(g->k[k]);
		if (g->prog)
			clReleaseProgram(g->prog);
		if (g->k_chain_clock)
			clReleaseKernel(g->k_chain_clock);
		if (g->kc_prog)
			clReleaseProgram(g->kc_prog);
		free(g->build_log);
	}
	free(p->h_ctr);
	free(p->h_where);
	free(p->h_out);
	free(p->h_ref);
	free(p->h_sum);
	free(p);
}

/* ---- timing ---- */

/* The chain's launch overhead: the same launches with ops = 0 (counters untouched). */
static void at_overhead(struct bench_run *r, struct bench_point *pt, struct at_run *t,
			unsigned ops)
{
	struct bench_point zero = { 0 };   /* its samples, apart from the point's own */
	char err[512];

	if (!at_set_ops(t, 0, err, sizeof(err))) {
		bench_fail(pt, "%s", err);
		return;
	}
	if (bench_point_measure(r, &zero, time_enqueue_launch, &t->l))
		t->overhead_ns = zero.time.median;
	else
		bench_fail(pt, "%s", zero.reason);
	free(zero.dev_ns);
	if (!at_set_ops(t, ops, err, sizeof(err)))
		bench_fail(pt, "restoring ops: %s", err);
}

/*
 * The chain's kernel clock after its timed launches, its adds validated exactly as theirs;
 * a failure fails the point (t->kc_cycles stays -1).
 */
static bool at_clock_measure(struct bench_run *r, struct bench_point *pt, struct at_state *p,
			     struct at_run *t, unsigned ops)
{
	char err[4096];
	double cycles;

	if (!at_clock_chain(r, p, t, ops, &cycles, err, sizeof(err)) ||
	    !at_validate(r, p, t, ops, false, err, sizeof(err))) {
		pt->validated = false;
		bench_fail(pt, "kernel-clock variant (%s): %s", kclock_builtin(p->kc.scope), err);
		return false;
	}
	t->kc_cycles = cycles;
	return true;
}

/* ---- one point ---- */

/* Validated launch, timed launches, validation of the accumulated counters. */
static void at_measure(struct bench_run *r, struct bench_point *pt, struct at_state *p,
		       struct at_run *t)
{
	unsigned ops = ((const struct atomics_opts *)r->opts)->ops;
	char err[4096];
	bool args = at_args(p, t, ops, err, sizeof(err)), timed;

	/* after the arguments: CL_KERNEL_LOCAL_MEM_SIZE counts the local-memory one */
	prog_kernel_res(&r->pc, t->l.kernel, t->l.local, t->g->build_log, &t->res);
	if (!args || !at_poison(r, p, t->pat, err, sizeof(err)) ||
	    !bench_launch_once(r, t->l.kernel, t->l.global, t->l.local,
			       t->pat == AT_CHAIN ? NULL : &t->res, "wg", err, sizeof(err))) {
		bench_fail(pt, "%s", err);
		return;
	}
	t->launches = 1;
	if (!at_validate(r, p, t, ops, true, err, sizeof(err))) {
		bench_fail(pt, "%s", err);
		return;
	}
	pt->validated = true;
	timed = bench_point_measure(r, pt, time_enqueue_launch, &t->l);
	t->launches += r->co->warmup + (unsigned)pt->n;   /* the timed ones: as many as were taken */
	if (!timed)
		return;
	if (!at_validate(r, p, t, ops, false, err, sizeof(err))) {
		pt->validated = false;
		bench_fail(pt, "after the timed launches: %s", err);
		return;
	}
	if (t->pat == AT_CHAIN && p->kc.scope != KCLOCK_NONE && !at_clock_measure(r, pt, p, t, ops))
		return;
	/* after the check: an ops = 0 launch leaves the counters but resets out[0] */
	if (t->pat == AT_CHAIN)
		at_overhead(r, pt, t, ops);
}

/* Order and scope used beyond the declared capabilities, as words; empty when declared. */
static void caps_missing(const struct dev_info *d, enum at_order ord, bool local, char *out,
			 size_t len)
{
	uint64_t need_order = ord == AT_RELAXED ? CL_DEVICE_ATOMIC_ORDER_RELAXED
						: CL_DEVICE_ATOMIC_ORDER_ACQ_REL;
	uint64_t need_scope = local ? CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP : CL_DEVICE_ATOMIC_SCOPE_DEVICE;

	out[0] = '\0';
	if (!d->atomic_caps_known)   /* OpenCL 2.x devices support every order and scope */
		return;
	if (!(d->atomic_mem_caps & need_order))
		snprintf(out, len, "%s", at_order_names[ord]);
	if (!(d->atomic_mem_caps & need_scope))
		snprintf(out + strlen(out), len - strlen(out), "%s%s scope", out[0] ? ", " : "",
			 local ? "work_group" : "device");
}

/* The sub-group width the point states: required, the layer's, or what the kernel saw. */
static unsigned at_sg(const struct at_state *p, unsigned sg_kernel)
{
	return p->sgc.width ? p->sgc.width : sg_kernel;
}

static unsigned items_per_counter(const struct at_state *p, enum at_pattern pat, unsigned sg_kernel)
{
	switch (pat) {
	case AT_SG: return at_sg(p, sg_kernel);
	case AT_WG: case AT_LOCAL_WG: return p->wg;
	case AT_SINGLE: return (unsigned)p->items;
	default: return 1;
	}
}

/* The parameters of point i; those of the launch's shape once the kernel has run. */
static void at_params_fill(const struct bench_run *r, size_t i, unsigned sg_kernel,
			   struct at_params *a)
{
	const struct atomics_opts *o = r->opts;
	const struct at_state *p = r->state;
	const struct at_prog *g;
	bool chain;

	a->pat = p->list[i].pat;
	a->ord = p->list[i].ord;
	a->sgc = p->sgc.forced ? &p->sgc : NULL;   /* the layer named: its four members */
	g = &p->prog[a->ord];
	chain = a->pat == AT_CHAIN;
	a->ran = g->built;
	a->c11 = g->built && g->c11;
	if (a->c11)
		caps_missing(r->dev, a->ord, at_is_local(a->pat), a->missing, sizeof(a->missing));
	a->caps_known = r->dev->atomic_caps_known;
	a->caps = r->dev->atomic_mem_caps;
	a->work_items = chain ? 1 : p->items;
	a->wg = chain ? 1 : p->wg;
	a->scale = o->scale;
	a->ops = o->ops;
	a->sg = chain ? 0 : at_sg(p, sg_kernel);
	a->sg_source = chain ? NULL : p->sg_source;
	a->items_per_counter = items_per_counter(p, a->pat, sg_kernel);
	a->counters = chain ? AT_CHAIN_SLOTS : a->items_per_counter ? p->items / a->items_per_counter : 0;
	a->stride = a->pat == AT_LOCAL_WG ? 0 : a->pat == AT_NEIGHBOURS || a->pat == AT_LOCAL ? 4
											     : p->line_bytes;
	a->flush_bytes = p->flush_bytes;
	a->atomics = at_atomics(p->items, a->pat, o->ops);
}

static json_t *at_metrics(const struct bench_run *r, const struct at_params *a)
{
	json_t *m = json_object();
	uint32_t mhz = r->dev->clock_mhz;

	json_object_set_new(m, "atomics", json_real(a->atomics));
	json_object_set_new(m, "atomics_per_s", json_real(at_per_s(a->ns)));
	json_object_set_new(m, "ns_per_atomic", json_real(a->ns));
	json_object_set_new(m, "cycles_per_atomic", mhz ? json_real(a->ns * mhz / 1e3) : json_null());
	if (!mhz)
		json_object_set_new(m, "cycles_note", json_string("CL_DEVICE_MAX_CLOCK_FREQUENCY "
								  "reports 0 MHz"));
	if (a->pat == AT_CHAIN)
		json_object_set_new(m, "launch_overhead_ns", json_real(a->overhead_ns));
	if (a->kc_cycles >= 0) {   /* the kernel clock's ticks, and their rate against event ns */
		json_object_set_new(m, "kernel_clock_cycles_per_atomic", json_real(a->kc_cycles));
		json_object_set_new(m, "kernel_clock_ticks_per_ns", a->ns > 0
				    ? json_real(a->kc_cycles / a->ns) : json_null());
	}
	return m;
}

/* The figures of a point that ran and validated, and its notes. */
static void at_point_ok(struct bench_run *r, struct bench_point *pt, const struct at_run *t)
{
	struct at_params *a = pt->params;
	char wgn[256];

	a->overhead_ns = t->overhead_ns;
	a->kc_cycles = t->kc_cycles;
	a->ns = a->pat == AT_CHAIN ? (pt->time.median - t->overhead_ns) / a->ops
				   : pt->time.median / a->atomics;
	pt->metrics = at_metrics(r, a);
	if (t->g->note[0])
		bench_note(pt, "%s", t->g->note);
	if (a->missing[0])
		bench_note(pt, "run beyond what the device declares: CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES "
			   "0x%llx lacks %s", (unsigned long long)a->caps, a->missing);
	if (a->pat != AT_CHAIN && bench_wg_note(a->wg, &t->res, wgn, sizeof(wgn)))
		bench_note(pt, "%s", wgn);
	if (a->pat == AT_CHAIN && pt->time.median <= t->overhead_ns)
		bench_note(pt, "the chain is within the launch overhead's noise: raise --ops");
}

/*
 * The model's SIMD width: the point's sub-group size, but the model's own where
 * --sg-backend emulated was named (the layer's width is not the hardware's).
 */
static unsigned model_simd(const struct at_state *p, const struct at_params *a)
{
	return p->sgc.forced && p->sgc.backend == SGB_EMULATED ? 0 : a->sg;
}

static void atomics_point(struct bench_run *r, struct bench_point *pt)
{
	struct at_state *p = r->state;
	struct at_params *a = pt->params;
	const struct at_prog *g = &p->prog[p->list[pt->index].ord];
	struct at_run t = { .pat = p->list[pt->index].pat, .g = g, .kc_cycles = -1 };
	bool chain = t.pat == AT_CHAIN;

	if (!g->built) {
		at_params_fill(r, pt->index, 0, a);
		bench_skip(pt, "%s", g->skip);
		return;
	}
	at_measure(r, pt, p, &t);
	at_params_fill(r, pt->index, t.sg_kernel, a);
	if (pt->status == POINT_OK)
		at_point_ok(r, pt, &t);
	bench_point_model(pt, &t.res, a->wg, model_simd(p, a), at_is_local(t.pat),
			  chain ? 1 : p->groups);
}

/* ---- bench validate ---- */

/* Every pattern at every order, beside what the device declares (beyond: reported apart). */
static void atomics_checks(struct bench_check_plan *p)
{
	const struct dev_info *d = p->dev;

	for (unsigned o = 0; o < AT_NORDERS; o++)
		for (unsigned k = 0; k < AT_NPATTERNS; k++) {
			bool local = at_is_local((enum at_pattern)k);
			uint64_t order = o == AT_RELAXED ? CL_DEVICE_ATOMIC_ORDER_RELAXED
							 : CL_DEVICE_ATOMIC_ORDER_ACQ_REL;
			uint64_t scope = local ? CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP : CL_DEVICE_ATOMIC_SCOPE_DEVICE;
			/* OpenCL 2.x devices have no query and support every order and scope */
			bool declared = !d->atomic_caps_known ||
					((d->atomic_mem_caps & order) && (d->atomic_mem_caps & scope));
			struct bench_check c = { .beyond = !declared };
			snprintf(c.args, sizeof(c.args), "--patterns %s --orders %s --ops 16",
				 at_pattern_names[k], at_order_names[o]);
			snprintf(c.id, sizeof(c.id), "atomics/%s/%s/%s", at_order_names[o],
				 local ? "work_group" : "device", at_pattern_names[k]);
			snprintf(c.desc, sizeof(c.desc), "%s fetch-adds at %s scope, pattern %s: every counter "
				 "exact%s", at_order_names[o], local ? "work_group" : "device",
				 at_pattern_names[k],
				 declared ? "" : "; beyond CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES (reported "
						 "apart, never a failure of the specification)");
			bench_check_add(p, &c);
		}
}

const struct bench_row atomics_row = {
	.cmd = {
		.name = "atomics",
		.summary = "atomic fetch-add throughput and latency by contention pattern and order",
		.synopsis =
			"usage: bench atomics [options]\n"
			"  N = 1024 x --scale work-items each do --ops fetch-adds of their own value 2i+1;\n"
			"  sub-group size 32 is required where the device can require it.\n"
			"Per point: median launch time, atomics/s and ns per atomic (launch time / atomics:\n"
			"the reciprocal throughput; chain: the latency of one atomic, the launch overhead of\n"
			"a 0-op launch subtracted); cycles from the nominal CL_DEVICE_MAX_CLOCK_FREQUENCY,\n"
			"and the chain's clock cycles read inside the kernel where the device offers\n"
			"cl_khr_kernel_clock (a variant of its own, launched after the timed ones).\n"
			"Counters start poisoned (0xDEADBEEF) and are checked exactly after the first launch\n"
			"and after all of them; a point the device cannot run is skipped with the reason.\n",
		.flags = BENCH_DEVICE | BENCH_SG,
		.opts = atomics_cli,
		.opts_size = sizeof(struct atomics_opts),
	},
	.params_size = sizeof(struct at_params),
	.plan = atomics_plan,
	.label = atomics_label,
	.point = atomics_point,
	.params = atomics_params,
	.cols = atomics_cols,
	.title = atomics_title,
	.report = atomics_report,
	.teardown = atomics_teardown,
	.builds = atomics_builds,
	.checks = atomics_checks,
};
