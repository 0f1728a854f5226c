/*
 * bench compile: what its files share, and what bench model --kernel uses of it. A session
 * compiles rows' builds (row.h: bench_builds, made by the rows' own option code) for
 * Intel GPU targets with ocloc, one job per distinct (target, file, options), in parallel,
 * and reads what the compiler made of each kernel from the zebin it wrote.
 */
#ifndef BENCH_COMPILE_RUN_H
#define BENCH_COMPILE_RUN_H

#include "tool.h"
#include "concurrent.h"
#include "igpu.h"
#include "ocloc.h"
#include "zebin.h"

/* The name compile gives the harness's copy-ceiling kernel (kernels/stream_copy.cl). */
#define COMPILE_CEILING "ceiling"

/*
 * The builds of row `bench` (a row of bench/main.c with a builds hook, or COMPILE_CEILING)
 * on dev at --sg sg (0: auto) and --grf, into b (b->bench is set). False: no such row.
 */
bool compile_describe(const char *bench, const struct dev_info *dev, unsigned sg, bool grf_large,
		      struct bench_builds *b);
/* "vecadd, occupancy, ..., ceiling": the rows compile_describe knows, into buf. */
const char *compile_row_names(char *buf, size_t len);

struct compile_job_key;

struct compile_session {
	struct ocloc oc;
	const char *kernels_dir;      /* --kernels, NULL: the built-in sources */
	char work[4096];              /* the session's temporary folder */
	struct ocloc_job *jobs;
	struct compile_job_key *keys;
	struct zebin *bins;           /* per job, after compile_session_run */
	size_t n_jobs, cap;
	char **sources;               /* files written to work/src */
	size_t n_sources;
};

/*
 * Finds ocloc (exit 77 with the install hint where there is none) and makes the session's
 * folder under $TMPDIR; false with a message.
 */
bool compile_session_open(struct compile_session *s, const char *kernels_dir, char *err,
			  size_t len);
/*
 * The job of bb on target t (an earlier job of the same file and options is shared); the
 * source is expanded (prog_source) into the session's folder. SIZE_MAX with a message.
 */
size_t compile_session_add(struct compile_session *s, const struct igpu_target *t,
			   const struct bench_build *bb, char *err, size_t len);
/* Runs every job added, `parallel` at once, and reads their zebins; false with a message. */
bool compile_session_run(struct compile_session *s, unsigned parallel, char *err, size_t len);
/*
 * What the compiler made of `kernel` in job j: NULL with the compiler's error (the build
 * failed), or the binary's fault (no such kernel, an unreadable zebin), in why.
 */
const struct zebin_kernel *compile_session_kernel(const struct compile_session *s, size_t j,
						  const char *kernel, char *why, size_t len);
void compile_session_close(struct compile_session *s);

/* The compiled kernel's record: simd, grf_count, spill/private/local bytes, barriers, ... */
json_t *compile_kernel_json(const struct zebin_kernel *k);

/* ---- bench model --kernel (bench/tools/model_kernel.c) ---- */

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
