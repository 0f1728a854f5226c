/* Rows of benchmarks that still parse their own options (moving to the harness). */
#include "bench.h"
#include "subcommands.h"

#define LEGACY(id, nm, sum) \
	const struct bench_ops id##_bench = { .name = nm, .summary = sum, .legacy_main = id##_main, \
					      .legacy_usage = id##_usage }

LEGACY(sg_info, "sg-info", "sub-group mapping of every work-item, checked for consistency");
LEGACY(sg_copy, "sg-copy", "gather, sub-group-strided and block copies against the copy ceiling");
LEGACY(transpose, "transpose", "shuffle, local-memory and naive matrix transposes");
