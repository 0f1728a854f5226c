/* Rows of benchmarks that still parse their own options (moving to the harness). */
#include "bench.h"
#include "subcommands.h"

#define LEGACY(id, nm, sum) \
	const struct bench_ops id##_bench = { .name = nm, .summary = sum, .legacy_main = id##_main, \
					      .legacy_usage = id##_usage }

LEGACY(info, "info", "report the OpenCL devices found (text or --json)");
LEGACY(model, "model", "analytic occupancy model: tables for known or live devices");
LEGACY(occupancy, "occupancy", "measured resident work-groups against the model (--check)");
LEGACY(atomics, "atomics", "atomic fetch-add throughput and latency by contention pattern and order");
LEGACY(latency, "latency", "pointer-chase latency against working-set size, with plateaus");
