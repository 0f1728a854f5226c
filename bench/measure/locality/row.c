/*
 * bench locality: stack-local against remote memory, the multi-stack chapter's point. In a
 * context of two or more devices (the stacks of a GPU, or any devices of one platform), a
 * buffer is made to live on one device (its owner: first written there), then streamed
 * and pointer-chased by a kernel on every device (the reader); local (reader = owner) and
 * remote bandwidth and latency side by side. How the suite knows where the buffer lives is
 * recorded with every point: a device allocation of Intel's unified shared memory belongs
 * to the device it was made for, and the driver's query says which; an OpenCL buffer has no
 * such query, and a driver may move it to the device that uses it.
 */
#include "host.h"
#include "chase.h"
#include "check.h"

#include <CL/cl_ext.h>
#include <stdlib.h>
#include <string.h>

const char *const loc_mem_names[N_MEM] = { "buffer", "usm" };
const char *const loc_test_names[N_TEST] = { "stream", "chase", "copy" };
static const char *const hier_names[] = { "any", "flat", "composite" };

#define LO(f) offsetof(struct locality_opts, f)
static const struct cli_opt locality_cli[] = {
	{ "size", "BYTES", CLI_SIZE, LO(size), 1 << 16, 1ull << 34, .def = "256Mi",
	  .help = "bytes of each device's buffer, streamed and chased (K/M/G, Ki/Mi/Gi)" },
	{ "stride", "BYTES", CLI_SIZE, LO(stride), 16, 65536, .def = "256",
	  .help = "bytes between the chase's nodes, a power of two" },
	{ "loads", "N", CLI_UINT, LO(loads), 1, 1u << 26, .def = "65536",
	  .help = "dependent loads per chase launch" },
	{ "memory", "LIST", CLI_NAMES, LO(memory), .names = loc_mem_names, .n_names = N_MEM,
	  .def_note = "all the devices offer",
	  .help = "buffer (an OpenCL buffer first written on its owner), usm (a device\n"
		  "allocation of the owner: cl_intel_unified_shared_memory), or all" },
	{ "tests", "LIST", CLI_NAMES, LO(tests), .names = loc_test_names, .n_names = N_TEST, .def = "all",
	  .help = "stream (GB/s of a read), chase (ns per dependent load), copy (GB/s of\n"
		  "clEnqueueCopyBuffer on the reader's queue from the owner's buffer, written\n"
		  "again on its owner before each copy: between devices, or within one), or all" },
	{ "seed", "N", CLI_U64, LO(seed), 0, (1ull << 48) - 1, .def_note = "fresh",
	  .help = "seed of the chase's random cycle" },
	{ "hierarchy", "MODE", CLI_CHOICE, LO(hierarchy), .names = hier_names, .n_names = 3, .def = "any",
	  .help = "flat or composite: the multi-stack run of Intel's device hierarchy\n"
		  "(ZE_FLAT_DEVICE_HIERARCHY); skipped (exit 77) on anything but an\n"
		  "Intel GPU with stacks in that mode; any: whatever devices there are" },
	{ 0 } };

static void locality_check(void *opts, const struct cli_set *given)
{
	struct locality_opts *o = opts;

	o->seed_given = cli_given(given, "seed");
	o->memory_given = cli_given(given, "memory");
	if (!o->memory_given)
		o->memory[MEM_BUFFER] = o->memory[MEM_USM] = true;
	if (o->stride & (o->stride - 1))
		cli_usage_error("--stride %llu is not a power of two (16..65536)", (unsigned long long)o->stride);
	if (o->size % o->stride || o->size / o->stride > UINT32_MAX / (o->stride / 4) || o->size / o->stride < 2)
		cli_usage_error("--size %llu: a whole number of --stride %llu nodes, at least 2, whose word "
				"indices fit 32 bits", (unsigned long long)o->size,
				(unsigned long long)o->stride);
}

/* ---- plan ---- */

/* USM where every device offers it and the entry points are there; say why not otherwise. */
static void plan_memory(struct bench_run *r, struct locality_opts *o, struct loc_state *p)
{
	bool usm = usm_fns_load(r->dev->platform, &p->usm);

	for (size_t i = 0; i < p->n; i++)
		usm &= dev_has_ext(p->peers->pc[i].dev, "cl_intel_unified_shared_memory");
	if (usm || !o->memory[MEM_USM])
		return;
	if (o->memory_given && !o->memory[MEM_BUFFER])
		cli_usage_error("--memory usm: '%s' (%s) does not offer cl_intel_unified_shared_memory on "
				"every device; --memory buffer runs", r->dev->name, r->dev->platform_name);
	o->memory[MEM_USM] = false;
	fprintf(stderr, "bench locality: note: no usm points: the devices of '%s' do not all offer "
		"cl_intel_unified_shared_memory\n", r->dev->platform_name);
}

static void plan_kernels(struct bench_run *r, struct loc_state *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct prog_ctx *pc = (struct prog_ctx *)&p->peers->pc[i];
		struct loc_dev *d = &p->dev[i];
		d->k_read = bench_build_pc(pc, "locality.cl", "locality_read", "", &d->p_read, NULL);
		d->k_chase = bench_build_pc(pc, "latency.cl", "chase", "", &d->p_chase, NULL);
		d->wg = pc->dev->max_wg < 256 ? pc->dev->max_wg : 256;
		d->global = p->n4 / 16 < d->wg ? d->wg : p->n4 / 16 > (1u << 20) ? 1u << 20 : p->n4 / 16;
		d->global = (d->global + d->wg - 1) / d->wg * d->wg;
		d->out = bench_buffer(r, CL_MEM_READ_WRITE, d->global * 4);
		d->state = bench_buffer(r, CL_MEM_READ_WRITE, 16);
	}
}

static bool place(struct bench_run *r, struct loc_state *p, unsigned m, unsigned owner, bool write,
		  char *err, size_t len);

/* The owner's buffers: a device allocation where USM runs, and an OpenCL buffer. */
static void plan_buffers(struct bench_run *r, const struct locality_opts *o, struct loc_state *p)
{
	const struct bench_peers *pe = p->peers;

	for (size_t i = 0; i < p->n; i++) {
		struct loc_buf *b = &p->buf[MEM_BUFFER][i], *u = &p->buf[MEM_USM][i];
		if (o->memory[MEM_BUFFER]) {
			b->mem = bench_buffer(r, CL_MEM_READ_WRITE, (size_t)o->size);
			snprintf(b->how, sizeof(b->how), "not known: OpenCL has no query of where a buffer's "
				 "storage is. It is migrated to its owner (clEnqueueMigrateMemObjects on the "
				 "owner's queue) and written there before each point, but a driver may move "
				 "it to the device that reads it, so a remote reading may be a local one");
		}
		if (o->memory[MEM_USM]) {
			cl_int e = CL_SUCCESS;
			cl_device_id who = NULL;
			char err[256];
			u->usm = p->usm.alloc(pe->pc[0].ctx, pe->pc[i].dev->id, NULL, (size_t)o->size, 0, &e);
			if (!u->usm)
				cli_die(EXIT_FAIL, "driver: clDeviceMemAllocINTEL(%llu bytes on '%s'): %s",
					(unsigned long long)o->size, pe->label[i], cl_err_name(e));
			u->known = CL_CHECK(p->usm.info(pe->pc[0].ctx, u->usm, CL_MEM_ALLOC_DEVICE_INTEL,
							sizeof(who), &who, NULL), err, sizeof(err)) &&
				   who == pe->pc[i].dev->id;
			snprintf(u->how, sizeof(u->how), "%s: a device allocation of the owner "
				 "(clDeviceMemAllocINTEL), which clGetMemAllocInfoINTEL(CL_MEM_ALLOC_DEVICE_INTEL) "
				 "%s", u->known ? "known" : "not known",
				 u->known ? "names as its device" : "does not name as its device");
		}
		if ((pe->pc[i].dev->type & CL_DEVICE_TYPE_CPU) && o->memory[MEM_BUFFER])
			strncat(b->how, "; a CPU device's memory is the host's, on the NUMA node the "
				"operating system chose", sizeof(b->how) - strlen(b->how) - 1);
		for (unsigned m = 0; m < N_MEM; m++) {   /* first written on its owner */
			char err[1024];
			if (o->memory[m] && !place(r, p, m, (unsigned)i, true, err, sizeof(err)))
				cli_die(EXIT_FAIL, "driver: writing the %s of '%s': %s", loc_mem_names[m],
					pe->label[i], err);
		}
	}
}

/* The chain every buffer holds: node k at word k * stride_words, pointing at the next. */
static void plan_chain(const struct locality_opts *o, struct loc_state *p)
{
	uint64_t seed = o->seed;

	p->nodes = o->size / o->stride;
	p->stride_words = (unsigned)(o->stride / 4);
	p->words = o->size / 4;
	p->n4 = o->size / 16;
	p->h_buf = bench_alloc((size_t)o->size);
	p->next = bench_alloc((size_t)p->nodes * 4);
	p->order = bench_alloc((size_t)p->nodes * 4);
	memset(p->h_buf, 0, (size_t)o->size);
	chase_build(p->next, p->order, (uint32_t)p->nodes, seed);
	for (uint64_t k = 0; k < p->nodes; k++)
		p->h_buf[k * p->stride_words] = p->next[k] * p->stride_words;
}

/* How the suite knows where each owner's buffer lives, per memory kind. */
static json_t *placement_json(const struct locality_opts *o, const struct loc_state *p)
{
	json_t *pl = json_object();

	for (unsigned m = 0; m < N_MEM; m++) {
		json_t *a = json_array();
		if (!o->memory[m]) {
			json_decref(a);
			continue;
		}
		for (size_t i = 0; i < p->n; i++)
			json_array_append_new(a, json_pack("{s:s, s:b, s:s}", "owner", p->peers->label[i],
							   "known", p->buf[m][i].known, "how", p->buf[m][i].how));
		json_object_set_new(pl, loc_mem_names[m], a);
	}
	return pl;
}

/* The run's devices: where --hierarchy's mode or a second device is missing, skipped saying why. */
static bool peers_fit(struct bench_run *r, unsigned mode)
{
	const struct dev_info *devs[BENCH_MAX_DEVICES];
	char why[1024];

	for (size_t i = 0; i < r->peers->n; i++)
		devs[i] = r->peers->pc[i].dev;
	if (!dev_hierarchy_fits((enum dev_hierarchy)mode, devs, r->peers->n, why, sizeof(why))) {
		bench_run_skip(r, "%s", why);
		return false;
	}
	if (r->peers->n < 2)
		bench_run_skip(r, "%s", r->peers->alone ? r->peers->alone : "one device");
	return r->peers->n >= 2;
}

/* The copy test: a destination on each reader (first written there) and its read-back. */
static void plan_copy(struct bench_run *r, const struct locality_opts *o, struct loc_state *p)
{
	for (size_t i = 0; i < p->n; i++) {
		char err[1024];
		cl_command_queue q = p->peers->pc[i].q;
		cl_uint zero = 0;
		p->dev[i].copy_dst = bench_buffer(r, CL_MEM_READ_WRITE, (size_t)o->size);
		if (!CL_CHECK(clEnqueueFillBuffer(q, p->dev[i].copy_dst, &zero, sizeof(zero), 0,
						  (size_t)o->size, 0, NULL, NULL), err, sizeof(err)) ||
		    !CL_CHECK(clFinish(q), err, sizeof(err)))
			cli_die(EXIT_FAIL, "driver: writing the copy destination of '%s': %s",
				p->peers->label[i], err);
	}
	p->h_copy = bench_alloc((size_t)o->size);
}

static size_t locality_plan(struct bench_run *r)
{
	struct locality_opts *o = r->opts;
	struct loc_state *p = bench_alloc(sizeof(*p));
	size_t n_mem = 0, n_test = 0;

	memset(p, 0, sizeof(*p));
	r->state = p;
	if (!r->peers)
		cli_die(EXIT_FAIL, "bench bug: bench locality without the devices of one context");
	if (!peers_fit(r, o->hierarchy))
		return 0;
	p->peers = r->peers;
	p->n = r->peers->n;
	if (!o->seed_given)
		o->seed = check_fresh_seed() & ((1ull << 48) - 1);
	bench_host_fits(r, o->size * 2, o->size * (uint64_t)p->n * 2, "the chain and its order");
	plan_memory(r, o, p);
	plan_chain(o, p);
	plan_kernels(r, p);
	plan_buffers(r, o, p);
	json_object_set_new(r->doc, "placement", placement_json(o, p));
	for (int m = 0; m < N_MEM; m++)
		n_mem += o->memory[m];
	for (int t = 0; t < N_TEST; t++)
		n_test += o->tests[t];
	size_t n = n_mem * p->n * p->n * n_test;
	p->gbps = calloc(n ? n : 1, sizeof(double));
	p->event_gbps = calloc(n ? n : 1, sizeof(double));
	p->ns = calloc(n ? n : 1, sizeof(double));
	size_t most = 0;   /* the largest grid's sums */
	for (size_t i = 0; i < p->n; i++)
		most = p->dev[i].global > most ? p->dev[i].global : most;
	p->h_out = bench_alloc(most * 4);
	if (o->tests[TEST_COPY] && o->memory[MEM_BUFFER])
		plan_copy(r, o, p);
	if (!p->gbps || !p->ns || !p->event_gbps)
		cli_die(EXIT_FAIL, "out of host memory");
	return n;
}

static void locality_teardown(struct bench_run *r)
{
	struct loc_state *p = r->state;

	for (size_t i = 0; i < p->n; i++) {
		struct loc_dev *d = &p->dev[i];
		if (p->buf[MEM_USM][i].usm)
			p->usm.free(p->peers->pc[0].ctx, p->buf[MEM_USM][i].usm);
		if (p->buf[MEM_BUFFER][i].mem)
			clReleaseMemObject(p->buf[MEM_BUFFER][i].mem);
		if (d->out)
			clReleaseMemObject(d->out);
		if (d->state)
			clReleaseMemObject(d->state);
		if (d->copy_dst)
			clReleaseMemObject(d->copy_dst);
		clReleaseKernel(d->k_read);
		clReleaseKernel(d->k_chase);
		clReleaseProgram(d->p_read);
		clReleaseProgram(d->p_chase);
	}
	free(p->h_buf);
	free(p->next);
	free(p->order);
	free(p->h_out);
	free(p->h_copy);
	free(p->gbps);
	free(p->event_gbps);
	free(p->ns);
	free(p);
}

/* ---- one point ---- */

/* Point i's memory, test, owner and reader: memory, then owner, then reader, then test. */
void loc_point_params(const struct bench_run *r, size_t i, struct loc_params *a)
{
	const struct locality_opts *o = r->opts;
	const struct loc_state *p = r->state;
	unsigned mems[N_MEM], tests[N_TEST], nm = 0, nt = 0;

	for (unsigned m = 0; m < N_MEM; m++)
		if (o->memory[m])
			mems[nm++] = m;
	for (unsigned t = 0; t < N_TEST; t++)
		if (o->tests[t])
			tests[nt++] = t;
	a->test = tests[i % nt];
	i /= nt;
	a->reader = (unsigned)(i % p->n);
	i /= p->n;
	a->owner = (unsigned)(i % p->n);
	a->memory = mems[i / p->n];
}

/*
 * Puts the owner's buffer on the owner: an OpenCL buffer migrated to it (its content first
 * written there when `write`); a device allocation is the owner's for good, written once.
 */
static bool place(struct bench_run *r, struct loc_state *p, unsigned m, unsigned owner, bool write,
		  char *err, size_t len)
{
	cl_command_queue q = p->peers->pc[owner].q;
	const struct loc_buf *b = &p->buf[m][owner];
	size_t bytes = (size_t)p->words * 4;

	(void)r;
	if (m == MEM_USM)
		return !write || (CL_CHECK(p->usm.copy(q, CL_TRUE, b->usm, p->h_buf, bytes, 0, NULL, NULL),
					   err, len));
	return CL_CHECK(clEnqueueMigrateMemObjects(q, 1, &b->mem, write ? CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED
									 : 0, 0, NULL, NULL), err, len) &&
	       (!write || CL_CHECK(clEnqueueWriteBuffer(q, b->mem, CL_TRUE, 0, bytes, p->h_buf, 0, NULL,
							NULL), err, len)) &&
	       CL_CHECK(clFinish(q), err, len);
}

/* Argument `i` of k: the owner's buffer of memory kind m. */
static bool buf_arg(const struct loc_state *p, cl_kernel k, unsigned m, unsigned owner, char *err,
		    size_t len)
{
	if (m == MEM_USM)
		return CL_CHECK(p->usm.arg(k, 0, p->buf[m][owner].usm), err, len);
	return CL_CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &p->buf[m][owner].mem), err, len);
}

/* One launch on the reader's queue, waited for (the validation launch). */
static bool launch_once(struct loc_state *p, unsigned reader, struct time_launch *l, char *err,
			size_t len)
{
	double d, w;

	return time_run(p->peers->pc[reader].q, time_enqueue_launch, l, 0, 1, &d, &w, err, len);
}

/* The stream: one validated read of the whole buffer, then the harness times it. */
static void stream_point(struct bench_run *r, struct bench_point *pt, const struct loc_params *a)
{
	struct loc_state *p = r->state;
	struct loc_dev *d = &p->dev[a->reader];
	cl_command_queue q = p->peers->pc[a->reader].q;
	cl_ulong n4 = p->n4;
	struct time_launch l = { d->k_read, d->global, d->wg };
	uint32_t sum = 0, want = chase_lap_sum((uint32_t)p->nodes, p->stride_words);
	char err[1024];

	if (!buf_arg(p, d->k_read, a->memory, a->owner, err, sizeof(err)) ||
	    !CL_CHECK(clSetKernelArg(d->k_read, 1, sizeof(cl_mem), &d->out), err, sizeof(err)) ||
	    !CL_CHECK(clSetKernelArg(d->k_read, 2, sizeof(n4), &n4), err, sizeof(err)) ||
	    !CL_CHECK(check_poison(q, d->out, d->global * 4), err, sizeof(err)) ||
	    !launch_once(p, a->reader, &l, err, sizeof(err)) ||
	    !CL_CHECK(clEnqueueReadBuffer(q, d->out, CL_TRUE, 0, d->global * 4, p->h_out, 0, NULL, NULL),
		      err, sizeof(err)) ||
	    !place(r, p, a->memory, a->owner, false, err, sizeof(err))) {
		bench_fail(pt, "%s", err);
		return;
	}
	for (size_t i = 0; i < d->global; i++)
		sum += p->h_out[i];
	if (sum != want) {
		bench_fail(pt, "the read's sums add up to 0x%08x; the buffer's words add up to 0x%08x", sum, want);
		return;
	}
	pt->validated = true;
	bench_point_time_launch(pt, d->k_read, d->global, d->wg);
	pt->bytes = 16.0 * (double)p->n4 + 4.0 * (double)d->global;
}

static bool state_io(struct loc_state *p, unsigned reader, bool write, uint32_t *v, char *err, size_t len)
{
	cl_command_queue q = p->peers->pc[reader].q;
	cl_mem s = p->dev[reader].state;

	if (write)
		return CL_CHECK(clEnqueueWriteBuffer(q, s, CL_TRUE, 0, 4, v, 0, NULL, NULL), err, len);
	return CL_CHECK(clEnqueueReadBuffer(q, s, CL_TRUE, 0, 4, v, 0, NULL, NULL), err, len);
}

/* The chase's launches with `loads` loads, timed by the harness on the reader's queue. */
static bool chase_measure(struct bench_run *r, struct bench_point *pt, const struct loc_params *a,
			  unsigned loads)
{
	struct loc_state *p = r->state;
	struct loc_dev *d = &p->dev[a->reader];
	struct time_launch l = { d->k_chase, 1, 1 };
	cl_uint cl_loads = loads;
	uint32_t start = 0;
	char err[1024];

	if (!state_io(p, a->reader, true, &start, err, sizeof(err)) ||
	    !buf_arg(p, d->k_chase, a->memory, a->owner, err, sizeof(err)) ||
	    !CL_CHECK(clSetKernelArg(d->k_chase, 1, sizeof(cl_mem), &d->state), err, sizeof(err)) ||
	    !CL_CHECK(clSetKernelArg(d->k_chase, 2, sizeof(cl_loads), &cl_loads), err, sizeof(err))) {
		bench_fail(pt, "%s", err);
		return false;
	}
	return bench_point_measure(r, pt, time_enqueue_launch, &l);
}

/*
 * The chase: the launch overhead (a 0-load launch, once per reader), the timed chases from
 * node 0, then where the chase stands checked: (warm-up + timed) x loads nodes along.
 */
static void chase_point(struct bench_run *r, struct bench_point *pt, const struct loc_params *a)
{
	const struct locality_opts *o = r->opts;
	struct loc_state *p = r->state;
	struct loc_dev *d = &p->dev[a->reader];
	uint32_t at = 0;
	char err[1024];

	if (!d->have_overhead) {
		if (!chase_measure(r, pt, a, 0))
			return;
		d->overhead_ns = pt->time.median;
		d->have_overhead = true;
	}
	if (!chase_measure(r, pt, a, o->loads) || !state_io(p, a->reader, false, &at, err, sizeof(err))) {
		if (pt->status == POINT_OK)
			bench_fail(pt, "%s", err);
		pt->n = 0;
		return;
	}
	uint64_t loads = (uint64_t)(r->co->warmup + pt->n) * o->loads;
	uint32_t want = p->order[loads % p->nodes] * p->stride_words;
	if (at != want) {
		bench_fail(pt, "the chase ended at word %u after %llu loads; the chain says %u", at,
			   (unsigned long long)loads, want);
		pt->n = 0;
		return;
	}
	pt->validated = true;
	p->ns[pt->index] = (pt->time.median - d->overhead_ns) / o->loads;
	pt->metrics = json_pack("{s:f, s:f}", "ns_per_load", p->ns[pt->index], "launch_overhead_ns",
				d->overhead_ns);
	if (p->ns[pt->index] <= 0)
		bench_note(pt, "below the launch overhead's noise: raise --loads");
}

/* The copy's command, and the source written again on its owner before each one (untimed). */
struct loc_copy {
	struct loc_state *p;
	const struct loc_params *a;
	cl_mem src, dst;
	size_t bytes;
};

static cl_int enqueue_copy(void *arg, cl_command_queue q, cl_event *ev)
{
	const struct loc_copy *c = arg;

	return clEnqueueCopyBuffer(q, c->src, c->dst, 0, 0, c->bytes, 0, NULL, ev);
}

/*
 * Written again on its owner, not only migrated there: a driver that keeps a copy of a buffer
 * on each device that read it (NVIDIA's: two H100s then "copied" 256 MiB between them at
 * 1352 GB/s, three times their NVLink's 450 GB/s a direction) must then move it.
 */
static bool copy_prep(struct bench_run *r, void *arg, unsigned rep, char *err, size_t len)
{
	const struct loc_copy *c = arg;

	(void)rep;
	return place(r, c->p, c->a->memory, c->a->owner, true, err, len);
}

/* The copy: one copy checked word for word against the owner's content, then timed. */
static void copy_point(struct bench_run *r, struct bench_point *pt, const struct loc_params *a)
{
	struct loc_state *p = r->state;
	cl_command_queue q = p->peers->pc[a->reader].q;
	struct loc_copy c = { p, a, p->buf[MEM_BUFFER][a->owner].mem, p->dev[a->reader].copy_dst,
			      (size_t)p->words * 4 };
	char err[1024];

	if (a->memory != MEM_BUFFER) {
		bench_skip(pt, "copy: OpenCL buffers only (clEnqueueCopyBuffer)");
		return;
	}
	if (!CL_CHECK(enqueue_copy(&c, q, NULL), err, sizeof(err)) ||
	    !CL_CHECK(clEnqueueReadBuffer(q, c.dst, CL_TRUE, 0, c.bytes, p->h_copy, 0, NULL, NULL),
		      err, sizeof(err)) ||
	    !copy_prep(r, &c, 0, err, sizeof(err))) {
		bench_fail(pt, "%s", err);
		return;
	}
	if (memcmp(p->h_copy, p->h_buf, c.bytes) != 0) {
		bench_fail(pt, "the copy on d%u of d%u's buffer differs from what d%u holds", a->reader,
			   a->owner, a->owner);
		return;
	}
	pt->validated = true;
	/*
	 * Timed as a transfer, by the host from enqueue to completion: a driver may move the
	 * buffer before the command starts (NVIDIA's, on 2 x H200: events of 145-148 us for
	 * 256 MiB where the host waited 207-212 ms), so the event would time a local copy.
	 */
	pt->clock.host_figure = true;
	if (bench_point_measure_prep(r, pt, enqueue_copy, &c, copy_prep, &c))
		pt->bytes = (double)c.bytes;
}

static void locality_point(struct bench_run *r, struct bench_point *pt)
{
	struct loc_state *p = r->state;
	struct loc_params *a = pt->params;
	char err[1024];

	loc_point_params(r, pt->index, a);
	pt->queue = p->peers->pc[a->reader].q;
	pt->device = p->peers->label[a->reader];
	if (!place(r, p, a->memory, a->owner, false, err, sizeof(err))) {
		bench_fail(pt, "%s", err);
		return;
	}
	if (a->test == TEST_STREAM)
		stream_point(r, pt, a);
	else if (a->test == TEST_CHASE)
		chase_point(r, pt, a);
	else
		copy_point(r, pt, a);
	pt->extra = json_pack("{s:{s:s, s:b, s:s}}", "placement", "owner", p->peers->label[a->owner],
			      "known", p->buf[a->memory][a->owner].known, "how",
			      p->buf[a->memory][a->owner].how);
}

/* ---- views ---- */

/* What plan builds on each device: the stream's read and latency's chase (no options). */
static void loc_builds(struct bench_builds *b)
{
	struct bench_build *bb;

	if (b->sg)
		return;
	bb = bench_builds_add(b, "locality.cl");
	bench_build_kernel(bb, "locality_read", "read", 256, "256 or the device's maximum");
	bb = bench_builds_add(b, "latency.cl");
	bench_build_kernel(bb, "chase", "chase", 1, "one work-item a chase");
}

/* ---- bench validate ---- */

/*
 * Two parts of the device (a context holds them both): one compute unit each where it can
 * be split by counts, halves where equally, its NUMA domains (a GPU's stacks) where by
 * affinity; a device that cannot be split has no check.
 */
static void loc_checks(struct bench_check_plan *p)
{
	const struct dev_info *d = p->dev;
	struct bench_check c = { .id = "locality/two-parts" };
	char split[64] = "";

	if (dev_part_offers(d, CL_DEVICE_PARTITION_BY_COUNTS))
		snprintf(split, sizeof(split), " --sub-devices counts:1,1");
	else if (dev_part_offers(d, CL_DEVICE_PARTITION_EQUALLY) && d->compute_units >= 2)
		snprintf(split, sizeof(split), " --sub-devices equally:%u", d->compute_units / 2);
	else if (d->part_domains & CL_DEVICE_AFFINITY_DOMAIN_NUMA)
		snprintf(split, sizeof(split), " --sub-devices numa");
	else
		return;   /* one device that cannot be split: nothing of its own to read across */
	snprintf(c.args, sizeof(c.args), "--size 1Mi --loads 2048%s", split);
	snprintf(c.desc, sizeof(c.desc), "a buffer on each of two parts of the device, streamed and "
		 "chased from both: every read's sum and every chase's end checked");
	bench_check_add(p, &c);
}

const struct bench_row locality_row = {
	.cmd = {
		.name = "locality",
		.summary = "stack-local against remote memory: a buffer on one device read from another",
		.synopsis =
			"usage: bench locality [--size BYTES] [--memory buffer,usm] [--tests stream,chase]\n"
			"                      [--device LIST | --sub-devices SPEC] [shared options]\n"
			"  In one context of two or more devices of one platform (the stacks of a GPU: its\n"
			"  devices in FLAT mode, --sub-devices numa in COMPOSITE mode; or the parts of any\n"
			"  device --sub-devices makes), each device's buffer is first written there, then\n"
			"  streamed and pointer-chased by a kernel on every device: local and remote GB/s\n"
			"  and ns per load side by side. Without --device: the devices of the first platform\n"
			"  with two, else the default device's NUMA sub-devices. A context cannot span\n"
			"  platforms: where no platform has two devices, exit 77 says so.\n",
		.flags = BENCH_DEVICE | BENCH_PEERS,
		.opts = locality_cli,
		.opts_size = sizeof(struct locality_opts),
		.check = locality_check,
	},
	.params_size = sizeof(struct loc_params),
	.plan = locality_plan,
	.label = locality_label,
	.point = locality_point,
	.params = locality_params,
	.cols = locality_cols,
	.title = locality_title,
	.relate = locality_relate,
	.report = locality_report,
	.teardown = locality_teardown,
	.builds = loc_builds,
	.checks = loc_checks,
};
