/*
 * bench validate: the correctness side of every benchmark as named checks, the
 * OpenCL specification's required answers on misuse, the known issues of a driver,
 * and the views (summary table, TAP, JUnit). Shared by validate.c (the command: running the
 * checks), validate_plan.c (the plan: the rows' checks and the misuse checks), validate_api.c
 * (the misuse checks) and validate_out.c (known issues and views).
 */
#ifndef BENCH_VALIDATE_OUT_H
#define BENCH_VALIDATE_OUT_H

#include "tool.h"

#define VAL_MAX_ARGS 32

/* A check's outcome, after the known issues are applied. */
enum val_res {
	VAL_PASS,
	VAL_FAIL,
	VAL_SKIP,           /* the device cannot run it (the reason says why) */
	VAL_KNOWN,          /* failed, as a known issue says it does: an expected failure */
	VAL_FIXED,          /* a known issue names it, yet it passed: the entry can go */
	VAL_BEYOND_FAIL,    /* beyond the declared capabilities, and it does not work: never a failure */
};

struct val_ctx;
struct val_check;

/* An API check: sets c->res (VAL_PASS, VAL_FAIL or VAL_SKIP) and c->reason. */
typedef void (*val_api_fn)(struct val_ctx *v, struct val_check *c);

/* One known-issues entry (validate_out.c reads the file; results/known-issues/README.md). */
struct val_known {
	const char *driver, *device, *platform, *check;   /* fnmatch patterns; NULL: any */
	const char *reason, *link;
	bool beyond_works;       /* "expect": "beyond-works": under-declared capabilities */
	unsigned matched;        /* checks it applied to */
};

/* One named check: a row run on one configuration, or an API check. */
struct val_check {
	char id[160];            /* vecadd/v3/wg=64/sg=16 */
	char suite[32];          /* its JUnit testsuite: the benchmark, or "api" */
	char desc[1024];         /* what it checks; an API check quotes the specification */
	bool beyond;             /* outside what the device declares: reported apart */
	/* a row's configuration: argv after the row's name (the harness adds the shared ones) */
	const struct bench_row *row;
	char args[256];
	unsigned retries;        /* runs again on a failed check of a measurement (residency) */
	/* or an API check */
	val_api_fn api;
	unsigned api_arg;
	/* the outcome */
	bool collected;          /* a row's points came back through the harness */
	enum val_res res;
	char reason[2048];       /* why it failed or was skipped; a note on a pass */
	json_t *params;          /* the failing (or first) point's params, NULL for API checks */
	const struct val_known *known;
	double secs;
};

/* The run: the device, its context for the API checks, the checks. */
struct val_ctx {
	const struct dev_info *dev;
	struct prog_ctx pc;
	const char *kernels_dir;
	struct val_check *c;
	size_t n, cap;
	struct val_known *known;
	size_t n_known;
	json_t *known_doc;       /* owns the strings of known[] */
};

/* ---- validate_plan.c ---- */
/* Appends a check; fmt makes its id. */
struct val_check *val_add(struct val_ctx *v, const char *suite, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Plans every row's checks for the device (each row's own). */
void val_plan_rows(struct val_ctx *v);

/* ---- validate_api.c ---- */
/* Adds the misuse checks, each citing the specification's words. */
void val_plan_api(struct val_ctx *v);

/* ---- validate_out.c ---- */
/* Reads a known-issues file; exits 2 naming the file and the member at fault. */
void val_known_load(struct val_ctx *v, const char *path);
/* Applies the entries that match the device to the outcomes. */
void val_known_apply(struct val_ctx *v);
const char *val_res_name(enum val_res r);
void val_print_table(const struct val_ctx *v, FILE *f);
void val_print_tap(const struct val_ctx *v, FILE *f);
/* Writes JUnit XML to o (reserved before any work); false with a message. */
bool val_write_junit(const struct val_ctx *v, struct outf *o, char *err, size_t len);

#endif
