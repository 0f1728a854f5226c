/*
 * bench occupancy: what its files share. occupancy.c holds the options, the row,
 * the residency probe's points and its views; occupancy_waves.c the --waves mode;
 * occupancy_probe.c builds, launches and validates the probe (kernels/occupancy.cl).
 */
#ifndef BENCH_OCCUPANCY_H
#define BENCH_OCCUPANCY_H

#include "harness.h"
#include "sgb.h"

struct occ_opts {
	struct range wg, sg, slm, groups;  /* sg empty: auto; groups: the --waves sweep */
	bool barrier_on, barrier_off;
	bool check, waves;
	unsigned spin;                     /* 0: calibrate (probe) or 16384 (waves) */
	const char *groups_arg;            /* --groups: a range with --waves, else one number */
	uint64_t fixed_groups;             /* probe launch size, 0: automatic */
};

/* One configuration of the probe kernel. */
struct probe_cfg {
	unsigned sg;         /* required sub-group size, 0: driver's choice */
	uint64_t slm;        /* bytes of local memory per work-group */
	bool barrier;
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
	uint32_t chain[1024];    /* reference chains for chain_spin */
	unsigned chain_spin;
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
/* The model's SIMD width for a kernel: its required size, else the warp (0: unknown). */
unsigned probe_simd(const struct bench_run *r, const struct probe_kernel *pk);
/* The model's resident work-groups for the probe on the live device, 0 when it cannot say. */
uint64_t probe_model_resident(const struct bench_run *r, const struct probe_kernel *pk, unsigned wg,
			      unsigned simd);

/* --waves: the row's hooks when the run is of that mode. */
size_t waves_plan(struct bench_run *r);
void waves_label(const struct bench_run *r, size_t i, char *buf, size_t len);
void waves_point(struct bench_run *r, struct bench_point *pt);
json_t *waves_params_json(const struct occ_point *a);
void waves_title(const struct bench_run *r, FILE *f);
void waves_relate(struct bench_run *r);
int waves_report(struct bench_run *r);
extern const struct bench_col waves_cols[];

#endif
