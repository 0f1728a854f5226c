/*
 * bench latency: its options, plan state and typed points, shared by row.c
 * (options, plan, points, the ops row) and report.c (table, plateaus,
 * the guide's table).
 */
#ifndef BENCH_LATENCY_HOST_H
#define BENCH_LATENCY_HOST_H

#include "row.h"
#include "chase.h"
#include "kclock.h"

/* Launches of the kernel-clock variant after a point's timed ones. */
#define LAT_KCLOCK_LAUNCHES 3
/* chase_sum's work-items at most (one work-group): its partial sums read back */
#define LAT_SUM_ITEMS 256u

enum lat_variant { LAT_SINGLE, LAT_PER_CU, LAT_LOCAL };
extern const char *const lat_variant_names[LAT_LOCAL + 1];   /* "single", "per-cu", "local" */

struct latency_opts {
	const char *sizes_arg;    /* --sizes, expanded by check into sizes */
	unsigned steps;           /* sizes per octave */
	uint64_t stride;          /* bytes, 0: the device's cache line (at least 64) */
	unsigned loads;           /* dependent loads per chase per timed launch */
	unsigned chases;          /* --chases: single, per-cu, both (row.c) */
	uint64_t local_bytes;     /* local-memory chain, 0: none */
	uint64_t seed;
	unsigned tol_pct;         /* --tol */
	bool guide_table;         /* show the guide's table whatever the device */
	uint64_t l1;              /* --l1: bytes for the labels (0: unknown), where l1_given */
	/* resolved by check */
	uint64_t *sizes;          /* requested working sets, ascending */
	size_t n_sizes;
	bool single, per_cu;      /* the chases to run */
	double tol;               /* plateau tolerance, relative */
	bool seed_given, l1_given;
};

/* One point: a chase of one variant over one chain. */
struct lat_params {
	enum lat_variant variant;
	uint32_t chases;          /* work-items chasing at once, one per work-group */
	uint64_t size, ws, nodes; /* asked bytes, bytes the nodes span, nodes */
	unsigned stride;          /* bytes between nodes */
	unsigned loads;
	uint64_t seed;
};

struct lat_state {
	unsigned stride, stride_words;
	uint64_t max_ws;          /* largest working set, bytes */
	uint32_t cus;             /* chases of the per-CU variant */
	struct chase_caches caches;   /* the sizes the plateau labels follow, with their sources */
	unsigned local_wg;
	unsigned sum_wg;          /* chase_sum's work-group: the kernel's limit, at most LAT_SUM_ITEMS */
	cl_program prog;
	cl_kernel k_chase, k_sum, k_local, k_local_check;
	cl_mem buf, state, lsrc, sums;
	uint32_t *h_buf, *next, *order, *h_state, *h_sums;
	/* cl_khr_kernel_clock: the variants reading it, built apart (kernels/latency.cl) */
	struct kclock kc;
	cl_program kc_prog;
	cl_kernel k_chase_clock, k_local_clock;
	cl_mem ticks;
	uint64_t *h_ticks;
	double *kc_scratch;       /* LAT_KCLOCK_LAUNCHES x chases */
	double *kc_cycles;        /* per point: kernel-clock ticks per load, -1: none */
	double overhead_ns[2];    /* median of a 0-load launch: single, per-CU */
	bool have_overhead[2];
	char chain_err[2048];     /* why the current size's chain failed its check, "" if not */
	double *ns;               /* per point: ns per load, the overhead taken off */
	size_t n_done;            /* points whose point() has returned (a table of an
				     interrupted run joins none still in flight) */
	/* the single-chase curve and its plateaus (relate) */
	uint64_t *curve_ws;
	double *curve_ns;
	double *curve_kc;         /* kernel-clock ticks per load, -1: none */
	size_t curve_n;
	struct chase_plateau pl[64];
	size_t npl;
};

/* Nominal cycles of ns at CL_DEVICE_MAX_CLOCK_FREQUENCY. */
static inline double lat_cycles(const struct bench_run *r, double ns)
{
	return ns * r->dev->clock_mhz / 1e3;
}

/* "1.25 KiB", "48 MiB" */
const char *lat_fmt_bytes(uint64_t b, char *buf, size_t len);

/* The table (report.c): one row per size, its per-CU chase joined to its single one. */
extern const struct bench_col lat_cols[];
/* Point i is drawn in the row of point i - 1: a per-CU chase after the single one of its size. */
bool latency_joins_row(const struct bench_run *r, size_t i);
/* The lines above the table: device, chain, loads, clock. */
void latency_title(const struct bench_run *r, FILE *f);

/* The single-chase curve and its plateaus, after every point. */
void latency_relate(struct bench_run *r);
/* After the harness's table: the failed points' reasons, the plateaus and the guide's table; adds them to r->doc. */
int latency_report(struct bench_run *r);

#endif
