/*
 * The driver's own count of resident work-groups: cl_intel_concurrent_dispatch's
 * clGetKernelMaxConcurrentWorkGroupCountINTEL, the most work-groups of a kernel at a local
 * size that the driver says can run at once (the count a concurrent dispatch may launch, for
 * kernels whose work-groups wait on each other). Beside the model and the probe's
 * measurement it is the third answer for residency (docs/model.md).
 */
#ifndef BENCH_CONCURRENT_H
#define BENCH_CONCURRENT_H

#include "prog.h"

#include <jansson.h>

#define CONC_EXTENSION "cl_intel_concurrent_dispatch"
#define CONC_SOURCE "clGetKernelMaxConcurrentWorkGroupCountINTEL (" CONC_EXTENSION ")"

/* What the driver answered for one kernel and local size. */
struct conc_answer {
	bool offered;             /* the device lists the extension and its entry point was found */
	bool known;               /* the driver answered: groups is its count */
	uint64_t groups;
	char note[512];           /* not offered: why; a refusal: the call's error, named */
};

/* Whether d lists cl_intel_concurrent_dispatch. */
bool conc_offered(const struct dev_info *d);

/*
 * Asks the driver for kernel k launched in one dimension with local size wg on c's queue
 * (never fails: a.offered and a.known say what came back, a.note why not).
 */
void conc_query(const struct prog_ctx *c, cl_kernel k, size_t wg, struct conc_answer *a);

/*
 * The answer's record: {"offered", "resident_wg", "source"} and, where there is no count,
 * "reason" (not offered) or "error" (the call's).
 */
json_t *conc_json(const struct conc_answer *a);

/* Which answer the driver's count is held against, for conc_explain. */
enum conc_other { CONC_MEASURED, CONC_MODEL };

/*
 * Why the driver's count (driver) and the other answer (other) differ on d, into buf: on a
 * CPU device a work-group runs to its end on one worker thread, so the groups resident at
 * once are the threads (what the probe measures and the model counts), and a runtime's count
 * above them is how many groups a concurrent dispatch may launch, not how many run at once;
 * on a GPU, the direction (a promise beyond the device, or slots left unused).
 */
const char *conc_explain(const struct dev_info *d, uint64_t driver, uint64_t other,
			 enum conc_other what, char *buf, size_t len);

/* "32", "not offered", "refused" into buf, for a table cell. */
const char *conc_cell(const struct conc_answer *a, char *buf, size_t len);

/*
 * Marks k for concurrent dispatch (CL_KERNEL_EXEC_INFO_DISPATCH_TYPE_INTEL): its launches
 * are then limited to the driver's count, every group promised to run at once. False with
 * the error named in err.
 */
bool conc_set_dispatch(cl_kernel k, char *err, size_t len);

#endif
