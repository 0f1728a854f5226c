/*
 * What bench occupancy (row.c: the residency probe), bench barrier (barrier.c) and bench occupancy-waves
 * (occupancy_waves.c: fixed work per group against the number of groups) share:
 * common.c holds their options and plan, and builds, launches and validates
 * the probe kernel (kernels/occupancy.cl) both rows launch.
 */
#ifndef BENCH_OCCUPANCY_PROBE_H
#define BENCH_OCCUPANCY_PROBE_H

#include "row.h"
#include "concurrent.h"
#include "sgb.h"

/* --dispatch: a normal launch, or a concurrent dispatch (cl_intel_concurrent_dispatch). */
enum { OCC_DISPATCH_NORMAL, OCC_DISPATCH_CONCURRENT };

/* Without --wg: OCC_WG_STEP..MAX:OCC_WG_STEP, MAX the device's maximum, at most OCC_WG_MAX. */
#define OCC_WG_STEP 32
#define OCC_WG_MAX 1024

/* The options of both rows (each row's table names those it takes). */
struct occ_opts {
	struct range wg, sg, slm, groups;  /* sg empty: auto; groups: occupancy-waves' sweep */
	struct range rows;                 /* bench barrier: the R of local range (1, R, 128) */
	bool barrier_on, barrier_off;
	bool check, waves;                 /* waves: the spelling of occupancy-waves' alias */
	bool check_driver;                 /* --check-driver */
	unsigned dispatch;                 /* --dispatch: OCC_DISPATCH_* */
	unsigned spin;                     /* the probe: 0 calibrates */
	uint64_t fixed_groups;             /* the probe's launch size, 0: automatic */
};

void occ_parse_sg(void *base, const char *arg);
void occ_parse_barrier(void *base, const char *arg);
/* The option rows both rows take, in one wording. */
#define OCC_OPT_WG { "wg", "RANGE", CLI_RANGE, offsetof(struct occ_opts, wg), 1, 65535, \
	.help = "work-group sizes", .def_note = CLI_XSTR(OCC_WG_STEP) "..MAX:" CLI_XSTR(OCC_WG_STEP) \
	", MAX the device maximum (at most " CLI_XSTR(OCC_WG_MAX) ")" }
#define OCC_OPT_SG { "sg", "RANGE|auto", CLI_FN, 0, .fn = occ_parse_sg, .def = "auto", \
	.help = "required sub-group sizes (cl_intel_required_subgroup_size);\n" \
		"with --sg-backend, widths of that layer" }
#define OCC_OPT_SLM { "slm", "RANGE", CLI_SIZE_RANGE, offsetof(struct occ_opts, slm), 0, 1ull << 30, \
	.def = "0", .help = "local memory per work-group, bytes: a range of sizes with K/Ki\n" \
				"suffixes, e.g. 0,16Ki,32Ki or 0..48Ki:8Ki" }
#define OCC_OPT_BARRIER { "barrier", "MODE", CLI_FN, 0, .fn = occ_parse_barrier, .def = "both", \
	.help = "on, off or both: departure after a barrier, or counted per\n" \
		"work-item with no barrier in the kernel" }

/* One configuration of the probe kernel. */
struct probe_cfg {
	unsigned sg;         /* required sub-group size, 0: driver's choice */
	uint64_t slm;        /* bytes of local memory per work-group */
	bool barrier;
	bool nd3;            /* the guide's 3-D ND-range (bench barrier), ids linearised */
};

/* A built probe kernel (it serves every work-group size). */
struct probe_kernel {
	struct probe_cfg cfg;
	struct sgb_choice sgc;   /* the sub-group layer and width it was built for */
	cl_program prog;
	cl_kernel k;
	char *log;
	char opts[512];
	struct kernel_res res;
};

/* Device buffers, grown as launches grow, and host copies for validation. */
struct probe_bufs {
	cl_mem c, state, out, info;
	size_t groups_cap, items_cap;
	int32_t *hstate;
	uint32_t *hout;
	uint32_t chain[1024];    /* reference chains for chain_spin: the first chain_n */
	unsigned chain_spin;
	uint32_t chain_n;
};

/* What one validated probe launch recorded (kernels/occupancy.cl defines both counts). */
struct probe_result {
	int whole;               /* peak of groups with every work-item started and none finished */
	int occupied;            /* peak of groups with a work-item started and not all finished */
	int peak;                /* the residency compared with the model: whole on GPUs and
				    accelerators, occupied on CPUs */
	unsigned sg_kernel;      /* sub-group size read back in the kernel, 0 without sub-groups */
	double ns, wall_ns;      /* the launch's profiled and host times */
};

/* What a run resolves once: the kernels (one per configuration) and the buffers. */
struct occ_state {
	/* the sub-group backend: --sg-backend, else the driver's own sub-groups or none */
	struct sgb_choice sgc;
	struct probe_kernel *kern;
	size_t n_kern;
	struct probe_bufs bufs;
	/* --waves: fixed work per group and the model's capacity; steps found by relate */
	unsigned spin, simd;
	uint64_t cap;
	uint64_t *steps;
	size_t n_steps;
};

/* One point: its parameters and, for a measured probe point, the residency seen. */
struct occ_point {
	unsigned wg, sg_req, sg_kernel, simd, spin, nv_registers;
	uint64_t slm, local_mem, groups;
	bool barrier;
	bool measured;
	const struct sgb_choice *sgc;   /* --sg-backend: the kernel's layer; NULL: not named */
	uint64_t resident, resident_min, whole, occupied;  /* largest (min: smallest) of the reps */
	struct conc_answer driver;      /* the driver's count (probe points) */
};

/* The members of a point's params the probe's rows share (their tables, row.c and occupancy_waves.c). */
#define OCC_AT(m) BENCH_AT(struct occ_point, m)
#define OCC_PARAM_WG                                                                               \
	{ "wg_size", .type = BENCH_PT_COUNT, OCC_AT(wg), .unit = "work-items", .help = "the work-group" }
#define OCC_PARAM_GROUPS                                                                           \
	{ "groups", .type = BENCH_PT_COUNT, OCC_AT(groups), .unit = "work-groups", .help = "launched" }
#define OCC_PARAM_SPIN                                                                             \
	{ "spin", .type = BENCH_PT_COUNT, OCC_AT(spin), .help = "dependent rounds per work-item" }
#define OCC_PARAM_BARRIER                                                                          \
	{ "barrier", .type = BENCH_PT_BOOL, OCC_AT(barrier), .help = "the kernel has a work-group barrier" }
#define OCC_PARAM_SLM                                                                              \
	{ "slm_requested", .type = BENCH_PT_COUNT, OCC_AT(slm), .unit = "bytes",                  \
	  .help = "local memory asked per work-group" }

/* Per launch: the compared peak (whole on GPUs and accelerators, occupied on CPUs) and both. */
struct probe_samples {
	double *peak, *whole, *occupied;
};

/* The residency of several launches: the largest peaks (min: the smallest compared one). */
struct probe_residency {
	uint64_t resident, resident_min, whole, occupied;
};

/* The probe's build options for cfg on d, through the sub-group choice c. */
void probe_options(const struct dev_info *d, const struct sgb_choice *c, const struct probe_cfg *cfg,
		   char *buf, size_t len);
/*
 * Builds the probe for cfg with the run's sub-group backend at width cfg->sg (exits 1
 * naming a failed build).
 */
void probe_build(struct bench_run *r, const struct probe_cfg *cfg, struct probe_kernel *pk);
void probe_kernel_free(struct probe_kernel *pk);
/* The always-present buffers (counters, launch info); the others grow per launch. */
void probe_bufs_init(struct bench_run *r, struct probe_bufs *b);
void probe_bufs_free(struct probe_bufs *b);
/*
 * One launch of groups x wg work-items with `spin` rounds, timed, read back and
 * validated; false with err set (a refused enqueue is recorded for cl_last_code()).
 */
bool probe_launch(struct bench_run *r, const struct probe_kernel *pk, struct probe_bufs *b,
		  unsigned wg, uint64_t groups, unsigned spin, struct probe_result *res, char *err,
		  size_t len);
/*
 * The same for any launch of the probe: 1-D, or the guide's 3-D ND-range of a kernel built
 * with cfg.nd3 (its ids linearised, dimension 0 fastest).
 */
bool probe_launch_nd(struct bench_run *r, const struct probe_kernel *pk, struct probe_bufs *b,
		     const struct time_launch_nd *l, unsigned spin, struct probe_result *res, char *err,
		     size_t len);
/* A launch's work-items per group, groups and work-items. */
void probe_shape(const struct time_launch_nd *l, size_t *wg, size_t *groups, size_t *items);
/*
 * The residency of n launches of work-groups of wg items (out) and the `measured` object of
 * a point: the definition compared, the largest and smallest peak, per compute unit, every
 * launch's peaks.
 */
json_t *probe_measured_json(const struct bench_run *r, const struct probe_samples *m, size_t n,
			    unsigned wg, struct probe_residency *out);
/* The model's SIMD width for a kernel: its required size, else the warp (0: unknown). */
unsigned probe_simd(const struct bench_run *r, const struct probe_kernel *pk);
/* The model's resident work-groups for the probe on the live device, 0 when it cannot say. */
uint64_t probe_model_resident(const struct bench_run *r, const struct probe_kernel *pk, unsigned wg,
			      unsigned simd);

/*
 * The plan both rows start with: --wg and --slm against the device (the default --wg), the
 * sub-group backend (every --sg checked), the buffers (exit 2 naming the limits).
 */
void occ_plan_common(struct bench_run *r, struct occ_opts *o, struct occ_state *s);
/*
 * The sub-group backend: --sg-backend, every --sg checked against its widths (exit 2);
 * without it, the driver's own sub-groups or none, --sg a size to require.
 */
void occ_plan_sg(const struct bench_run *r, const struct occ_opts *o, struct occ_state *s);
/* The probe's builds at --sg b->sg (0: auto), --slm 0: without a barrier, with one, or both. */
void occ_builds_add(struct bench_builds *b, bool without, bool with);
/* One build of the probe for cfg at --sg b->sg: the kernel's variant name and work-group. */
void occ_build_add(struct bench_builds *b, const struct probe_cfg *cfg, const char *variant,
		   const char *wg_source);
void occ_teardown(struct bench_run *r);

/* ---- the three answers of a probe point: model, driver, measurement (check.c) ---- */

/*
 * After the table: what the driver answered, every disagreement between the three answers
 * (printed, and the document's `residency_answers`), and the exit code of --check (the model
 * against the measurement) and --check-driver (the driver against both).
 */
int occ_answers_report(struct bench_run *r);
/* The checks of bench validate: the probe held to the model, and to the driver where offered. */
void occ_answers_checks(struct bench_check_plan *p);

#endif
