/* bench vecadd: options and the run, shared by vecadd.c (CLI) and vecadd_run.c. */
#ifndef BENCH_VECADD_HOST_H
#define BENCH_VECADD_HOST_H

#include "bench.h"

struct vecadd_opts {
	unsigned variant;        /* 1..4 */
	struct range groups;     /* work-groups per launch (variants 2-4) */
	unsigned wg;             /* --wg, 0 = variant default */
	unsigned sg;             /* --sg N, 0 with sg_auto */
	bool sg_auto, sg_given;
	unsigned iter;
	bool iter_given;
	uint64_t slice;          /* elements per group, 0 = default */
	uint64_t n;              /* total elements, 0 = default */
	uint64_t seed;
	bool seed_given;
};

/* Runs the sweep in an open session; returns the exit code. */
int vecadd_run(struct bench_session *s, struct vecadd_opts *v);

/* The kernel's counts per launch (kernels/vecadd.cl states them). */
static inline double vecadd_bytes(uint64_t n)
{
	return 12.0 * (double)n;
}

static inline double vecadd_ops(uint64_t n, unsigned iter)
{
	return (double)n * (1.0 + 4.0 * iter);
}

/* Host reference of one element: mix^iter(a + b), as the kernel computes it. */
static inline uint32_t vecadd_ref(uint32_t a, uint32_t b, unsigned iter)
{
	uint32_t v = a + b;

	for (unsigned j = 0; j < iter; j++) {
		v ^= v << 13;
		v ^= v >> 17;
		v ^= v << 5;
		v += j;
	}
	return v;
}

#endif
