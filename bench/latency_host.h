/* bench latency: options and plan, shared by latency.c (CLI, plan) and latency_run.c. */
#ifndef BENCH_LATENCY_HOST_H
#define BENCH_LATENCY_HOST_H

#include "compat.h"
#include "chase.h"

enum lat_chases { LAT_SINGLE = 1, LAT_PER_CU = 2, LAT_BOTH = 3 };

struct latency_opts {
	uint64_t *sizes;          /* requested working sets, ascending */
	size_t n_sizes;
	unsigned steps;           /* sizes per octave */
	unsigned stride;          /* bytes, 0: the device's cache line (at least 64) */
	unsigned loads;           /* dependent loads per chase per timed launch */
	enum lat_chases chases;
	uint64_t local_bytes;     /* local-memory chain, 0: none */
	uint64_t seed;
	bool seed_given;
	uint64_t llc;             /* --llc for the labels, 0: from the device */
	double tol;               /* plateau tolerance, relative */
	bool guide_table;          /* show the guide's Data Center GPU Max chapter's Intel table whatever the device */
};

struct lat_plan {
	unsigned stride, stride_words;
	uint64_t max_ws;          /* largest working set, bytes */
	uint32_t cus;             /* chases of the per-CU variant */
	uint64_t llc;
	const char *llc_source;
	unsigned local_wg;
	cl_program prog;
	cl_kernel k_chase, k_check, k_local, k_local_check;
	cl_mem buf, state, lsrc;
	uint32_t *h_buf, *next, *order, *h_state;
	double overhead_ns[2];    /* median of a 0-load launch: single, per-CU */
	bool have_overhead[2];
};

/* Runs the sweep in an open session; returns the exit code. */
int latency_run(struct bench_session *s, const struct latency_opts *o, struct lat_plan *p);

#endif
