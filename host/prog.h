/* OpenCL context, queue, program building and kernel resource queries. */
#ifndef BENCH_PROG_H
#define BENCH_PROG_H

#include "dev.h"

/* A context and a profiling queue on one device, with the kernel source location. */
struct prog_ctx {
	const struct dev_info *dev;
	cl_context ctx;
	cl_command_queue q;
	const char *kernels_dir;   /* NULL: the copies built into the binary */
};

/* What the compiler made of one kernel (0 where the device cannot say). */
struct kernel_res {
	size_t wg_max;              /* CL_KERNEL_WORK_GROUP_SIZE */
	size_t reqd_wg;             /* CL_KERNEL_COMPILE_WORK_GROUP_SIZE[0], 0 if none required */
	size_t pref_multiple;       /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
	uint64_t local_mem;         /* CL_KERNEL_LOCAL_MEM_SIZE, bytes */
	uint64_t private_mem;       /* CL_KERNEL_PRIVATE_MEM_SIZE, bytes */
	uint64_t spill_mem;         /* CL_KERNEL_SPILL_MEM_SIZE_INTEL, bytes */
	unsigned compiled_sg;       /* CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL (required size) */
	unsigned max_sg_for_local;  /* CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE at the given local size */
	unsigned sg_count_for_local;/* CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE */
	unsigned nv_registers;      /* from the -cl-nv-verbose build log */
	bool grf_large;             /* built with an Intel GPU's large register file, which it has */
};

/* Creates the context and an in-order profiling queue. Fatal errors go to err. */
bool prog_ctx_create(struct prog_ctx *c, const struct dev_info *dev, const char *kernels_dir,
		     char *err, size_t errlen);
void prog_ctx_release(struct prog_ctx *c);
#define PROG_MAX_GROUP 16
/*
 * One context spanning n devices (of one platform: OpenCL refuses others) and a profiling
 * queue on each: c[i] is devs[i]'s, every member holding a reference to the shared context
 * (prog_ctx_release each). A buffer of the context may be used on every queue; a program
 * is built per member (prog_build builds for its member's device).
 */
bool prog_ctx_create_group(struct prog_ctx *c, size_t n, const struct dev_info *const *devs,
			   const char *kernels_dir, char *err, size_t errlen);

/*
 * Returns the source of kernel file `name` (e.g. "vecadd.cl") with its
 * `#include "NAME.h"` lines replaced by those files, from kernels_dir or the
 * built-in copies. Caller frees. NULL with a message when a file is missing.
 */
char *prog_source(const char *kernels_dir, const char *name, char *err, size_t errlen);

/*
 * Builds file `name` with `options` (plus -cl-nv-verbose where the device
 * offers it). On failure returns NULL, and err holds the error's name and the
 * build log. *log receives the build log when non-NULL (caller frees).
 */
cl_program prog_build(struct prog_ctx *c, const char *name, const char *options, char **log,
		      char *err, size_t errlen);
/*
 * prog_build for the measuring tools' own kernels (the ceiling's copy, the roof, the clock
 * probe, the cache flush), whose registers nothing reads: on NVIDIA without -cl-nv-verbose and
 * the kernel new to each build, so the driver's compute cache keeps their machine code between
 * runs (the roof's 45 kernels cost a sweep about a second each run when assembled afresh).
 */
cl_program prog_build_tool(struct prog_ctx *c, const char *name, const char *options, char **log,
			   char *err, size_t errlen);

/* Creates kernel `kname`; NULL with the error's name in err. */
cl_kernel prog_kernel(cl_program p, const char *kname, char *err, size_t errlen);

/* Fills r for kernel k launched with 1-D local size `local` (0: skip per-ND-range queries). */
void prog_kernel_res(const struct prog_ctx *c, cl_kernel k, size_t local, const char *build_log,
		     struct kernel_res *r);

/*
 * The sub-group build options of a kernel that reads its sub-group size through
 * kernels/bench_common.h (bench_record_info), with a leading space, into buf: the
 * driver's own sub-groups (intel, else khr) or none, sub-group size reqd_sg
 * required when not 0. A thin form of sgb_build_options (host/sgb.h) for callers
 * that choose no backend. Returns the length written.
 */
int prog_sg_options(const struct dev_info *d, unsigned reqd_sg, char *buf, size_t len);
/* The choice prog_sg_options builds with (host/sgb.h), for callers that add to it. */
struct sgb_choice;
void prog_sg_choice(const struct dev_info *d, unsigned reqd_sg, struct sgb_choice *c);
/* The build's record of prog_sg_options' choice (sgb_build_json). */
json_t *prog_sg_build_json(const struct dev_info *d, unsigned reqd_sg);

/* The work-group limits a kernel states, for messages about a refused launch. */
const char *prog_wg_limits(const struct kernel_res *r, char *buf, size_t len);

/* The kernel's resources as the `kernel` object of a results document. */
json_t *prog_kernel_res_json(const char *file, const char *kname, const char *options,
			     const struct kernel_res *r);

/*
 * What the compiler made of the point's kernel, for the point's JSON: spill_mem_bytes,
 * private_mem_bytes, local_mem_bytes, compiled_sg_size, grf ("large"/"small"; null where
 * nothing says), nv_registers.
 */
json_t *prog_kernel_res_point_json(const struct kernel_res *r);

/* One kernel argument: its size and value (value NULL: local memory of `size` bytes). */
struct prog_arg {
	size_t size;
	const void *value;
};
#define PROG_ARG(v) ((struct prog_arg){ sizeof(v), &(v) })
#define PROG_LOCAL(bytes) ((struct prog_arg){ (bytes), NULL })

/*
 * Sets arguments 0..n-1 of k; false with "clSetKernelArg(KERNEL, arg I): CL_NAME" in err.
 * PROG_SET_ARGS(k, err, len, PROG_ARG(a), PROG_ARG(b), ...) counts them.
 */
bool prog_set_args(cl_kernel k, const struct prog_arg *a, size_t n, char *err, size_t errlen);
#define PROG_SET_ARGS(k, err, errlen, ...)                                                    \
	prog_set_args((k), (const struct prog_arg[]){ __VA_ARGS__ },                        \
		      sizeof((const struct prog_arg[]){ __VA_ARGS__ }) / sizeof(struct prog_arg), \
		      (err), (errlen))

/* Allocates a device buffer; NULL with a message naming the size and the limits. */
cl_mem prog_buffer(const struct prog_ctx *c, cl_mem_flags flags, size_t bytes, char *err,
		   size_t errlen);

#endif
