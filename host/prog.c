/* OpenCL context, queue, program building and kernel resource queries. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue for 1.x devices */
#include "prog.h"
#include "embedded.h"
#include "pcache.h"
#include "sgb.h"

#include <CL/cl_ext.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef CL_KERNEL_SPILL_MEM_SIZE_INTEL
#define CL_KERNEL_SPILL_MEM_SIZE_INTEL 0x4109
#endif
#ifndef CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL
#define CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL 0x410A
#endif

/* Generated at build time by scripts/embed.py from kernels/. */
extern const struct embedded_file kernel_files[];
extern const size_t kernel_files_count;

bool prog_ctx_create(struct prog_ctx *c, const struct dev_info *dev, const char *kernels_dir,
		     char *err, size_t errlen)
{
	cl_int e = CL_SUCCESS;
	cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform,
					   0 };
	cl_queue_properties qprops[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };

	memset(c, 0, sizeof(*c));
	c->dev = dev;
	c->kernels_dir = kernels_dir;
	c->ctx = clCreateContext(props, 1, &dev->id, NULL, NULL, &e);
	if (e != CL_SUCCESS) {
		snprintf(err, errlen, "clCreateContext: %s", cl_err_name(e));
		return false;
	}
	if (dev->api_major >= 2)
		c->q = clCreateCommandQueueWithProperties(c->ctx, dev->id, qprops, &e);
	else
		c->q = clCreateCommandQueue(c->ctx, dev->id, CL_QUEUE_PROFILING_ENABLE, &e);
	if (e != CL_SUCCESS) {
		snprintf(err, errlen, "creating a profiling command queue: %s", cl_err_name(e));
		clReleaseContext(c->ctx);
		c->ctx = NULL;
		return false;
	}
	return true;
}

bool prog_ctx_create_group(struct prog_ctx *c, size_t n, const struct dev_info *const *devs,
			   const char *kernels_dir, char *err, size_t errlen)
{
	cl_device_id ids[PROG_MAX_GROUP];
	cl_queue_properties qprops[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
	cl_context ctx;
	cl_int e = CL_SUCCESS;

	memset(c, 0, n * sizeof(*c));
	if (n == 0 || n > PROG_MAX_GROUP) {
		snprintf(err, errlen, "bench bug: a context of %zu devices", n);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		ids[i] = devs[i]->id;
	ctx = clCreateContext(NULL, (cl_uint)n, ids, NULL, NULL, &e);
	if (e != CL_SUCCESS) {
		snprintf(err, errlen, "clCreateContext of %zu devices: %s", n, cl_err_name(e));
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		c[i].dev = devs[i];
		c[i].kernels_dir = kernels_dir;
		c[i].ctx = ctx;
		if (i)
			clRetainContext(ctx);   /* each member releases its own reference */
		c[i].q = clCreateCommandQueueWithProperties(ctx, ids[i], qprops, &e);
		if (e != CL_SUCCESS) {
			snprintf(err, errlen, "creating a profiling command queue on '%s': %s",
				 devs[i]->name, cl_err_name(e));
			for (size_t k = 0; k <= i; k++)
				prog_ctx_release(&c[k]);
			return false;
		}
	}
	return true;
}

void prog_ctx_release(struct prog_ctx *c)
{
	if (c->q)
		clReleaseCommandQueue(c->q);
	if (c->ctx)
		clReleaseContext(c->ctx);
	c->q = NULL;
	c->ctx = NULL;
}

/* The raw text of one file, from a folder or the built-in copies. */
static char *load_file(const char *dir, const char *name, char *err, size_t errlen)
{
	char path[4096];
	FILE *f;
	long len;
	char *buf;
	struct stat st;

	if (!dir) {
		for (size_t i = 0; i < kernel_files_count; i++)
			if (strcmp(kernel_files[i].name, name) == 0) {
				buf = malloc(kernel_files[i].len + 1);
				if (buf) {
					memcpy(buf, kernel_files[i].data, kernel_files[i].len);
					buf[kernel_files[i].len] = '\0';
				}
				return buf;
			}
		snprintf(err, errlen, "bench bug: no built-in kernel file '%s'", name);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot read kernel file '%s' (from --kernels): %s", path,
			 f ? "it is a folder" : strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[len] = '\0';
	fclose(f);
	if (!buf)
		snprintf(err, errlen, "cannot read kernel file '%s'", path);
	return buf;
}

/* Appends s[0..n) to *out (growing). */
static bool append(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t nc = (*len + n + 1) * 2;
		char *p = realloc(*out, nc);
		if (!p)
			return false;
		*out = p;
		*cap = nc;
	}
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = '\0';
	return true;
}

/* Appends `#line N "name"`, so a build log names the kernel file and its own line numbers. */
static bool append_line(char **out, size_t *len, size_t *cap, unsigned line, const char *name)
{
	char buf[320];
	int n = snprintf(buf, sizeof(buf), "#line %u \"%s\"\n", line, name);

	return n > 0 && (size_t)n < sizeof(buf) && append(out, len, cap, buf, (size_t)n);
}

/* Expands `#include "x"` lines from the same source set, depth-limited, with #line marks. */
static char *expand(const char *dir, const char *name, int depth, char *err, size_t errlen)
{
	char *src, *out = NULL;
	size_t len = 0, cap = 0;
	const char *p;
	unsigned line = 1;

	if (depth > 8) {
		snprintf(err, errlen, "kernel includes nest deeper than 8 at '%s'", name);
		return NULL;
	}
	src = load_file(dir, name, err, errlen);
	if (!src)
		return NULL;
	/* an empty copy otherwise reaches clCreateKernel as CL_INVALID_KERNEL_NAME, no file named */
	if (dir && depth == 0 && !src[strspn(src, " \t\r\n")]) {
		snprintf(err, errlen, "kernel file '%s/%s' (from --kernels) is empty: it defines no "
			 "kernel; give a copy of bench's kernels/%s", dir, name, name);
		free(src);
		return NULL;
	}
	if (!append_line(&out, &len, &cap, 1, name)) {
		free(src);
		return NULL;
	}
	for (p = src; *p; line++) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p + 1) : strlen(p);
		char inc[256];
		if (sscanf(p, "#include \"%255[^\"]\"", inc) == 1) {
			char *sub = expand(dir, inc, depth + 1, err, errlen);
			bool ok = sub && append(&out, &len, &cap, sub, strlen(sub)) &&
				  append(&out, &len, &cap, "\n", 1) &&
				  append_line(&out, &len, &cap, line + 1, name);
			free(sub);
			if (!ok) {
				free(out);
				free(src);
				return NULL;
			}
		} else if (!append(&out, &len, &cap, p, n)) {
			free(out);
			free(src);
			return NULL;
		}
		p += n;
	}
	free(src);
	return out ? out : calloc(1, 1);
}

char *prog_source(const char *kernels_dir, const char *name, char *err, size_t errlen)
{
	return expand(kernels_dir, name, 0, err, errlen);
}

static char *build_log(cl_program p, cl_device_id d)
{
	size_t len = 0;
	char *log;

	if (clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS)
		return NULL;
	log = calloc(len + 1, 1);
	if (log && clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, len, log, NULL) != CL_SUCCESS)
		log[0] = '\0';
	return log;
}

/*
 * NVIDIA's driver writes a kernel's registers into the build log (-cl-nv-verbose) only when
 * its assembler runs, not when the binary comes from its compute cache (~/.nv/ComputeCache),
 * and the model needs them. Disabling the cache (CUDA_CACHE_DISABLE=1) would do it, but
 * then the driver also compiles its own kernels afresh when a context is created, which
 * costs over a second a process. Instead every program built on NVIDIA gets one more kernel
 * whose name is new to each build, so its PTX is never in the cache and the assembler runs;
 * the suite's kernels are compiled exactly as before.
 */
static char *nv_fresh_source(char *src, char *err, size_t errlen)
{
	static unsigned long long count;
	unsigned long long tag = (unsigned long long)time(NULL) << 24 ^ (unsigned long long)getpid() << 8 ^
				 count++;
	size_t n = strlen(src);
	char tail[160];
	int t = snprintf(tail, sizeof(tail),
			 "\n__kernel void bench_fresh_%llx(__global int *p) { *p = %u; }\n", tag,
			 (unsigned)(tag & 0x7fffffff));
	char *s = malloc(n + (size_t)t + 1);

	if (!s) {
		snprintf(err, errlen, "out of host memory for a kernel source of %zu bytes", n);
		free(src);
		return NULL;
	}
	memcpy(s, src, n);
	memcpy(s + n, tail, (size_t)t + 1);
	free(src);
	return s;
}

static cl_program build_as(struct prog_ctx *c, const char *name, const char *options, bool regs,
			   char **log, char *err, size_t errlen)
{
	char *src = prog_source(c->kernels_dir, name, err, errlen);
	char opts[2048];
	const char *srcs[1];
	cl_program p = NULL;
	cl_int e = CL_SUCCESS;
	char *blog = NULL;

	if (!src)
		return NULL;
	bool nv = regs && dev_has_ext(c->dev, "cl_nv_compiler_options");
	snprintf(opts, sizeof(opts), "%s%s", options ? options : "", nv ? " -cl-nv-verbose" : "");
	if (nv && !(src = nv_fresh_source(src, err, errlen)))
		return NULL;
	/* NVIDIA's source is new to every build (nv_fresh_source): never in the cache */
	size_t klen = 0;
	char *key = nv ? NULL : pcache_key(c->dev, opts, src, &klen);
	if (key && (p = pcache_load(c->ctx, c->dev, opts, key, klen, log))) {
		free(key);
		free(src);
		return p;
	}
	srcs[0] = src;
	p = clCreateProgramWithSource(c->ctx, 1, srcs, NULL, &e);
	if (e != CL_SUCCESS) {
		free(key);
		free(src);
		snprintf(err, errlen, "driver: clCreateProgramWithSource(%s): %s", name, cl_err_name(e));
		return NULL;
	}
	e = clBuildProgram(p, 1, &c->dev->id, opts, NULL, NULL);
	blog = build_log(p, c->dev->id);
	if (e != CL_SUCCESS) {
		snprintf(err, errlen, "driver: clBuildProgram(%s, \"%s\"): %s; build log:\n%s", name,
			 opts, cl_err_name(e), blog && *blog ? blog : "(empty)");
		free(blog);
		free(key);
		free(src);
		clReleaseProgram(p);
		return NULL;
	}
	if (key)
		pcache_store(p, c->dev, key, klen, blog);
	free(key);
	free(src);
	if (log)
		*log = blog;
	else
		free(blog);
	return p;
}

cl_program prog_build(struct prog_ctx *c, const char *name, const char *options, char **log,
		      char *err, size_t errlen)
{
	return build_as(c, name, options, true, log, err, errlen);
}

cl_program prog_build_tool(struct prog_ctx *c, const char *name, const char *options, char **log,
			   char *err, size_t errlen)
{
	return build_as(c, name, options, false, log, err, errlen);
}

cl_kernel prog_kernel(cl_program p, const char *kname, char *err, size_t errlen)
{
	cl_int e = CL_SUCCESS;
	cl_kernel k = clCreateKernel(p, kname, &e);

	if (e != CL_SUCCESS) {   /* a name the program lacks is ours (or a --kernels copy's) */
		snprintf(err, errlen, "%sclCreateKernel(%s): %s", e == CL_INVALID_KERNEL_NAME ?
			 "bench bug or --kernels: " : "driver: ", kname, cl_err_name(e));
		return NULL;
	}
	return k;
}

/*
 * Kernel kname's "ptxas info : Used 12 registers" in NVIDIA's verbose build log, which
 * follows its "Compiling entry function 'kname'" line; 0 if absent.
 */
static unsigned nv_registers(const char *log, const char *kname)
{
	char entry[300];
	const char *p = NULL;
	unsigned regs = 0;

	if (!log)
		return 0;
	snprintf(entry, sizeof(entry), "entry function '%s'", kname);
	if ((p = strstr(log, entry)))
		p = strstr(p, "Used ");
	else if (!strstr(log, "entry function '"))
		p = strstr(log, "Used ");   /* a log without the entry lines: one kernel */

	if (p && sscanf(p, "Used %u registers", &regs) != 1)
		regs = 0;
	return regs;
}

void prog_kernel_res(const struct prog_ctx *c, cl_kernel k, size_t local, const char *log,
		     struct kernel_res *r)
{
	cl_device_id d = c->dev->id;
	cl_ulong v = 0;
	size_t sz = 0;

	memset(r, 0, sizeof(*r));
	clGetKernelWorkGroupInfo(k, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof(r->wg_max), &r->wg_max, NULL);
	size_t reqd[3] = { 0 };
	if (clGetKernelWorkGroupInfo(k, d, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(reqd), reqd, NULL) ==
	    CL_SUCCESS)
		r->reqd_wg = reqd[0];
	clGetKernelWorkGroupInfo(k, d, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
				 sizeof(r->pref_multiple), &r->pref_multiple, NULL);
	if (clGetKernelWorkGroupInfo(k, d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(v), &v, NULL) == CL_SUCCESS)
		r->local_mem = v;
	if (clGetKernelWorkGroupInfo(k, d, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(v), &v, NULL) ==
	    CL_SUCCESS)
		r->private_mem = v;
	if (c->dev->vendor_kind == DEV_VENDOR_INTEL &&
	    clGetKernelWorkGroupInfo(k, d, CL_KERNEL_SPILL_MEM_SIZE_INTEL, sizeof(v), &v, NULL) ==
		    CL_SUCCESS)
		r->spill_mem = v;
	if (c->dev->has_intel_reqd_sg &&
	    clGetKernelSubGroupInfo(k, d, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL, sizeof(sz),
				    &sz, NULL) == CL_SUCCESS)
		r->compiled_sg = (unsigned)sz;
	if (local && dev_has_subgroups(c->dev) && c->dev->max_sub_groups > 0) {
		if (clGetKernelSubGroupInfo(k, d, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
					    sizeof(local), &local, sizeof(sz), &sz, NULL) == CL_SUCCESS)
			r->max_sg_for_local = (unsigned)sz;
		if (clGetKernelSubGroupInfo(k, d, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(local),
					    &local, sizeof(sz), &sz, NULL) == CL_SUCCESS)
			r->sg_count_for_local = (unsigned)sz;
	}
	char kname[256] = "";
	if (log && clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(kname), kname, NULL) != CL_SUCCESS)
		kname[0] = '\0';
	r->nv_registers = nv_registers(log, kname);
}

cl_mem prog_buffer(const struct prog_ctx *c, cl_mem_flags flags, size_t bytes, char *err,
		   size_t errlen)
{
	cl_int e = CL_SUCCESS;
	cl_mem m;

	if (bytes > c->dev->max_alloc) {
		snprintf(err, errlen, "a buffer of %zu bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE "
			 "(%llu bytes) of '%s'", bytes, (unsigned long long)c->dev->max_alloc,
			 c->dev->name);
		return NULL;
	}
	m = clCreateBuffer(c->ctx, flags, bytes, NULL, &e);
	if (e != CL_SUCCESS) {
		snprintf(err, errlen, "clCreateBuffer(%zu bytes): %s", bytes, cl_err_name(e));
		return NULL;
	}
	return m;
}

json_t *prog_kernel_res_json(const char *file, const char *kname, const char *options,
			     const struct kernel_res *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "file", json_string(file));
	json_object_set_new(o, "name", json_string(kname));
	json_object_set_new(o, "build_options", json_string(options));
	json_object_set_new(o, "work_group_size_max", json_integer((json_int_t)r->wg_max));
	json_object_set_new(o, "reqd_work_group_size", r->reqd_wg ? json_integer((json_int_t)r->reqd_wg) : json_null());
	json_object_set_new(o, "preferred_wg_multiple", json_integer((json_int_t)r->pref_multiple));
	json_object_set_new(o, "local_mem_bytes", json_integer((json_int_t)r->local_mem));
	json_object_set_new(o, "private_mem_bytes", json_integer((json_int_t)r->private_mem));
	json_object_set_new(o, "spill_mem_bytes", json_integer((json_int_t)r->spill_mem));
	json_object_set_new(o, "compiled_sg_size", r->compiled_sg ? json_integer(r->compiled_sg) : json_null());
	json_object_set_new(o, "max_sg_size_for_local", r->max_sg_for_local ? json_integer(r->max_sg_for_local) : json_null());
	json_object_set_new(o, "sg_count_for_local", r->sg_count_for_local ? json_integer(r->sg_count_for_local) : json_null());
	json_object_set_new(o, "nv_registers", r->nv_registers ? json_integer(r->nv_registers) : json_null());
	json_object_set_new(o, "grf_large", json_boolean(r->grf_large));
	return o;
}

json_t *prog_kernel_res_point_json(const struct kernel_res *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "spill_mem_bytes", json_integer((json_int_t)r->spill_mem));
	json_object_set_new(o, "private_mem_bytes", json_integer((json_int_t)r->private_mem));
	json_object_set_new(o, "local_mem_bytes", json_integer((json_int_t)r->local_mem));
	json_object_set_new(o, "compiled_sg_size", r->compiled_sg ? json_integer(r->compiled_sg) : json_null());
	json_object_set_new(o, "grf_large", json_boolean(r->grf_large));
	json_object_set_new(o, "nv_registers", r->nv_registers ? json_integer(r->nv_registers) : json_null());
	return o;
}

void prog_sg_choice(const struct dev_info *d, unsigned reqd_sg, struct sgb_choice *c)
{
	char err[256];

	/* the driver's own sub-groups or none: what these kernels always read */
	sgb_select(d, NULL, SGB_NATIVE_OR_NONE, c, err, sizeof(err));
	c->width = reqd_sg;
	c->required = reqd_sg != 0;
}

int prog_sg_options(const struct dev_info *d, unsigned reqd_sg, char *buf, size_t len)
{
	struct sgb_choice c;
	int off;

	prog_sg_choice(d, reqd_sg, &c);
	if (len < 2) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	off = sgb_build_options(d, &c, 0, buf + 1, len - 1);
	buf[0] = off ? ' ' : '\0';
	return off ? off + 1 : 0;
}

json_t *prog_sg_build_json(const struct dev_info *d, unsigned reqd_sg)
{
	struct sgb_choice c;

	prog_sg_choice(d, reqd_sg, &c);
	return sgb_build_json(d, &c);
}

const char *prog_wg_limits(const struct kernel_res *r, char *buf, size_t len)
{
	if (r->reqd_wg)
		snprintf(buf, len, "the kernel requires a work-group of %zu (reqd_work_group_size); "
			 "CL_KERNEL_WORK_GROUP_SIZE is %zu", r->reqd_wg, r->wg_max);
	else
		snprintf(buf, len, "the kernel's CL_KERNEL_WORK_GROUP_SIZE is %zu: allowed 1..%zu",
			 r->wg_max, r->wg_max);
	return buf;
}

bool prog_set_args(cl_kernel k, const struct prog_arg *a, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		cl_int e = clSetKernelArg(k, (cl_uint)i, a[i].size, a[i].value);
		char name[128] = "?";

		if (cl_record(e))
			continue;
		clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
		name[sizeof(name) - 1] = '\0';
		snprintf(err, errlen, "clSetKernelArg(%s, arg %zu): %s", name, i, cl_err_name(e));
		return false;
	}
	return true;
}
