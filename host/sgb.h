/*
 * Sub-group backends: which spelling of kernels/sg.h a device can run, chosen
 * per device or forced (--sg-backend), and the sub-group width the kernels
 * are built for.
 */
#ifndef BENCH_SGB_H
#define BENCH_SGB_H

#include "dev.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The values of SG_BACKEND in kernels/sg.h. */
enum sgb_backend { SGB_INTEL = 1, SGB_KHR = 2, SGB_NV = 3, SGB_EMULATED = 4 };
#define SGB_FIRST SGB_INTEL
#define SGB_LAST SGB_EMULATED

#define SGB_NV_WARP 32           /* the nv backend's sub-group: the warp */
#define SGB_EMULATED_MAX 64      /* emulated widths: powers of two 1..64 */
#define SGB_MAX_WIDTHS 16

/* The backend and sub-group width of a run. */
struct sgb_choice {
	enum sgb_backend backend;
	bool forced;              /* named by --sg-backend */
	unsigned width;           /* width the kernels are built for; 0: the driver chooses */
	bool required;            /* width required with intel_reqd_sub_group_size */
	const char *width_source; /* where the width comes from, for the results */
};

/* "intel", "khr", "nv", "emulated". */
const char *sgb_name(enum sgb_backend b);

/* Parses a backend name; false when s names none. */
bool sgb_parse(const char *s, enum sgb_backend *b);

/* True when d can run backend b; otherwise the reason goes to why. */
bool sgb_available(const struct dev_info *d, enum sgb_backend b, char *why, size_t len);

/* The backends d can run, "intel, khr, emulated", into buf. */
const char *sgb_allowed_str(const struct dev_info *d, char *buf, size_t len);

/*
 * The backend for d: `forced` (a name, or NULL for the first available of
 * intel, khr, nv, emulated). False with a message naming the value, why the
 * device cannot run it and the backends it can, for the caller to exit 2 with.
 */
bool sgb_select(const struct dev_info *d, const char *forced, struct sgb_choice *c, char *err,
		size_t len);

/*
 * The widths backend b can be built for on d, ascending, into w (at most
 * SGB_MAX_WIDTHS): intel/khr the sizes d can require (none without
 * cl_intel_required_subgroup_size), nv 32, emulated the powers of two up to
 * 64 and the device's work-group limit. Returns the count.
 */
size_t sgb_widths(const struct dev_info *d, enum sgb_backend b, unsigned *w);

/* The widths as "4, 8, 16", or "none", into buf. */
const char *sgb_widths_str(const struct dev_info *d, enum sgb_backend b, char *buf, size_t len);

/*
 * Sets c->width from --sg: `given` false takes dflt where the backend can
 * build for it (else the driver's choice, or the backend's own width);
 * `want` 0 means auto. False with a message naming the value and the widths
 * allowed when the backend cannot honour it.
 */
bool sgb_set_width(const struct dev_info *d, struct sgb_choice *c, bool given, unsigned want,
		   unsigned dflt, char *err, size_t len);

/*
 * Build options for kernels including sg.h: -DSG_BACKEND, -DSG_WIDTH,
 * -DSG_WG_MAX=wg_max, -DREQD_SG where required, the OpenCL C version the
 * backend needs. Returns the length written.
 */
int sgb_build_options(const struct dev_info *d, const struct sgb_choice *c, size_t wg_max,
		      char *buf, size_t len);

/*
 * Whether the backend offers sub-group block reads/writes: *impl says how
 * (intel built-ins, or nv coalesced loads of the same addresses); otherwise
 * *why_not says why the point is skipped.
 */
bool sgb_block_io(enum sgb_backend b, const char **impl, const char **why_not);

/* The run's backend report: chosen, forced, width, and every backend's availability. */
json_t *sgb_report_json(const struct dev_info *d, const struct sgb_choice *c);

/* Adds sg_backend, sg_width, sg_width_source, sg_size_required to a point's params. */
void sgb_params(json_t *params, const struct sgb_choice *c);

/* "sub-group backend intel (default), width 16 (required ...); nv unavailable: ..." */
void sgb_print(FILE *f, const struct dev_info *d, const struct sgb_choice *c);

#endif
