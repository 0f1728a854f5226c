/*
 * The device wing: the tools that describe the device. bench info (info.c) lists what the
 * drivers say; bench model (model.c) is the occupancy model of a live or a table device, and
 * --kernel (kernel.c) takes its inputs from a row's kernel as the compiler built it.
 */
#ifndef BENCH_DEVICE_H
#define BENCH_DEVICE_H

#include "compile/compile.h"

/* A kernel of a row as the compiler built it for the model's device: the model's inputs. */
struct model_kernel {
	char spec[96];               /* "transpose:shuffle" */
	const struct igpu_target *t; /* the ocloc target of the model's device; NULL: from_driver */
	bool from_driver;            /* built by the live device's own driver (no Intel GPU target) */
	char compiler[416];          /* "ocloc 22.43.24595", "the driver of ..." */
	const char *file;
	char kernel[64];
	char options[768];
	struct zebin_kernel k;       /* what the compiler made of it (from_driver: simd, slm) */
	unsigned wg;                 /* the row's launch, or --wg */
	char wg_source[96];
};

/*
 * Compiles kernel spec (ROW:VARIANT, a variant of the row's builds hook) as the row builds it
 * at --sg sg and --grf, for the Intel target of the model's device (the family of `family`,
 * or the live device), or, for a live device without one (a CPU runtime), with the live
 * driver: exits 2 for an unknown spec, a device of the table with no target or a build the
 * run path skips, 77 without ocloc, 1 when the compiler refuses it. wg 0: the row's launch.
 */
void model_kernel_compile(const char *spec, const char *family, const struct dev_info *live,
			  unsigned sg, bool grf_large, unsigned wg, struct model_kernel *mk);
/* The inputs and where each comes from, as text lines and as JSON. */
void model_kernel_print(const struct model_kernel *mk, FILE *f);
json_t *model_kernel_json(const struct model_kernel *mk);

/*
 * The driver's count of resident work-groups for the kernel at mk->wg (host/concurrent.h):
 * built for the live device with the row's options and asked; a table device (live NULL) or a
 * device without cl_intel_concurrent_dispatch leaves a->known false with the reason in a->note.
 * Exits 1 naming a build the live driver refuses.
 */
void model_kernel_driver(const struct model_kernel *mk, const struct dev_info *live,
			 struct conc_answer *a);
/*
 * The three answers for the kernel: the model's resident work-groups, the driver's count and
 * where the measurement comes from (bench occupancy; no kernel runs here), each disagreement
 * explained; as lines, and as the kernel's JSON.
 */
void model_kernel_driver_print(const struct conc_answer *a, const struct dev_info *live,
			       unsigned long long model, bool known, FILE *f);
void model_kernel_driver_json(json_t *kernel, const struct conc_answer *a,
			      unsigned long long model, bool known);

#endif
