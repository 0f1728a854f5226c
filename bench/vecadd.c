/*
 * bench vecadd: the vector-add variants of the occupancy experiments (the guide's
 * VectorAdd1-4), swept over the number of work-groups, each point validated
 * and timed with profiling events beside a copy ceiling of the same bytes.
 */
#include "bench.h"
#include "subcommands.h"
#include "timing.h"
#include "vecadd_host.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void vecadd_usage(FILE *f)
{
	fprintf(f,
		"usage: bench vecadd [options]\n"
		"  --variant N     1: one work-item per element, local size left to the driver\n"
		"                  2: work-groups of 512 (or the device maximum), sub-group 32 where it\n"
		"                     can be required, each group adding its own slice (default)\n"
		"                  3: as 2 with --wg, --sg and --iter set by the user\n"
		"                  4: as 3 with barriers at the start and the end\n"
		"  --groups RANGE  work-groups per launch, e.g. 1..48, 1..48:4, 1,2,4,8..16, 32..1024:x2\n"
		"                  (variants 2-4; default 1..48)\n"
		"  --wg N          work-group size (variants 3-4; default 256)\n"
		"  --sg N|auto     required sub-group size (cl_intel_required_subgroup_size);\n"
		"                  auto leaves it to the driver (default: 32 where possible for\n"
		"                  variant 2, auto for 3-4)\n"
		"  --iter N        dependent xorshift rounds per element (default 0 for 1-2, 1000 for 3-4)\n"
		"  --slice N       elements per work-group (variants 2-4; default 65536 for 2, 4 x wg\n"
		"                  for 3-4); sizes take K/M/G/Ki/Mi/Gi suffixes\n"
		"  --n N           total elements: variant 1's problem (default 16Mi); for 2-4 it\n"
		"                  overrides --slice with ceil(N / groups). Streaming: --n 256Mi is\n"
		"                  1 GiB per buffer\n"
		"  --seed N        random seed for the inputs (default: fresh from the system)\n"
		COMMON_USAGE);
}

static void parse_sg(struct vecadd_opts *v, const char *arg)
{
	if (strcmp(arg, "auto") == 0) {
		v->sg_auto = true;
		v->sg = 0;
		return;
	}
	v->sg = (unsigned)opt_u64("sg", arg, 1, 1024);
	v->sg_auto = false;
}

static void parse_args(int argc, char **argv, struct vecadd_opts *v, struct common_opts *co)
{
	enum { O_VARIANT = OPT_BENCH_BASE, O_GROUPS, O_WG, O_SG, O_ITER, O_SLICE, O_N, O_SEED };
	static const struct option lo[] = {
		COMMON_LONGOPTS,
		{ "variant", required_argument, NULL, O_VARIANT },
		{ "groups", required_argument, NULL, O_GROUPS },
		{ "wg", required_argument, NULL, O_WG },
		{ "sg", required_argument, NULL, O_SG },
		{ "iter", required_argument, NULL, O_ITER },
		{ "slice", required_argument, NULL, O_SLICE },
		{ "n", required_argument, NULL, O_N },
		{ "seed", required_argument, NULL, O_SEED },
		{ 0 } };
	bool have_groups = false;
	int c;

	memset(v, 0, sizeof(*v));
	v->variant = 2;
	common_defaults(co);
	while ((c = getopt_long(argc, argv, "+:", lo, NULL)) != -1) {
		if (common_opt(co, c, optarg))
			continue;
		switch (c) {
		case O_VARIANT: v->variant = (unsigned)opt_u64("variant", optarg, 1, 4); break;
		case O_GROUPS:
			range_free(&v->groups);
			opt_range("groups", optarg, 1, 1u << 24, &v->groups);
			have_groups = true;
			break;
		case O_WG: v->wg = (unsigned)opt_u64("wg", optarg, 1, 1u << 20); break;
		case O_SG: parse_sg(v, optarg); v->sg_given = true; break;
		case O_ITER: v->iter = (unsigned)opt_u64("iter", optarg, 0, 1u << 24); v->iter_given = true; break;
		case O_SLICE: v->slice = opt_size("slice", optarg, 1, 1ull << 36); break;
		case O_N: v->n = opt_size("n", optarg, 1, 1ull << 40); break;
		case O_SEED: v->seed = opt_u64("seed", optarg, 0, UINT64_MAX); v->seed_given = true; break;
		case 'h': vecadd_usage(stdout); exit(EXIT_OK);
		default: opt_reject(c, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (v->variant == 1 && (have_groups || v->wg || v->slice))
		usage_error("--groups, --wg and --slice apply to variants 2-4; variant 1 takes --n");
	if (v->variant == 2 && v->wg)
		usage_error("--wg applies to variants 3-4 (variant 2 uses 512 or the device maximum)");
	if (!have_groups && v->variant != 1)
		opt_range("groups", "1..48", 1, 48, &v->groups);
	if (!v->iter_given)
		v->iter = v->variant >= 3 ? 1000 : 0;
	if (!v->sg_given)
		v->sg_auto = v->variant != 2;
}

int vecadd_main(int argc, char **argv)
{
	struct vecadd_opts v;
	struct common_opts co;
	struct bench_session s;
	int rc;

	parse_args(argc, argv, &v, &co);
	session_open(&s, &co, "vecadd");
	rc = vecadd_run(&s, &v);
	range_free(&v.groups);
	return rc;
}
