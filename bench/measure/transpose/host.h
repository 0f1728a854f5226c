/*
 * What bench transpose's files share: row.c (options, plan, launches, points) and
 * views.c (the point's parameters, the table, the report, bench validate's checks).
 */
#ifndef BENCH_TRANSPOSE_H
#define BENCH_TRANSPOSE_H

#include "row.h"
#include "sg_data.h"

enum { TR_GUIDE16, TR_SHUFFLE, TR_BCAST, TR_LOCAL, TR_NAIVE, TR_NVAR };
#define TR_NTILE 2
#define TR_NVEC 3
#define TR_NEXCH 2
#define TR_NWALK 2
/* The shuffle variant's default shape, spelled as its options are: the guide's 16 x 16 tiles. */
#define TR_DEFAULT_TILE "16"
#define TR_DEFAULT_VEC "1"
#define TR_DEFAULT_PER_SG "1"
#define TR_DEFAULT_EXCHANGE "butterfly"
#define TR_DEFAULT_WALK "rows"
/*
 * On NVIDIA GPUs (warps of 32) the fastest shape measured, 8192^2 on an H100 and an H200
 * (docs/measured.md): 32 x 32 tiles, 4 ints per load and store, one tile per warp, butterflies,
 * consecutive warps down the source's columns.
 */
#define TR_NV_TILE "32"
#define TR_NV_VEC "4"
#define TR_NV_WALK "cols"
/* The sizes when --n is not given, the matrices of the guide's scale. */
#define TR_DEFAULT_N "4096,8192"
#define TR_MAX_SHAPES 64
#define TR_MAX_WORDS 128         /* words per lane per tile beyond which a shape is not built */
#define TR_SG_VARIANTS ((1u << TR_GUIDE16) | (1u << TR_SHUFFLE) | (1u << TR_BCAST))
#define TR_USES_SG(v) ((TR_SG_VARIANTS >> (v)) & 1u)

struct tr_opts {
	struct sgd_opts sg;      /* first: --variant, --wg, --sg, --seed */
	struct range n;
	bool tile[TR_NTILE], vec[TR_NVEC], exch[TR_NEXCH], walk[TR_NWALK]; /* shuffle shapes */
	struct range per_sg;     /* --tiles-per-sg */
	bool shape_default;      /* none of --tile, --vec, --tiles-per-sg, --exchange, --walk given */
};

/* One shape of the shuffle transpose and its kernel (kernels/transpose.cl, TRS_ macros). */
struct tr_shape {
	unsigned tile, vec, per_sg; /* T, V, P */
	unsigned exch;           /* the exchange, of exch_names: 0 butterfly, 1 xor (the diagonal) */
	unsigned walk;           /* the order sub-groups take tiles in, of walk_names */
	cl_program prog;
	cl_kernel k;             /* NULL with skip or fail */
	struct kernel_res res;
	char *skip, *fail;       /* heap: why it is not built, why its build failed */
	json_t *kernel_json;     /* build options and resources */
};

/* One 1-D or 2-D launch. */
struct tr_launch {
	cl_kernel k;
	cl_uint dims;
	size_t global[2], local[2];
};

struct tr_state {
	struct sgd_state d;
	cl_mem m16;              /* the guide's 16 x 16, transposed in place */
	struct tr_launch timed;  /* the launch the harness times */
	struct tr_shape shape[TR_MAX_SHAPES];
	size_t n_shapes;
};
_Static_assert(offsetof(struct tr_opts, sg) == 0 && offsetof(struct tr_state, d) == 0,
	       "sg_data.h's callbacks take the options and the state by their first members");

/* One point: a variant at one n, and what the launch ran with. */
struct tr_params {
	int variant;
	uint64_t n;
	struct tr_launch l;
	struct sgb_choice c;
	unsigned seen;           /* the maximum sub-group size the kernel saw, 0: not seen */
	unsigned shuffles;       /* per lane per tile, 0: none */
	uint64_t seed;
	const struct tr_shape *sh; /* the shuffle variant's shape, else NULL */
};

extern const char *const tr_names[TR_NVAR], *const tr_kernels[TR_NVAR];
extern const char *const tile_names[TR_NTILE], *const vec_names[TR_NVEC];
extern const char *const exch_names[TR_NEXCH], *const walk_names[TR_NWALK];

/* Bytes of one n x n matrix. */
static inline size_t tr_matrix_bytes(uint64_t n)
{
	return (size_t)(n * n * 4);
}

/* "32 v4 x2 xor cols": a shape as the table and the progress line write it. */
void tr_shape_str(const struct tr_shape *sh, char *buf, size_t len);

/* ---- views.c ---- */
extern const struct bench_param tr_params[];
extern const struct bench_col tr_cols[];
void tr_label(const struct bench_run *r, size_t i, char *buf, size_t len);
int tr_report(struct bench_run *r);
void tr_checks(struct bench_check_plan *p);

#endif
