/* bench occupancy: options and the two runs (probe, waves). */
#ifndef BENCH_OCCUPANCY_HOST_H
#define BENCH_OCCUPANCY_HOST_H

#include "compat.h"

struct occ_opts {
	struct range wg, sg, slm, groups;  /* sg empty: auto; groups: --waves sweep */
	bool barrier_on, barrier_off;
	bool check, waves;
	unsigned spin;                     /* 0: calibrate */
	uint64_t fixed_groups;             /* 0: automatic launch size */
};

/* One configuration of the probe. */
struct probe_cfg {
	unsigned wg, sg;     /* sg 0: driver's choice */
	uint64_t slm;        /* bytes of local memory per work-group */
	bool barrier;
};

/* A built probe kernel. */
struct probe_kernel {
	struct probe_cfg cfg;    /* wg unused: the kernel serves every size */
	cl_program prog;
	cl_kernel k;
	char *log;
	char opts[256];
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
	double ns;               /* the launch's profiled time */
};

bool probe_build(struct bench_session *s, const struct probe_cfg *cfg, struct probe_kernel *pk,
		 char *err, size_t len);
void probe_kernel_free(struct probe_kernel *pk);
bool probe_launch(struct bench_session *s, struct probe_kernel *pk, struct probe_bufs *b,
		  unsigned wg, uint64_t groups, unsigned spin, struct probe_result *r, char *err,
		  size_t len);
void probe_bufs_free(struct probe_bufs *b);

int occ_probe_run(struct bench_session *s, struct occ_opts *o);
int occ_waves_run(struct bench_session *s, struct occ_opts *o);

#endif
