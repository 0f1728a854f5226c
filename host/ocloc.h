/*
 * Intel's offline compiler, ocloc, as a child process: found, asked its version, and run
 * for a batch of builds in parallel, each in a folder of its own, each writing a zebin.
 * ocloc needs no GPU; it uses the GPU driver's compiler (IGC), so what it builds is what the
 * driver would build for that device.
 */
#ifndef BENCH_OCLOC_H
#define BENCH_OCLOC_H

#include <stdbool.h>
#include <stddef.h>

/* What to do without ocloc: an installed bench's advice, and a build tree's (setup.sh). */
#define OCLOC_INSTALL_HINT "install Debian's intel-opencl-icd (it ships /usr/bin/ocloc)"
#define OCLOC_SETUP_HINT                                                                           \
	OCLOC_INSTALL_HINT ", or run scripts/setup.sh --intel-gpu-icd, which unpacks it into "     \
	".deps/intel-gpu without installing a driver"

struct ocloc {
	char path[4096];
	char libdir[4096];           /* "" or the unpacked driver's libraries, for the child only */
	char version[64];            /* `ocloc query OCL_DRIVER_VERSION` ("22.43.24595") */
	const char *found_by;        /* "BENCH_OCLOC", "PATH", ".deps/intel-gpu" */
};

/*
 * Finds ocloc: $BENCH_OCLOC, else on PATH, else, for the bench of a build tree, the source
 * tree's .deps/intel-gpu/usr/bin/ocloc (scripts/setup.sh --intel-gpu-icd; its libraries then
 * go on the child's LD_LIBRARY_PATH), and asks its version. False with a message where there
 * is none.
 */
bool ocloc_find(struct ocloc *o, char *err, size_t len);

/* One build: source file, target, options (in); the outcome (out). */
struct ocloc_job {
	const char *source;          /* path of the source (includes expanded) */
	const char *target;          /* ocloc -device */
	const char *options;         /* ocloc -options (clBuildProgram's options) */
	char dir[4096];              /* its folder: the log and the binary (set by ocloc_run) */
	int status;                  /* the exit code; -1: it did not run or was killed */
	int signal;                  /* the signal that ended it, 0: none */
	char *log;                   /* ocloc's output (heap), NULL if none */
	char binary[4200];           /* the zebin written ("": none) */
};

/*
 * Runs the jobs, at most `parallel` at once, each in a fresh folder under work_dir.
 * False (message in err) only where ocloc could not be started at all.
 */
bool ocloc_run(const struct ocloc *o, struct ocloc_job *jobs, size_t n, unsigned parallel,
	       const char *work_dir, char *err, size_t len);
void ocloc_job_free(struct ocloc_job *j);

/*
 * The compiler's error in a build log, on one line: its "error:" lines (at most three), or
 * else its last non-empty line.
 */
void ocloc_error(const char *log, char *out, size_t len);

/* Removes a folder made for the jobs and everything in it (no links followed). */
void ocloc_rmtree(const char *dir);

#endif
