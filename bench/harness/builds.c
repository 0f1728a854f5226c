/* The builds a row describes without a device (row.h: struct bench_builds). */
#define HARNESS_LAYER HARNESS_LAYER_POINT
#include "point.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct bench_build *bench_builds_add(struct bench_builds *b, const char *file)
{
	struct bench_build *bb = bench_push(&b->v, &b->n, &b->cap, sizeof(*bb), 16);

	bb->bench = b->bench;
	bb->file = file;
	return bb;
}

void bench_build_kernel(struct bench_build *bb, const char *name, const char *variant, unsigned wg,
			const char *wg_source)
{
	if (bb->n_k == BENCH_BUILD_KERNELS)
		cli_die(EXIT_FAIL, "bench bug: more than %d kernels in one build of %s",
			BENCH_BUILD_KERNELS, bb->file);
	bb->k[bb->n_k] = (struct bench_build_kernel){ .name = name, .wg = wg, .wg_source = wg_source };
	snprintf(bb->k[bb->n_k++].variant, sizeof(bb->k[0].variant), "%s", variant);
}

void bench_build_skip(struct bench_build *bb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(bb->skip, sizeof(bb->skip), fmt, ap);
	va_end(ap);
}

void bench_builds_free(struct bench_builds *b)
{
	for (size_t i = 0; i < b->n; i++)
		json_decref(b->v[i].build);
	free(b->v);
	b->v = NULL;
	b->n = b->cap = 0;
}
