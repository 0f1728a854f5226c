/* bench: GPU thread-mapping and occupancy benchmarks. One table of subcommands. */
#include "bench.h"
#include "subcommands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int list_main(int argc, char **argv);
static void list_usage(FILE *f);

static const struct bench_ops benches[] = {
	{ "list", "list the subcommands", list_usage, list_main },
	{ "info", "report the OpenCL devices found (text or --json)", info_usage, info_main },
	{ "vecadd", "vector-add variants 1-4 swept over work-groups, with a copy ceiling",
	  vecadd_usage, vecadd_main },
	{ "model", "analytic occupancy model: tables for known or live devices", model_usage,
	  model_main },
	{ "occupancy", "measured resident work-groups against the model (--check)", occupancy_usage,
	  occupancy_main },
	{ "sg-info", "sub-group mapping of every work-item, checked for consistency", sg_info_usage,
	  sg_info_main },
	{ "sg-copy", "gather, sub-group-strided and block copies against the copy ceiling",
	  sg_copy_usage, sg_copy_main },
	{ "transpose", "shuffle, local-memory and naive matrix transposes", transpose_usage,
	  transpose_main },
	{ "atomics", "atomic fetch-add throughput and latency by contention pattern and order",
	  atomics_usage, atomics_main },
	{ "latency", "pointer-chase latency against working-set size, with plateaus",
	  latency_usage, latency_main },
};
#define N_BENCHES (sizeof(benches) / sizeof(benches[0]))

static void list_usage(FILE *f)
{
	fprintf(f, "usage: bench list\n  Lists the subcommands with a line each.\n");
}

static int list_main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		usage_error("'list' takes no arguments");
	for (size_t i = 0; i < N_BENCHES; i++)
		printf("%-12s %s\n", benches[i].name, benches[i].summary);
	return EXIT_OK;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bench [--help|--version] <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < N_BENCHES; i++)
		fprintf(f, "  %-12s %s\n", benches[i].name, benches[i].summary);
	fprintf(f, "\n'bench <command> --help' describes each command's options.\n"
		   "Exit codes: 0 ok, 1 a point or check failed, 2 bad usage, 77 no capable device.\n");
}

int main(int argc, char **argv)
{
	bench_argc = argc;
	bench_argv = argv;
	opterr = 0;
	/* NVIDIA's driver reports a kernel's registers (-cl-nv-verbose) only when it compiles
	 * it, not when it reuses its compute cache; the model needs them. */
	setenv("CUDA_CACHE_DISABLE", "1", 0);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("bench %s (%s)\n", res_tool_version(), res_tool_describe());
		return EXIT_OK;
	}
	for (size_t i = 0; i < N_BENCHES; i++) {
		if (strcmp(argv[1], benches[i].name) != 0)
			continue;
		bench_cmd = benches[i].name;
		if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
			benches[i].usage(stdout);
			return EXIT_OK;
		}
		return benches[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "bench: usage: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
