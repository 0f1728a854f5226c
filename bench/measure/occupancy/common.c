/*
 * What bench occupancy and bench occupancy-waves share: their options and plan, and
 * building, launching and validating the probe (kernels/occupancy.cl).
 */
#include "host.h"

#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void probe_options(const struct dev_info *d, const struct sgb_choice *c, const struct probe_cfg *cfg,
		   char *buf, size_t len)
{
	int off = snprintf(buf, len, "-DBARRIER=%d -DSLM_WORDS=%llu%s", cfg->barrier,
			   (unsigned long long)((cfg->slm + 3) / 4), cfg->nd3 ? " -DND3=1" : "");

	if (off > 0 && (size_t)off + 1 < len) {
		buf[off] = ' ';   /* no backend (none): no options, no space */
		if (!sgb_build_options(d, c, 0, buf + off + 1, len - (size_t)off - 1))
			buf[off] = '\0';
	}
}

void probe_build(struct bench_run *r, const struct probe_cfg *cfg, struct probe_kernel *pk)
{
	const struct occ_state *s = r->state;
	char err[1024];

	memset(pk, 0, sizeof(*pk));
	pk->cfg = *cfg;
	pk->sgc = s->sgc;
	/* --sg auto (0): the driver's choice, or the layer's own width */
	if (!sgb_set_width(r->dev, &pk->sgc, cfg->sg != 0, cfg->sg, 0, err, sizeof(err)))
		cli_usage_error("%s", err);
	probe_options(r->dev, &pk->sgc, cfg, pk->opts, sizeof(pk->opts));
	/* a build takes a second or more on CPU drivers; during plan, so no point's index */
	bench_progress_step(r, SIZE_MAX, "building occupancy.cl %s", pk->opts);
	pk->k = bench_build(r, "occupancy.cl", "occ_probe", pk->opts, &pk->prog, &pk->log);
	prog_kernel_res(&r->pc, pk->k, 0, pk->log, &pk->res);
	if (((const struct occ_opts *)r->opts)->dispatch == OCC_DISPATCH_CONCURRENT &&
	    !conc_set_dispatch(pk->k, err, sizeof(err)))
		cli_die(EXIT_FAIL, "--dispatch concurrent: %s", err);
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

unsigned probe_simd(const struct bench_run *r, const struct probe_kernel *pk)
{
	return pk->sgc.required ? pk->sgc.width : r->dev->nv_warp_size;
}

uint64_t probe_model_resident(const struct bench_run *r, const struct probe_kernel *pk, unsigned wg,
			      unsigned simd)
{
	struct occ_kernel k;
	struct occ_result res;

	if (!r->model.known)
		return 0;
	occ_kernel_from_res(&k, &pk->res, wg, simd, pk->cfg.barrier);
	occ_predict(&r->model.dev, &k, 1, &res);
	return res.launchable ? res.resident_wg : 0;
}

void probe_bufs_init(struct bench_run *r, struct probe_bufs *b)
{
	memset(b, 0, sizeof(*b));
	b->c = bench_buffer(r, CL_MEM_READ_WRITE, 32);
	b->info = bench_buffer(r, CL_MEM_READ_WRITE, 16);
}

void probe_bufs_free(struct probe_bufs *b)
{
	cl_mem m[] = { b->c, b->state, b->out, b->info };

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i])
			clReleaseMemObject(m[i]);
	free(b->hstate);
	free(b->hout);
	memset(b, 0, sizeof(*b));
}

/* Grows a device buffer of `words` 32-bit words and its host copy. */
static bool grow(struct bench_run *r, cl_mem *m, void **host, size_t *cap, size_t words, char *err,
		 size_t len)
{
	if (words <= *cap)
		return true;
	if (*m)
		clReleaseMemObject(*m);
	free(*host);
	*cap = 0;
	*host = bench_alloc(words * 4);
	if (!(*m = prog_buffer(&r->pc, CL_MEM_READ_WRITE, words * 4, err, len)))
		return false;
	*cap = words;
	return true;
}

/* The kernel's chain for each of the 1024 seeds (kernels/occupancy.cl). */
static void chains(struct probe_bufs *b, unsigned spin, size_t items)
{
	uint32_t n = items < 1024 ? (uint32_t)items : 1024;   /* the chains the launch uses */
	uint32_t *v = b->chain;

	if (b->chain_spin == spin && b->chain_n >= n)
		return;
	for (uint32_t i = 0; i < n; i++)
		v[i] = i * 2654435761u + 1u;
	/* round by round across the chains: the rounds of one chain depend on each other, the
	 * chains do not, so the inner loop runs in vector lanes (a long spin is checked fast) */
	for (uint32_t j = 0; j < spin; j++) {
#pragma omp simd
		for (uint32_t i = 0; i < n; i++)
			v[i] = check_chain_round(v[i], j);
	}
	b->chain_spin = spin;
	b->chain_n = n;
}

/* Counters and states zeroed, outputs poisoned, arguments set. */
static bool prepare(cl_command_queue q, const struct probe_bufs *b, cl_kernel k, size_t groups,
		    size_t items, cl_uint spin, char *err, size_t len)
{
	cl_int zero = 0;

	return CL_CHECK(clEnqueueFillBuffer(q, b->c, &zero, 4, 0, 32, 0, NULL, NULL), err, len) &&
	       CL_CHECK(clEnqueueFillBuffer(q, b->state, &zero, 4, 0, groups * 4, 0, NULL, NULL), err, len) &&
	       CL_CHECK(check_poison(q, b->out, items * 4), err, len) &&
	       CL_CHECK(check_poison(q, b->info, 16), err, len) &&
	       PROG_SET_ARGS(k, err, len, PROG_ARG(b->c), PROG_ARG(b->state), PROG_ARG(b->out),
			     PROG_ARG(spin), PROG_ARG(b->info)) &&
	       CL_CHECK(clFinish(q), err, len);
}

static bool read_back(cl_command_queue q, struct probe_bufs *b, size_t groups, size_t items,
		      int32_t *c, uint32_t *info, char *err, size_t len)
{
	return CL_CHECK(clEnqueueReadBuffer(q, b->c, CL_TRUE, 0, 32, c, 0, NULL, NULL), err, len) &&
	       CL_CHECK(clEnqueueReadBuffer(q, b->info, CL_TRUE, 0, 16, info, 0, NULL, NULL), err, len) &&
	       CL_CHECK(clEnqueueReadBuffer(q, b->state, CL_TRUE, 0, groups * 4, b->hstate, 0, NULL,
					    NULL), err, len) &&
	       CL_CHECK(clEnqueueReadBuffer(q, b->out, CL_TRUE, 0, items * 4, b->hout, 0, NULL, NULL),
			err, len);
}

/* The counters against what one correct launch of `groups` groups leaves. */
static bool counters_ok(const int32_t *c, bool barrier, size_t groups, char *err, size_t len)
{
	/* every group is occupied once, and whole once where a barrier holds its
	 * work-items together; without one, a group whose first work-items finish
	 * before its last start is never whole */
	int32_t n = (int32_t)groups;
	bool whole_ok = barrier ? c[2] == n : c[2] >= 0 && c[2] <= n;

	if (c[0] == 0 && c[4] == 0 && c[3] == 0 && whole_ok && c[6] == n && c[5] >= 1 && c[5] <= n &&
	    c[1] <= c[2] && (c[2] > 0) == (c[1] > 0))
		return true;
	snprintf(err, len, "probe counters wrong: whole %d at end, %d arrivals, peak %d; occupied "
		 "%d at end, %d arrivals, peak %d; anomaly %d (want 0 at end, %s%zu whole and %zu "
		 "occupied arrivals, peaks within them, no anomaly)", c[0], c[2], c[1], c[4], c[6],
		 c[5], c[3], barrier ? "" : "0..", groups, groups);
	return false;
}

/* Every work-item's output, and every counter, against what one correct launch leaves. */
static bool validate(struct probe_bufs *b, const struct probe_cfg *cfg, unsigned wg, size_t groups,
		     unsigned spin, const int32_t *c, char *err, size_t len)
{
	size_t words = (size_t)((cfg->slm + 3) / 4);

	if (!counters_ok(c, cfg->barrier, groups, err, len))
		return false;
	for (size_t g = 0; g < groups; g++)
		if (b->hstate[g] != (int32_t)(wg | (wg << 16))) {
			snprintf(err, len, "group %zu: %d work-items started, %d finished, of %u", g,
				 b->hstate[g] & 0xffff, b->hstate[g] >> 16, wg);
			return false;
		}
	chains(b, spin, groups * wg);
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

void probe_shape(const struct time_launch_nd *l, size_t *wg, size_t *groups, size_t *items)
{
	*wg = *items = 1;
	for (cl_uint d = 0; d < l->dims; d++) {
		*wg *= l->local[d];
		*items *= l->global[d];
	}
	*groups = *items / *wg;
}

bool probe_launch(struct bench_run *r, const struct probe_kernel *pk, struct probe_bufs *b,
		  unsigned wg, uint64_t groups, unsigned spin, struct probe_result *res, char *err,
		  size_t len)
{
	struct time_launch_nd l = { pk->k, 1, { (size_t)(groups * wg), 1, 1 }, { wg, 1, 1 } };

	return probe_launch_nd(r, pk, b, &l, spin, res, err, len);
}

bool probe_launch_nd(struct bench_run *r, const struct probe_kernel *pk, struct probe_bufs *b,
		     const struct time_launch_nd *l, unsigned spin, struct probe_result *res, char *err,
		     size_t len)
{
	size_t wg, groups, items;
	int32_t c[8];
	uint32_t info[4];

	probe_shape(l, &wg, &groups, &items);
	if (!grow(r, &b->state, (void **)&b->hstate, &b->groups_cap, groups, err, len) ||
	    !grow(r, &b->out, (void **)&b->hout, &b->items_cap, items, err, len) ||
	    !prepare(r->pc.q, b, pk->k, groups, items, spin, err, len) ||
	    !time_run(r->pc.q, time_enqueue_launch_nd, (void *)l, 0, 1, &res->ns, &res->wall_ns, err, len) ||
	    !read_back(r->pc.q, b, groups, items, c, info, err, len))
		return false;
	if (info[0] != wg || info[1] != groups) {
		snprintf(err, len, "the kernel saw local size %u and %u groups, launched with %zu and %zu",
			 info[0], info[1], wg, groups);
		return false;
	}
	res->whole = c[1];
	res->occupied = c[5];
	res->peak = r->dev->type & CL_DEVICE_TYPE_CPU ? res->occupied : res->whole;
	res->sg_kernel = info[2];
	return validate(b, &pk->cfg, (unsigned)wg, groups, spin, c, err, len);
}

/* ---- the residency of several launches ---- */

static double max_of(const double *x, size_t n, double *lo)
{
	double hi = x[0];

	*lo = x[0];
	for (size_t i = 1; i < n; i++) {
		hi = x[i] > hi ? x[i] : hi;
		*lo = x[i] < *lo ? x[i] : *lo;
	}
	return hi;
}

static json_t *samples_json(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)x[i]));
	return a;
}

json_t *probe_measured_json(const struct bench_run *r, const struct probe_samples *m, size_t n,
			    unsigned wg, struct probe_residency *out)
{
	json_t *o = json_object();
	double lo, unused;

	out->resident = (uint64_t)max_of(m->peak, n, &lo);
	out->resident_min = (uint64_t)lo;
	out->whole = (uint64_t)max_of(m->whole, n, &unused);
	out->occupied = (uint64_t)max_of(m->occupied, n, &unused);
	json_object_set_new(o, "definition", json_string(r->dev->type & CL_DEVICE_TYPE_CPU ? "occupied"
											  : "whole"));
	json_object_set_new(o, "resident_wg", json_integer((json_int_t)out->resident));
	json_object_set_new(o, "resident_wg_min", json_integer((json_int_t)out->resident_min));
	json_object_set_new(o, "per_cu", json_real((double)out->resident / r->dev->compute_units));
	json_object_set_new(o, "resident_items", json_integer((json_int_t)(out->resident * wg)));
	json_object_set_new(o, "whole_wg", json_integer((json_int_t)out->whole));
	json_object_set_new(o, "occupied_wg", json_integer((json_int_t)out->occupied));
	json_object_set_new(o, "samples", samples_json(m->peak, n));
	json_object_set_new(o, "whole_samples", samples_json(m->whole, n));
	json_object_set_new(o, "occupied_samples", samples_json(m->occupied, n));
	return o;
}

/* ---- what both rows share: options, plan, builds, teardown ---- */

void occ_parse_sg(void *base, const char *arg)
{
	struct occ_opts *o = base;

	range_free(&o->sg);
	if (strcmp(arg, "auto") != 0)
		cli_range("sg", arg, 1, 128, &o->sg);
}

void occ_parse_barrier(void *base, const char *arg)
{
	struct occ_opts *o = base;

	o->barrier_on = strcmp(arg, "on") == 0 || strcmp(arg, "both") == 0;
	o->barrier_off = strcmp(arg, "off") == 0 || strcmp(arg, "both") == 0;
	if (!o->barrier_on && !o->barrier_off)
		cli_usage_error("--barrier '%s': allowed on, off or both", arg);
}

/* Default and bounds of --wg and --slm against the device (exit 2). */
static void plan_check(const struct dev_info *d, struct occ_opts *o)
{
	size_t max = d->max_wg < OCC_WG_MAX ? d->max_wg : OCC_WG_MAX;
	char buf[128];

	if (!o->wg.n) {
		snprintf(buf, sizeof(buf), "%zu..%zu:%d", max < OCC_WG_STEP ? max : OCC_WG_STEP, max,
			 OCC_WG_STEP);
		cli_range("wg", buf, 1, 65535, &o->wg);
	}
	for (size_t i = 0; i < o->wg.n; i++)
		if (o->wg.v[i] > d->max_wg)
			cli_usage_error("--wg %llu exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE of '%s': allowed "
					"1..%zu", (unsigned long long)o->wg.v[i], d->name, d->max_wg);
	if (o->dispatch == OCC_DISPATCH_CONCURRENT && !conc_offered(d))
		cli_usage_error("--dispatch concurrent: '%s' does not offer %s", d->name, CONC_EXTENSION);
	for (size_t i = 0; i < o->slm.n; i++)
		if (o->slm.v[i] > d->local_mem)
			cli_usage_error("--slm %llu exceeds CL_DEVICE_LOCAL_MEM_SIZE of '%s': allowed 0..%llu",
					(unsigned long long)o->slm.v[i], d->name,
					(unsigned long long)d->local_mem);
}

/*
 * The sub-group backend: --sg-backend, every --sg checked against its widths; without
 * it, the driver's own sub-groups or none, --sg a size to require.
 */
void occ_plan_sg(const struct bench_run *r, const struct occ_opts *o, struct occ_state *s)
{
	const struct dev_info *d = r->dev;
	const char *name = r->co->sg_backend;
	char err[1024], buf[128];

	if (!sgb_select(d, name, name ? 0 : SGB_NATIVE_OR_NONE, &s->sgc, err, sizeof(err)) ||
	    !sgb_set_grf(d, &s->sgc, r->co->grf, err, sizeof(err)))
		cli_usage_error("%s", err);
	for (size_t i = 0; i < o->sg.n; i++) {
		struct sgb_choice c = s->sgc;
		if (!name && !dev_can_require_sg(d, (unsigned)o->sg.v[i]))
			cli_usage_error("--sg %llu cannot be required on '%s': supported sizes are %s",
					(unsigned long long)o->sg.v[i], d->name,
					d->has_intel_reqd_sg ? dev_sg_sizes_str(d, buf, sizeof(buf))
							     : "none (no cl_intel_required_subgroup_size)");
		if (!sgb_set_width(d, &c, true, (unsigned)o->sg.v[i], 0, err, sizeof(err)))
			cli_usage_error("%s", err);
	}
}

void occ_plan_common(struct bench_run *r, struct occ_opts *o, struct occ_state *s)
{
	plan_check(r->dev, o);
	occ_plan_sg(r, o, s);
	probe_bufs_init(r, &s->bufs);
}

void occ_build_add(struct bench_builds *b, const struct probe_cfg *cfg, const char *variant,
		   const char *wg_source)
{
	char sizes[128], err[1024];
	struct sgb_choice c;
	struct bench_build *bb;

	/* as occ_plan_sg without --sg-backend: the driver's own sub-groups or none, b->sg required */
	prog_sg_choice(b->dev, b->sg, &c);
	if (!sgb_set_grf(b->dev, &c, b->grf_large, err, sizeof(err)))
		cli_usage_error("%s", err);
	bb = bench_builds_add(b, "occupancy.cl");
	bench_build_kernel(bb, "occ_probe", variant, 0, wg_source);
	probe_options(b->dev, &c, cfg, bb->options, sizeof(bb->options));
	bb->build = sgb_build_json(b->dev, &c);
	if (b->sg && !dev_can_require_sg(b->dev, b->sg))   /* occ_plan_sg's words */
		bench_build_skip(bb, "--sg %u cannot be required on '%s': supported sizes are %s",
				 b->sg, b->dev->name, b->dev->has_intel_reqd_sg
				 ? dev_sg_sizes_str(b->dev, sizes, sizeof(sizes))
				 : "none (no cl_intel_required_subgroup_size)");
}

void occ_builds_add(struct bench_builds *b, bool without, bool with)
{
	for (int bar = 0; bar < 2; bar++) {
		struct probe_cfg cfg = { .sg = b->sg, .barrier = bar == 1 };
		if (bar ? with : without)
			occ_build_add(b, &cfg, bar ? "barrier" : "no-barrier", "--wg (every size "
				      CLI_XSTR(OCC_WG_STEP) "..MAX:" CLI_XSTR(OCC_WG_STEP) ")");
	}
}

void occ_teardown(struct bench_run *r)
{
	struct occ_opts *o = r->opts;
	struct occ_state *s = r->state;

	for (size_t i = 0; i < s->n_kern; i++)
		probe_kernel_free(&s->kern[i]);
	free(s->kern);
	probe_bufs_free(&s->bufs);
	free(s->steps);
	free(s);
	range_free(&o->wg);
	range_free(&o->sg);
	range_free(&o->slm);
	range_free(&o->groups);
	range_free(&o->rows);
}
