/*
 * bench latency: pointer-chase latency against working-set size, one chase
 * and one per compute unit, with local-memory latency and the plateaus of
 * the curve. Options and the plan; the sweep runs in latency_run.c.
 */
#include "latency_host.h"
#include "check.h"
#include "subcommands.h"

#include <stdlib.h>
#include <string.h>

#define LAT_MAX_BYTES (8ull << 30)   /* node and word indices must fit 32 bits */
#define LAT_SEED_MAX ((1ull << 48) - 1)   /* exact in a JSON number */

void latency_usage(FILE *f)
{
	fprintf(f,
		"usage: bench latency [options]\n"
		"  A random cyclic chain (one cycle through every node, nodes one --stride apart)\n"
		"  is chased by one work-item: ns and cycles per dependent load against the working\n"
		"  set; the same with one chase per compute unit; and a chain in local memory.\n"
		"  --sizes LIST     working sets: SIZE or A..B items, comma-separated (K/M/G, Ki/Mi/Gi\n"
		"                   suffixes; 64..8Gi); A..B steps through each octave (default 1Ki..1Gi)\n"
		"  --steps N        sizes per octave in A..B ranges (1..16, default 4)\n"
		"  --stride BYTES   distance between nodes, a power of two 4..65536 (default: the\n"
		"                   device's cache line, at least 64)\n"
		"  --loads N        dependent loads per chase per timed launch (1..268435456, default\n"
		"                   32768); launch overhead (a 0-load launch) is subtracted\n"
		"  --chases MODE    single, per-cu or both (default both)\n"
		"  --local SIZE     local-memory chain of SIZE bytes (default 4Ki; 0: none)\n"
		"  --seed N         chain seed, 0..2^48-1; size i uses N + i (default: fresh)\n"
		"  --llc SIZE       last-level cache size for the plateau labels (default: the device's)\n"
		"  --tol PCT        plateau tolerance in percent (1..50, default 10)\n"
		"  --guide-table     show the guide's Data Center GPU Max chapter's Intel GPU latency table beside the plateaus (shown\n"
		"                   on Intel GPUs without it)\n"
		"Plateaus: sizes in order; a size joins the current plateau while its latency stays\n"
		"within --tol of the plateau's median (and the plateau's max/min within 1 + 2 tol);\n"
		"one stray point is skipped when the next one fits again; runs of 3 or more sizes are\n"
		"plateaus, shorter ones transitions; neighbouring plateaus within --tol of each other\n"
		"are joined. Labels: the first is the first-level cache;\n"
		"those starting above the last-level cache size are device memory; the last one\n"
		"before is the last-level cache; others intermediate.\n"
		COMMON_USAGE);
}

static enum lat_chases parse_chases(const char *arg)
{
	if (strcmp(arg, "single") == 0)
		return LAT_SINGLE;
	if (strcmp(arg, "per-cu") == 0)
		return LAT_PER_CU;
	if (strcmp(arg, "both") == 0)
		return LAT_BOTH;
	usage_error("--chases '%s' is not one of: single, per-cu, both", arg);
}

static void parse_args(int argc, char **argv, struct latency_opts *o, struct common_opts *co)
{
	enum { O_SIZES = OPT_BENCH_BASE, O_STEPS, O_STRIDE, O_LOADS, O_CHASES, O_LOCAL, O_SEED,
	       O_LLC, O_TOL, O_GUIDE_TABLE };
	static const struct option lo[] = {
		COMMON_LONGOPTS,
		{ "sizes", required_argument, NULL, O_SIZES },
		{ "steps", required_argument, NULL, O_STEPS },
		{ "stride", required_argument, NULL, O_STRIDE },
		{ "loads", required_argument, NULL, O_LOADS },
		{ "chases", required_argument, NULL, O_CHASES },
		{ "local", required_argument, NULL, O_LOCAL },
		{ "seed", required_argument, NULL, O_SEED },
		{ "llc", required_argument, NULL, O_LLC },
		{ "tol", required_argument, NULL, O_TOL },
		{ "guide-table", no_argument, NULL, O_GUIDE_TABLE },
		{ 0 } };
	const char *sizes = "1Ki..1Gi";
	char err[512];
	int c;

	memset(o, 0, sizeof(*o));
	o->steps = 4;
	o->loads = 32768;
	o->chases = LAT_BOTH;
	o->local_bytes = 4096;
	o->tol = 0.10;
	common_defaults(co);
	while ((c = getopt_long(argc, argv, "+:", lo, NULL)) != -1) {
		if (common_opt(co, c, optarg))
			continue;
		switch (c) {
		case O_SIZES: sizes = optarg; break;
		case O_STEPS: o->steps = (unsigned)opt_u64("steps", optarg, 1, 16); break;
		case O_STRIDE: o->stride = (unsigned)opt_size("stride", optarg, 4, 65536); break;
		case O_LOADS: o->loads = (unsigned)opt_u64("loads", optarg, 1, 1u << 28); break;
		case O_CHASES: o->chases = parse_chases(optarg); break;
		case O_LOCAL: o->local_bytes = opt_size("local", optarg, 0, 1ull << 30); break;
		case O_SEED: o->seed = opt_u64("seed", optarg, 0, LAT_SEED_MAX); o->seed_given = true; break;
		case O_LLC: o->llc = opt_size("llc", optarg, 1024, 1ull << 40); break;
		case O_TOL: o->tol = (double)opt_u64("tol", optarg, 1, 50) / 100.0; break;
		case O_GUIDE_TABLE: o->guide_table = true; break;
		case 'h': latency_usage(stdout); exit(EXIT_OK);
		default: opt_reject(c, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (o->stride & (o->stride - 1))
		usage_error("--stride %u is not a power of two (4..65536)", o->stride);
	if (o->local_bytes && (o->local_bytes < 16 || o->local_bytes % 4))
		usage_error("--local %llu: give 0, or a multiple of 4 bytes from 16",
			    (unsigned long long)o->local_bytes);
	if (!chase_sizes_parse(sizes, o->steps, 64, LAT_MAX_BYTES, &o->sizes, &o->n_sizes, err,
			       sizeof(err)))
		usage_error("--sizes %s", err);
}


/* ---- plan ---- */

static void plan_sizes(const struct bench_session *s, const struct latency_opts *o,
		       struct lat_plan *p)
{
	const struct dev_info *d = s->dev;

	p->stride = o->stride ? o->stride
			      : d->global_cacheline > 64 ? (unsigned)d->global_cacheline : 64;
	p->stride_words = p->stride / 4;
	for (size_t i = 0; i < o->n_sizes; i++) {
		if (o->sizes[i] / p->stride < 2)
			usage_error("--sizes %llu holds fewer than 2 nodes %u bytes apart (--stride): "
				    "allowed %u..%llu", (unsigned long long)o->sizes[i], p->stride,
				    2 * p->stride, (unsigned long long)LAT_MAX_BYTES);
		if (o->sizes[i] > d->max_alloc)
			usage_error("--sizes %llu exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE of '%s': at most "
				    "%llu bytes", (unsigned long long)o->sizes[i], d->name,
				    (unsigned long long)d->max_alloc);
		p->max_ws = o->sizes[i] / p->stride * p->stride > p->max_ws
				    ? o->sizes[i] / p->stride * p->stride : p->max_ws;
	}
	if (o->local_bytes > d->local_mem)
		usage_error("--local %llu exceeds CL_DEVICE_LOCAL_MEM_SIZE of '%s': at most %llu bytes",
			    (unsigned long long)o->local_bytes, d->name,
			    (unsigned long long)d->local_mem);
	p->cus = d->compute_units ? d->compute_units : 1;
	p->local_wg = d->max_wg < 256 ? (unsigned)d->max_wg : 256;
	p->llc = o->llc ? o->llc : chase_llc(d, &p->llc_source);
	if (o->llc)
		p->llc_source = "--llc";
}

static void plan_build(struct bench_session *s, struct lat_plan *p)
{
	char err[16384];
	char *log = NULL;
	struct kernel_res r;

	p->prog = prog_build(&s->pc, "latency.cl", "", &log, err, sizeof(err));
	if (!p->prog || !(p->k_chase = prog_kernel(p->prog, "chase", err, sizeof(err))) ||
	    !(p->k_check = prog_kernel(p->prog, "chase_check", err, sizeof(err))) ||
	    !(p->k_local = prog_kernel(p->prog, "chase_local", err, sizeof(err))) ||
	    !(p->k_local_check = prog_kernel(p->prog, "chase_local_check", err, sizeof(err))))
		die(EXIT_FAIL, "%s", err);
	prog_kernel_res(&s->pc, p->k_chase, 1, log, &r);
	json_object_set_new(s->doc, "kernel", prog_kernel_res_json("latency.cl", "chase", "", &r));
	prog_kernel_res(&s->pc, p->k_local, p->local_wg, log, &r);
	if (r.wg_max && p->local_wg > r.wg_max)
		p->local_wg = (unsigned)r.wg_max;
	free(log);
}

static void plan_buffers(struct bench_session *s, const struct latency_opts *o, struct lat_plan *p)
{
	char err[512];
	uint64_t nodes = p->max_ws / p->stride, lnodes = o->local_bytes / 4;
	uint64_t most = nodes > lnodes ? nodes : lnodes;

	if (!(p->buf = prog_buffer(&s->pc, CL_MEM_READ_ONLY, (size_t)p->max_ws, err, sizeof(err))) ||
	    !(p->state = prog_buffer(&s->pc, CL_MEM_READ_WRITE, (size_t)(p->cus > 4 ? p->cus : 4) * 4,
				     err, sizeof(err))) ||
	    (lnodes && !(p->lsrc = prog_buffer(&s->pc, CL_MEM_READ_ONLY, (size_t)lnodes * 4, err,
					       sizeof(err)))))
		die(EXIT_FAIL, "driver: %s", err);
	p->h_buf = calloc((size_t)(p->max_ws > o->local_bytes ? p->max_ws : o->local_bytes) / 4, 4);
	p->next = malloc((size_t)most * 4);
	p->order = malloc((size_t)most * 4);
	p->h_state = malloc((size_t)(p->cus > 4 ? p->cus : 4) * 4);
	if (!p->h_buf || !p->next || !p->order || !p->h_state)
		die(EXIT_FAIL, "out of host memory for a %llu-byte chain",
		    (unsigned long long)p->max_ws);
}

int latency_main(int argc, char **argv)
{
	struct latency_opts o;
	struct common_opts co;
	struct bench_session s;
	struct lat_plan p;
	int rc;

	parse_args(argc, argv, &o, &co);
	session_open(&s, &co, "latency");
	memset(&p, 0, sizeof(p));
	plan_sizes(&s, &o, &p);
	plan_build(&s, &p);
	if (!o.seed_given)
		o.seed = check_fresh_seed() & LAT_SEED_MAX;
	plan_buffers(&s, &o, &p);
	rc = latency_run(&s, &o, &p);
	free(o.sizes);
	return rc;
}
