/*
 * The compile wing's face: bench compile (compile.c), and the sessions of ocloc jobs
 * (session.c) that bench model --kernel uses too. A session
 * compiles rows' builds (row.h: bench_builds, made by the rows' own option code) for
 * Intel GPU targets with ocloc, one job per distinct (target, file, options), in parallel,
 * and reads what the compiler made of each kernel from the zebin it wrote.
 */
#ifndef BENCH_COMPILE_H
#define BENCH_COMPILE_H

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

#endif
