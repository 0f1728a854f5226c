/* bench atomics: options, plan and points, shared by atomics.c (CLI, plan) and atomics_run.c. */
#ifndef BENCH_ATOMICS_HOST_H
#define BENCH_ATOMICS_HOST_H

#include "compat.h"

/* Contention patterns; the first five match PAT_* in kernels/atomics.cl. */
enum at_pattern {
	AT_OWN, AT_NEIGHBOURS, AT_SG, AT_WG, AT_SINGLE, AT_LOCAL, AT_LOCAL_WG, AT_CHAIN, AT_NPATTERNS
};
enum at_order { AT_RELAXED, AT_ACQ_REL, AT_NORDERS };
enum at_api { AT_API_AUTO, AT_API_C11, AT_API_1X };

extern const char *const at_pattern_names[AT_NPATTERNS];
extern const char *const at_order_names[AT_NORDERS];

struct atomics_opts {
	unsigned scale;           /* work-items = 1024 * scale */
	unsigned ops;             /* fetch-adds per work-item (chain: per launch) */
	unsigned wg;              /* 0: default */
	bool patterns[AT_NPATTERNS];
	bool orders[AT_NORDERS];
	enum at_api api;
	bool flush;
	uint64_t llc;             /* --llc, 0: from the device */
};

/* One built program: the kernels of one memory order with one API. */
struct at_prog {
	bool built;               /* false: the order's points are skipped with `skip` */
	bool c11;                 /* atomic_fetch_add_explicit, else atomic_add */
	char options[512];
	char skip[1024];          /* why the order cannot run */
	char note[1024];          /* stated on every point of the order (fallbacks) */
	cl_program prog;
	cl_kernel k_global, k_local, k_chain;
	char *build_log;
};

struct at_plan {
	uint64_t items;           /* N */
	unsigned wg, groups;
	unsigned sg_req;          /* required sub-group size, 0: none */
	unsigned sg_width;        /* emulated sub-group width where the device has none */
	const char *sg_source;
	unsigned line_bytes, line_words;
	uint64_t llc;             /* bytes */
	const char *llc_source;
	uint64_t flush_bytes;     /* 0: no flushing */
	struct at_prog prog[AT_NORDERS];
	cl_program flush_prog;
	cl_kernel k_flush;
	/* buffers */
	uint64_t ctr_words;
	cl_mem ctr, where, out, info, flush_buf;
	uint32_t *h_ctr, *h_where, *h_out, *h_ref, *h_sum;
};

#define AT_CHAIN_SLOTS 16u

/* Runs every requested point in an open session; returns the exit code. */
int atomics_run(struct bench_session *s, const struct atomics_opts *o, struct at_plan *p);

#endif
