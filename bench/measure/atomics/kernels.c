/*
 * bench atomics: the kernels of kernels/atomics.cl as the points use them: their builds
 * (C11 or 1.x atomics per memory order), launch arguments, poisoned buffers and the
 * exact validation of every counter.
 */
#include "host.h"
#include "check.h"
#include "sgb.h"

#include <stdlib.h>
#include <string.h>

static const char *const at_kernel_names[AT_NKERNELS] = {
	"atomics_global", "atomics_local", "atomics_chain" };

/* ---- builds ---- */

/*
 * The sub-group part of a program's options (host/sgb.c, the one place they are made): the
 * run's layer (p->sgc); C11 atomics need OpenCL C 2.0 (sgb_opencl_c picks the lowest
 * version the device offers at or above it).
 */
static void at_choice(const struct dev_info *d, const struct at_state *p, bool c11,
		      struct sgb_choice *c)
{
	(void)d;
	*c = p->sgc;
	if (c11) {
		c->c_version = 20;
		c->c_version_for = "C11 atomics (atomic_fetch_add_explicit with a memory order and "
				   "scope) are OpenCL C 2.0";
	}
}

/* Whether d can build C11 atomics: an OpenCL C version of 2.0 or later. */
static bool c11_ok(const struct dev_info *d, const struct at_state *p)
{
	struct sgb_choice c;
	char why[512];

	at_choice(d, p, true, &c);
	return sgb_opencl_c(d, &c, why, sizeof(why)) != 0;
}

/* First line of a build error, for a point's reason. */
static void first_line(const char *msg, char *out, size_t len)
{
	size_t n = strcspn(msg, "\n");

	snprintf(out, len, "%.*s", (int)(n < 400 ? n : 400), msg);
}

/*
 * The build options of one order's program: the API and order, then the sub-group
 * layer's (sgb_build_options), whose -cl-std also covers the C11 atomics' version.
 */
static void at_options(const struct dev_info *d, const struct at_state *p, bool c11,
		       enum at_order ord, char *buf, size_t len)
{
	struct sgb_choice c;
	int off = snprintf(buf, len, "-DAPI_C11=%d -DORDER=%s -DPOISON=0x%08xu", c11,
			   ord == AT_RELAXED ? "memory_order_relaxed" : "memory_order_acq_rel",
			   CHECK_POISON);

	at_choice(d, p, c11, &c);
	if (off > 0 && (size_t)off + 1 < len) {
		buf[off] = ' ';   /* a backend always has options (its macro) */
		sgb_build_options(d, &c, p->wg, buf + off + 1, len - (size_t)off - 1);
	}
}

/* Builds g; false with err when the compiler refuses it (a missing kernel exits 1). */
static bool build_prog(struct bench_run *r, const struct at_state *p, struct at_prog *g, bool c11,
		       enum at_order ord, char *err, size_t len)
{
	at_options(r->dev, p, c11, ord, g->options, sizeof(g->options));
	g->c11 = c11;
	g->prog = prog_build(&r->pc, "atomics.cl", g->options, &g->build_log, err, len);
	if (!g->prog)
		return false;
	for (int k = 0; k < AT_NKERNELS; k++)
		if (!(g->k[k] = prog_kernel(g->prog, at_kernel_names[k], err, len)))
			cli_die(EXIT_FAIL, "%s", err);
	return true;
}

/*
 * The chain's kernel-clock variant of a built program: its options and the clock's scope
 * (kernels/kernel_clock.h). A refusal gives the clock up for the run, never the chain.
 */
static void build_clock(struct bench_run *r, struct at_state *p, struct at_prog *g)
{
	char opts[sizeof(g->options) + 64], err[2048] = "", *log = NULL;

	if (p->kc.scope == KCLOCK_NONE)
		return;
	snprintf(opts, sizeof(opts), "%s %s", g->options, p->kc.options);
	g->kc_prog = prog_build(&r->pc, "atomics.cl", opts, &log, err, sizeof(err));
	free(log);
	if (g->kc_prog &&
	    (g->k_chain_clock = prog_kernel(g->kc_prog, "atomics_chain_clock", err, sizeof(err))))
		return;
	kclock_drop(&p->kc, "the kernel-clock variant of atomics.cl (%s) did not build: %.300s",
		    opts, err);
}

/* The 1.x fallback of an order's program, with the note its points carry. */
static void build_1x(struct bench_run *r, const struct at_state *p, struct at_prog *g,
		     enum at_order ord, const char *why)
{
	char err[16384];

	if (!build_prog(r, p, g, false, ord, err, sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	snprintf(g->note, sizeof(g->note), "%s", why);
	g->built = true;
}

/* Builds one order's program: c11 or 1.x as --api and the device allow. */
static void build_order(struct bench_run *r, enum at_api api, struct at_state *p, enum at_order ord)
{
	const struct dev_info *d = r->dev;
	struct at_prog *g = &p->prog[ord];
	char err[16384], line[512], why[1024];

	if (api == AT_API_C11 && !c11_ok(d, p))
		cli_usage_error("--api c11: '%s' offers %s only (atomic_fetch_add_explicit needs OpenCL "
				"C 2.0 or later)", d->name, d->c_version);
	if (api == AT_API_1X || !c11_ok(d, p)) {
		if (ord == AT_ACQ_REL) {
			snprintf(g->skip, sizeof(g->skip), "OpenCL 1.x atomic_add takes no memory order: "
				 "acq_rel needs OpenCL C 2.0+ atomic_fetch_add_explicit (%s)",
				 api == AT_API_1X ? "--api 1.x was given" : d->c_version);
			return;
		}
		snprintf(why, sizeof(why), "OpenCL 1.x atomic_add: no memory order or scope argument "
			 "(%s)", api == AT_API_1X ? "--api 1.x" : d->c_version);
		build_1x(r, p, g, ord, why);
		return;
	}
	if (build_prog(r, p, g, true, ord, err, sizeof(err))) {
		g->built = true;
		return;
	}
	first_line(err, line, sizeof(line));
	if (api == AT_API_C11 || ord == AT_ACQ_REL) {
		snprintf(g->skip, sizeof(g->skip), "atomic_fetch_add_explicit with %s did not build "
			 "on this device: %s", at_order_names[ord], line);
		return;
	}
	snprintf(why, sizeof(why), "OpenCL 1.x atomic_add (no memory order): "
		 "atomic_fetch_add_explicit did not build: %s", line);
	build_1x(r, p, g, ord, why);
}

/* One build of the hook: an order's program, C11 or 1.x. */
static void at_describe(struct bench_builds *b, const struct at_state *p, bool c11,
			enum at_order ord)
{
	struct bench_build *bb = bench_builds_add(b, "atomics.cl");
	char variant[48];
	struct sgb_choice c;

	for (int k = 0; k < AT_NKERNELS; k++) {
		snprintf(variant, sizeof(variant), "%s-%s-%s", at_kernel_names[k] + 8,
			 at_order_names[ord], c11 ? "c11" : "1.x");
		bench_build_kernel(bb, at_kernel_names[k], variant, p->wg, "--wg (default 256)");
	}
	at_options(b->dev, p, c11, ord, bb->options, sizeof(bb->options));
	at_choice(b->dev, p, c11, &c);
	bb->build = sgb_build_json(b->dev, &c);
	if (!c11_ok(b->dev, p) && c11)
		bench_build_skip(bb, "C11 atomics need OpenCL C 2.0 or later: '%s' offers %s",
				 b->dev->name, b->dev->c_version);
	if (c11)   /* build_order: a refused C11 build falls back (relaxed) or is skipped */
		snprintf(bb->on_failure, sizeof(bb->on_failure), "%s",
			 ord == AT_RELAXED ? "the run falls back to OpenCL 1.x atomic_add"
					   : "the run skips acq_rel: 1.x atomic_add takes no order");
}

/* The chain's kernel-clock variant of an order's program, where the device names a scope. */
static void at_describe_clock(struct bench_builds *b, const struct at_state *p, bool c11,
			      enum at_order ord)
{
	struct bench_build *bb;
	char variant[48], opts[512];   /* as an order's (struct at_prog) */
	struct kclock kc;

	kclock_pick(b->dev, &kc);
	if (kc.scope == KCLOCK_NONE || (c11 && !c11_ok(b->dev, p)))
		return;
	bb = bench_builds_add(b, "atomics.cl");
	at_options(b->dev, p, c11, ord, opts, sizeof(opts));
	snprintf(bb->options, sizeof(bb->options), "%s %s", opts, kc.options);
	snprintf(variant, sizeof(variant), "chain-clock-%s-%s", at_order_names[ord], c11 ? "c11" : "1.x");
	bench_build_kernel(bb, "atomics_chain_clock", variant, 1, "one work-item");
	snprintf(bb->on_failure, sizeof(bb->on_failure), "the run goes on without the kernel clock");
}

void at_builds(struct bench_builds *b, const struct at_state *p)
{
	at_describe(b, p, true, AT_RELAXED);
	at_describe(b, p, true, AT_ACQ_REL);
	at_describe(b, p, false, AT_RELAXED);
	at_describe_clock(b, p, true, AT_RELAXED);
	at_describe_clock(b, p, true, AT_ACQ_REL);
	at_describe_clock(b, p, false, AT_RELAXED);
}

void at_build(struct bench_run *r, enum at_api api, const bool *orders, struct at_state *p)
{
	json_t *ks = json_array();

	for (int ord = 0; ord < AT_NORDERS; ord++) {
		const struct at_prog *g = &p->prog[ord];
		struct kernel_res res;
		if (!orders[ord])
			continue;
		build_order(r, api, p, (enum at_order)ord);
		if (!g->built)
			continue;
		build_clock(r, p, &p->prog[ord]);
		/* above CL_KERNEL_WORK_GROUP_SIZE the first launch decides (bench_launch_once) */
		prog_kernel_res(&r->pc, g->k[AT_K_GLOBAL], p->wg, g->build_log, &res);
		json_t *kj = prog_kernel_res_json("atomics.cl", "atomics_global", g->options, &res);
		struct sgb_choice c;
		at_choice(r->dev, p, g->c11, &c);
		json_object_set_new(kj, "build", sgb_build_json(r->dev, &c));
		json_array_append_new(ks, kj);
	}
	json_object_set_new(r->doc, "kernels", ks);
}


/* ---- launch set-up ---- */

/* Counter words a global pattern can touch. */
static uint64_t used_words(const struct at_state *p, enum at_pattern pat)
{
	switch (pat) {
	case AT_NEIGHBOURS: return p->items;
	case AT_WG: return (uint64_t)p->groups * p->line_words;
	case AT_SINGLE: return p->line_words;
	case AT_CHAIN: return (uint64_t)AT_CHAIN_SLOTS * p->line_words;
	default: return p->ctr_words;
	}
}

bool at_set_ops(const struct at_run *t, cl_uint ops, char *err, size_t len)
{
	cl_uint idx = at_is_local(t->pat) ? 1 : 2;

	return CL_CHECK(clSetKernelArg(t->l.kernel, idx, sizeof(ops), &ops), err, len);
}

bool at_args(const struct at_state *p, struct at_run *t, unsigned ops, char *err, size_t len)
{
	cl_uint o = ops, pat = (cl_uint)t->pat, lw = p->line_words;
	cl_uint shared = t->pat == AT_LOCAL_WG, slots = AT_CHAIN_SLOTS;

	if (t->pat == AT_CHAIN) {
		t->l = (struct time_launch){ t->g->k[AT_K_CHAIN], 1, 1 };
		return PROG_SET_ARGS(t->l.kernel, err, len, PROG_ARG(p->ctr), PROG_ARG(p->out),
				     PROG_ARG(o), PROG_ARG(lw), PROG_ARG(slots));
	}
	if (at_is_local(t->pat)) {
		t->l = (struct time_launch){ t->g->k[AT_K_LOCAL], (size_t)p->items, p->wg };
		return PROG_SET_ARGS(t->l.kernel, err, len, PROG_ARG(p->out), PROG_ARG(o),
				     PROG_ARG(shared), PROG_LOCAL(shared ? 4 : (size_t)p->wg * 4),
				     PROG_ARG(p->info));
	}
	t->l = (struct time_launch){ t->g->k[AT_K_GLOBAL], (size_t)p->items, p->wg };
	return PROG_SET_ARGS(t->l.kernel, err, len, PROG_ARG(p->ctr), PROG_ARG(p->where), PROG_ARG(o),
			     PROG_ARG(pat), PROG_ARG(lw), PROG_ARG(p->info));
}

bool at_clock_chain(struct bench_run *r, struct at_state *p, struct at_run *t, unsigned ops,
		    double *cycles, char *err, size_t len)
{
	struct time_launch l = { t->g->k_chain_clock, 1, 1 };
	cl_uint o = ops, lw = p->line_words, slots = AT_CHAIN_SLOTS;
	double v[AT_KCLOCK_LAUNCHES];
	cl_ulong ticks;

	if (!PROG_SET_ARGS(l.kernel, err, len, PROG_ARG(p->ctr), PROG_ARG(p->out), PROG_ARG(o),
			   PROG_ARG(lw), PROG_ARG(slots), PROG_ARG(p->ticks)))
		return false;
	for (unsigned k = 0; k < AT_KCLOCK_LAUNCHES; k++) {
		if (!bench_enqueue_once(r, time_enqueue_launch, &l, err, len) ||
		    !CL_CHECK(clEnqueueReadBuffer(r->pc.q, p->ticks, CL_TRUE, 0, sizeof(ticks), &ticks,
						  0, NULL, NULL), err, len))
			return false;
		t->launches++;
		v[k] = (double)ticks / (ops ? ops : 1);
	}
	*cycles = kclock_median(v, AT_KCLOCK_LAUNCHES);
	return true;
}

bool at_poison(struct bench_run *r, const struct at_state *p, enum at_pattern pat, char *err,
	       size_t len)
{
	cl_command_queue q = r->pc.q;

	return (at_is_local(pat) ||
		CL_CHECK(check_poison(q, p->ctr, (size_t)used_words(p, pat) * 4), err, len)) &&
	       CL_CHECK(check_poison(q, p->where, (size_t)p->items * 4), err, len) &&
	       CL_CHECK(check_poison(q, p->out, (size_t)p->items * 4), err, len) &&
	       CL_CHECK(check_poison(q, p->info, 16), err, len);
}

static bool read_words(struct bench_run *r, cl_mem m, uint64_t words, uint32_t *h, char *err,
		       size_t len)
{
	return CL_CHECK(clEnqueueReadBuffer(r->pc.q, m, CL_TRUE, 0, (size_t)words * 4, h, 0, NULL,
					    NULL), err, len);
}

/* ---- validation ---- */

/*
 * The counter word work-item i must use, or UINT64_MAX where the driver decides (its own
 * sub-groups): the layer's are consecutive work-items, get_group_id(0) * sg_num() + sg_id().
 */
static uint64_t expected_addr(const struct at_state *p, enum at_pattern pat, uint64_t i)
{
	uint64_t g = i / p->wg, l = i % p->wg, w = p->sgc.width;

	switch (pat) {
	case AT_OWN: return i * p->line_words;
	case AT_NEIGHBOURS: return i;
	case AT_WG: return g * p->line_words;
	case AT_SINGLE: return 0;
	default:
		if (sgb_native(p->sgc.backend) || !w)
			return UINT64_MAX;
		return (g * ((p->wg + w - 1) / w) + l / w) * p->line_words;
	}
}

/* Checks where[] (the counter each work-item used) against the pattern. */
static bool check_where(struct at_state *p, const struct at_run *t, char *err, size_t len)
{
	uint64_t words = used_words(p, t->pat), msg = t->sg_kernel ? t->sg_kernel : 1;
	uint64_t per_group = (p->wg + msg - 1) / msg;

	memset(p->h_ref, 0, (size_t)words * 4);   /* items per counter (sub-groups) */
	for (uint64_t i = 0; i < p->items; i++) {
		uint64_t a = p->h_where[i], want = expected_addr(p, t->pat, i), g = i / p->wg;
		bool ok = a < words &&
			  (want == UINT64_MAX
				   ? a % p->line_words == 0 && a / p->line_words >= g * per_group &&
					     a / p->line_words < (g + 1) * per_group && ++p->h_ref[a] <= msg
				   : a == want);
		if (!ok) {
			snprintf(err, len, "work-item %llu used counter word %llu (expected %s%llu)",
				 (unsigned long long)i, (unsigned long long)a,
				 want == UINT64_MAX ? "one of its sub-group's, near " : "",
				 (unsigned long long)(want == UINT64_MAX ? g * per_group * p->line_words
									  : want));
			return false;
		}
	}
	return true;
}

/* Expected counters after `launches` launches of `ops` adds: POISON + launches * sums. */
static void expected_global(struct at_state *p, const struct at_run *t, unsigned ops)
{
	uint64_t words = used_words(p, t->pat);

	memset(p->h_sum, 0, (size_t)words * 4);
	for (uint64_t i = 0; i < p->items; i++)
		p->h_sum[p->h_where[i]] += (uint32_t)ops * (uint32_t)(2 * i + 1);
	for (uint64_t w = 0; w < words; w++)
		p->h_ref[w] = CHECK_POISON + (uint32_t)t->launches * p->h_sum[w];
}

static void expected_local(struct at_state *p, const struct at_run *t, unsigned ops, uint64_t *n)
{
	bool shared = t->pat == AT_LOCAL_WG;

	*n = shared ? p->groups : p->items;
	for (uint64_t k = 0; k < *n; k++)
		p->h_ref[k] = CHECK_POISON;
	for (uint64_t i = 0; i < p->items; i++)
		p->h_ref[shared ? i / p->wg : i] += (uint32_t)ops * (uint32_t)(2 * i + 1);
}

/* Replays the dependent chain on the host: counters and the last index. */
static uint32_t expected_chain(struct at_state *p, const struct at_run *t, unsigned ops)
{
	uint32_t c[AT_CHAIN_SLOTS], idx = 0;

	for (unsigned k = 0; k < AT_CHAIN_SLOTS; k++)
		c[k] = CHECK_POISON;
	for (uint64_t n = 0; n < t->launches; n++) {
		idx = 0;
		for (unsigned j = 0; j < ops; j++) {
			uint32_t old = c[idx];
			c[idx] = old + j + 1;
			idx = (old ^ (old >> 7)) & (AT_CHAIN_SLOTS - 1);
		}
	}
	for (uint64_t w = 0; w < used_words(p, AT_CHAIN); w++)
		p->h_ref[w] = w % p->line_words ? CHECK_POISON : c[w / p->line_words];
	return idx;
}

static bool check_info(struct bench_run *r, const struct at_state *p, struct at_run *t,
		       char *err, size_t len)
{
	cl_uint info[4];
	unsigned want;

	if (!read_words(r, p->info, 4, info, err, len))
		return false;
	t->sg_kernel = info[2];
	if (info[0] != p->wg || info[1] != p->groups) {
		snprintf(err, len, "the kernel saw local size %u and %u groups, launched with %u and %u",
			 info[0], info[1], p->wg, p->groups);
		return false;
	}
	/* the size required of the driver, or the layer's own width (the warp, emulated) */
	want = sgb_native(p->sgc.backend) ? at_sg_req(p) : p->sgc.width;
	if (want && info[2] != want) {
		snprintf(err, len, "%s sub-group size %u, the kernel ran with %u",
			 p->sgc.required ? "required" : sgb_name(p->sgc.backend), want, info[2]);
		return false;
	}
	return true;
}

static bool check_chain(struct bench_run *r, struct at_state *p, const struct at_run *t,
			unsigned ops, char *err, size_t len)
{
	uint64_t n = used_words(p, AT_CHAIN);
	uint32_t idx = expected_chain(p, t, ops), got;

	if (!read_words(r, p->out, 1, &got, err, len) || !read_words(r, p->ctr, n, p->h_ctr, err, len))
		return false;
	if (got != idx) {
		snprintf(err, len, "the chain ended at counter %u, the host's replay at %u", got, idx);
		return false;
	}
	return check_compare_u32(p->h_ctr, p->h_ref, (size_t)n, err, len) == 0;
}

bool at_validate(struct bench_run *r, struct at_state *p, struct at_run *t, unsigned ops,
		 bool first, char *err, size_t len)
{
	uint64_t n = used_words(p, t->pat);

	if (t->pat == AT_CHAIN)
		return check_chain(r, p, t, ops, err, len);
	if (first && !check_info(r, p, t, err, len))
		return false;
	if (at_is_local(t->pat)) {
		expected_local(p, t, ops, &n);
		return read_words(r, p->out, n, p->h_out, err, len) &&
		       check_compare_u32(p->h_out, p->h_ref, (size_t)n, err, len) == 0;
	}
	if (first && (!read_words(r, p->where, p->items, p->h_where, err, len) ||
		      !check_where(p, t, err, len)))
		return false;
	expected_global(p, t, ops);
	return read_words(r, p->ctr, n, p->h_ctr, err, len) &&
	       check_compare_u32(p->h_ctr, p->h_ref, (size_t)n, err, len) == 0;
}
