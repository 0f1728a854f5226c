/*
 * bench locality: its options, plan state and typed points, shared by row.c (options,
 * plan, points, checks, the row) and report.c (columns, the summary of local
 * against remote).
 */
#ifndef BENCH_LOCALITY_HOST_H
#define BENCH_LOCALITY_HOST_H

#include "row.h"
#include "usm.h"

enum { MEM_BUFFER, MEM_USM, N_MEM };
enum { TEST_STREAM, TEST_CHASE, TEST_COPY, N_TEST };
extern const char *const loc_mem_names[N_MEM];    /* "buffer", "usm" */
extern const char *const loc_test_names[N_TEST];   /* "stream", "chase", "copy" */

struct locality_opts {
	uint64_t size;           /* bytes of each owner's buffer */
	uint64_t stride;         /* bytes between chase nodes */
	unsigned loads;          /* dependent loads per chase launch */
	bool memory[N_MEM];
	bool tests[N_TEST];
	uint64_t seed;
	bool seed_given, memory_given;
	unsigned hierarchy;      /* enum dev_hierarchy: the mode a multi-stack run needs */
};


/* A reader's kernels and its own small buffers (first written there). */
struct loc_dev {
	cl_program p_read, p_chase;
	cl_kernel k_read, k_chase;
	cl_mem out, state;
	cl_mem copy_dst;         /* the copy test's destination, first written there */
	size_t global, wg;       /* the stream's grid */
	double overhead_ns;      /* a 0-load chase launch, median */
	bool have_overhead;
};

/* The buffer an owner holds, of one memory kind. */
struct loc_buf {
	cl_mem mem;              /* MEM_BUFFER */
	void *usm;               /* MEM_USM */
	bool known;              /* the driver says where it lives */
	char how[512];           /* how the suite knows, or why it cannot */
};

struct loc_state {
	const struct bench_peers *peers;
	size_t n;                /* devices */
	struct loc_dev dev[BENCH_MAX_DEVICES];
	struct loc_buf buf[N_MEM][BENCH_MAX_DEVICES];
	struct usm_fns usm;
	uint32_t *h_buf, *next, *order, *h_out;
	uint32_t *h_copy;        /* the copy test's destination read back */
	uint64_t nodes, words, n4;
	unsigned stride_words;
	double *gbps, *ns;       /* per point, 0: none */
	double *event_gbps;      /* a copy's GB/s by its event (its figure is the host's), 0: none */
	unsigned not_transfer[N_MEM];/* per memory kind: copies between devices that timed no transfer */
};

struct loc_params {
	unsigned memory, test, owner, reader;
};

#define LA(pt) ((const struct loc_params *)(pt)->params)

/* Point i's memory, test, owner and reader (row.c). */
void loc_point_params(const struct bench_run *r, size_t i, struct loc_params *a);

/* report.c: the row's document parameters (their table), columns, title, labels and summary. */
extern const struct bench_param locality_params[];
extern const struct bench_col locality_cols[];
void locality_title(const struct bench_run *r, FILE *f);
void locality_label(const struct bench_run *r, size_t i, char *buf, size_t len);
void locality_relate(struct bench_run *r);
int locality_report(struct bench_run *r);

#endif
