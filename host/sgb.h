/*
 * The sub-group layer, host side: one table of backends (host/sgb.c) holding each
 * backend's name, availability test, widths, build options and block I/O. Kernels
 * include kernels/bench_common.h, which spells sub-group ids, sizes, shuffles and
 * block I/O for the backend whose macro the build options define (SG_INTEL, SG_KHR,
 * SG_NV, SG_EMULATED: the table's `macro`, defined to 1); no number is shared, so
 * none is declared twice. sgb_build_options is the one place such options are made.
 */
#ifndef BENCH_SGB_H
#define BENCH_SGB_H

#include "dev.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The backends, in the order a run without --sg-backend tries them. SGB_NONE is no
 * backend: the kernel reads no sub-group figures (bench_record_info records 0).
 */
enum sgb_backend { SGB_NONE = 0, SGB_INTEL, SGB_KHR, SGB_NV, SGB_EMULATED };
#define SGB_FIRST SGB_INTEL
#define SGB_LAST SGB_EMULATED

#define SGB_NV_WARP 32           /* the nv backend's sub-group: the warp */
#define SGB_EMULATED_MAX 64      /* emulated widths: powers of two 4..64 */
#define SGB_MAX_WIDTHS 16

/* What a benchmark's kernels need of a backend, and how a run without --sg-backend picks. */
enum sgb_need {
	SGB_NEED_SHUFFLE = 1 << 0,   /* sg_shuffle, sg_shuffle_xor */
	/*
	 * Without --sg-backend: the driver's own sub-groups (intel, khr) or none, never
	 * the layer's nv or emulated ones (kernels that only report the driver's width).
	 */
	SGB_NATIVE_OR_NONE = 1 << 1,
};

/* The backend and sub-group width of a run. */
struct sgb_choice {
	enum sgb_backend backend;
	unsigned need;            /* enum sgb_need */
	bool forced;              /* named by --sg-backend */
	unsigned width;           /* width the kernels are built for; 0: the driver chooses */
	bool required;            /* width required with intel_reqd_sub_group_size */
	const char *width_source; /* where the width comes from, for the results */
	/* why a native backend left the default width to the driver (SGB_UNLISTED, SGB_NO_REQD);
	 * NULL where it required it or had none to require */
	const char *unrequired;
	/* the OpenCL C version the caller's kernel needs besides the backend (20, 30; 0: none) */
	unsigned c_version;
	const char *c_version_for; /* what needs it ("C11 atomics ..."), for the record */
	bool grf_large;           /* --grf large: an Intel GPU's large register file (sgb_set_grf) */
};

/* Why a native backend cannot require a width: sgb_choice.unrequired, --sg's message. */
#define SGB_UNLISTED "the device does not list it"
#define SGB_NO_REQD "no cl_intel_required_subgroup_size"

/* The build option of Intel's large register file (256 registers a thread, half the threads). */
#define SGB_GRF_LARGE_OPTION "-ze-opt-large-register-file"
/* Why large GRF changes nothing on Xe-LP. */
#define SGB_GRF_XE_LP_NOTE                                                                         \
	"Xe-LP has no large register file: the compiler keeps 128 registers (ocloc 22.43 for tgllp)"

/* "intel", "khr", "nv", "emulated" ("none" for SGB_NONE). */
const char *sgb_name(enum sgb_backend b);

/* Parses a backend name; false when s names none. */
bool sgb_parse(const char *s, enum sgb_backend *b);

/* Every backend's name, "intel, khr, nv, emulated", into buf (for messages). */
const char *sgb_names_str(char *buf, size_t len);

/* True for the driver's own sub-groups (intel, khr), of which CL_KERNEL_*SUB_GROUP* speak. */
bool sgb_native(enum sgb_backend b);

/* True when d can run backend b for kernels that need `need`; otherwise the reason goes to why. */
bool sgb_available(const struct dev_info *d, enum sgb_backend b, unsigned need, char *why,
		   size_t len);

/* The backends d can run for `need`, "intel, khr, emulated", into buf. */
const char *sgb_allowed_str(const struct dev_info *d, unsigned need, char *buf, size_t len);

/*
 * The backend for d: `forced` (a name, or NULL for the first available, see
 * enum sgb_need). False with a message naming the value, why the device cannot
 * run it and the backends it can, for the caller to exit 2 with.
 */
bool sgb_select(const struct dev_info *d, const char *forced, unsigned need, struct sgb_choice *c,
		char *err, size_t len);

/*
 * The widths backend b can be built for on d, ascending, into w (at most
 * SGB_MAX_WIDTHS): intel/khr (and none) the sizes d can require (none without
 * cl_intel_required_subgroup_size), nv 32, emulated the powers of two 4..64 up to
 * the device's work-group limit. Returns the count.
 */
size_t sgb_widths(const struct dev_info *d, enum sgb_backend b, unsigned *w);

/* The widths as "4, 8, 16", or "none", into buf. */
const char *sgb_widths_str(const struct dev_info *d, enum sgb_backend b, char *buf, size_t len);

/*
 * Sets c->width from --sg: `given` false takes dflt where the backend can
 * build for it (else the driver's choice, or the backend's own width);
 * `want` 0 means auto. False with a message naming the value and the widths
 * allowed when the backend cannot honour it. The one decision of a required size
 * for every row (vecadd's variants without a layer take backend SGB_NONE).
 */
bool sgb_set_width(const struct dev_info *d, struct sgb_choice *c, bool given, unsigned want,
		   unsigned dflt, char *err, size_t len);

/*
 * The build options of a kernel including bench_common.h, into buf (no leading
 * space): the backend's macro (-DSG_INTEL=1 ...), -DSG_WIDTH, -DSG_WG_MAX=wg_max
 * (wg_max 0: left out), -DREQD_SG where required, -DSG_HAS_BLOCK_IO=1 where the
 * backend has block I/O (a rule refusing it on d skips the kernel: sgb_block_io), the extension macros it
 * needs, -cl-std of the OpenCL C version sgb_opencl_c chooses (none for 1.2), and
 * SGB_GRF_LARGE_OPTION with c->grf_large on an Intel GPU. Returns the length
 * written (snprintf's count).
 */
int sgb_build_options(const struct dev_info *d, const struct sgb_choice *c, size_t wg_max,
		      char *buf, size_t len);

/*
 * The OpenCL C version c's kernels are built as (12: 1.2, 20, 30): the lowest version d
 * offers (dev_offers_c) at or above what the backend's kernels need (intel 1.2, khr 2.0
 * or 3.0) and c->c_version; why names both. 0 where d offers none high enough.
 */
unsigned sgb_opencl_c(const struct dev_info *d, const struct sgb_choice *c, char *why, size_t len);

/*
 * Whether c can have sub-group block reads/writes on d: *impl says how (intel built-ins,
 * or nv coalesced loads of the same addresses); otherwise why_not says why the point is
 * skipped: the backend has none, or a rule of the backend table refuses d at c's width
 * (intel: SIMD32 on Xe-LP and Xe-HPG), the same on a real device as offline.
 */
bool sgb_block_io(const struct dev_info *d, const struct sgb_choice *c, const char **impl,
		  char *why_not, size_t len);

/* The register-file modes by --grf's index: "small" (0), "large" (1). */
extern const char *const sgb_grf_names[2];
/* Sets c->grf_large (--grf); false with a message where d is not an Intel GPU. */
bool sgb_set_grf(const struct dev_info *d, struct sgb_choice *c, bool large, char *err, size_t len);
/* True when c's kernels get the large register file on d (asked, and Xe-HPG or Xe-HPC). */
bool sgb_grf_large(const struct dev_info *d, const struct sgb_choice *c);

/* The build's record for a point: opencl_c and why; on an Intel GPU its architecture, grf. */
json_t *sgb_build_json(const struct dev_info *d, const struct sgb_choice *c);

/* The run's backend report: chosen, forced, width, and every backend's availability. */
json_t *sgb_report_json(const struct dev_info *d, const struct sgb_choice *c);

/* Adds sg_backend, sg_width, sg_width_source, sg_size_required to a point's params. */
void sgb_params(json_t *params, const struct sgb_choice *c);

/* "sub-group backend intel (default), width 16 (required ...); nv unavailable: ..." */
void sgb_print(FILE *f, const struct dev_info *d, const struct sgb_choice *c);

#endif
