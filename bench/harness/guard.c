/*
 * Guard words around every buffer a row's kernels may write (bench_buffer without
 * CL_MEM_READ_ONLY): the buffer is a sub-buffer in the middle of a larger one, with GUARD_MIN
 * bytes (or the device's base address alignment, if larger) of known words on each side,
 * checked after each point's validated launch. A kernel that writes past the end of its output,
 * or before its start, fails the point naming the buffer and the offset, where the row's own
 * check of the output's words cannot see it (the conformance tests' way: Khronos CTS, oclgrind).
 */
#define HARNESS_LAYER HARNESS_LAYER_LAUNCH
#include "launch.h"

#include <stdlib.h>
#include <string.h>

/* The least guard on each side, bytes: a page, so a buffer keeps its page alignment. */
#define GUARD_MIN 4096

struct harness_guard {
	cl_mem parent;           /* guard, buffer, guard */
	size_t pad, bytes;       /* a guard's bytes; the buffer's */
	unsigned index;          /* the row's n-th buffer, for messages */
};

/* The known word at word i of a guard. */
static uint32_t guard_word(size_t i)
{
	return 0xb5ad4eceu ^ (uint32_t)(i * 0x9e3779b9u);
}

/* A guard's bytes on device d: GUARD_MIN, or its base address alignment where larger. */
static size_t guard_pad(const struct dev_info *d)
{
	cl_uint bits = 0;
	size_t align;

	if (clGetDeviceInfo(d->id, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(bits), &bits, NULL) != CL_SUCCESS)
		bits = 1024;
	align = bits / 8 ? bits / 8 : 1;
	return (GUARD_MIN + align - 1) / align * align;
}

/* Writes both guards of g with the known words; false with the error's name. */
static bool guard_arm(struct bench_run *r, const struct harness_guard *g, char *err, size_t len)
{
	uint32_t *w = bench_alloc(g->pad);
	cl_int e = CL_SUCCESS;

	for (size_t i = 0; i < g->pad / 4; i++)
		w[i] = guard_word(i);
	for (int side = 0; side < 2 && e == CL_SUCCESS; side++)
		e = clEnqueueWriteBuffer(r->pc.q, g->parent, CL_TRUE, side ? g->pad + g->bytes : 0, g->pad,
					 w, 0, NULL, NULL);
	free(w);
	if (e != CL_SUCCESS)
		snprintf(err, len, "clEnqueueWriteBuffer (guard words): %s", cl_err_name(e));
	return e == CL_SUCCESS;
}

cl_mem harness_guarded_buffer(struct bench_run *r, cl_mem_flags flags, size_t bytes, char *err,
			      size_t len)
{
	struct harness_guard g = { .pad = guard_pad(r->dev), .bytes = bytes };
	cl_buffer_region region;
	cl_mem sub = NULL;
	cl_int e;

	err[0] = '\0';
	if (!bytes || bytes + 2 * g.pad > r->dev->max_alloc || bytes > SIZE_MAX - 2 * g.pad)
		return NULL;   /* no room for guards: the caller makes a plain buffer */
	g.parent = prog_buffer(&r->pc, flags, bytes + 2 * g.pad, err, len);
	if (!g.parent)
		return NULL;
	region = (cl_buffer_region){ g.pad, bytes };
	sub = clCreateSubBuffer(g.parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &e);
	if (!sub) {
		snprintf(err, len, "clCreateSubBuffer (%zu bytes between guards): %s", bytes, cl_err_name(e));
		clReleaseMemObject(g.parent);
		return NULL;
	}
	if (!guard_arm(r, &g, err, len)) {
		clReleaseMemObject(sub);
		clReleaseMemObject(g.parent);
		return NULL;
	}
	g.index = (unsigned)r->h->n_guards + 1;
	r->h->guards = realloc(r->h->guards, (r->h->n_guards + 1) * sizeof(g));
	if (!r->h->guards)
		cli_die(EXIT_FAIL, "out of host memory");
	r->h->guards[r->h->n_guards++] = g;
	return sub;
}

/* The first word of side (0 before, 1 after) of g that is not the known one: its index, or -1. */
static long guard_broken(struct bench_run *r, const struct harness_guard *g, int side, uint32_t *got,
			 char *err, size_t len)
{
	uint32_t *w = bench_alloc(g->pad);
	long bad = -1;
	cl_int e = clEnqueueReadBuffer(r->pc.q, g->parent, CL_TRUE, side ? g->pad + g->bytes : 0, g->pad,
				       w, 0, NULL, NULL);

	if (e != CL_SUCCESS)
		snprintf(err, len, "clEnqueueReadBuffer (guard words): %s", cl_err_name(e));
	for (size_t i = 0; e == CL_SUCCESS && i < g->pad / 4 && bad < 0; i++)
		if (w[i] != guard_word(i)) {
			bad = (long)i;
			*got = w[i];
		}
	free(w);
	return e == CL_SUCCESS ? bad : -2;
}

void harness_guards_check(struct bench_run *r, struct bench_point *pt)
{
	char err[256];

	for (size_t k = 0; k < r->h->n_guards && pt->status == POINT_OK; k++) {
		const struct harness_guard *g = &r->h->guards[k];
		for (int side = 0; side < 2 && pt->status == POINT_OK; side++) {
			uint32_t got = 0;
			long i = guard_broken(r, g, side, &got, err, sizeof(err));
			if (i == -2)
				bench_fail(pt, "driver: %s", err);
			if (i < 0)
				continue;
			size_t at = side ? (size_t)i * 4 : g->pad - (size_t)i * 4;
			bench_fail(pt, "out-of-bounds write: the guard word %zu bytes %s buffer %u (the "
				   "%u-th the kernels write, %zu bytes) is 0x%08x, was 0x%08x", at,
				   side ? "past the end of" : "before the start of", g->index, g->index,
				   g->bytes, got, guard_word((size_t)i));
			if (!guard_arm(r, g, err, sizeof(err)))
				cli_die(EXIT_FAIL, "driver: %s", err);
		}
	}
}

void harness_guards_free(struct bench_run *r)
{
	for (size_t k = 0; k < r->h->n_guards; k++)
		clReleaseMemObject(r->h->guards[k].parent);
	free(r->h->guards);
	r->h->guards = NULL;
	r->h->n_guards = 0;
}
