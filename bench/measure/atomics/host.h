/*
 * bench atomics: the state shared by row.c (options, plan, points, the row),
 * views.c (the document's parameters, the table) and kernels.c (builds,
 * launch arguments and the exact validation).
 */
#ifndef BENCH_ATOMICS_HOST_H
#define BENCH_ATOMICS_HOST_H

#include "row.h"
#include "sgb.h"
#include "kclock.h"

/* Launches of the chain's kernel-clock variant after its timed ones. */
#define AT_KCLOCK_LAUNCHES 3

/* Contention patterns; the first five match PAT_* in kernels/atomics.cl. */
enum at_pattern {
	AT_OWN, AT_NEIGHBOURS, AT_SG, AT_WG, AT_SINGLE, AT_LOCAL, AT_LOCAL_WG, AT_CHAIN, AT_NPATTERNS
};
enum at_order { AT_RELAXED, AT_ACQ_REL, AT_NORDERS };
enum at_api { AT_API_AUTO, AT_API_C11, AT_API_1X };
/* The kernels of kernels/atomics.cl that the points launch. */
enum at_kernel { AT_K_GLOBAL, AT_K_LOCAL, AT_K_CHAIN, AT_NKERNELS };

#define AT_CHAIN_SLOTS 16u        /* the chain's counters, one per cache line (a power of two) */

static inline bool at_is_local(enum at_pattern pat)
{
	return pat == AT_LOCAL || pat == AT_LOCAL_WG;
}

/* One built program: the kernels of one memory order with one API. */
struct at_prog {
	bool built;               /* false: the order's points are skipped with `skip` */
	bool c11;                 /* atomic_fetch_add_explicit, else atomic_add */
	char options[512];
	char skip[1024];          /* why the order cannot run */
	char note[1024];          /* stated on every point of the order (fallbacks) */
	cl_program prog;
	cl_kernel k[AT_NKERNELS];
	char *build_log;
	/* the chain reading cl_khr_kernel_clock: the same options and -DKCLOCK_SCOPE, apart */
	cl_program kc_prog;
	cl_kernel k_chain_clock;
};

struct at_pair {
	enum at_pattern pat;
	enum at_order ord;
};

/* What the plan resolves once for the device. */
struct at_state {
	uint64_t items;           /* N */
	unsigned wg, groups;
	/* the sub-group layer the sg pattern groups work-items by (--sg-backend, or the first) */
	struct sgb_choice sgc;
	char sg_source[160];      /* where the sub-group width comes from, for the results */
	unsigned line_bytes, line_words;
	uint64_t llc;             /* bytes */
	const char *llc_source;
	uint64_t flush_bytes;     /* --cache cold: bytes read before each timed launch; 0: warm */
	struct at_prog prog[AT_NORDERS];
	struct at_pair list[AT_NPATTERNS * AT_NORDERS];   /* the points, in order */
	size_t n;
	/* buffers */
	uint64_t ctr_words;
	cl_mem ctr, where, out, info, ticks;
	struct kclock kc;         /* the chain's kernel clock (scope none: not read) */
	uint32_t *h_ctr, *h_where, *h_out, *h_ref, *h_sum;
};

/* One point's launch and what its validation follows. */
struct at_run {
	enum at_pattern pat;
	const struct at_prog *g;
	struct time_launch l;
	struct kernel_res res;    /* of the kernel launched, with its arguments set */
	unsigned sg_kernel;       /* max sub-group size the kernel saw (0: none) */
	uint64_t launches;        /* launches with ops > 0 since the counters were poisoned */
	double overhead_ns;       /* the chain: median of a launch of ops = 0 */
	double kc_cycles;         /* the chain: kernel-clock ticks per atomic, -1: none read */
};

/* The sub-group size the kernels require, 0: none (the driver's choice, or not the driver's). */
static inline unsigned at_sg_req(const struct at_state *p)
{
	return p->sgc.required ? p->sgc.width : 0;
}

struct atomics_opts {
	unsigned scale;           /* work-items = 1024 * scale */
	unsigned ops;             /* fetch-adds per work-item (chain: per launch) */
	unsigned wg;              /* 0: default */
	bool patterns[AT_NPATTERNS];
	bool orders[AT_NORDERS];
	unsigned api;             /* enum at_api */
};

/* One point's parameters, and what its launches measured. */
struct at_params {
	enum at_pattern pat;
	enum at_order ord;
	bool ran, c11;            /* ran: the order's program built (else skipped); c11: C11 atomics */
	char missing[128];        /* order and scope used beyond the declared capabilities ("": none) */
	bool caps_known;
	uint64_t caps;            /* CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES */
	uint64_t work_items, counters, flush_bytes;   /* flush_bytes 0: no flush */
	unsigned wg, scale, ops, items_per_counter;
	unsigned sg;              /* 0: none stated (the chain, or the driver's unknown choice) */
	const char *sg_source;    /* NULL for the chain */
	unsigned stride;          /* bytes between counters, 0: one counter per group (local-wg) */
	const struct sgb_choice *sgc; /* --sg-backend's layer, NULL: none named */
	double atomics;           /* per launch */
	double ns;                /* per atomic: launch time / atomics; chain: less the overhead */
	double overhead_ns;       /* chain: median of the 0-atomic launch */
	double kc_cycles;         /* chain: kernel-clock ticks per atomic, -1: none read */
};

/* Atomics a second for ns per atomic (0: none). */
static inline double at_per_s(double ns)
{
	return ns > 0 ? 1e9 / ns : 0;
}

/* views.c: the document's parameters (their table), the columns, the title, the notes, the labels. */
extern const struct bench_param atomics_params[];
extern const struct bench_col atomics_cols[];
void atomics_title(const struct bench_run *r, FILE *f);
int atomics_report(struct bench_run *r);
void atomics_label(const struct bench_run *r, size_t i, char *buf, size_t len);

extern const char *const at_pattern_names[AT_NPATTERNS];
extern const char *const at_order_names[AT_NORDERS];

/*
 * Builds the program of each order in orders[]: C11 atomics, or OpenCL 1.x atomic_add
 * where --api or the device asks for it (with a note), or a reason to skip its points;
 * the document's `kernels` lists them. Exits 2 for --api c11 on a device without it.
 */
void at_build(struct bench_run *r, enum at_api api, const bool *orders, struct at_state *p);
/*
 * The programs at_build makes on b->dev (bench compile): both orders' C11 programs (a refusal
 * falls back or skips, as build_order does), the 1.x one and the flush kernel; p's sub-group
 * request and work-group set.
 */
void at_builds(struct bench_builds *b, const struct at_state *p);
/* Sets t->l to the pattern's launch and every argument of its kernel; false with err. */
bool at_args(const struct at_state *p, struct at_run *t, unsigned ops, char *err, size_t len);
/*
 * The chain's kernel-clock variant, after its timed launches: AT_KCLOCK_LAUNCHES launches
 * of the same adds (t->launches counts them, so at_validate checks them exactly), each
 * launch's ticks over its `ops` atomics; *cycles: their median per atomic.
 */
bool at_clock_chain(struct bench_run *r, struct at_state *p, struct at_run *t, unsigned ops,
		    double *cycles, char *err, size_t len);
/* Sets the launch's ops argument alone. */
bool at_set_ops(const struct at_run *t, cl_uint ops, char *err, size_t len);
/* Fills the buffers the pattern's launch writes with CHECK_POISON. */
bool at_poison(struct bench_run *r, const struct at_state *p, enum at_pattern pat, char *err,
	       size_t len);
/*
 * Checks the buffers exactly after t->launches launches of `ops` adds each; the first
 * time (first) also what the kernel recorded of its launch and the counter each
 * work-item used (t->sg_kernel is set).
 */
bool at_validate(struct bench_run *r, struct at_state *p, struct at_run *t, unsigned ops,
		 bool first, char *err, size_t len);

#endif
