/* bench: GPU thread-mapping and occupancy benchmarks. One table of subcommands. */
#include "bench.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int list_main(void *opts);

static const struct bench_ops list_bench = {
	.name = "list",
	.summary = "list the subcommands",
	.synopsis = "usage: bench list\n  Lists the subcommands with a line each.\n",
	.main = list_main,
};

static const struct bench_ops *const benches[] = {
	&list_bench, &info_bench, &vecadd_bench, &model_bench, &occupancy_bench, &sg_info_bench,
	&sg_copy_bench, &transpose_bench, &atomics_bench, &latency_bench, &locality_bench,
	&compile_bench, &compare_bench, &export_bench, &report_bench, &validate_bench, &suite_bench,
};
#define N_BENCHES (sizeof(benches) / sizeof(benches[0]))

const struct bench_ops *bench_find(const char *name)
{
	for (size_t i = 0; i < N_BENCHES; i++)
		if (strcmp(name, benches[i]->name) == 0)
			return benches[i];
	return NULL;
}

const struct bench_ops *bench_row(size_t i)
{
	return i < N_BENCHES ? benches[i] : NULL;
}

static int list_main(void *opts)
{
	(void)opts;
	for (size_t i = 0; i < N_BENCHES; i++)
		printf("%-12s %s\n", benches[i]->name, benches[i]->summary);
	return EXIT_OK;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bench [--help|--version] <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < N_BENCHES; i++)
		fprintf(f, "  %-12s %s\n", benches[i]->name, benches[i]->summary);
	fprintf(f, "\n'bench <command> --help' describes each command's options.\n"
		   "Exit codes: 0 ok, 1 a point or check failed, 2 bad usage, 77 no capable device.\n");
}

int main(int argc, char **argv)
{
	cli_argc = argc;
	cli_argv = argv;
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
	const struct bench_ops *ops = bench_find(argv[1]);
	if (ops) {
		cli_cmd = ops->name;
		return bench_run_main(ops, argc - 1, argv + 1);
	}
	fprintf(stderr, "bench: usage: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
