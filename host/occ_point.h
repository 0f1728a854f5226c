/* The model beside a measurement: the live device resolved once, a prediction per point. */
#ifndef BENCH_OCC_POINT_H
#define BENCH_OCC_POINT_H

#include "occ.h"
#include "prog.h"

struct occ_live {
	bool known;               /* the model knows this device */
	struct occ_device dev;
	char note[512];           /* why unknown, or what could not be known */
};

/* Resolves the live device for the model (never fails: known says). */
void occ_live_init(struct occ_live *m, const struct dev_info *d);

/*
 * Kernel inputs from the launch and what the compiler reported: local memory
 * (CL_KERNEL_LOCAL_MEM_SIZE), NVIDIA registers (-cl-nv-verbose). simd 0 lets
 * the model use its default width.
 */
void occ_kernel_from_res(struct occ_kernel *k, const struct kernel_res *r, unsigned wg,
			 unsigned simd, bool barrier);

/*
 * Predicts a launch of `groups` work-groups and returns the point's `model`
 * object; for a device the model does not know: {"known": false, "reason": ...}
 * and r->launchable false.
 */
json_t *occ_live_point(const struct occ_live *m, const struct occ_kernel *k,
		       unsigned long long groups, struct occ_result *r);

#endif
