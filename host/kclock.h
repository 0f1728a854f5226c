/*
 * cl_khr_kernel_clock: whether a device lets a kernel read its own clock, at which
 * scopes (CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR), the scope the timed variants read
 * (kernels/kernel_clock.h) and its part of the results document.
 */
#ifndef BENCH_KCLOCK_H
#define BENCH_KCLOCK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dev_info;

/* The scopes, as KCLOCK_SCOPE of kernels/kernel_clock.h numbers them. */
enum kclock_scope { KCLOCK_NONE, KCLOCK_DEVICE, KCLOCK_WORK_GROUP, KCLOCK_SUB_GROUP };

struct kclock {
	bool offered;             /* cl_khr_kernel_clock in CL_DEVICE_EXTENSIONS */
	uint64_t caps;            /* CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR, 0 where not offered */
	enum kclock_scope scope;  /* what the clock variants read; KCLOCK_NONE: none read */
	char options[48];         /* their build option, "-DKCLOCK_SCOPE=3" */
	char reason[512];         /* why no clock is read ("" while one is) */
};

/*
 * Queries d and picks the narrowest scope offered (sub-group, then work-group, then
 * device): the timed chain is one work-item, and a clock that need only agree within its
 * sub-group may sit closest to the hardware thread that runs it.
 */
void kclock_pick(const struct dev_info *d, struct kclock *k);

/* Gives the clock up (a variant that failed to build or to run): scope none, reason. */
void kclock_drop(struct kclock *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "device", "work_group", "sub_group"; NULL for KCLOCK_NONE. */
const char *kclock_scope_name(enum kclock_scope s);
/* "clock_read_sub_group" ...; NULL for KCLOCK_NONE. */
const char *kclock_builtin(enum kclock_scope s);

/*
 * The document's kernel_clock: {offered, scopes, scope, builtin, measured, launches,
 * reason, note}; `what` names what the clock times ("the chain of dependent loads").
 */
json_t *kclock_json(const struct kclock *k, const char *what, unsigned launches);

/*
 * A title's two lines on cycles: those from the nominal clock (clock_mhz, 0 where the
 * device reports none) and those read inside the kernel, `what` naming them ("clock
 * cycles"), `launches` the untimed launches that read them.
 */
void kclock_print_title(FILE *f, const struct kclock *k, uint32_t clock_mhz, const char *what,
			unsigned launches);

/* Median of v[0..n) (reorders v); 0 for n = 0. */
double kclock_median(double *v, size_t n);

#endif
