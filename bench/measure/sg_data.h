/*
 * What the sub-group data benchmarks (sg-copy, transpose) share: their options
 * (--wg, --sg, --seed), the backend and limits, kernels built per variant, the
 * buffers, the plan of points (variants over data sets), the point skeleton
 * (skipped and failed variants, data upload, poison, the validation read-back),
 * the figures across points and the title.
 */
#ifndef BENCH_SG_DATA_H
#define BENCH_SG_DATA_H

#include "row.h"
#include "sgb.h"

#define SGD_MAX_VARIANTS 8

/*
 * The options both take: the first member of the benchmark's options struct
 * (SGD_CLI places --wg, --sg and --seed; the benchmark's --variant table sets variant).
 */
struct sgd_opts {
	bool variant[SGD_MAX_VARIANTS];  /* --variant: the variants chosen */
	unsigned wg;             /* --wg */
	unsigned sg;             /* --sg N, 0 with auto */
	bool sg_given;
	uint64_t seed;           /* --seed of the random data */
	bool seed_given;
};

/* The work-group without --wg; the sub-group width without --sg where the layer can choose. */
#define SGD_WG_DEFAULT 256
#define SGD_SG_DEFAULT 16

#define SGD_CLI(type, member, wg_help, sg_help)                                                    \
	{ "wg", "N", CLI_UINT, offsetof(type, member.wg), 1, 1u << 20, .help = wg_help,            \
	  .def = CLI_XSTR(SGD_WG_DEFAULT) },                                                       \
	{ "sg", "N|auto", CLI_SG, offsetof(type, member.sg), .help = sg_help,                       \
	  .def_note = CLI_XSTR(SGD_SG_DEFAULT) " where the layer can choose it (nv: 32)" },        \
	{ "seed", "N", CLI_U64, offsetof(type, member.seed), 0, INT64_MAX,                          \
	  .help = "random seed for the data", .def_note = "fresh from the system" }

/* One point of the plan: one variant on one data set. */
struct sgd_item {
	int variant;
	unsigned set;            /* points of one set share the data uploaded for it */
	uint64_t size;           /* the benchmark's own measure (bytes, n) */
	size_t bytes;            /* bytes per buffer */
	uint64_t seed;
	unsigned shape;          /* the benchmark's own sub-variant (transpose: the shuffle shape) */
};

/* What a run resolves once, and its buffers: the first member of the benchmark's state. */
struct sgd_state {
	struct sgb_choice c;
	unsigned wg;
	const char *const *vnames;                 /* variant names */
	const char *size_name;                     /* what sgd_item.size is, for progress */
	cl_program prog[SGD_MAX_VARIANTS];
	size_t n_prog;
	cl_kernel k[SGD_MAX_VARIANTS];             /* by variant; NULL with skip or fail */
	struct kernel_res res[SGD_MAX_VARIANTS];
	char *skip[SGD_MAX_VARIANTS];              /* heap: why the variant is skipped */
	char *fail[SGD_MAX_VARIANTS];              /* heap: why it failed to build */
	cl_mem src, dst, cpy, info;                /* source, destination, copy target, record */
	uint32_t *hsrc, *href, *hout;              /* href NULL: the reference is hsrc */
	struct sgd_item *items;
	size_t n_items;
	unsigned loaded;                           /* the set on the device, + 1; 0: none */
	json_t *build;                             /* the build's record (sgb_build_json) */
};

/* After parsing: what was given. */
void sgd_check(struct sgd_opts *o, const struct cli_set *given);

/*
 * The run's choice on d: backend (`backend` as --sg-backend, NULL the first for `need`),
 * width (--sg, default 16 where it can be built), --grf, and --wg against them. False with
 * the message a run exits 2 with; where only the width was refused, c holds the width asked
 * (required), so that a build the run path refuses can still be given to a compiler.
 */
bool sgd_choose(const struct dev_info *d, const char *backend, const struct sgd_opts *o,
		unsigned need, bool grf_large, struct sgb_choice *c, char *err, size_t len);
/*
 * sgd_choose for the run's device (exit 2 with its message), the build's record; a fresh
 * seed where none was given.
 */
void sgd_plan_limits(struct bench_run *r, struct sgd_opts *o, unsigned need, struct sgd_state *s,
		     const char *const *vnames, const char *size_name);
/* Three buffers of `bytes` (source, destination, copy target) on d; `what` names the option. */
void sgd_check_memory(const struct dev_info *d, uint64_t bytes, const char *what);
/*
 * Builds `file` with opts and creates kname[v] for every variant v of the mask
 * `which` that is not skipped; a failed build or kernel fails those variants (the
 * run goes on). Resources at work-group `local` go to the document's "kernels".
 */
void sgd_build(struct bench_run *r, struct sgd_state *s, const char *file, const char *opts,
	       unsigned which, const char *const *kname, size_t local);
/* The buffers for data sets up to `bytes`, with a host reference when with_ref. */
void sgd_alloc(struct bench_run *r, struct sgd_state *s, size_t bytes, bool with_ref);
/* Adds a point of the plan (the caller's order is the table's), of shape 0. */
void sgd_add(struct sgd_state *s, int variant, unsigned set, uint64_t size, size_t bytes,
	     uint64_t seed);
void sgd_teardown(struct sgd_state *s);

/* ---- one point ---- */

/* False (the point skipped or failed with the reason) when the variant cannot run. */
bool sgd_ready(const struct sgd_state *s, struct bench_point *pt, int v);
/* Fills the host data of the item's set (fill) and writes hsrc to src, once per set. */
bool sgd_load(struct bench_run *r, struct sgd_state *s, const struct sgd_item *it,
	      void (*fill)(struct sgd_state *s, const struct sgd_item *it), char *err, size_t len);
/* Poisons `bytes` of out and the launch record before the validation launch. */
bool sgd_poison(struct bench_run *r, const struct sgd_state *s, cl_mem out, size_t bytes, char *err,
		size_t len);
/* Reads `words` of out and the record (bench_record_info), compares out with the reference. */
bool sgd_read_back(struct bench_run *r, struct sgd_state *s, cl_mem out, size_t words,
		   cl_uint info[4], char *err, size_t len);
/* The copy ceiling of the item's data: src to cpy, bytes each way. */
void sgd_ceiling(const struct sgd_state *s, struct bench_point *pt, const struct sgd_item *it);

/* ---- across points ---- */

/* metrics[key] = GB/s of variant v / GB/s of variant `of`, in every set where both ran. */
void sgd_ratio(struct bench_run *r, const struct sgd_state *s, int v, int of, const char *key);
/* A metric of the point, 0 when absent. */
double sgd_metric(const struct bench_point *pt, const char *key);

/* ---- bench validate ---- */

/*
 * The sub-group configurations bench validate checks of a row: every backend the device
 * offers, and each width it builds for (the emulated layer at 16, at most 256; "auto" where the
 * backend names none), a check each: id ROW/BACKEND/sg=WIDTH, args from args_fmt (its two %s:
 * the backend, the width). per_backend: one check a backend instead, ROW/BACKEND, args_fmt
 * with the backend's %s alone.
 */
void sgd_checks_each(struct bench_check_plan *p, const char *row, bool per_backend,
		     const char *args_fmt, const char *desc);

/* ---- views (r->state starts with a struct sgd_state) ---- */

/* "NAME on DEVICE (PLATFORM)" and the backend line (sgd_print_title: of any choice). */
void sgd_print_title(const struct bench_run *r, FILE *f, const struct sgb_choice *c);
void sgd_title(const struct bench_run *r, FILE *f);
/* Progress: "size=4194304 gather". */
void sgd_label(const struct bench_run *r, size_t i, char *buf, size_t len);
/* The backend's name. */
void sgd_cell_backend(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n);

#endif
