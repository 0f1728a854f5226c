/*
 * bench latency: pointer-chase latency against working-set size, one chase and
 * one per compute unit on a random single cycle checked on the device, with
 * local-memory latency; after the table the plateaus of the curve, detected
 * and labelled (report.c), and Intel's guide table beside them.
 */
#include "host.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define LAT_MAX_BYTES (8ull << 30)        /* node and word indices must fit 32 bits */
#define LAT_SEED_MAX ((1ull << 48) - 1)   /* exact in a JSON number */

const char *const lat_variant_names[LAT_LOCAL + 1] = { "single", "per-cu", "local" };

/* ---- the kernels (kernels/latency.cl) and their counts ---- */

/* A launch of `loads` loads per chase: ns per dependent load once a 0-load launch is taken off. */
static double lat_ns_per_load(double launch_ns, double overhead_ns, unsigned loads)
{
	return (launch_ns - overhead_ns) / loads;
}

/* Words between nodes: the stride in global memory, one word in local memory. */
static unsigned lat_words(const struct lat_state *p, const struct lat_params *a)
{
	return a->variant == LAT_LOCAL ? 1 : p->stride_words;
}

/* The timed launch: one work-item per chase; the local chase copies its chain in first. */
static struct time_launch lat_launch(const struct lat_state *p, enum lat_variant v)
{
	if (v == LAT_LOCAL)
		return (struct time_launch){ p->k_local, p->local_wg, p->local_wg };
	return (struct time_launch){ p->k_chase, v == LAT_PER_CU ? p->cus : 1, 1 };
}

static bool lat_args(const struct lat_state *p, enum lat_variant v, cl_kernel k, uint64_t n,
		     unsigned loads, char *err, size_t len)
{
	cl_uint cl_loads = loads, cl_n = (cl_uint)n;

	if (v != LAT_LOCAL)
		return PROG_SET_ARGS(k, err, len, PROG_ARG(p->buf), PROG_ARG(p->state),
				     PROG_ARG(cl_loads));
	return PROG_SET_ARGS(k, err, len, PROG_ARG(p->lsrc), PROG_ARG(p->state), PROG_ARG(cl_n),
			     PROG_ARG(cl_loads), PROG_LOCAL((size_t)n * 4));
}

/* ---- options ---- */

enum { CHASES_SINGLE, CHASES_PER_CU, CHASES_BOTH };   /* --chases, as named here */
static const char *const chases_names[] = { "single", "per-cu", "both" };

#define LO(f) offsetof(struct latency_opts, f)
static const struct cli_opt latency_cli[] = {
	{ "sizes", "LIST", CLI_STR, LO(sizes_arg), .def = "1Ki..1Gi",
	  .help = "working sets: SIZE or A..B items, comma-separated (K/M/G, Ki/Mi/Gi\n"
		  "suffixes; 64..8Gi); A..B steps through each octave" },
	{ "steps", "N", CLI_UINT, LO(steps), 1, 16, .def = "4", .help = "sizes per octave in A..B ranges" },
	{ "stride", "BYTES", CLI_SIZE, LO(stride), 4, 65536,
	  .help = "distance between nodes, a power of two",
	  .def_note = "the device's cache line, at least 64" },
	{ "loads", "N", CLI_UINT, LO(loads), 1, 1u << 28, .def = "32768",
	  .help = "dependent loads per chase per timed launch; launch overhead (a\n"
		  "0-load launch) is subtracted" },
	{ "chases", "MODE", CLI_CHOICE, LO(chases), .names = chases_names, .n_names = 3,
	  .def = "both", .help = "single, per-cu or both" },
	{ "local", "SIZE", CLI_SIZE, LO(local_bytes), 0, 1ull << 30, .def = "4Ki",
	  .help = "local-memory chain of SIZE bytes (0: none)" },
	{ "seed", "N", CLI_U64, LO(seed), 0, LAT_SEED_MAX, .def_note = "fresh",
	  .help = "chain seed; size i uses N + i" },
	{ "tol", "PCT", CLI_UINT, LO(tol_pct), 1, 50, .def = "10",
	  .help = "plateau tolerance in percent" },
	{ "l1", "SIZE", CLI_SIZE, LO(l1), 0, 1ull << 30,
	  .def_note = "the device's: published, or the host's for a CPU",
	  .help = "first-level cache of a compute unit for the plateau labels (0:\n"
		  "unknown)" },
	{ "guide-table", NULL, CLI_FLAG, LO(guide_table),
	  .help = "show the latency table of Intel's guide (Data Center GPU Max)\n"
		  "beside the plateaus (shown on Intel GPUs without it)" },
	{ 0 } };

static const char latency_synopsis[] =
	"usage: bench latency [options]\n"
	"  A random cyclic chain (one cycle through every node, nodes one --stride apart)\n"
	"  is chased by one work-item: ns and cycles per dependent load against the working\n"
	"  set; the same with one chase per compute unit; and a chain in local memory.\n"
	"  Where the device offers cl_khr_kernel_clock, a variant of the chase reads the clock\n"
	"  around its chain after the timed launches: clock cycles per load beside the nominal.\n"
	"Plateaus: sizes in order; a size joins the current plateau while its latency stays\n"
	"within --tol of the plateau's median (and the plateau's max/min within 1 + 2 tol);\n"
	"one stray point is skipped when the next one fits again; runs of 3 or more sizes are\n"
	"plateaus, shorter ones transitions; neighbouring plateaus within --tol of each other\n"
	"are joined. Labels from the cache sizes (--l1; the last-level cache: --llc or the\n"
	"device's) and the working sets a plateau spans, never from its place: all within\n"
	"the first-level cache: first-level cache; all above it and within the last-level\n"
	"cache: the last such is the last-level cache, others intermediate; all above the\n"
	"last-level cache: device memory; else (a size unknown, or a plateau across one)\n"
	"plateau N.\n";

static void latency_check(void *opts, const struct cli_set *given)
{
	struct latency_opts *o = opts;
	char err[512];

	o->seed_given = cli_given(given, "seed");
	o->l1_given = cli_given(given, "l1");
	o->tol = o->tol_pct / 100.0;
	o->single = o->chases != CHASES_PER_CU;
	o->per_cu = o->chases != CHASES_SINGLE;
	if (o->stride & (o->stride - 1))
		cli_usage_error("--stride %llu is not a power of two (4..65536)",
				(unsigned long long)o->stride);
	if (o->local_bytes && (o->local_bytes < 16 || o->local_bytes % 4))
		cli_usage_error("--local %llu: give 0, or a multiple of 4 bytes from 16",
				(unsigned long long)o->local_bytes);
	if (!chase_sizes_parse(o->sizes_arg, o->steps, 64, LAT_MAX_BYTES, &o->sizes, &o->n_sizes,
			       err, sizeof(err)))
		cli_usage_error("--sizes %s", err);
}

/* ---- plan ---- */

static void plan_sizes(const struct bench_run *r, const struct latency_opts *o, struct lat_state *p)
{
	const struct dev_info *d = r->dev;
	p->stride = o->stride ? (unsigned)o->stride
			      : d->global_cacheline > 64 ? (unsigned)d->global_cacheline : 64;
	p->stride_words = p->stride / 4;
	for (size_t i = 0; i < o->n_sizes; i++) {
		uint64_t ws = o->sizes[i] / p->stride * p->stride;
		if (o->sizes[i] / p->stride < 2)
			cli_usage_error("--sizes %llu holds fewer than 2 nodes %u bytes apart (--stride): "
					"allowed %u..%llu", (unsigned long long)o->sizes[i], p->stride,
					2 * p->stride, (unsigned long long)LAT_MAX_BYTES);
		if (o->sizes[i] > d->max_alloc)
			cli_usage_error("--sizes %llu exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE of '%s': at "
					"most %llu bytes", (unsigned long long)o->sizes[i], d->name,
					(unsigned long long)d->max_alloc);
		p->max_ws = ws > p->max_ws ? ws : p->max_ws;
	}
	if (o->local_bytes > d->local_mem)
		cli_usage_error("--local %llu exceeds CL_DEVICE_LOCAL_MEM_SIZE of '%s': at most %llu bytes",
				(unsigned long long)o->local_bytes, d->name,
				(unsigned long long)d->local_mem);
	p->cus = d->compute_units ? d->compute_units : 1;
	p->local_wg = d->max_wg < 256 ? (unsigned)d->max_wg : 256;
	p->caches.llc = bench_llc(r, &p->caches.llc_source);
	p->caches.gpu = (d->type & CL_DEVICE_TYPE_GPU) != 0;
	if (o->l1_given) {
		p->caches.l1 = o->l1;
		p->caches.l1_source = "--l1";
	} else {
		p->caches.l1 = chase_l1(d, &p->caches.l1_source);
	}
}

static cl_kernel plan_kernel(cl_program prog, const char *name)
{
	char err[1024];
	cl_kernel k = prog_kernel(prog, name, err, sizeof(err));

	if (!k)
		cli_die(EXIT_FAIL, "%s", err);
	return k;
}

/*
 * The kernel-clock variants (chase_clock, chase_local_clock) where the device offers
 * cl_khr_kernel_clock: a program of their own, so the timed kernels stay as they are; a
 * refusal is recorded, never fatal.
 */
static void plan_clock(struct bench_run *r, struct lat_state *p)
{
	char err[2048] = "", *log = NULL;

	kclock_pick(r->dev, &p->kc);
	if (p->kc.scope == KCLOCK_NONE)
		return;
	p->kc_prog = prog_build(&r->pc, "latency.cl", p->kc.options, &log, err, sizeof(err));
	free(log);
	if (p->kc_prog &&
	    (p->k_chase_clock = prog_kernel(p->kc_prog, "chase_clock", err, sizeof(err))) &&
	    (p->k_local_clock = prog_kernel(p->kc_prog, "chase_local_clock", err, sizeof(err))))
		return;
	kclock_drop(&p->kc, "the kernel-clock variant of latency.cl (%s) did not build: %.300s",
		    p->kc.options, err);
}

static void plan_build(struct bench_run *r, struct lat_state *p)
{
	char *log = NULL;
	struct kernel_res res;

	p->k_chase = bench_build(r, "latency.cl", "chase", "", &p->prog, &log);
	p->k_sum = plan_kernel(p->prog, "chase_sum");
	p->k_local = plan_kernel(p->prog, "chase_local");
	p->k_local_check = plan_kernel(p->prog, "chase_local_check");
	prog_kernel_res(&r->pc, p->k_chase, 1, log, &res);
	json_object_set_new(r->doc, "kernel", prog_kernel_res_json("latency.cl", "chase", "", &res));
	prog_kernel_res(&r->pc, p->k_sum, 0, NULL, &res);
	p->sum_wg = res.wg_max && res.wg_max < LAT_SUM_ITEMS ? (unsigned)res.wg_max : LAT_SUM_ITEMS;
	prog_kernel_res(&r->pc, p->k_local, p->local_wg, log, &res);
	if (res.wg_max && p->local_wg > res.wg_max)
		p->local_wg = (unsigned)res.wg_max;
	free(log);
}

/*
 * What plan builds (at --sg auto only: the chase has no sub-groups): one program, no
 * options, and the kernel-clock variants with theirs where the device offers a scope.
 */
static void lat_builds(struct bench_builds *b)
{
	struct bench_build *bb;
	struct kclock kc;

	if (b->sg)
		return;
	bb = bench_builds_add(b, "latency.cl");
	bench_build_kernel(bb, "chase", "chase", 1, "one work-item a chase");
	bench_build_kernel(bb, "chase_sum", "chase-sum", 0, "chosen by the driver");
	bench_build_kernel(bb, "chase_local", "local", 256, "256 or the device's maximum");
	bench_build_kernel(bb, "chase_local_check", "local-check", 256, "256 or the device's maximum");
	kclock_pick(b->dev, &kc);   /* the clock variants, on a device that names a scope */
	if (kc.scope == KCLOCK_NONE)
		return;
	bb = bench_builds_add(b, "latency.cl");
	snprintf(bb->options, sizeof(bb->options), "%s", kc.options);
	bench_build_kernel(bb, "chase_clock", "chase-clock", 1, "one work-item a chase");
	bench_build_kernel(bb, "chase_local_clock", "local-clock", 256, "256 or the device's maximum");
	snprintf(bb->on_failure, sizeof(bb->on_failure), "the run goes on without the kernel clock");
}

static void plan_buffers(struct bench_run *r, const struct latency_opts *o, struct lat_state *p)
{
	uint64_t nodes = p->max_ws / p->stride, lnodes = o->local_bytes / 4;
	uint64_t most = nodes > lnodes ? nodes : lnodes;
	size_t state_words = p->cus > 4 ? p->cus : 4;
	size_t chain = (size_t)(p->max_ws > o->local_bytes ? p->max_ws : o->local_bytes);

	p->buf = bench_buffer(r, CL_MEM_READ_ONLY, (size_t)p->max_ws);
	p->state = bench_buffer(r, CL_MEM_READ_WRITE, state_words * 4);
	p->sums = bench_buffer(r, CL_MEM_WRITE_ONLY, LAT_SUM_ITEMS * 4);
	p->h_sums = bench_alloc(LAT_SUM_ITEMS * 4);
	if (lnodes)
		p->lsrc = bench_buffer(r, CL_MEM_READ_ONLY, (size_t)lnodes * 4);
	p->h_buf = bench_alloc(chain);
	memset(p->h_buf, 0, chain);
	p->next = bench_alloc((size_t)most * 4);
	p->order = bench_alloc((size_t)most * 4);
	p->h_state = bench_alloc(state_words * 4);
	if (p->kc.scope != KCLOCK_NONE) {
		p->ticks = bench_buffer(r, CL_MEM_WRITE_ONLY, state_words * 8);
		p->h_ticks = bench_alloc(state_words * 8);
		p->kc_scratch = bench_alloc(LAT_KCLOCK_LAUNCHES * state_words * sizeof(double));
	}
}

static json_t *setup_json(const struct bench_run *r, const struct latency_opts *o,
			  const struct lat_state *p)
{
	json_t *j = json_object();

	json_object_set_new(j, "clock", dev_clock_json(r->dev));
	json_object_set_new(j, "stride_bytes", json_integer(p->stride));
	json_object_set_new(j, "loads", json_integer(o->loads));
	json_object_set_new(j, "per_cu_chases", json_integer(p->cus));
	json_object_set_new(j, "per_cu_note", json_string("one work-group of one work-item per "
		"compute unit; the driver places the groups (one per CU is not guaranteed); "
		"chases start evenly spaced along the same cycle"));
	json_object_set_new(j, "settle_note", json_string("before its warm-up, each global chase "
		"walks on untimed: two laps of a chain within twice the last-level cache (plateaus."
		"llc_bytes), else as many nodes as fill it twice, all chases together, so that the "
		"timed launches start from the cache state of a steady run; their end is checked "
		"with the timed launches'"));
	json_object_set_new(j, "steps_per_octave", json_integer(o->steps));
	json_object_set_new(j, "seed", json_integer((json_int_t)o->seed));
	json_object_set_new(j, "kernel_clock", kclock_json(&p->kc, "each chase's chain of dependent "
		"loads: ticks per load, median over the chases and launches", LAT_KCLOCK_LAUNCHES));
	return j;
}

/* Points: for every size its single chase, then its per-CU chase; the local chain last. */
static size_t latency_plan(struct bench_run *r)
{
	struct latency_opts *o = r->opts;
	struct lat_state *p = bench_alloc(sizeof(*p));
	size_t n;

	memset(p, 0, sizeof(*p));
	r->state = p;
	plan_sizes(r, o, p);
	plan_build(r, p);
	plan_clock(r, p);
	if (!o->seed_given)
		o->seed = check_fresh_seed() & LAT_SEED_MAX;
	plan_buffers(r, o, p);
	json_object_set_new(r->doc, "setup", setup_json(r, o, p));
	n = o->n_sizes * ((size_t)o->single + o->per_cu) + (o->local_bytes != 0);
	p->ns = bench_alloc(n * sizeof(*p->ns));
	p->kc_cycles = bench_alloc(n * sizeof(*p->kc_cycles));
	for (size_t i = 0; i < n; i++)
		p->kc_cycles[i] = -1;
	return n;
}

static void latency_teardown(struct bench_run *r)
{
	struct lat_state *p = r->state;
	cl_mem m[] = { p->buf, p->state, p->lsrc, p->ticks, p->sums };
	cl_kernel k[] = { p->k_chase, p->k_sum, p->k_local, p->k_local_check, p->k_chase_clock,
			  p->k_local_clock };

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i])
			clReleaseMemObject(m[i]);
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (k[i])
			clReleaseKernel(k[i]);
	if (p->prog)
		clReleaseProgram(p->prog);
	if (p->kc_prog)
		clReleaseProgram(p->kc_prog);
	free(p->h_ticks);
	free(p->kc_scratch);
	free(p->kc_cycles);
	free(p->curve_kc);
	free(p->h_buf);
	free(p->next);
	free(p->order);
	free(p->h_state);
	free(p->h_sums);
	free(p->ns);
	free(p->curve_ws);
	free(p->curve_ns);
	free(p);
	free(((struct latency_opts *)r->opts)->sizes);
}

/* ---- one point: chain, device check, timed chases ---- */

/* The parameters of point i; true when it lays a new chain (the first point of its size). */
static bool lat_params_fill(const struct bench_run *r, size_t i, struct lat_params *a)
{
	const struct latency_opts *o = r->opts;
	const struct lat_state *p = r->state;
	size_t per = (size_t)o->single + o->per_cu;

	a->loads = o->loads;
	a->chases = 1;
	if (i == o->n_sizes * per) {   /* local memory */
		a->variant = LAT_LOCAL;
		a->size = a->ws = o->local_bytes;
		a->nodes = o->local_bytes / 4;
		a->stride = 4;
		a->seed = o->seed + o->n_sizes;
		return true;
	}
	a->variant = o->single && i % per == 0 ? LAT_SINGLE : LAT_PER_CU;
	if (a->variant == LAT_PER_CU)
		a->chases = p->cus;
	a->size = o->sizes[i / per];
	a->nodes = a->size / p->stride;
	a->ws = a->nodes * p->stride;
	a->stride = p->stride;
	a->seed = o->seed + i / per;
	return i % per == 0;
}

/* Lays a fresh chain of a->nodes nodes into the variant's buffer. */
static bool lat_upload(struct bench_run *r, struct lat_state *p, const struct lat_params *a,
		       char *err, size_t len)
{
	unsigned words = lat_words(p, a);

	chase_build(p->next, p->order, (uint32_t)a->nodes, a->seed);
	for (uint64_t k = 0; k < a->nodes; k++)
		p->h_buf[k * words] = p->next[k] * words;
	return CL_CHECK(clEnqueueWriteBuffer(r->pc.q, a->variant == LAT_LOCAL ? p->lsrc : p->buf,
					     CL_TRUE, 0, (size_t)(a->nodes * words * 4), p->h_buf, 0,
					     NULL, NULL), err, len);
}

static bool state_io(struct bench_run *r, struct lat_state *p, bool write, size_t words, char *err,
		     size_t len)
{
	if (write)
		return CL_CHECK(clEnqueueWriteBuffer(r->pc.q, p->state, CL_TRUE, 0, words * 4,
						     p->h_state, 0, NULL, NULL), err, len);
	return CL_CHECK(clEnqueueReadBuffer(r->pc.q, p->state, CL_TRUE, 0, words * 4, p->h_state, 0,
					    NULL, NULL), err, len);
}

/* A local chain (a few thousand nodes): one lap from node 0, back at 0 once, every node summed. */
static bool lat_check_lap(struct bench_run *r, struct lat_state *p, const struct lat_params *a,
			  char *err, size_t len)
{
	struct time_launch l = { p->k_local_check, p->local_wg, p->local_wg };
	uint32_t want = chase_lap_sum((uint32_t)a->nodes, lat_words(p, a));

	p->h_state[0] = 0;
	if (!state_io(r, p, true, 1, err, len) ||
	    !lat_args(p, a->variant, l.kernel, a->nodes, (unsigned)a->nodes, err, len) ||
	    !bench_enqueue_once(r, time_enqueue_launch, &l, err, len) ||
	    !state_io(r, p, false, 3, err, len))
		return false;
	if (p->h_state[0] == 0 && p->h_state[1] == 1 && p->h_state[2] == want)
		return true;
	snprintf(err, len, "one lap of %llu loads from node 0 ended at word %u, reached the start "
		 "%u times, summed 0x%08x; one cycle through every node gives word 0, once, 0x%08x",
		 (unsigned long long)a->nodes, p->h_state[0], p->h_state[1], p->h_state[2], want);
	return false;
}

/*
 * The chain as the kernels see it, before any timing. A global chain (built on the host as
 * one cycle through every node: host/chase.c) is read whole by chase_sum, every node mixed
 * with its index, and its sum compared with the host's: one pass over the buffer, where a
 * lap of dependent loads cost seconds at 1 GiB (one work-group: its partial sums, one a
 * work-item, are read back at once). The caches the lap left as the chases would leave
 * them are now the chases' own walk's (lat_settle_loads). A local chain is checked by a lap.
 */
static bool lat_check(struct bench_run *r, struct lat_state *p, const struct lat_params *a,
		      char *err, size_t len)
{
	cl_uint cl_n = (cl_uint)a->nodes, cl_words = lat_words(p, a);
	size_t items = a->nodes < p->sum_wg ? (size_t)a->nodes : p->sum_wg;
	struct time_launch l = { p->k_sum, items, items };
	uint32_t got = 0, want;

	if (a->variant == LAT_LOCAL)
		return lat_check_lap(r, p, a, err, len);
	if (!PROG_SET_ARGS(l.kernel, err, len, PROG_ARG(p->buf), PROG_ARG(p->sums), PROG_ARG(cl_n),
			   PROG_ARG(cl_words)) ||
	    !bench_enqueue_once(r, time_enqueue_launch, &l, err, len) ||
	    !CL_CHECK(clEnqueueReadBuffer(r->pc.q, p->sums, CL_TRUE, 0, items * 4, p->h_sums, 0,
					  NULL, NULL), err, len))
		return false;
	for (size_t i = 0; i < items; i++)
		got += p->h_sums[i];
	want = chase_content_sum(p->h_buf, cl_n, cl_words);
	if (got == want)
		return true;
	snprintf(err, len, "the chain of %llu nodes read on the device sums to 0x%08x (chase_sum); "
		 "the chain laid there sums to 0x%08x", (unsigned long long)a->nodes, got, want);
	return false;
}

/* Starting positions of the chases, evenly spaced along the cycle, written to the device. */
static bool lat_start(struct bench_run *r, struct lat_state *p, const struct lat_params *a,
		      char *err, size_t len)
{
	for (uint32_t k = 0; k < a->chases; k++)
		p->h_state[k] = p->order[(uint64_t)k * a->nodes / a->chases] * lat_words(p, a);
	return state_io(r, p, true, a->chases, err, len);
}

/* After `loads` more loads each chase must stand `loads` nodes further along the cycle. */
static bool lat_check_end(struct bench_run *r, struct lat_state *p, const struct lat_params *a,
			  uint64_t loads, char *err, size_t len)
{
	if (!state_io(r, p, false, a->chases, err, len))
		return false;
	for (uint32_t k = 0; k < a->chases; k++) {
		uint64_t at = ((uint64_t)k * a->nodes / a->chases + loads) % a->nodes;
		uint32_t want = p->order[at] * lat_words(p, a);
		if (p->h_state[k] != want) {
			snprintf(err, len, "chase %u ended at word %u after %llu loads; the chain says %u",
				 k, p->h_state[k], (unsigned long long)loads, want);
			return false;
		}
	}
	return true;
}

/*
 * Loads per chase that bring a global chain's chases to the cache state of their steady
 * run: together two laps of a chain within twice the last-level cache; on a larger one as
 * many nodes as fill that cache twice (what it then holds is the chases' own recent nodes,
 * as after laps). The chain check reads the chain in another order (chase_sum): on an H200
 * the single chase's launches right after it moved by 4-15 % from launch to launch at
 * 16-512 MiB (medians up to 19 % low), where after a lap of dependent loads they moved by
 * 0.1 %; after one lap the 64 MiB chain still moved by 2 %.
 */
static uint64_t lat_settle_loads(const struct lat_state *p, const struct lat_params *a)
{
	uint64_t fill = p->caches.llc ? 2 * p->caches.llc / p->stride : a->nodes;
	uint64_t nodes = a->nodes <= fill ? 2 * a->nodes : fill;
	uint64_t per = (nodes + a->chases - 1) / a->chases;

	if (a->variant == LAT_LOCAL)
		return 0;
	return per < UINT32_MAX ? per : UINT32_MAX;   /* the kernel counts its loads in a uint */
}

/* One untimed launch of `loads` loads a chase (none: nothing), its end checked with the rest. */
static bool lat_settle(struct bench_run *r, struct lat_state *p, const struct lat_params *a,
		       uint64_t loads, char *err, size_t len)
{
	struct time_launch l = lat_launch(p, a->variant);

	return !loads || (lat_args(p, a->variant, l.kernel, a->nodes, (unsigned)loads, err, len) &&
			  bench_enqueue_once(r, time_enqueue_launch, &l, err, len));
}

/* The harness's warm-up and timed launches of the variant with `loads` loads per chase. */
static bool lat_measure(struct bench_run *r, struct bench_point *pt, const struct lat_params *a,
			unsigned loads)
{
	struct lat_state *p = r->state;
	struct time_launch l = lat_launch(p, a->variant);
	char err[1024];

	if (!lat_args(p, a->variant, l.kernel, a->nodes, loads, err, sizeof(err))) {
		bench_fail(pt, "%s", err);
		return false;
	}
	return bench_point_measure(r, pt, time_enqueue_launch, &l);
}

/*
 * The launch overhead (a 0-load launch, median): once per global variant; every time for
 * the local chase, whose overhead includes copying this chain in.
 */
static bool lat_overhead(struct bench_run *r, struct bench_point *pt, const struct lat_params *a,
			 double *ns)
{
	struct lat_state *p = r->state;
	int oi = a->variant == LAT_PER_CU;

	if (a->variant != LAT_LOCAL && p->have_overhead[oi]) {
		*ns = p->overhead_ns[oi];
		return true;
	}
	if (!lat_measure(r, pt, a, 0))
		return false;
	*ns = pt->time.median;
	if (a->variant != LAT_LOCAL) {
		p->overhead_ns[oi] = *ns;
		p->have_overhead[oi] = true;
	}
	return true;
}

/*
 * Cycles per load from the kernel clock: LAT_KCLOCK_LAUNCHES launches of the clock variant
 * after the timed ones, each chase's ticks over its `loads` loads, the median over chases
 * and launches. The chases go on along the cycle: their ends are checked as the timed
 * ones' (`done` loads each before).
 */
static bool lat_clock(struct bench_run *r, const struct lat_params *a, uint64_t done,
		      double *cycles, char *err, size_t len)
{
	struct lat_state *p = r->state;
	bool local = a->variant == LAT_LOCAL;
	struct time_launch l = lat_launch(p, a->variant);
	size_t n = 0;

	l.kernel = local ? p->k_local_clock : p->k_chase_clock;
	if (!lat_args(p, a->variant, l.kernel, a->nodes, a->loads, err, len) ||
	    !CL_CHECK(clSetKernelArg(l.kernel, local ? 5 : 3, sizeof(cl_mem), &p->ticks), err, len))
		return false;
	for (unsigned k = 0; k < LAT_KCLOCK_LAUNCHES; k++) {
		if (!bench_enqueue_once(r, time_enqueue_launch, &l, err, len) ||
		    !CL_CHECK(clEnqueueReadBuffer(r->pc.q, p->ticks, CL_TRUE, 0, (size_t)a->chases * 8,
						  p->h_ticks, 0, NULL, NULL), err, len))
			return false;
		for (uint32_t c = 0; c < a->chases; c++)
			p->kc_scratch[n++] = (double)p->h_ticks[c] / a->loads;
	}
	if (!lat_check_end(r, p, a, done + (uint64_t)LAT_KCLOCK_LAUNCHES * a->loads, err, len))
		return false;
	*cycles = kclock_median(p->kc_scratch, n);
	return true;
}

static json_t *lat_metrics(const struct bench_run *r, double ns, double overhead, double kc)
{
	json_t *m = json_object();
	bool mhz = r->dev->clock_mhz != 0;

	json_object_set_new(m, "ns_per_load", json_real(ns));
	json_object_set_new(m, "cycles_per_load", mhz ? json_real(lat_cycles(r, ns)) : json_null());
	if (!mhz)
		json_object_set_new(m, "cycles_note",
				    json_string("CL_DEVICE_MAX_CLOCK_FREQUENCY reports 0 MHz"));
	json_object_set_new(m, "launch_overhead_ns", json_real(overhead));
	if (kc >= 0) {   /* measured: the kernel clock's ticks, and their rate against event ns */
		json_object_set_new(m, "kernel_clock_cycles_per_load", json_real(kc));
		json_object_set_new(m, "kernel_clock_ticks_per_ns", ns > 0 ? json_real(kc / ns)
									  : json_null());
	}
	return m;
}

/* Overhead, start positions, the timed chases, then their end positions checked. */
static void lat_time(struct bench_run *r, struct bench_point *pt, const struct lat_params *a)
{
	const struct common_opts *co = r->co;
	struct lat_state *p = r->state;
	char err[1024] = "";
	double overhead;
	double kc = -1;
	/* every launch, warm-up and timed (as many as the harness took), moved the chases on */
	uint64_t settle = lat_settle_loads(p, a);
	bool ok = lat_overhead(r, pt, a, &overhead) && lat_start(r, p, a, err, sizeof(err)) &&
		  lat_settle(r, p, a, settle, err, sizeof(err)) && lat_measure(r, pt, a, a->loads) &&
		  lat_check_end(r, p, a, settle + (uint64_t)(co->warmup + pt->n) * a->loads, err,
				sizeof(err));

	if (ok && p->kc.scope != KCLOCK_NONE &&
	    !lat_clock(r, a, settle + (uint64_t)(co->warmup + pt->n) * a->loads, &kc, err,
		       sizeof(err))) {
		bench_fail(pt, "kernel-clock variant (%s): %s", kclock_builtin(p->kc.scope), err);
		ok = false;
		err[0] = '\0';
	}
	if (!ok) {
		if (err[0])   /* otherwise the measurement gave the reason */
			bench_fail(pt, "%s", err);
		pt->n = 0;    /* a failed chase has no time (nor keeps the overhead's samples) */
		return;
	}
	p->ns[pt->index] = lat_ns_per_load(pt->time.median, overhead, a->loads);
	p->kc_cycles[pt->index] = kc;
	pt->metrics = lat_metrics(r, p->ns[pt->index], overhead, kc);
	if (p->ns[pt->index] <= 0)
		bench_note(pt, "below the launch overhead's noise: raise --loads");
}

/*
 * The model's inputs: chases of one work-item each, one work-group per chase. Queried
 * after the launches: the local chase's local memory (its chain) is a kernel argument.
 */
static void lat_model(struct bench_run *r, struct bench_point *pt, const struct lat_params *a)
{
	const struct lat_state *p = r->state;
	bool local = a->variant == LAT_LOCAL;
	struct kernel_res res;

	prog_kernel_res(&r->pc, local ? p->k_local : p->k_chase, 1, NULL, &res);
	bench_point_model(pt, &res, 1, 0, local, a->chases);
}

static void latency_point(struct bench_run *r, struct bench_point *pt)
{
	struct lat_state *p = r->state;
	struct lat_params *a = pt->params;
	char err[sizeof(p->chain_err)];

	if (lat_params_fill(r, pt->index, a)) {   /* a new chain, checked before any timing */
		bool ok = lat_upload(r, p, a, err, sizeof(err)) && lat_check(r, p, a, err, sizeof(err));
		snprintf(p->chain_err, sizeof(p->chain_err), "%s", ok ? "" : err);
	}
	if (p->chain_err[0]) {   /* the per-CU chase shares its size's chain and its fate */
		bench_fail(pt, "%s", p->chain_err);
	} else {
		pt->validated = true;
		lat_time(r, pt, a);
		pt->validated = pt->status == POINT_OK;
	}
	lat_model(r, pt, a);
	p->n_done = pt->index + 1;
}

/* ---- the row ---- */

static void latency_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	struct lat_params a = { 0 };
	char b[32];

	lat_params_fill(r, i, &a);
	snprintf(buf, len, "%s %s", lat_variant_names[a.variant], lat_fmt_bytes(a.ws, b, sizeof(b)));
}

/* ---- bench validate ---- */

static void lat_checks(struct bench_check_plan *p)
{
	bench_check_add(p, &(struct bench_check){ .id = "latency/chains",
		.args = "--sizes 1Ki,64Ki --loads 1024 --local 1Ki",
		.desc = "pointer chases of 1 KiB and 64 KiB, one and one per compute unit, and a "
			"local-memory chain: each chain a single random cycle through every node, "
			"checked on the device, and each chase's end checked" });
}

static json_t *param_memory(const struct bench_run *r, const struct bench_point *pt)
{
	(void)r;
	return json_string(((const struct lat_params *)pt->params)->variant == LAT_LOCAL ? "local"
											 : "global");
}

static const char *const memory_names[] = { "global", "local" };

#define AT(m) BENCH_AT(struct lat_params, m)
static const struct bench_param lat_params[] = {
	{ "memory", .type = BENCH_PT_NAME, .value = param_memory, BENCH_NAMES(memory_names),
	  .help = "where the chain lives" },
	{ "variant", .type = BENCH_PT_NAME, AT(variant), BENCH_NAMES(lat_variant_names),
	  .help = "single, one chase; per-cu, one per compute unit; local, the chain in local memory" },
	{ "chases", .type = BENCH_PT_COUNT, AT(chases), .help = "work-items chasing at once, one per work-group" },
	{ "size_bytes", .type = BENCH_PT_COUNT, AT(size), .unit = "bytes", .help = "the size asked" },
	{ "working_set_bytes", .type = BENCH_PT_COUNT, AT(ws), .unit = "bytes", .help = "what the nodes span" },
	{ "nodes", .type = BENCH_PT_COUNT, AT(nodes), .help = "of the random cycle" },
	{ "stride_bytes", .type = BENCH_PT_COUNT, AT(stride), .unit = "bytes", .help = "between nodes" },
	{ "loads", .type = BENCH_PT_COUNT, AT(loads), .help = "dependent loads per launch" },
	{ "seed", .type = BENCH_PT_COUNT, AT(seed), .help = "of the random cycle" },
	{ 0 } };

const struct bench_row latency_row = {
	.cmd = {
		.name = "latency",
		.summary = "pointer-chase latency against working-set size, with plateaus",
		.synopsis = latency_synopsis,
		.flags = BENCH_DEVICE,
		.opts = latency_cli,
		.opts_size = sizeof(struct latency_opts),
		.check = latency_check,
	},
	.params_size = sizeof(struct lat_params),
	.plan = latency_plan,
	.label = latency_label,
	.point = latency_point,
	.params = lat_params,
	.cols = lat_cols,
	.joins_row = latency_joins_row,
	.title = latency_title,
	.relate = latency_relate,
	.report = latency_report,
	.teardown = latency_teardown,
	.builds = lat_builds,
	.checks = lat_checks,
};
