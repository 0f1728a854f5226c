/*
 * bench transpose: the guide's 16 x 16 shuffle transpose, then whole n x n
 * matrices: sub-groups transposing 16 x 16 tiles with shuffles (butterfly,
 * and the guide's broadcasts), a local-memory tiled transpose and a naive one,
 * each validated and timed beside clEnqueueCopyBuffer of the same bytes.
 */
#include "bench.h"
#include "check.h"
#include "sg_data.h"

#include <stdlib.h>
#include <string.h>

enum { TR_GUIDE16, TR_SHUFFLE, TR_BCAST, TR_LOCAL, TR_NAIVE, TR_NVAR };
static const char *const tr_names[TR_NVAR] = { "guide16", "shuffle", "shuffle-bcast", "local",
					       "naive" };
static const char *const tr_kernels[TR_NVAR] = { "transpose_bcast", "transpose_shuffle",
						 "transpose_bcast", "transpose_local",
						 "transpose_naive" };
_Static_assert(TR_NVAR <= SGD_MAX_VARIANTS, "sg_data.h holds the variants");
#define TR_SG_VARIANTS ((1u << TR_GUIDE16) | (1u << TR_SHUFFLE) | (1u << TR_BCAST))
#define TR_USES_SG(v) ((TR_SG_VARIANTS >> (v)) & 1u)

/* The kernels' count (kernels/transpose.cl): every word of n x n read once, written once. */
static double tr_bytes_moved(uint64_t n)
{
	return 8.0 * (double)(n * n);
}

/* Bytes of one n x n matrix. */
static size_t tr_matrix_bytes(uint64_t n)
{
	return (size_t)(n * n * 4);
}

struct tr_opts {
	struct sgd_opts sg;      /* first: --variant, --wg, --sg, --seed */
	struct range n;
};

/* One 1-D or 2-D launch. */
struct tr_launch {
	cl_kernel k;
	cl_uint dims;
	size_t global[2], local[2];
};

struct tr_state {
	struct sgd_state d;
	cl_mem m16;              /* the guide's 16 x 16, transposed in place */
	struct tr_launch timed;  /* the launch the harness times */
};
_Static_assert(offsetof(struct tr_opts, sg) == 0 && offsetof(struct tr_state, d) == 0,
	       "sg_data.h's callbacks take the options and the state by their first members");

/* One point: a variant at one n, and what the launch ran with. */
struct tr_params {
	int variant;
	uint64_t n;
	struct tr_launch l;
	struct sgb_choice c;
	unsigned seen;           /* the maximum sub-group size the kernel saw, 0: not seen */
	unsigned shuffles;       /* per lane per tile, 0: none */
	uint64_t seed;
};

/* ---- options ---- */

#define TO(f) offsetof(struct tr_opts, f)
static const struct cli_opt tr_cli[] = {
	{ "n", "LIST", CLI_RANGE, TO(n), 16, 65536,
	  .help = "matrix sizes, e.g. 256, 1024..8192:x2 (default 4096,8192)" },
	{ "variant", "LIST", CLI_NAMES, TO(sg.variant), .names = tr_names, .n_names = TR_NVAR,
	  .help = "of the names above (default all)" },
	SGD_CLI(struct tr_opts, sg, "work-group size of the shuffle kernels (default 256)",
		"sub-group width: intel/khr a size to require (default 16 where it\n"
		"can be required; the shuffle kernels need a known width), nv 32,\n"
		"emulated 4..64 (default 16)"),
	{ 0 } };

static void tr_check(void *opts, const struct cli_set *given)
{
	struct tr_opts *o = opts;

	sgd_check(&o->sg, given);
	if (!o->n.n)
		cli_range("n", "4096,8192", 16, 65536, &o->n);
	for (size_t i = 0; i < o->n.n; i++)
		if (o->n.v[i] % 16)
			cli_usage_error("--n %llu is not a multiple of 16 (the tile): allowed 16, 32, "
					"... 65536", (unsigned long long)o->n.v[i]);
}

/* ---- plan ---- */

/* Why variant v cannot run with c on d (NULL: it can). */
static const char *tr_skip(const struct dev_info *d, const struct sgb_choice *c, int v)
{
	if (TR_USES_SG(v) && !c->width)
		return "the shuffle transpose is built for a known sub-group width; with the driver's "
		       "choice (--sg auto, or no size that can be required) it cannot be: give --sg N";
	if (!TR_USES_SG(v) && d->max_wg < 256)
		return "needs work-groups of 256 (32 x 8, 16 x 16)";
	return NULL;
}

/* The options of one of the two programs: sg 1 the shuffle kernels, 0 local and naive. */
static void tr_options(const struct dev_info *d, const struct sgb_choice *c, unsigned wg, int sg,
		       char *opts, size_t len)
{
	int off = sgb_build_options(d, c, wg, opts, len);

	snprintf(opts + off, len - (size_t)off, " -DTR_SG=%d", sg);
}

static void plan_build(struct bench_run *r, const struct tr_opts *o, struct tr_state *p)
{
	struct sgd_state *d = &p->d;
	unsigned sel = 0;
	char opts[768];
	const char *why;

	for (int v = 0; v < TR_NVAR; v++)
		sel |= o->sg.variant[v] ? 1u << v : 0;
	for (int v = 0; v < TR_NVAR; v++)
		if ((sel >> v & 1u) && (why = tr_skip(r->dev, &d->c, v)))
			d->skip[v] = strdup(why);
	/* two programs: a failure of the shuffle kernels stays with them */
	for (int sg = 1; sg >= 0; sg--) {
		unsigned which = sel & (sg ? TR_SG_VARIANTS : ~TR_SG_VARIANTS);
		if (!which)
			continue;
		tr_options(r->dev, &d->c, o->sg.wg, sg, opts, sizeof(opts));
		sgd_build(r, d, "transpose.cl", opts, which, tr_kernels, sg ? o->sg.wg : 256);
	}
}

/* The two programs plan builds at --sg b->sg (0: auto) with the default options. */
static void tr_builds(struct bench_builds *b)
{
	struct sgd_opts o;
	struct sgb_choice c;
	char err[1024];
	bool ok;

	sgd_defaults(&o);
	o.sg = b->sg;
	o.sg_given = true;
	ok = sgd_choose(b->dev, NULL, &o, SGB_NEED_SHUFFLE, b->grf_large, &c, err, sizeof(err));
	for (int sg = 1; sg >= 0; sg--) {
		struct bench_build *bb = bench_builds_add(b, "transpose.cl");
		const char *why = tr_skip(b->dev, &c, sg ? TR_SHUFFLE : TR_LOCAL);
		for (int v = sg ? TR_SHUFFLE : TR_LOCAL; v <= (sg ? TR_BCAST : TR_NAIVE); v++)
			bench_build_kernel(bb, tr_kernels[v], tr_names[v], sg ? o.wg : 256,
					   sg ? "--wg (default 256)" : "the tile's (32 x 8, 16 x 16)");
		if (!ok && c.backend == SGB_NONE) {
			bench_build_skip(bb, "%s", err);   /* no backend: nothing to build */
			bb->skip_options = true;
			continue;
		}
		tr_options(b->dev, &c, o.wg, sg, bb->options, sizeof(bb->options));
		bb->build = sgb_build_json(b->dev, &c);
		if (!ok)
			bench_build_skip(bb, "%s", err);
		else if (why)
			bench_build_skip(bb, "%s", why);
	}
}

static size_t tr_plan(struct bench_run *r)
{
	struct tr_opts *o = r->opts;
	struct tr_state *p = bench_alloc(sizeof(*p));
	uint64_t max_n = 16;
	char what[64];

	memset(p, 0, sizeof(*p));
	r->state = p;
	sgd_plan_limits(r, &o->sg, SGB_NEED_SHUFFLE, &p->d, tr_names, "n");
	for (size_t i = 0; i < o->n.n; i++)
		max_n = o->n.v[i] > max_n ? o->n.v[i] : max_n;
	snprintf(what, sizeof(what), "--n %llu", (unsigned long long)max_n);
	sgd_check_memory(r->dev, tr_matrix_bytes(max_n), what);
	plan_build(r, o, p);
	json_object_set_new(r->doc, "sub_groups", sgb_report_json(r->dev, &p->d.c));
	if (o->sg.variant[TR_GUIDE16])   /* the guide's example first: its own 16 x 16 */
		sgd_add(&p->d, TR_GUIDE16, 0, 16, tr_matrix_bytes(16), 0);
	for (size_t i = 0; i < o->n.n; i++)
		for (int v = TR_SHUFFLE; v < TR_NVAR; v++)
			if (o->sg.variant[v])
				sgd_add(&p->d, v, (unsigned)i + 1, o->n.v[i], tr_matrix_bytes(o->n.v[i]),
					(o->sg.seed + i) & INT64_MAX);
	max_n = 16;
	for (size_t i = 0; i < p->d.n_items; i++)
		max_n = p->d.items[i].size > max_n ? p->d.items[i].size : max_n;
	sgd_alloc(r, &p->d, tr_matrix_bytes(max_n), true);
	p->m16 = bench_buffer(r, CL_MEM_READ_WRITE, tr_matrix_bytes(16));
	return p->d.n_items;
}

static void tr_teardown(struct bench_run *r)
{
	struct tr_state *p = r->state;

	if (p->m16)
		clReleaseMemObject(p->m16);
	sgd_teardown(&p->d);
	free(p);
	range_free(&((struct tr_opts *)r->opts)->n);
}

/* ---- launches ---- */

static cl_int tr_enqueue(void *arg, cl_command_queue q, cl_event *ev)
{
	const struct tr_launch *l = arg;

	return clEnqueueNDRangeKernel(q, l->k, l->dims, NULL, l->global, l->local, 0, NULL, ev);
}

/* The launch of variant v on an n x n matrix. */
static struct tr_launch tr_shape(const struct sgd_state *d, int v, uint64_t n)
{
	unsigned w = d->c.width, sw = w < 16 ? 16 : w, wg = d->wg;
	uint64_t sgs = n / 16 * ((n + sw - 1) / sw), items = sgs * w;

	switch (v) {
	case TR_GUIDE16:
		return (struct tr_launch){ d->k[v], 1, { w, 1 }, { w, 1 } };
	case TR_SHUFFLE:
	case TR_BCAST:
		return (struct tr_launch){ d->k[v], 1, { (size_t)((items + wg - 1) / wg * wg), 1 },
					   { wg, 1 } };
	case TR_LOCAL:
		return (struct tr_launch){ d->k[v], 2,
					   { (size_t)((n + 31) / 32 * 32), (size_t)((n + 31) / 32 * 8) },
					   { 32, 8 } };
	default:
		return (struct tr_launch){ d->k[v], 2, { (size_t)n, (size_t)n }, { 16, 16 } };
	}
}

/* Shuffle calls per lane per 16 x 16 tile (the kernel header's algorithm). */
static unsigned tr_shuffles(unsigned w, int v)
{
	unsigned tl = w < 16 ? w : 16, rounds = 0;

	if (v == TR_SHUFFLE) {
		for (unsigned s = 1; s < tl; s <<= 1)
			rounds++;
		return rounds * 8 * (16 / tl);
	}
	return v == TR_GUIDE16 || v == TR_BCAST ? 256 : 0;
}

/* Host data of a set: random (the guide's 0..255 for guide16), and the transposed reference. */
static void tr_fill(struct sgd_state *d, const struct sgd_item *it)
{
	uint64_t n = it->size;

	if (it->variant == TR_GUIDE16)
		for (uint32_t i = 0; i < 256; i++)
			d->hsrc[i] = i;
	else
		check_fill_random(d->hsrc, (size_t)(n * n), it->seed);
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t j = 0; j < n; j++)
			d->href[j * n + i] = d->hsrc[i * n + j];
}

/* Launches once on fresh data, checks the transpose and, for sub-group kernels, the width. */
static bool tr_validate(struct bench_run *r, struct tr_state *p, const struct sgd_item *it,
			struct tr_params *a, char *err, size_t len)
{
	struct sgd_state *d = &p->d;
	bool g16 = a->variant == TR_GUIDE16;
	cl_mem src = g16 ? p->m16 : d->src, out = g16 ? p->m16 : d->dst;
	cl_kernel k = d->k[a->variant];
	cl_uint cn = (cl_uint)a->n, info[4];

	if (!sgd_load(r, d, it, tr_fill, err, len) || !sgd_poison(r, d, out, it->bytes, err, len) ||
	    (g16 && !CL_CHECK(clEnqueueWriteBuffer(r->pc.q, p->m16, CL_TRUE, 0, it->bytes, d->hsrc, 0,
						   NULL, NULL), err, len)) ||
	    !(TR_USES_SG(a->variant)
		      ? PROG_SET_ARGS(k, err, len, PROG_ARG(src), PROG_ARG(out), PROG_ARG(cn),
				      PROG_ARG(d->info))
		      : PROG_SET_ARGS(k, err, len, PROG_ARG(src), PROG_ARG(out), PROG_ARG(cn))) ||
	    !bench_enqueue_once(r, tr_enqueue, &a->l, err, len) ||
	    !sgd_read_back(r, d, out, it->bytes / 4, info, err, len))
		return false;
	if (TR_USES_SG(a->variant)) {
		a->seen = info[2];
		if (info[2] != d->c.width) {
			snprintf(err, len, "built for sub-group width %u, the kernel ran with %u",
				 d->c.width, info[2]);
			return false;
		}
	}
	return true;
}

static void tr_point(struct bench_run *r, struct bench_point *pt)
{
	struct tr_state *p = r->state;
	const struct sgd_item *it = &p->d.items[pt->index];
	struct tr_params *a = pt->params;
	char err[4096];
	int v = it->variant;

	*a = (struct tr_params){ v, it->size, tr_shape(&p->d, v, it->size), p->d.c, 0,
				 TR_USES_SG(v) && p->d.c.width ? tr_shuffles(p->d.c.width, v) : 0,
				 it->seed };
	sgd_ceiling(&p->d, pt, it);   /* every point of a size, skipped ones too, shows its ceiling */
	if (!sgd_ready(&p->d, pt, v))
		return;
	if (!tr_validate(r, p, it, a, err, sizeof(err)))
		bench_fail(pt, "%s", err);
	bench_point_model(pt, &p->d.res[v], (unsigned)(a->l.local[0] * a->l.local[1]),
			  TR_USES_SG(v) ? (a->seen ? a->seen : p->d.c.width) : 0, v == TR_LOCAL,
			  a->l.global[0] / a->l.local[0] * (a->l.global[1] / a->l.local[1]));
	if (pt->status != POINT_OK)
		return;
	pt->validated = true;
	p->timed = a->l;
	pt->enqueue = tr_enqueue;
	pt->enqueue_arg = &p->timed;
	pt->bytes = tr_bytes_moved(it->size);
}

/* The shuffle transposes against local memory; all but the guide's against the naive one. */
static void tr_relate(struct bench_run *r)
{
	struct tr_state *p = r->state;

	for (int v = TR_SHUFFLE; v <= TR_LOCAL; v++) {
		if (v != TR_LOCAL)
			sgd_ratio(r, &p->d, v, TR_LOCAL, "vs_local");
		sgd_ratio(r, &p->d, v, TR_NAIVE, "vs_naive");
	}
}

/* ---- views ---- */

static void wg_shape(const struct tr_launch *l, char *buf, size_t len)
{
	if (!l->local[0])   /* guide16 without a known width */
		snprintf(buf, len, "-");
	else if (l->dims == 2)
		snprintf(buf, len, "%zu x %zu", l->local[0], l->local[1]);
	else
		snprintf(buf, len, "%zu", l->local[0]);
}

static json_t *tr_params_json(const struct bench_run *r, const struct bench_point *pt)
{
	const struct tr_params *a = pt->params;
	json_t *o = json_object();
	char shape[32];

	(void)r;
	wg_shape(&a->l, shape, sizeof(shape));
	json_object_set_new(o, "variant", json_string(tr_names[a->variant]));
	json_object_set_new(o, "n", json_integer((json_int_t)a->n));
	json_object_set_new(o, "bytes", json_integer((json_int_t)tr_matrix_bytes(a->n)));
	json_object_set_new(o, "wg_size", json_integer((json_int_t)(a->l.local[0] * a->l.local[1])));
	json_object_set_new(o, "wg_shape", json_string(shape));
	json_object_set_new(o, "uses_sub_groups", json_boolean(TR_USES_SG(a->variant)));
	sgb_params(o, &a->c);
	json_object_set_new(o, "sg_size_kernel", bench_json_uint0(a->seen));
	json_object_set_new(o, "shuffles_per_lane_per_tile", bench_json_uint0(a->shuffles));
	json_object_set_new(o, "seed", a->variant == TR_GUIDE16 ? json_null()
								 : json_integer((json_int_t)a->seed));
	return o;
}

#define TA(pt) ((const struct tr_params *)(pt)->params)
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

CELL(cell_n) { (void)r; snprintf(b, n, "%llu", (unsigned long long)TA(pt)->n); }
CELL(cell_variant) { (void)r; snprintf(b, n, "%s", tr_names[TA(pt)->variant]); }
CELL(cell_sg)
{
	(void)r;
	snprintf(b, n, !TR_USES_SG(TA(pt)->variant) ? "-" : TA(pt)->c.width ? "%u" : "driver",
		 TA(pt)->c.width);
}
CELL(cell_wg) { (void)r; wg_shape(&TA(pt)->l, b, n); }
CELL(cell_vs)
{
	double vs = sgd_metric(pt, "vs_local");

	(void)r;
	snprintf(b, n, vs > 0 ? "%.3f" : "-", vs);
}

static const struct bench_col tr_cols[] = {
	{ "n", cell_n }, { "variant", cell_variant }, { "backend", sgd_cell_backend }, { "SG", cell_sg },
	{ "WG", cell_wg }, { "Model occupancy", bench_cell_occupancy },
	{ "median us", bench_cell_median_us }, { "CV %", bench_cell_cv }, { "GB/s", bench_cell_gbps },
	{ "ceiling GB/s", bench_cell_ceiling_gbps }, { "of ceiling", bench_cell_of_ceiling },
	{ "vs local", cell_vs }, { "status", bench_cell_status }, { 0 } };

const struct bench_ops transpose_bench = {
	.name = "transpose",
	.summary = "shuffle, local-memory and naive matrix transposes",
	.synopsis = "usage: bench transpose [options]\n"
		    "  Transposes n x n ints (n a multiple of 16) and compares each way with\n"
		    "  clEnqueueCopyBuffer of the same bytes; GB/s count bytes read + written:\n"
		    "    guide16        the guide's example: one 16 x 16 matrix in place, one sub-group,\n"
		    "                   a broadcast shuffle per value\n"
		    "    shuffle        sub-groups transposing 16 x 16 tiles in registers by butterfly\n"
		    "                   shuffles\n"
		    "    shuffle-bcast  the same tiles by the guide's broadcasts (256 shuffles a tile)\n"
		    "    local          32 x 32 tiles through local memory\n"
		    "    naive          one work-item per element\n",
	.flags = BENCH_DEVICE | BENCH_SG | BENCH_COLD,
	.opts = tr_cli,
	.opts_size = sizeof(struct tr_opts),
	.defaults = sgd_defaults,
	.check = tr_check,
	.params_size = sizeof(struct tr_params),
	.plan = tr_plan,
	.label = sgd_label,
	.point = tr_point,
	.params_json = tr_params_json,
	.cols = tr_cols,
	.title = sgd_title,
	.relate = tr_relate,
	.teardown = tr_teardown,
	.builds = tr_builds,
};
