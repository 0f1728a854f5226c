/* What sg-copy and transpose share (sg_data.h). */
#include "sg_data.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

void sgd_check(struct sgd_opts *o, const struct cli_set *given)
{
	o->sg_given = cli_given(given, "sg");
	o->seed_given = cli_given(given, "seed");
}

/* ---- plan ---- */

bool sgd_choose(const struct dev_info *d, const char *backend, const struct sgd_opts *o,
		unsigned need, bool grf_large, struct sgb_choice *c, char *err, size_t len)
{
	size_t lim = d->max_wg < d->max_item_sizes[0] ? d->max_wg : d->max_item_sizes[0];

	if (!sgb_select(d, backend, need, c, err, len))
		return false;
	if (!sgb_set_width(d, c, o->sg_given, o->sg, SGD_SG_DEFAULT, err, len)) {
		c->width = o->sg;   /* what was asked, for a build the compiler may judge */
		c->required = sgb_native(c->backend);
		return false;
	}
	if (!sgb_set_grf(d, c, grf_large, err, len))
		return false;
	if (o->wg > lim) {
		snprintf(err, len, "--wg %u exceeds the work-group limit of '%s': allowed 1..%zu", o->wg,
			 d->name, lim);
		return false;
	}
	if (c->width && o->wg % c->width) {
		snprintf(err, len, "--wg %u is not a multiple of the sub-group width %u (%s backend): "
			 "sub-groups must be full", o->wg, c->width, sgb_name(c->backend));
		return false;
	}
	return true;
}

void sgd_plan_limits(struct bench_run *r, struct sgd_opts *o, unsigned need, struct sgd_state *s,
		     const char *const *vnames, const char *size_name)
{
	char err[1024];

	s->vnames = vnames;
	s->size_name = size_name;
	s->wg = o->wg;
	if (!sgd_choose(r->dev, r->co->sg_backend, o, need, r->co->grf, &s->c, err, sizeof(err)))
		cli_usage_error("%s", err);
	s->build = sgb_build_json(r->dev, &s->c);
	if (!o->seed_given)
		o->seed = check_fresh_seed() & INT64_MAX;   /* stored as a JSON integer */
	json_object_set_new(r->doc, "kernels", json_object());
}

void sgd_check_memory(const struct dev_info *d, uint64_t bytes, const char *what)
{
	if (bytes > d->max_alloc)
		cli_usage_error("%s: a buffer of %llu bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE of "
				"'%s': at most %llu bytes", what, (unsigned long long)bytes, d->name,
				(unsigned long long)d->max_alloc);
	if (3 * bytes > d->global_mem)
		cli_usage_error("%s: 3 buffers of %llu bytes (source, destination, copy target) exceed "
				"the global memory of '%s': %llu bytes in all", what,
				(unsigned long long)bytes, d->name, (unsigned long long)d->global_mem);
}

void sgd_build(struct bench_run *r, struct sgd_state *s, const char *file, const char *opts,
	       unsigned which, const char *const *kname, size_t local)
{
	json_t *ks = json_object_get(r->doc, "kernels");
	char err[16384], *log = NULL;
	cl_program prog = prog_build(&r->pc, file, opts, &log, err, sizeof(err));

	if (prog)
		s->prog[s->n_prog++] = prog;
	for (int v = 0; v < SGD_MAX_VARIANTS; v++) {
		if (!(which & (1u << v)) || s->skip[v])
			continue;
		if (prog)
			s->k[v] = prog_kernel(prog, kname[v], err, sizeof(err));
		if (!s->k[v]) {
			s->fail[v] = strdup(err);
			continue;
		}
		prog_kernel_res(&r->pc, s->k[v], local, log, &s->res[v]);
		s->res[v].grf_large = sgb_grf_large(r->dev, &s->c);
		json_object_set_new(ks, s->vnames[v], prog_kernel_res_json(file, kname[v], opts,
									   &s->res[v]));
	}
	free(log);
}

void sgd_alloc(struct bench_run *r, struct sgd_state *s, size_t bytes, bool with_ref)
{
	s->src = bench_buffer(r, CL_MEM_READ_WRITE, bytes);
	s->dst = bench_buffer(r, CL_MEM_READ_WRITE, bytes);
	s->cpy = bench_buffer(r, CL_MEM_READ_WRITE, bytes);
	s->info = bench_buffer(r, CL_MEM_READ_WRITE, 16);
	s->hsrc = bench_alloc(bytes);
	s->hout = bench_alloc(bytes);
	s->href = with_ref ? bench_alloc(bytes) : NULL;
}

void sgd_add(struct sgd_state *s, int variant, unsigned set, uint64_t size, size_t bytes,
	     uint64_t seed)
{
	struct sgd_item *n = realloc(s->items, (s->n_items + 1) * sizeof(*n));

	if (!n)
		cli_die(EXIT_FAIL, "out of host memory");
	s->items = n;
	s->items[s->n_items++] = (struct sgd_item){ variant, set, size, bytes, seed, 0 };
}

void sgd_teardown(struct sgd_state *s)
{
	cl_mem m[] = { s->src, s->dst, s->cpy, s->info };

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i])
			clReleaseMemObject(m[i]);
	for (int v = 0; v < SGD_MAX_VARIANTS; v++) {
		if (s->k[v])
			clReleaseKernel(s->k[v]);
		free(s->skip[v]);
		free(s->fail[v]);
	}
	for (size_t i = 0; i < s->n_prog; i++)
		clReleaseProgram(s->prog[i]);
	free(s->hsrc);
	free(s->hout);
	free(s->href);
	free(s->items);
	json_decref(s->build);
}

/* ---- one point ---- */

bool sgd_ready(const struct sgd_state *s, struct bench_point *pt, int v)
{
	pt->build = json_incref(s->build);
	if (s->skip[v])
		bench_skip(pt, "%s", s->skip[v]);
	else if (s->fail[v])
		bench_fail(pt, "%s", s->fail[v]);
	return !s->skip[v] && !s->fail[v];
}

bool sgd_load(struct bench_run *r, struct sgd_state *s, const struct sgd_item *it,
	      void (*fill)(struct sgd_state *s, const struct sgd_item *it), char *err, size_t len)
{
	if (s->loaded == it->set + 1)
		return true;
	s->loaded = 0;
	fill(s, it);
	if (!CL_CHECK(clEnqueueWriteBuffer(r->pc.q, s->src, CL_TRUE, 0, it->bytes, s->hsrc, 0, NULL,
					   NULL), err, len))
		return false;
	s->loaded = it->set + 1;
	return true;
}

bool sgd_poison(struct bench_run *r, const struct sgd_state *s, cl_mem out, size_t bytes, char *err,
		size_t len)
{
	return CL_CHECK(check_poison(r->pc.q, out, bytes), err, len) &&
	       CL_CHECK(check_poison(r->pc.q, s->info, 4 * sizeof(cl_uint)), err, len);
}

bool sgd_read_back(struct bench_run *r, struct sgd_state *s, cl_mem out, size_t words,
		   cl_uint info[4], char *err, size_t len)
{
	if (!CL_CHECK(clEnqueueReadBuffer(r->pc.q, out, CL_TRUE, 0, words * 4, s->hout, 0, NULL, NULL),
		      err, len) ||
	    !CL_CHECK(clEnqueueReadBuffer(r->pc.q, s->info, CL_TRUE, 0, 4 * sizeof(cl_uint), info, 0,
					  NULL, NULL), err, len))
		return false;
	return check_compare_u32(s->hout, s->href ? s->href : s->hsrc, words, err, len) == 0;
}

void sgd_ceiling(const struct sgd_state *s, struct bench_point *pt, const struct sgd_item *it)
{
	pt->ceil_src = s->src;
	pt->ceil_dst = s->cpy;
	pt->ceil_bytes = it->bytes;
}

/* ---- across points ---- */

/* The point of variant v in set `set`, or NULL. */
static const struct bench_point *find(const struct bench_run *r, const struct sgd_state *s,
				      unsigned set, int v)
{
	for (size_t i = 0; i < r->n_points; i++)
		if (s->items[i].set == set && s->items[i].variant == v)
			return &r->points[i];
	return NULL;
}

void sgd_ratio(struct bench_run *r, const struct sgd_state *s, int v, int of, const char *key)
{
	for (size_t i = 0; i < r->n_points; i++) {
		struct bench_point *pt = &r->points[i];
		const struct bench_point *o;
		if (s->items[i].variant != v || !bench_point_gbps(pt) ||
		    !(o = find(r, s, s->items[i].set, of)) || !bench_point_gbps(o))
			continue;
		if (!pt->metrics)
			pt->metrics = json_object();
		json_object_set_new(pt->metrics, key,
				    json_real(bench_point_gbps(pt) / bench_point_gbps(o)));
	}
}

double sgd_metric(const struct bench_point *pt, const char *key)
{
	return json_real_value(json_object_get(pt->metrics, key));
}

/* ---- views ---- */

void sgd_print_title(const struct bench_run *r, FILE *f, const struct sgb_choice *c)
{
	fprintf(f, "%s on %s (%s)\n", r->row->cmd.name, r->dev->name, r->dev->platform_name);
	sgb_print(f, r->dev, c);
}

void sgd_title(const struct bench_run *r, FILE *f)
{
	sgd_print_title(r, f, &((const struct sgd_state *)r->state)->c);
}

void sgd_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	const struct sgd_state *s = r->state;

	snprintf(buf, len, "%s=%llu %s", s->size_name, (unsigned long long)s->items[i].size,
		 s->vnames[s->items[i].variant]);
}

void sgd_cell_backend(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)pt;
	snprintf(b, n, "%s", sgb_name(((const struct sgd_state *)r->state)->c.backend));
}

/* One check of sgd_checks_each: width sg (0: auto; per_backend: none). */
static void add_check(struct bench_check_plan *p, const char *row, const char *backend, bool per_backend,
		      unsigned sg, const char *args_fmt, const char *desc)
{
	struct bench_check c = { 0 };
	char sgs[16];

	snprintf(sgs, sizeof(sgs), sg ? "%u" : "auto", sg);
	if (per_backend) {
		snprintf(c.id, sizeof(c.id), "%s/%s", row, backend);
		snprintf(c.args, sizeof(c.args), args_fmt, backend);
	} else {
		snprintf(c.id, sizeof(c.id), "%s/%s/sg=%s", row, backend, sgs);
		snprintf(c.args, sizeof(c.args), args_fmt, backend, sgs);
	}
	snprintf(c.desc, sizeof(c.desc), "%s", desc);
	bench_check_add(p, &c);
}

void sgd_checks_each(struct bench_check_plan *p, const char *row, bool per_backend,
		     const char *args_fmt, const char *desc)
{
	unsigned w[SGB_MAX_WIDTHS];
	char why[256];

	for (int b = SGB_FIRST; b <= SGB_LAST; b++) {
		const char *bn = sgb_name((enum sgb_backend)b);
		size_t n = 0;
		if (!sgb_available(p->dev, (enum sgb_backend)b, 0, why, sizeof(why)))
			continue;
		if (per_backend) {
			add_check(p, row, bn, true, 0, args_fmt, desc);
			continue;
		}
		if (b == SGB_EMULATED)
			w[n++] = 16;
		else
			n = sgb_widths(p->dev, (enum sgb_backend)b, w);
		if (!n)
			add_check(p, row, bn, false, 0, args_fmt, desc);
		for (size_t i = 0; i < n; i++)
			if (w[i] <= 256)
				add_check(p, row, bn, false, w[i], args_fmt, desc);
	}
}
