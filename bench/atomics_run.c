/* bench atomics: buffers and the points (validated once, timed, validated again). */
#include "atomics_host.h"

#include "check.h"
#include "stats.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

/* What one point launches and checks. */
struct at_pt {
	enum at_pattern pat;
	enum at_order ord;
	const struct at_prog *g;
	struct time_launch l;
	unsigned sg_kernel;       /* max sub-group size the kernel saw (0: none) */
	uint64_t launches;        /* launches with ops > 0 since the counters were poisoned */
	double med_ns, cv, overhead_ns;
};

static bool is_local(enum at_pattern pat)
{
	return pat == AT_LOCAL || pat == AT_LOCAL_WG;
}

static void at_alloc(struct bench_session *s, struct at_plan *p)
{
	char err[512];
	size_t words = (size_t)(p->ctr_words > p->items ? p->ctr_words : p->items);

	if (!(p->ctr = prog_buffer(&s->pc, CL_MEM_READ_WRITE, (size_t)p->ctr_words * 4, err, sizeof(err))) ||
	    !(p->where = prog_buffer(&s->pc, CL_MEM_READ_WRITE, (size_t)p->items * 4, err, sizeof(err))) ||
	    !(p->out = prog_buffer(&s->pc, CL_MEM_READ_WRITE, (size_t)p->items * 4, err, sizeof(err))) ||
	    !(p->info = prog_buffer(&s->pc, CL_MEM_READ_WRITE, 16, err, sizeof(err))) ||
	    (p->flush_bytes && !(p->flush_buf = prog_buffer(&s->pc, CL_MEM_READ_WRITE,
							   (size_t)p->flush_bytes, err, sizeof(err)))))
		die(EXIT_FAIL, "driver: %s", err);
	p->h_ctr = malloc(words * 4);
	p->h_where = malloc((size_t)p->items * 4);
	p->h_out = malloc((size_t)p->items * 4);
	p->h_ref = malloc(words * 4);
	p->h_sum = malloc(words * 4);
	if (!p->h_ctr || !p->h_where || !p->h_out || !p->h_ref || !p->h_sum)
		die(EXIT_FAIL, "out of host memory for 5 x %zu bytes", words * 4);
}

static void at_free(struct at_plan *p)
{
	cl_mem m[] = { p->ctr, p->where, p->out, p->info, p->flush_buf };

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i])
			clReleaseMemObject(m[i]);
	for (int o = 0; o < AT_NORDERS; o++) {
		struct at_prog *g = &p->prog[o];
		if (g->k_global) clReleaseKernel(g->k_global);
		if (g->k_local) clReleaseKernel(g->k_local);
		if (g->k_chain) clReleaseKernel(g->k_chain);
		if (g->prog) clReleaseProgram(g->prog);
		free(g->build_log);
	}
	if (p->k_flush) clReleaseKernel(p->k_flush);
	if (p->flush_prog) clReleaseProgram(p->flush_prog);
	free(p->h_ctr);
	free(p->h_where);
	free(p->h_out);
	free(p->h_ref);
	free(p->h_sum);
}


/* ---- launch set-up ---- */

/* Counter words a global pattern can touch. */
static uint64_t used_words(const struct at_plan *p, enum at_pattern pat)
{
	switch (pat) {
	case AT_NEIGHBOURS: return p->items;
	case AT_WG: return (uint64_t)p->groups * p->line_words;
	case AT_SINGLE: return p->line_words;
	case AT_CHAIN: return (uint64_t)AT_CHAIN_SLOTS * p->line_words;
	default: return p->ctr_words;
	}
}

static cl_int set_ops(const struct at_pt *t, cl_uint ops)
{
	cl_uint idx = t->pat == AT_CHAIN ? 2 : is_local(t->pat) ? 1 : 2;

	return clSetKernelArg(t->l.kernel, idx, sizeof(ops), &ops);
}

static bool at_args(const struct at_plan *p, struct at_pt *t, unsigned ops, char *err, size_t len)
{
	cl_uint o = ops, pat = (cl_uint)t->pat, lw = p->line_words, sgw = p->sg_width;
	cl_uint shared = t->pat == AT_LOCAL_WG, slots = AT_CHAIN_SLOTS;
	cl_int e;

	if (t->pat == AT_CHAIN) {
		t->l = (struct time_launch){ t->g->k_chain, 1, 1 };
		e = clSetKernelArg(t->l.kernel, 0, sizeof(cl_mem), &p->ctr);
		if (!e) e = clSetKernelArg(t->l.kernel, 1, sizeof(cl_mem), &p->out);
		if (!e) e = clSetKernelArg(t->l.kernel, 3, sizeof(lw), &lw);
		if (!e) e = clSetKernelArg(t->l.kernel, 4, sizeof(slots), &slots);
	} else if (is_local(t->pat)) {
		t->l = (struct time_launch){ t->g->k_local, (size_t)p->items, p->wg };
		e = clSetKernelArg(t->l.kernel, 0, sizeof(cl_mem), &p->out);
		if (!e) e = clSetKernelArg(t->l.kernel, 2, sizeof(shared), &shared);
		if (!e) e = clSetKernelArg(t->l.kernel, 3, shared ? 4 : (size_t)p->wg * 4, NULL);
		if (!e) e = clSetKernelArg(t->l.kernel, 4, sizeof(cl_mem), &p->info);
	} else {
		t->l = (struct time_launch){ t->g->k_global, (size_t)p->items, p->wg };
		e = clSetKernelArg(t->l.kernel, 0, sizeof(cl_mem), &p->ctr);
		if (!e) e = clSetKernelArg(t->l.kernel, 1, sizeof(cl_mem), &p->where);
		if (!e) e = clSetKernelArg(t->l.kernel, 3, sizeof(pat), &pat);
		if (!e) e = clSetKernelArg(t->l.kernel, 4, sizeof(lw), &lw);
		if (!e) e = clSetKernelArg(t->l.kernel, 5, sizeof(sgw), &sgw);
		if (!e) e = clSetKernelArg(t->l.kernel, 6, sizeof(cl_mem), &p->info);
	}
	if (!e)
		e = set_ops(t, o);
	if (e != CL_SUCCESS)
		snprintf(err, len, "clSetKernelArg: %s", cl_err_name(e));
	return e == CL_SUCCESS;
}

static bool at_poison(struct bench_session *s, const struct at_plan *p, enum at_pattern pat,
		      char *err, size_t len)
{
	cl_int e = CL_SUCCESS;

	if (!is_local(pat))
		e = check_poison(s->pc.q, p->ctr, (size_t)used_words(p, pat) * 4);
	if (e == CL_SUCCESS)
		e = check_poison(s->pc.q, p->where, (size_t)p->items * 4);
	if (e == CL_SUCCESS)
		e = check_poison(s->pc.q, p->out, (size_t)p->items * 4);
	if (e == CL_SUCCESS)
		e = check_poison(s->pc.q, p->info, 16);
	if (e != CL_SUCCESS)
		snprintf(err, len, "poisoning buffers: %s", cl_err_name(e));
	return e == CL_SUCCESS;
}

static bool read_words(struct bench_session *s, cl_mem m, uint64_t words, uint32_t *h, char *err,
		       size_t len)
{
	cl_int e = clEnqueueReadBuffer(s->pc.q, m, CL_TRUE, 0, (size_t)words * 4, h, 0, NULL, NULL);

	if (e != CL_SUCCESS)
		snprintf(err, len, "reading results: %s", cl_err_name(e));
	return e == CL_SUCCESS;
}


/* ---- validation ---- */

/* The counter word work-item i must use, or UINT64_MAX where the driver decides (sub-groups). */
static uint64_t expected_addr(const struct at_plan *p, enum at_pattern pat, uint64_t i)
{
	uint64_t g = i / p->wg, l = i % p->wg;

	switch (pat) {
	case AT_OWN: return i * p->line_words;
	case AT_NEIGHBOURS: return i;
	case AT_WG: return g * p->line_words;
	case AT_SINGLE: return 0;
	default:
		if (!p->sg_width)
			return UINT64_MAX;
		return (g * ((p->wg + p->sg_width - 1) / p->sg_width) + l / p->sg_width) * p->line_words;
	}
}

/* Checks where[] (the counter each work-item used) against the pattern. */
static bool check_where(struct at_plan *p, const struct at_pt *t, char *err, size_t len)
{
	uint64_t words = used_words(p, t->pat), msg = t->sg_kernel ? t->sg_kernel : 1;
	uint64_t per_group = (p->wg + msg - 1) / msg;

	memset(p->h_ref, 0, (size_t)words * 4);   /* items per counter (sub-groups) */
	for (uint64_t i = 0; i < p->items; i++) {
		uint64_t a = p->h_where[i], want = expected_addr(p, t->pat, i), g = i / p->wg;
		bool ok = a < words &&
			  (want == UINT64_MAX
				   ? a % p->line_words == 0 && a / p->line_words >= g * per_group &&
					     a / p->line_words < (g + 1) * per_group && ++p->h_ref[a] <= msg
				   : a == want);
		if (!ok) {
			snprintf(err, len, "work-item %llu used counter word %llu (expected %s%llu)",
				 (unsigned long long)i, (unsigned long long)a,
				 want == UINT64_MAX ? "one of its sub-group's, near " : "",
				 (unsigned long long)(want == UINT64_MAX ? g * per_group * p->line_words
									  : want));
			return false;
		}
	}
	return true;
}

/* Expected counters after `launches` launches of `ops` adds: POISON + launches * sums. */
static void expected_global(struct at_plan *p, const struct at_pt *t, unsigned ops)
{
	uint64_t words = used_words(p, t->pat);

	memset(p->h_sum, 0, (size_t)words * 4);
	for (uint64_t i = 0; i < p->items; i++)
		p->h_sum[p->h_where[i]] += (uint32_t)ops * (uint32_t)(2 * i + 1);
	for (uint64_t w = 0; w < words; w++)
		p->h_ref[w] = CHECK_POISON + (uint32_t)t->launches * p->h_sum[w];
}

static void expected_local(struct at_plan *p, const struct at_pt *t, unsigned ops, uint64_t *n)
{
	bool shared = t->pat == AT_LOCAL_WG;

	*n = shared ? p->groups : p->items;
	for (uint64_t k = 0; k < *n; k++)
		p->h_ref[k] = CHECK_POISON;
	for (uint64_t i = 0; i < p->items; i++)
		p->h_ref[shared ? i / p->wg : i] += (uint32_t)ops * (uint32_t)(2 * i + 1);
}

/* Replays the dependent chain on the host: counters and the last index. */
static uint32_t expected_chain(struct at_plan *p, const struct at_pt *t, unsigned ops)
{
	uint32_t c[AT_CHAIN_SLOTS], idx = 0;

	for (unsigned k = 0; k < AT_CHAIN_SLOTS; k++)
		c[k] = CHECK_POISON;
	for (uint64_t n = 0; n < t->launches; n++) {
		idx = 0;
		for (unsigned j = 0; j < ops; j++) {
			uint32_t old = c[idx];
			c[idx] = old + j + 1;
			idx = (old ^ (old >> 7)) & (AT_CHAIN_SLOTS - 1);
		}
	}
	for (uint64_t w = 0; w < used_words(p, AT_CHAIN); w++)
		p->h_ref[w] = w % p->line_words ? CHECK_POISON : c[w / p->line_words];
	return idx;
}

static bool check_info(struct bench_session *s, const struct at_plan *p, struct at_pt *t,
		       char *err, size_t len)
{
	cl_uint info[4];

	if (!read_words(s, p->info, 4, info, err, len))
		return false;
	t->sg_kernel = info[2];
	if (info[0] != p->wg || info[1] != p->groups) {
		snprintf(err, len, "the kernel saw local size %u and %u groups, launched with %u and %u",
			 info[0], info[1], p->wg, p->groups);
		return false;
	}
	if (p->sg_req && info[2] != p->sg_req) {
		snprintf(err, len, "required sub-group size %u, the kernel ran with %u", p->sg_req,
			 info[2]);
		return false;
	}
	return true;
}

/* Validates the buffers after t->launches launches of `ops` adds each. */
static bool at_validate(struct bench_session *s, struct at_plan *p, struct at_pt *t,
			unsigned ops, bool first, char *err, size_t len)
{
	uint64_t n = used_words(p, t->pat);

	if (t->pat == AT_CHAIN) {
		uint32_t idx = expected_chain(p, t, ops), got;
		if (!read_words(s, p->out, 1, &got, err, len) ||
		    !read_words(s, p->ctr, n, p->h_ctr, err, len))
			return false;
		if (got != idx) {
			snprintf(err, len, "the chain ended at counter %u, the host's replay at %u", got, idx);
			return false;
		}
		return check_compare_u32(p->h_ctr, p->h_ref, (size_t)n, err, len) == 0;
	}
	if (first && !check_info(s, p, t, err, len))
		return false;
	if (is_local(t->pat)) {
		expected_local(p, t, ops, &n);
		return read_words(s, p->out, n, p->h_out, err, len) &&
		       check_compare_u32(p->h_out, p->h_ref, (size_t)n, err, len) == 0;
	}
	if (first && (!read_words(s, p->where, p->items, p->h_where, err, len) ||
		      !check_where(p, t, err, len)))
		return false;
	expected_global(p, t, ops);
	return read_words(s, p->ctr, n, p->h_ctr, err, len) &&
	       check_compare_u32(p->h_ctr, p->h_ref, (size_t)n, err, len) == 0;
}


/* ---- timing ---- */

static bool at_flush(struct bench_session *s, const struct at_plan *p, cl_uint value, char *err,
		     size_t len)
{
	size_t global = (size_t)(p->flush_bytes / 4);
	cl_int e = clSetKernelArg(p->k_flush, 0, sizeof(cl_mem), &p->flush_buf);

	if (e == CL_SUCCESS)
		e = clSetKernelArg(p->k_flush, 1, sizeof(value), &value);
	if (e == CL_SUCCESS)
		e = clEnqueueNDRangeKernel(s->pc.q, p->k_flush, 1, NULL, &global, NULL, 0, NULL, NULL);
	if (e == CL_SUCCESS)
		e = clFinish(s->pc.q);
	if (e != CL_SUCCESS)
		snprintf(err, len, "cache flush: %s", cl_err_name(e));
	return e == CL_SUCCESS;
}

/* Warm-up launches, then reps timed launches, each after a flush when asked for. */
static bool at_time(struct bench_session *s, const struct at_plan *p, struct at_pt *t,
		    double *dev_ns, double *wall_ns, char *err, size_t len)
{
	const struct common_opts *co = s->opts;

	if (!time_run(s->pc.q, time_enqueue_launch, &t->l, co->warmup, 0, NULL, NULL, err, len))
		return false;
	for (unsigned r = 0; r < co->reps; r++) {
		if (p->flush_bytes && !at_flush(s, p, r + 1, err, len))
			return false;
		if (!time_run(s->pc.q, time_enqueue_launch, &t->l, 0, 1, &dev_ns[r], &wall_ns[r], err,
			      len))
			return false;
	}
	return true;
}

/* The chain's launch overhead: the same launch with ops = 0 (counters untouched). */
static bool at_overhead(struct bench_session *s, const struct at_plan *p, struct at_pt *t,
			unsigned ops, double *dev_ns, double *wall_ns, char *err, size_t len)
{
	struct stats st;
	bool ok = set_ops(t, 0) == CL_SUCCESS && at_time(s, p, t, dev_ns, wall_ns, err, len);

	if (set_ops(t, ops) != CL_SUCCESS && ok) {
		snprintf(err, len, "clSetKernelArg failed restoring ops");
		ok = false;
	}
	if (ok) {
		stats_compute(dev_ns, s->opts->reps, &st);
		t->overhead_ns = st.median;
	}
	return ok;
}


/* ---- the point's record ---- */

/* Missing capability bits, as words ("acq_rel, device scope"); empty when declared. */
static void caps_missing(const struct dev_info *d, enum at_order ord, bool local, char *out,
			 size_t len)
{
	uint64_t need_order = ord == AT_RELAXED ? CL_DEVICE_ATOMIC_ORDER_RELAXED
						: CL_DEVICE_ATOMIC_ORDER_ACQ_REL;
	uint64_t need_scope = local ? CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP : CL_DEVICE_ATOMIC_SCOPE_DEVICE;

	out[0] = '\0';
	if (!d->atomic_caps_known)   /* OpenCL 2.x devices support every order and scope */
		return;
	if (!(d->atomic_mem_caps & need_order))
		snprintf(out, len, "%s", at_order_names[ord]);
	if (!(d->atomic_mem_caps & need_scope))
		snprintf(out + strlen(out), len - strlen(out), "%s%s scope", out[0] ? ", " : "",
			 local ? "work_group" : "device");
}

static unsigned items_per_counter(const struct at_plan *p, const struct at_pt *t)
{
	switch (t->pat) {
	case AT_SG: return p->sg_req ? p->sg_req : p->sg_width ? p->sg_width : t->sg_kernel;
	case AT_WG: case AT_LOCAL_WG: return p->wg;
	case AT_SINGLE: return (unsigned)p->items;
	default: return 1;
	}
}

/* What the kernel really used: API, order and scope; NULL for a point that did not run. */
static void used_names(const struct at_pt *t, const char **api, const char **order,
		       const char **scope)
{
	bool c11 = t->g && t->g->c11;

	*api = *order = *scope = NULL;
	if (!t->g)
		return;
	*api = c11 ? "atomic_fetch_add_explicit" : "atomic_add";
	*order = !c11 ? "none (OpenCL 1.x)" : t->ord == AT_RELAXED ? "memory_order_relaxed"
								  : "memory_order_acq_rel";
	*scope = !c11 ? "none (OpenCL 1.x)" : is_local(t->pat) ? "memory_scope_work_group"
							       : "memory_scope_device";
}

static json_t *str_or_null(const char *v)
{
	return v ? json_string(v) : json_null();
}

static json_t *int_or_null(bool present, json_int_t v)
{
	return present ? json_integer(v) : json_null();
}

static json_t *at_params(const struct bench_session *s, const struct atomics_opts *o,
			 const struct at_plan *p, const struct at_pt *t, const char *missing)
{
	json_t *j = json_object();
	bool chain = t->pat == AT_CHAIN, c11 = t->g && t->g->c11;
	unsigned ipc = items_per_counter(p, t);
	unsigned sg = p->sg_req ? p->sg_req : p->sg_width ? p->sg_width : t->sg_kernel;
	const char *api, *order, *scope;

	used_names(t, &api, &order, &scope);
	json_object_set_new(j, "pattern", json_string(at_pattern_names[t->pat]));
	json_object_set_new(j, "order", json_string(at_order_names[t->ord]));
	json_object_set_new(j, "api", str_or_null(api));
	json_object_set_new(j, "order_used", str_or_null(order));
	json_object_set_new(j, "scope_used", str_or_null(scope));
	json_object_set_new(j, "within_declared_caps", c11 ? json_boolean(!missing[0]) : json_null());
	json_object_set_new(j, "atomic_caps", int_or_null(s->dev->atomic_caps_known,
							  (json_int_t)s->dev->atomic_mem_caps));
	json_object_set_new(j, "memory", json_string(is_local(t->pat) ? "local" : "global"));
	json_object_set_new(j, "work_items", json_integer(chain ? 1 : (json_int_t)p->items));
	json_object_set_new(j, "wg_size", json_integer(chain ? 1 : p->wg));
	json_object_set_new(j, "scale", json_integer(o->scale));
	json_object_set_new(j, "ops", json_integer(o->ops));
	json_object_set_new(j, "sg_size", int_or_null(!chain && sg, sg));
	json_object_set_new(j, "sg_source", chain ? json_null() : json_string(p->sg_source));
	json_object_set_new(j, "counters", json_integer(chain ? AT_CHAIN_SLOTS
						     : ipc ? (json_int_t)(p->items / ipc) : 0));
	json_object_set_new(j, "items_per_counter", json_integer(ipc));
	json_object_set_new(j, "stride_bytes",
			    int_or_null(t->pat != AT_LOCAL_WG,
					t->pat == AT_NEIGHBOURS || t->pat == AT_LOCAL ? 4 : p->line_bytes));
	json_object_set_new(j, "flush", json_boolean(p->flush_bytes > 0));
	json_object_set_new(j, "flush_bytes", int_or_null(p->flush_bytes, (json_int_t)p->flush_bytes));
	return j;
}

static void at_metrics(const struct bench_session *s, const struct atomics_opts *o,
		       const struct at_plan *p, const struct at_pt *t, json_t *pt)
{
	json_t *m = json_object();
	bool chain = t->pat == AT_CHAIN;
	double atomics = chain ? o->ops : (double)p->items * o->ops;
	double ns = chain ? (t->med_ns - t->overhead_ns) / o->ops : t->med_ns / atomics;
	uint32_t mhz = s->dev->clock_mhz;

	json_object_set_new(m, "atomics", json_real(atomics));
	json_object_set_new(m, "atomics_per_s", json_real(ns > 0 ? 1e9 / ns : 0));
	json_object_set_new(m, "ns_per_atomic", json_real(ns));
	json_object_set_new(m, "cycles_per_atomic", mhz ? json_real(ns * mhz / 1e3) : json_null());
	if (!mhz)
		json_object_set_new(m, "cycles_note", json_string("CL_DEVICE_MAX_CLOCK_FREQUENCY "
								  "reports 0 MHz"));
	if (chain)
		json_object_set_new(m, "launch_overhead_ns", json_real(t->overhead_ns));
	json_object_set_new(pt, "metrics", m);
}

static const char *const at_head[] = {
	"Pattern", "Order", "API", "Scope", "Counters", "Items/ctr", "Model occupancy", "median us",
	"CV %", "Gatomic/s", "ns/atomic", "cycles", "status" };
#define AT_NCOLS (sizeof(at_head) / sizeof(at_head[0]))

static void at_row(struct table *tb, const json_t *pt, const struct at_pt *t)
{
	const json_t *pa = json_object_get(pt, "params"), *m = json_object_get(pt, "metrics");
	const char *status = json_string_value(json_object_get(pt, "status"));
	const json_t *cyc = json_object_get(m, "cycles_per_atomic");
	const char *api = json_string_value(json_object_get(pa, "api"));
	const char *scope = json_string_value(json_object_get(pa, "scope_used"));
	bool ok = strcmp(status, "ok") == 0;
	char c[AT_NCOLS][64];
	const char *cells[AT_NCOLS];

	snprintf(c[0], 64, "%s", at_pattern_names[t->pat]);
	snprintf(c[1], 64, "%s", at_order_names[t->ord]);
	snprintf(c[2], 64, "%s", !api ? "-" : strcmp(api, "atomic_add") ? "c11" : "1.x");
	snprintf(c[3], 64, "%s", !scope ? "-" : strstr(scope, "device") ? "device"
				 : strstr(scope, "work_group") ? "work_group" : "none");
	snprintf(c[4], 64, "%lld", json_integer_value(json_object_get(pa, "counters")));
	snprintf(c[5], 64, "%lld", json_integer_value(json_object_get(pa, "items_per_counter")));
	snprintf(c[6], 64, "%s", model_occupancy_cell(json_object_get(pt, "model")));
	snprintf(c[7], 64, ok ? "%.2f" : "-", t->med_ns / 1e3);
	snprintf(c[8], 64, ok ? "%.1f" : "-", t->cv);
	snprintf(c[9], 64, ok ? "%.4f" : "-",
		 json_real_value(json_object_get(m, "atomics_per_s")) / 1e9);
	snprintf(c[10], 64, ok ? "%.3f" : "-", json_real_value(json_object_get(m, "ns_per_atomic")));
	snprintf(c[11], 64, ok && json_is_real(cyc) ? "%.1f" : "-", json_real_value(cyc));
	snprintf(c[12], 64, "%s%s", status, !json_is_null(json_object_get(pt, "reason")) ? " (note)" : "");
	for (size_t i = 0; i < AT_NCOLS; i++)
		cells[i] = c[i];
	table_add(tb, cells);
}


/* ---- one point ---- */

/* Validated launch, timed launches, validation of the accumulated counters. */
static bool at_measure(struct bench_session *s, const struct atomics_opts *o, struct at_plan *p,
		       struct at_pt *t, json_t *pt, char *err, size_t len)
{
	unsigned reps = s->opts->reps;
	double *dev = calloc(reps, sizeof(double)), *wall = calloc(reps, sizeof(double));
	double d0, w0;
	struct stats st;
	bool ok = dev && wall && at_args(p, t, o->ops, err, len) && at_poison(s, p, t->pat, err, len);

	cl_clear_last();
	ok = ok && time_run(s->pc.q, time_enqueue_launch, &t->l, 0, 1, &d0, &w0, err, len);
	if (!ok && t->pat != AT_CHAIN) {
		struct kernel_res r;
		prog_kernel_res(&s->pc, t->l.kernel, p->wg, t->g->build_log, &r);
		wg_refused(s, "wg", p->wg, &r);
	}
	t->launches = 1;
	ok = ok && at_validate(s, p, t, o->ops, true, err, len);
	if (ok)
		json_object_set_new(pt, "validated", json_true());
	ok = ok && at_time(s, p, t, dev, wall, err, len);
	t->launches += s->opts->warmup + reps;
	if (ok) {
		point_set_times(pt, dev, wall, reps);
		stats_compute(dev, reps, &st);
		t->med_ns = st.median;
		t->cv = st.cv;
	}
	if (ok && !at_validate(s, p, t, o->ops, false, err, len)) {
		char tmp[1024];
		snprintf(tmp, sizeof(tmp), "after the timed launches: %s", err);
		snprintf(err, len, "%s", tmp);
		json_object_set_new(pt, "validated", json_false());
		ok = false;
	}
	/* after the check: an ops = 0 launch leaves the counters but resets out[0] */
	if (ok && t->pat == AT_CHAIN)
		ok = at_overhead(s, p, t, o->ops, dev, wall, err, len);
	free(dev);
	free(wall);
	return ok;
}

static void at_point(struct bench_session *s, const struct atomics_opts *o, struct at_plan *p,
		     enum at_pattern pat, enum at_order ord, struct table *tb)
{
	struct at_pt t = { .pat = pat, .ord = ord };
	const struct at_prog *g = &p->prog[ord];
	json_t *pt = point_new();
	char err[4096] = "", missing[128] = "", note[2048] = "";
	bool ok;

	if (!g->built) {
		json_object_set_new(pt, "params", at_params(s, o, p, &t, missing));
		point_set_status(pt, "skipped", g->skip);
		at_row(tb, pt, &t);
		session_add_point(s, pt);
		return;
	}
	t.g = g;
	if (g->c11)
		caps_missing(s->dev, ord, is_local(pat), missing, sizeof(missing));
	ok = at_measure(s, o, p, &t, pt, err, sizeof(err));
	json_object_set_new(pt, "params", at_params(s, o, p, &t, missing));
	if (ok)
		at_metrics(s, o, p, &t, pt);
	snprintf(note, sizeof(note), "%s", g->note);
	if (missing[0])
		snprintf(note + strlen(note), sizeof(note) - strlen(note),
			 "%srun beyond what the device declares: CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES "
			 "0x%llx lacks %s", note[0] ? "; " : "",
			 (unsigned long long)s->dev->atomic_mem_caps, missing);
	struct kernel_res kr;
	char wgn[256];
	prog_kernel_res(&s->pc, t.l.kernel, p->wg, g->build_log, &kr);
	if (ok && pat != AT_CHAIN && wg_note(p->wg, &kr, wgn, sizeof(wgn)))
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "%s%s", note[0] ? "; " : "",
			 wgn);
	if (ok && pat == AT_CHAIN && t.med_ns <= t.overhead_ns)
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "%sthe chain is within "
			 "the launch overhead's noise: raise --ops", note[0] ? "; " : "");
	point_set_status(pt, ok ? "ok" : "failed", ok ? (note[0] ? note : NULL) : err);
	struct occ_result mr;
	unsigned sg = p->sg_req ? p->sg_req : p->sg_width ? p->sg_width : t.sg_kernel;
	json_object_set_new(pt, "model", session_model_kernel(s, t.l.kernel, g->build_log,
		pat == AT_CHAIN ? 1 : p->wg, pat == AT_CHAIN ? 0 : sg, is_local(pat),
		pat == AT_CHAIN ? 1 : p->groups, &mr));
	at_row(tb, pt, &t);
	session_add_point(s, pt);
}

static json_t *at_setup_json(const struct bench_session *s, const struct at_plan *p)
{
	json_t *j = json_object();

	json_object_set_new(j, "clock", dev_clock_json(s->dev));
	json_object_set_new(j, "line_bytes", json_integer(p->line_bytes));
	json_object_set_new(j, "llc_bytes", json_integer((json_int_t)p->llc));
	json_object_set_new(j, "llc_source", json_string(p->llc_source));
	json_object_set_new(j, "flush_bytes", int_or_null(p->flush_bytes, (json_int_t)p->flush_bytes));
	json_object_set_new(j, "chain_counters", json_integer(AT_CHAIN_SLOTS));
	return j;
}

static void at_print_head(const struct bench_session *s, const struct atomics_opts *o,
			  const struct at_plan *p)
{
	const struct dev_info *d = s->dev;

	printf("atomics on %s (%s): %llu work-items (1024 x %u), work-groups of %u, %u fetch-adds "
	       "each\n", d->name, d->platform_name, (unsigned long long)p->items, o->scale, p->wg,
	       o->ops);
	if (p->sg_req || p->sg_width)
		printf("sub-group size %u: %s\n", p->sg_req ? p->sg_req : p->sg_width, p->sg_source);
	else
		printf("sub-group size: %s\n", p->sg_source);
	if (d->clock_mhz)
		printf("cycles from the nominal clock, CL_DEVICE_MAX_CLOCK_FREQUENCY = %u MHz\n",
		       d->clock_mhz);
	else
		printf("cycles: none (CL_DEVICE_MAX_CLOCK_FREQUENCY reports 0 MHz)\n");
	if (p->flush_bytes)
		printf("flush: %llu bytes written between timed launches (last-level cache %llu bytes, "
		       "%s)\n", (unsigned long long)p->flush_bytes, (unsigned long long)p->llc,
		       p->llc_source);
}

int atomics_run(struct bench_session *s, const struct atomics_opts *o, struct at_plan *p)
{
	struct table tb;
	size_t n = 0, i = 0;

	at_alloc(s, p);
	json_object_set_new(s->doc, "setup", at_setup_json(s, p));
	table_init(&tb, AT_NCOLS, at_head);
	for (int pat = 0; pat < AT_NPATTERNS; pat++)
		for (int ord = 0; ord < AT_NORDERS; ord++)
			n += o->patterns[pat] && o->orders[ord];
	for (int pat = 0; pat < AT_NPATTERNS; pat++)
		for (int ord = 0; ord < AT_NORDERS; ord++) {
			char label[64];
			if (!o->patterns[pat] || !o->orders[ord])
				continue;
			snprintf(label, sizeof(label), "%s %s", at_pattern_names[pat], at_order_names[ord]);
			session_progress(s, i++, n, label);
			at_point(s, o, p, (enum at_pattern)pat, (enum at_order)ord, &tb);
		}
	session_progress(s, n, n, "");
	if (!s->opts->quiet) {
		at_print_head(s, o, p);
		table_print(&tb, stdout);
		for (size_t k = 0; k < json_array_size(json_object_get(s->doc, "points")); k++) {
			json_t *pt = json_array_get(json_object_get(s->doc, "points"), k);
			const char *r = json_string_value(json_object_get(pt, "reason"));
			const json_t *pa = json_object_get(pt, "params");
			if (r)
				printf("  %s %s: %s\n", json_string_value(json_object_get(pa, "pattern")),
				       json_string_value(json_object_get(pa, "order")), r);
		}
	}
	table_free(&tb);
	at_free(p);
	return session_finish(s);
}
