/* bench occupancy: building, launching and validating the residency probe. */
#include "occupancy_host.h"

#include "check.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

bool probe_build(struct bench_session *s, const struct probe_cfg *cfg, struct probe_kernel *pk,
		 char *err, size_t len)
{
	int off;

	memset(pk, 0, sizeof(*pk));
	pk->cfg = *cfg;
	off = snprintf(pk->opts, sizeof(pk->opts), "-DBARRIER=%d -DSLM_WORDS=%llu", cfg->barrier,
		       (unsigned long long)((cfg->slm + 3) / 4));
	prog_sg_options(s->dev, cfg->sg, pk->opts + off, sizeof(pk->opts) - (size_t)off);
	pk->prog = prog_build(&s->pc, "occupancy.cl", pk->opts, &pk->log, err, len);
	if (!pk->prog || !(pk->k = prog_kernel(pk->prog, "occ_probe", err, len)))
		return false;
	prog_kernel_res(&s->pc, pk->k, 0, pk->log, &pk->res);
	return true;
}

void probe_kernel_free(struct probe_kernel *pk)
{
	if (pk->k)
		clReleaseKernel(pk->k);
	if (pk->prog)
		clReleaseProgram(pk->prog);
	free(pk->log);
	memset(pk, 0, sizeof(*pk));
}

void probe_bufs_free(struct probe_bufs *b)
{
	cl_mem *m[] = { &b->c, &b->state, &b->out, &b->info };

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (*m[i])
			clReleaseMemObject(*m[i]);
	free(b->hstate);
	free(b->hout);
	memset(b, 0, sizeof(*b));
}

/* Grows the buffers to hold `groups` groups of `items` work-items in all. */
static bool bufs_reserve(struct bench_session *s, struct probe_bufs *b, size_t groups, size_t items,
			 char *err, size_t len)
{
	if (!b->c && (!(b->c = prog_buffer(&s->pc, CL_MEM_READ_WRITE, 32, err, len)) ||
		      !(b->info = prog_buffer(&s->pc, CL_MEM_READ_WRITE, 16, err, len))))
		return false;
	if (groups > b->groups_cap) {
		if (b->state)
			clReleaseMemObject(b->state);
		b->state = prog_buffer(&s->pc, CL_MEM_READ_WRITE, groups * 4, err, len);
		b->hstate = realloc(b->hstate, groups * 4);
		if (!b->state || !b->hstate)
			return false;
		b->groups_cap = groups;
	}
	if (items > b->items_cap) {
		if (b->out)
			clReleaseMemObject(b->out);
		b->out = prog_buffer(&s->pc, CL_MEM_READ_WRITE, items * 4, err, len);
		b->hout = realloc(b->hout, items * 4);
		if (!b->out || !b->hout)
			return false;
		b->items_cap = items;
	}
	return true;
}

/* The kernel's chain for each of the 1024 seeds (kernels/occupancy.cl). */
static void chains(struct probe_bufs *b, unsigned spin)
{
	if (b->chain_spin == spin)
		return;
	for (uint32_t i = 0; i < 1024; i++) {
		uint32_t v = i * 2654435761u + 1u;
		for (uint32_t j = 0; j < spin; j++) {
			v ^= v << 13;
			v ^= v >> 17;
			v ^= v << 5;
			v += j;
		}
		b->chain[i] = v;
	}
	b->chain_spin = spin;
}

static cl_int zero_and_poison(cl_command_queue q, struct probe_bufs *b, size_t groups, size_t items)
{
	cl_int zero = 0;
	cl_int e = clEnqueueFillBuffer(q, b->c, &zero, 4, 0, 32, 0, NULL, NULL);

	if (e == CL_SUCCESS)
		e = clEnqueueFillBuffer(q, b->state, &zero, 4, 0, groups * 4, 0, NULL, NULL);
	if (e == CL_SUCCESS)
		e = check_poison(q, b->out, items * 4);
	if (e == CL_SUCCESS)
		e = check_poison(q, b->info, 16);
	return e;
}

static cl_int read_back(cl_command_queue q, struct probe_bufs *b, size_t groups, size_t items,
			int32_t *c, uint32_t *info)
{
	cl_int e = clEnqueueReadBuffer(q, b->c, CL_TRUE, 0, 32, c, 0, NULL, NULL);

	if (e == CL_SUCCESS)
		e = clEnqueueReadBuffer(q, b->info, CL_TRUE, 0, 16, info, 0, NULL, NULL);
	if (e == CL_SUCCESS)
		e = clEnqueueReadBuffer(q, b->state, CL_TRUE, 0, groups * 4, b->hstate, 0, NULL, NULL);
	if (e == CL_SUCCESS)
		e = clEnqueueReadBuffer(q, b->out, CL_TRUE, 0, items * 4, b->hout, 0, NULL, NULL);
	return e;
}

/* Every work-item's output, and every counter, against what one correct launch leaves. */
static bool validate(struct probe_bufs *b, const struct probe_cfg *cfg, unsigned wg, size_t groups,
		     unsigned spin, const int32_t *c, char *err, size_t len)
{
	size_t words = (size_t)((cfg->slm + 3) / 4);

	/* every group is occupied once, and whole once where a barrier holds its
	 * work-items together; without one, a group whose first work-items finish
	 * before its last start is never whole */
	int32_t n = (int32_t)groups;
	bool whole_ok = cfg->barrier ? c[2] == n : c[2] >= 0 && c[2] <= n;

	if (c[0] != 0 || c[4] != 0 || c[3] != 0 || !whole_ok || c[6] != n || c[5] < 1 || c[5] > n ||
	    c[1] > c[2] || (c[2] > 0) != (c[1] > 0)) {
		snprintf(err, len, "probe counters wrong: whole %d at end, %d arrivals, peak %d; occupied "
			 "%d at end, %d arrivals, peak %d; anomaly %d (want 0 at end, %s%zu whole and %zu "
			 "occupied arrivals, peaks within them, no anomaly)", c[0], c[2], c[1], c[4], c[6],
			 c[5], c[3], cfg->barrier ? "" : "0..", groups, groups);
		return false;
	}
	for (size_t g = 0; g < groups; g++)
		if (b->hstate[g] != (int32_t)(wg | (wg << 16))) {
			snprintf(err, len, "group %zu: %d work-items started, %d finished, of %u", g,
				 b->hstate[g] & 0xffff, b->hstate[g] >> 16, wg);
			return false;
		}
	chains(b, spin);
	for (size_t i = 0; i < groups * wg; i++) {
		size_t lid = i % wg;
		uint32_t want = (b->chain[i % 1024] ^ (uint32_t)i) +
				(lid < words ? ((uint32_t)lid ^ spin) : 0u);
		if (b->hout[i] != want) {
			snprintf(err, len, "work-item %zu wrote 0x%08x, expected 0x%08x%s", i, b->hout[i],
				 want, b->hout[i] == CHECK_POISON ? " (poison: never written)" : "");
			return false;
		}
	}
	return true;
}

bool probe_launch(struct bench_session *s, struct probe_kernel *pk, struct probe_bufs *b,
		  unsigned wg, uint64_t groups, unsigned spin, struct probe_result *r, char *err,
		  size_t len)
{
	size_t items = (size_t)(groups * wg);
	struct time_launch l = { pk->k, items, wg };
	cl_uint sp = spin;
	int32_t c[8];
	uint32_t info[4];
	double wall;
	cl_int e;

	if (!bufs_reserve(s, b, (size_t)groups, items, err, len))
		return false;
	e = zero_and_poison(s->pc.q, b, (size_t)groups, items);
	if (e == CL_SUCCESS) e = clSetKernelArg(pk->k, 0, sizeof(cl_mem), &b->c);
	if (e == CL_SUCCESS) e = clSetKernelArg(pk->k, 1, sizeof(cl_mem), &b->state);
	if (e == CL_SUCCESS) e = clSetKernelArg(pk->k, 2, sizeof(cl_mem), &b->out);
	if (e == CL_SUCCESS) e = clSetKernelArg(pk->k, 3, sizeof(sp), &sp);
	if (e == CL_SUCCESS) e = clSetKernelArg(pk->k, 4, sizeof(cl_mem), &b->info);
	if (e == CL_SUCCESS) e = clFinish(s->pc.q);
	if (e != CL_SUCCESS) {
		snprintf(err, len, "preparing the probe: %s", cl_err_name(e));
		return false;
	}
	if (!time_run(s->pc.q, time_enqueue_launch, &l, 0, 1, &r->ns, &wall, err, len))
		return false;
	e = read_back(s->pc.q, b, (size_t)groups, items, c, info);
	if (e != CL_SUCCESS) {
		snprintf(err, len, "reading the probe's results: %s", cl_err_name(e));
		return false;
	}
	if (info[0] != wg || info[1] != groups) {
		snprintf(err, len, "the kernel saw local size %u and %u groups, launched with %u and %llu",
			 info[0], info[1], wg, (unsigned long long)groups);
		return false;
	}
	r->whole = c[1];
	r->occupied = c[5];
	r->peak = s->dev->type & CL_DEVICE_TYPE_CPU ? r->occupied : r->whole;
	r->sg_kernel = info[2];
	return validate(b, &pk->cfg, wg, (size_t)groups, spin, c, err, len);
}
