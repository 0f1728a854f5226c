/*
 * What bench vecadd (the guide's VectorAdd1-4) and bench stream (the streaming family, which
 * was vecadd's variant 5) share: the kernel kernels/vecadd.cl in its shapes, its inputs and
 * their check, the sub-group and work-group a variant launches with, the point's parameters
 * and the table's cells (common.c).
 */
#ifndef BENCH_VECADD_COMMON_H
#define BENCH_VECADD_COMMON_H

#include "row.h"
#include "sgb.h"

/* The streaming variant, and the largest number of its shapes one run builds. */
#define VECADD_STREAM 5
#define VECADD_MAX_SHAPES 64
/* The work-group of variants 3-5 when --wg is not given. */
#define VECADD_WG_DEFAULT 256
/* The sub-group variant 2 requires without --sg, where the device can require it. */
#define VECADD_SG_V2 32

extern const char *const vecadd_loop_names[2];   /* stride, block */

/* One kernel of the run: variants 1-4 have one; the streaming family one per shape. */
struct vecadd_shape {
	unsigned vec, per_item, loop;   /* loop: 0 stride, 1 block */
	cl_program prog;
	cl_kernel k;
	char *build_log;
	struct kernel_res res;
	char wg_note[160];       /* a work-group above CL_KERNEL_WORK_GROUP_SIZE that ran */
	json_t *kernel_json;
};

/* What a run resolves once for the device. */
struct vecadd_state {
	unsigned variant;
	unsigned wg;             /* work-group size, 0: driver's choice (variant 1) */
	unsigned sg_req;         /* required sub-group size, 0: none */
	const char *sg_unrequired; /* why variant 2's size was not required (SGB_UNLISTED ...) */
	struct sgb_choice sgc;   /* --sg-backend: the layer the kernel reads its sub-group through */
	uint64_t max_n;          /* largest problem of the run */
	struct vecadd_shape shape[VECADD_MAX_SHAPES];
	size_t n_shapes;
	uint64_t uploaded_n, uploaded_seed;   /* the inputs on the device (n 0: none) */
	cl_mem a, b, out, info, scratch;
	size_t chunk;            /* elements per piece of the host-side inputs and check */
	uint32_t *ha, *hb, *hout;
};

/* One point's parameters: what was asked and what the launch really ran with. */
struct vecadd_params {
	unsigned variant, wg, iter;
	uint64_t groups, n, slice, seed;
	bool wg_by_driver, barrier;
	unsigned sg_req, sg_compiled, sg_kernel, simd;
	const char *simd_source;
	const struct vecadd_shape *shape;
};

/*
 * The sub-group and work-group of a variant on the run's device: through --sg-backend's
 * layer where given, else sub-group sg (sg_given; 0: auto) where it can be required, the
 * work-group wg_opt (0: the variant's default). Exit 2 naming the limits.
 */
void vecadd_plan_launch(const struct bench_run *r, struct vecadd_state *p, bool sg_given,
			unsigned sg, unsigned wg_opt);
/* Problem sizes up to max_n elements against the device's memory (exit 2 naming the limits). */
void vecadd_plan_memory(const struct dev_info *d, struct vecadd_state *p);
/* A variant's work-group on d (--wg wg_opt, 0: its default); false with the message. */
bool vecadd_wg(const struct dev_info *d, unsigned variant, unsigned wg_opt, unsigned sg_req,
	       unsigned *wg, char *err, size_t len);
/* Builds a shape of the run's variant, with its resources and record. */
void vecadd_build_shape(struct bench_run *r, struct vecadd_state *p, struct vecadd_shape *sh);
/* One build for bench compile: a variant's shape at --sg b->sg. */
void vecadd_build(struct bench_builds *b, unsigned variant, const struct vecadd_shape *sh);
/* The buffers of max_n elements and the host pieces; refuses what the host cannot hold. */
void vecadd_alloc(struct bench_run *r, struct vecadd_state *p);
void vecadd_free(struct vecadd_state *p);
/*
 * A point of params a (set by the row) launched once at global work-items, validated, and
 * set up for the harness's timing, ceiling and model (failed with the reason otherwise).
 */
void vecadd_run_point(struct bench_run *r, struct bench_point *pt, size_t global);

extern const struct bench_param vecadd_params[];

/* The table's cells of the point's parameters. */
#define VECADD_CELL(name) \
	void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
VECADD_CELL(vecadd_cell_groups);
VECADD_CELL(vecadd_cell_items);
VECADD_CELL(vecadd_cell_wg);
VECADD_CELL(vecadd_cell_simd);
VECADD_CELL(vecadd_cell_tpwg);
VECADD_CELL(vecadd_cell_threads);
VECADD_CELL(vecadd_cell_shape);
/* "uint4 x2 block": a shape in the table and in progress lines. */
void vecadd_shape_str(const struct vecadd_shape *sh, char *b, size_t n);

#endif
