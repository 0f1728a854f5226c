/*
 * bench atomics: fetch-add throughput by contention pattern and memory order,
 * and the latency of a dependent chain of atomics (the guide's Data Center GPU Max chapter). Options and the
 * plan; the points run in atomics_run.c.
 */
#include "atomics_host.h"
#include "chase.h"
#include "check.h"
#include "subcommands.h"

#include <stdlib.h>
#include <string.h>

const char *const at_pattern_names[AT_NPATTERNS] = {
	"own", "neighbours", "sg", "wg", "single", "local", "local-wg", "chain" };
const char *const at_order_names[AT_NORDERS] = { "relaxed", "acq_rel" };

void atomics_usage(FILE *f)
{
	fprintf(f,
		"usage: bench atomics [options]\n"
		"  N = 1024 x --scale work-items each do --ops fetch-adds of their own value 2i+1;\n"
		"  sub-group size 32 is required where the device can require it.\n"
		"  --patterns LIST  comma-separated, or 'all' (default):\n"
		"                   own         own counter on its own cache line\n"
		"                   neighbours  own counter, adjacent 4-byte words (the guide's layout:\n"
		"                               cache-line-size / 4 work-items share a line)\n"
		"                   sg          one counter per sub-group (fixed width 32, or the warp\n"
		"                               size, where the device has no sub-groups)\n"
		"                   wg          one counter per work-group\n"
		"                   single      one counter for all work-items\n"
		"                   local       own counter in local memory\n"
		"                   local-wg    one local-memory counter per work-group\n"
		"                   chain       one work-item, each atomic's result picks the next\n"
		"                               counter: latency in ns and cycles\n"
		"  --orders LIST    relaxed,acq_rel (default both); device scope on global memory,\n"
		"                   work-group scope on local memory\n"
		"  --api auto|c11|1.x  atomic_fetch_add_explicit (OpenCL C 2.0/3.0) or atomic_add\n"
		"                   (OpenCL 1.x, no memory order: acq_rel points are skipped);\n"
		"                   auto: c11 where the device offers OpenCL C 2.0 or later (default)\n"
		"  --scale N        work-items = 1024 x N (1..65536, default 1)\n"
		"  --ops N          fetch-adds per work-item (1..1048576, default 1024)\n"
		"  --wg N           work-group size (default 256, or the device maximum if lower)\n"
		"  --flush          write a buffer of max(2 x last-level cache, 64 MiB) between timed\n"
		"                   launches (outside the timed event)\n"
		"  --llc SIZE       last-level cache size for --flush (default: the device's figure)\n"
		"Per point: median launch time, atomics/s and ns per atomic (launch time / atomics:\n"
		"the reciprocal throughput; chain: the latency of one atomic, the launch overhead of\n"
		"a 0-op launch subtracted); cycles from the nominal CL_DEVICE_MAX_CLOCK_FREQUENCY.\n"
		"Counters start poisoned (0xDEADBEEF) and are checked exactly after the first launch\n"
		"and after all of them; a point the device cannot run is skipped with the reason.\n"
		COMMON_USAGE);
}

static void parse_args(int argc, char **argv, struct atomics_opts *o, struct common_opts *co)
{
	enum { O_PATTERNS = OPT_BENCH_BASE, O_ORDERS, O_API, O_SCALE, O_OPS, O_WG, O_FLUSH, O_LLC };
	static const struct option lo[] = {
		COMMON_LONGOPTS,
		{ "patterns", required_argument, NULL, O_PATTERNS },
		{ "orders", required_argument, NULL, O_ORDERS },
		{ "api", required_argument, NULL, O_API },
		{ "scale", required_argument, NULL, O_SCALE },
		{ "ops", required_argument, NULL, O_OPS },
		{ "wg", required_argument, NULL, O_WG },
		{ "flush", no_argument, NULL, O_FLUSH },
		{ "llc", required_argument, NULL, O_LLC },
		{ 0 } };
	int c;

	memset(o, 0, sizeof(*o));
	o->scale = 1;
	o->ops = 1024;
	for (size_t i = 0; i < AT_NPATTERNS; i++)
		o->patterns[i] = true;
	o->orders[AT_RELAXED] = o->orders[AT_ACQ_REL] = true;
	common_defaults(co);
	while ((c = getopt_long(argc, argv, "+:", lo, NULL)) != -1) {
		if (common_opt(co, c, optarg))
			continue;
		switch (c) {
		case O_PATTERNS: opt_names("patterns", optarg, at_pattern_names, AT_NPATTERNS, o->patterns); break;
		case O_ORDERS: opt_names("orders", optarg, at_order_names, AT_NORDERS, o->orders); break;
		case O_API:
			if (strcmp(optarg, "auto") == 0) o->api = AT_API_AUTO;
			else if (strcmp(optarg, "c11") == 0) o->api = AT_API_C11;
			else if (strcmp(optarg, "1.x") == 0) o->api = AT_API_1X;
			else usage_error("--api '%s' is not one of: auto, c11, 1.x", optarg);
			break;
		case O_SCALE: o->scale = (unsigned)opt_u64("scale", optarg, 1, 65536); break;
		case O_OPS: o->ops = (unsigned)opt_u64("ops", optarg, 1, 1u << 20); break;
		case O_WG: o->wg = (unsigned)opt_u64("wg", optarg, 1, 1u << 20); break;
		case O_FLUSH: o->flush = true; break;
		case O_LLC: o->llc = opt_size("llc", optarg, 1024, 1ull << 40); break;
		case 'h': atomics_usage(stdout); exit(EXIT_OK);
		default: opt_reject(c, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (o->llc && !o->flush)
		usage_error("--llc sizes the --flush buffer: give --flush too");
}


/* ---- plan: launch shape, sub-groups, memory ---- */

static void plan_shape(const struct bench_session *s, const struct atomics_opts *o,
		       struct at_plan *p)
{
	const struct dev_info *d = s->dev;

	p->items = 1024ull * o->scale;
	if (dev_can_require_sg(d, 32)) {
		p->sg_req = 32;
		p->sg_source = "required (cl_intel_required_subgroup_size)";
	} else if (dev_has_subgroups(d)) {
		p->sg_source = "chosen by the driver (32 cannot be required)";
	} else {
		p->sg_width = d->nv_warp_size ? d->nv_warp_size : 32;
		p->sg_source = d->nv_warp_size ? "no sub-groups: fixed width = warp size "
						 "(CL_DEVICE_WARP_SIZE_NV)"
					       : "no sub-groups: fixed width 32";
	}
	p->wg = o->wg ? o->wg : (unsigned)(d->max_wg < 256 ? d->max_wg : 256);
	if (p->wg > d->max_wg || p->wg > d->max_item_sizes[0])
		usage_error("--wg %u exceeds the device's work-group limit on '%s': allowed 1..%zu",
			    p->wg, d->name, d->max_wg < d->max_item_sizes[0] ? d->max_wg
									     : d->max_item_sizes[0]);
	if (p->items % p->wg)
		usage_error("--wg %u does not divide the %llu work-items (1024 x --scale %u)", p->wg,
			    (unsigned long long)p->items, o->scale);
	if (p->sg_req && p->wg % p->sg_req)
		usage_error("--wg %u is not a multiple of the required sub-group size %u", p->wg,
			    p->sg_req);
	if ((uint64_t)p->wg * 4 > d->local_mem)
		usage_error("--wg %u needs %u bytes of local memory for the local pattern; '%s' has "
			    "%llu", p->wg, p->wg * 4, d->name, (unsigned long long)d->local_mem);
	p->groups = (unsigned)(p->items / p->wg);
	p->line_bytes = d->global_cacheline > 64 ? (unsigned)d->global_cacheline : 64;
	p->line_words = p->line_bytes / 4;
}

static void plan_memory(const struct bench_session *s, const struct atomics_opts *o,
			struct at_plan *p)
{
	const struct dev_info *d = s->dev;
	uint64_t bytes;

	p->ctr_words = p->items * p->line_words;
	bytes = p->ctr_words * 4;
	if (bytes > d->max_alloc)
		usage_error("--scale %u needs a counter buffer of %llu bytes (%llu work-items x %u-byte "
			    "lines), above CL_DEVICE_MAX_MEM_ALLOC_SIZE of '%s': at most %llu bytes",
			    o->scale, (unsigned long long)bytes, (unsigned long long)p->items,
			    p->line_bytes, d->name, (unsigned long long)d->max_alloc);
	p->llc = o->llc ? o->llc : chase_llc(d, &p->llc_source);
	if (o->llc)
		p->llc_source = "--llc";
	if (!o->flush)
		return;
	p->flush_bytes = 2 * p->llc > (64ull << 20) ? 2 * p->llc : 64ull << 20;
	p->flush_bytes = (p->flush_bytes + 4095) & ~4095ull;
	if (p->flush_bytes > d->max_alloc || p->flush_bytes / 4 > UINT32_MAX)
		usage_error("--flush needs a buffer of %llu bytes (2 x the %llu-byte last-level "
			    "cache, at least 64 MiB), above CL_DEVICE_MAX_MEM_ALLOC_SIZE of '%s': at "
			    "most %llu bytes", (unsigned long long)p->flush_bytes,
			    (unsigned long long)p->llc, d->name, (unsigned long long)d->max_alloc);
}


/* ---- plan: programs ---- */

/* -cl-std for OpenCL C 2.0/3.0 atomics (an OpenCL 3.0 device must accept CL3.0). */
static const char *c11_std(const struct dev_info *d)
{
	if (d->c_major >= 3 || d->api_major >= 3)
		return "-cl-std=CL3.0";
	return d->c_major == 2 ? "-cl-std=CL2.0" : NULL;
}

/* First line of a build error, for a point's reason. */
static void first_line(const char *msg, char *out, size_t len)
{
	size_t n = strcspn(msg, "\n");

	snprintf(out, len, "%.*s", (int)(n < 400 ? n : 400), msg);
}

static bool build_prog(struct bench_session *s, struct at_plan *p, struct at_prog *g, bool c11,
		       enum at_order ord, char *err, size_t len)
{
	const struct dev_info *d = s->dev;
	const char *std = c11 ? c11_std(d) : NULL;
	int off;

	if (!std && dev_has_subgroups(d))
		std = d->c_major >= 3 ? "-cl-std=CL3.0" : d->c_major == 2 ? "-cl-std=CL2.0" : NULL;
	off = snprintf(g->options, sizeof(g->options), "-DAPI_C11=%d -DORDER=%s -DPOISON=0x%08xu%s%s",
		       c11, ord == AT_RELAXED ? "memory_order_relaxed" : "memory_order_acq_rel",
		       CHECK_POISON, std ? " " : "", std ? std : "");
	if (p->sg_req)
		off += snprintf(g->options + off, sizeof(g->options) - (size_t)off, " -DREQD_SG=%u",
				p->sg_req);
	if (dev_has_subgroups(d))
		snprintf(g->options + off, sizeof(g->options) - (size_t)off, " -DHAVE_SG=1%s",
			 d->has_intel_subgroups || d->has_c30_subgroups ? "" : " -DHAVE_KHR_SG=1");
	g->c11 = c11;
	g->prog = prog_build(&s->pc, "atomics.cl", g->options, &g->build_log, err, len);
	if (!g->prog)
		return false;
	if (!(g->k_global = prog_kernel(g->prog, "atomics_global", err, len)) ||
	    !(g->k_local = prog_kernel(g->prog, "atomics_local", err, len)) ||
	    !(g->k_chain = prog_kernel(g->prog, "atomics_chain", err, len)))
		die(EXIT_FAIL, "%s", err);
	return true;
}

/* Builds one order's program: c11 or 1.x as --api and the device allow. */
static void plan_order(struct bench_session *s, const struct atomics_opts *o, struct at_plan *p,
		       enum at_order ord)
{
	const struct dev_info *d = s->dev;
	struct at_prog *g = &p->prog[ord];
	bool c11_ok = c11_std(d) != NULL;
	char err[16384], line[512];

	if (o->api == AT_API_C11 && !c11_ok)
		usage_error("--api c11: '%s' offers %s only (atomic_fetch_add_explicit needs OpenCL C "
			    "2.0 or later)", d->name, d->c_version);
	if (o->api == AT_API_1X || !c11_ok) {
		if (ord == AT_ACQ_REL) {
			snprintf(g->skip, sizeof(g->skip), "OpenCL 1.x atomic_add takes no memory order: "
				 "acq_rel needs OpenCL C 2.0+ atomic_fetch_add_explicit (%s)",
				 o->api == AT_API_1X ? "--api 1.x was given" : d->c_version);
			return;
		}
		if (!build_prog(s, p, g, false, ord, err, sizeof(err)))
			die(EXIT_FAIL, "%s", err);
		snprintf(g->note, sizeof(g->note), "OpenCL 1.x atomic_add: no memory order or scope "
			 "argument (%s)", o->api == AT_API_1X ? "--api 1.x" : d->c_version);
		g->built = true;
		return;
	}
	if (build_prog(s, p, g, true, ord, err, sizeof(err))) {
		g->built = true;
		return;
	}
	first_line(err, line, sizeof(line));
	if (o->api == AT_API_C11 || ord == AT_ACQ_REL) {
		snprintf(g->skip, sizeof(g->skip), "atomic_fetch_add_explicit with %s did not build "
			 "on this device: %s", at_order_names[ord], line);
		return;
	}
	if (!build_prog(s, p, g, false, ord, err, sizeof(err)))
		die(EXIT_FAIL, "%s", err);
	snprintf(g->note, sizeof(g->note), "OpenCL 1.x atomic_add (no memory order): "
		 "atomic_fetch_add_explicit did not build: %s", line);
	g->built = true;
}

static void plan_build(struct bench_session *s, const struct atomics_opts *o, struct at_plan *p)
{
	json_t *ks = json_array();
	char err[16384];

	for (int ord = 0; ord < AT_NORDERS; ord++) {
		struct at_prog *g = &p->prog[ord];
		struct kernel_res r;
		if (!o->orders[ord])
			continue;
		plan_order(s, o, p, (enum at_order)ord);
		if (!g->built)
			continue;
		/* above CL_KERNEL_WORK_GROUP_SIZE the first launch decides (bench.h, wg_note) */
		prog_kernel_res(&s->pc, g->k_global, p->wg, g->build_log, &r);
		json_array_append_new(ks, prog_kernel_res_json("atomics.cl", "atomics_global",
							       g->options, &r));
	}
	json_object_set_new(s->doc, "kernels", ks);
	if (!p->flush_bytes)
		return;
	p->flush_prog = prog_build(&s->pc, "atomics.cl", "-DAPI_C11=0 -DPOISON=0u", NULL, err,
				   sizeof(err));
	if (!p->flush_prog || !(p->k_flush = prog_kernel(p->flush_prog, "atomics_flush", err,
							   sizeof(err))))
		die(EXIT_FAIL, "%s", err);
}

int atomics_main(int argc, char **argv)
{
	struct atomics_opts o;
	struct common_opts co;
	struct bench_session s;
	struct at_plan p;

	parse_args(argc, argv, &o, &co);
	session_open(&s, &co, "atomics");
	memset(&p, 0, sizeof(p));
	plan_shape(&s, &o, &p);
	plan_memory(&s, &o, &p);
	plan_build(&s, &o, &p);
	return atomics_run(&s, &o, &p);
}
