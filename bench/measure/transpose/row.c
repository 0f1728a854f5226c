/*
 * bench transpose: the guide's 16 x 16 shuffle transpose, then whole n x n
 * matrices: sub-groups transposing tiles in registers with shuffles (in shapes
 * chosen on the command line: tile, vector width, tiles per sub-group, exchange, walk),
 * the guide's broadcasts, a local-memory tiled transpose and a naive one, each
 * validated and timed beside the copy ceiling of the same bytes.
 */
#include "host.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

const char *const tr_names[TR_NVAR] = { "guide16", "shuffle", "shuffle-bcast", "local",
					       "naive" };
const char *const tr_kernels[TR_NVAR] = { "transpose_bcast", "transpose_shuffle",
						 "transpose_bcast", "transpose_local",
						 "transpose_naive" };
_Static_assert(TR_NVAR <= SGD_MAX_VARIANTS, "sg_data.h holds the variants");

/* The shuffle variant's shapes: every combination of the lists given is a point. */
const char *const tile_names[] = { "16", "32" };
const char *const vec_names[] = { "1", "2", "4" };
const char *const exch_names[] = { "butterfly", "xor" };
const char *const walk_names[] = { "rows", "cols" };
/* The kernels' count (kernels/transpose.cl): every word of n x n read once, written once. */
static double tr_bytes_moved(uint64_t n)
{
	return 8.0 * (double)(n * n);
}


/* ---- options ---- */

#define TO(f) offsetof(struct tr_opts, f)
static const struct cli_opt tr_cli[] = {
	{ "n", "LIST", CLI_RANGE, TO(n), 16, 65536, .def = TR_DEFAULT_N,
	  .help = "matrix sizes, e.g. 256, 1024..8192:x2" },
	{ "variant", "LIST", CLI_NAMES, TO(sg.variant), .names = tr_names, .n_names = TR_NVAR,
	  .def = "all", .help = "of the names above" },
	{ "tile", "LIST", CLI_NAMES, TO(tile), .names = tile_names, .n_names = TR_NTILE,
	  .def = TR_DEFAULT_TILE,
	  .help = "shuffle: the side of the tile a sub-group transposes in registers,\n"
		  "16, 32 or all (on NVIDIA GPUs without a shape option " TR_NV_TILE "); a\n"
		  "point whose tile does not divide n is skipped" },
	{ "vec", "LIST", CLI_NAMES, TO(vec), .names = vec_names, .n_names = TR_NVEC,
	  .def = TR_DEFAULT_VEC,
	  .help = "shuffle: ints per global load and store, 1, 2, 4 or all (on\n"
		  "NVIDIA GPUs without a shape option " TR_NV_VEC ")" },
	{ "tiles-per-sg", "RANGE", CLI_RANGE, TO(per_sg), 1, 64, .def = TR_DEFAULT_PER_SG,
	  .help = "shuffle: tiles per sub-group, stacked down the matrix, the next\n"
		  "tile's loads issued before the current one's exchange" },
	{ "exchange", "LIST", CLI_NAMES, TO(exch), .names = exch_names, .n_names = TR_NEXCH,
	  .def = TR_DEFAULT_EXCHANGE,
	  .help = "shuffle: butterfly (log2 T rounds of shuffles and selects), xor\n"
		  "(the diagonal: lane-permuted registers, T - 1 shuffles), or all" },
	{ "walk", "LIST", CLI_NAMES, TO(walk), .names = walk_names, .n_names = TR_NWALK,
	  .def = TR_DEFAULT_WALK,
	  .help = "shuffle: the order sub-groups take tiles in: rows (along the\n"
		  "source's rows: neighbours read adjacent tiles), cols (down its\n"
		  "columns: neighbours write adjacent tiles), or all (on NVIDIA GPUs\n"
		  "without a shape option " TR_NV_WALK ")" },
	SGD_CLI(struct tr_opts, sg, "work-group size of the shuffle kernels",
		"sub-group width: intel/khr a size to require (the shuffle kernels\n"
		"need a known width), nv 32, emulated 4..64"),
	{ 0 } };

static void tr_check(void *opts, const struct cli_set *given)
{
	struct tr_opts *o = opts;
	static const char *const shape_opts[] = { "tile", "vec", "tiles-per-sg", "exchange", "walk" };
	size_t shapes = 0;

	sgd_check(&o->sg, given);
	o->shape_default = true;
	for (size_t i = 0; i < sizeof(shape_opts) / sizeof(shape_opts[0]); i++) {
		if (cli_given(given, shape_opts[i]) && !o->sg.variant[TR_SHUFFLE])
			cli_usage_error("--%s applies to the shuffle variant, which --variant leaves "
					"out", shape_opts[i]);
		o->shape_default &= !cli_given(given, shape_opts[i]);
	}
	for (size_t i = 0; i < o->n.n; i++)
		if (o->n.v[i] % 16)
			cli_usage_error("--n %llu is not a multiple of 16 (the tile): allowed 16, 32, "
					"... 65536", (unsigned long long)o->n.v[i]);
	for (unsigned i = 0; i < TR_NTILE * TR_NVEC * TR_NEXCH * TR_NWALK; i++)
		shapes += o->tile[i % TR_NTILE] && o->vec[i / TR_NTILE % TR_NVEC] &&
			  o->exch[i / (TR_NTILE * TR_NVEC) % TR_NEXCH] &&
			  o->walk[i / (TR_NTILE * TR_NVEC * TR_NEXCH)];
	if (shapes * o->per_sg.n > TR_MAX_SHAPES)
		cli_usage_error("%zu x %zu = %zu shuffle shapes, more than %d: narrow --tile, "
				"--vec, --tiles-per-sg, --exchange or --walk", shapes, o->per_sg.n,
				shapes * o->per_sg.n, TR_MAX_SHAPES);
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

/*
 * The options of one program: sg 1 the sub-group kernels (the guide's and the broadcasts,
 * or with sh one shape of the shuffle variant), 0 local and naive.
 */
static void tr_options(const struct dev_info *d, const struct sgb_choice *c, unsigned wg, int sg,
		       const struct tr_shape *sh, char *opts, size_t len)
{
	int off = sgb_build_options(d, c, wg, opts, len);

	off += snprintf(opts + off, len - (size_t)off, " -DTR_SG=%d", sg);
	if (sh)
		snprintf(opts + off, len - (size_t)off, " -DTRS_TILE=%u -DTRS_VEC=%u -DTRS_PER_SG=%u "
			 "-DTRS_XOR=%u -DTRS_WALK=%u", sh->tile, sh->vec, sh->per_sg, sh->exch, sh->walk);
}

/* "32 v4 x2 butterfly cols": tile, ints per load, tiles per sub-group, exchange, walk. */
void tr_shape_str(const struct tr_shape *sh, char *buf, size_t len)
{
	snprintf(buf, len, "%u v%u x%u %s %s", sh->tile, sh->vec, sh->per_sg, exch_names[sh->exch],
		 walk_names[sh->walk]);
}

/* Lanes holding one tile, and the words each holds (the kernel's A and E). */
static unsigned shape_lanes(const struct tr_shape *sh, unsigned w)
{
	return w < sh->tile ? w : sh->tile;
}

static unsigned shape_words(const struct tr_shape *sh, unsigned w)
{
	return sh->tile * sh->tile / shape_lanes(sh, w);
}

/* Whether a shape is too large to build at sub-group width w, and why (in buf). */
static bool shape_skip(const struct tr_shape *sh, unsigned w, char *buf, size_t len)
{
	if (shape_words(sh, w) <= TR_MAX_WORDS)
		return false;
	snprintf(buf, len, "a %u x %u tile on sub-groups of %u is %u words per lane (shapes of at "
		 "most %d are built)", sh->tile, sh->tile, w, shape_words(sh, w), TR_MAX_WORDS);
	return true;
}

/* The default shape, as the options spell it (TR_DEFAULT_*). */
static struct tr_shape default_shape(void)
{
	return (struct tr_shape){ .tile = (unsigned)atoi(TR_DEFAULT_TILE),
				  .vec = (unsigned)atoi(TR_DEFAULT_VEC),
				  .per_sg = (unsigned)atoi(TR_DEFAULT_PER_SG),
				  .exch = strcmp(TR_DEFAULT_EXCHANGE, "xor") == 0,
				  .walk = strcmp(TR_DEFAULT_WALK, "cols") == 0 };
}

/* Builds the shape's own program; a shape that cannot be built here says why. */
static void build_shape(struct bench_run *r, const struct tr_opts *o, struct tr_state *p,
			struct tr_shape *sh)
{
	const struct sgd_state *d = &p->d;
	char opts[512], err[16384], name[64], *log = NULL;
	int off;

	if (shape_skip(sh, d->c.width, err, sizeof(err))) {
		sh->skip = strdup(err);
		return;
	}
	off = snprintf(name, sizeof(name), "shuffle ");
	tr_shape_str(sh, name + off, sizeof(name) - (size_t)off);
	bench_progress_step(r, r->n_points, "building %s", name);
	tr_options(r->dev, &d->c, o->sg.wg, 1, sh, opts, sizeof(opts));
	sh->prog = prog_build(&r->pc, "transpose.cl", opts, &log, err, sizeof(err));
	if (sh->prog)
		sh->k = prog_kernel(sh->prog, "transpose_shuffle", err, sizeof(err));
	if (!sh->k) {
		sh->fail = strdup(err);
	} else {
		prog_kernel_res(&r->pc, sh->k, o->sg.wg, log, &sh->res);
		sh->kernel_json = prog_kernel_res_json("transpose.cl", "transpose_shuffle", opts,
						       &sh->res);
		json_object_set(json_object_get(r->doc, "kernels"), name, sh->kernel_json);
	}
	free(log);
}

/* Every combination of --tile, --vec, --tiles-per-sg and --exchange (counted by tr_check). */
static void plan_shapes(struct bench_run *r, struct tr_opts *o, struct tr_state *p)
{
	if (o->shape_default && r->dev->vendor_kind == DEV_VENDOR_NVIDIA && p->d.c.width == 32) {
		/* one tile a warp, butterflies */
		cli_names("tile", TR_NV_TILE, tile_names, TR_NTILE, o->tile);
		cli_names("vec", TR_NV_VEC, vec_names, TR_NVEC, o->vec);
		cli_names("walk", TR_NV_WALK, walk_names, TR_NWALK, o->walk);
	}
	for (unsigned k = 0; k < TR_NTILE * TR_NVEC * TR_NEXCH * TR_NWALK * o->per_sg.n; k++) {
		/* tile slowest, then vec, tiles per sub-group, exchange, walk */
		unsigned w = k % TR_NWALK, x = k / TR_NWALK % TR_NEXCH;
		size_t i = k / (TR_NWALK * TR_NEXCH) % o->per_sg.n;
		unsigned v = (unsigned)(k / (TR_NWALK * TR_NEXCH * o->per_sg.n) % TR_NVEC);
		unsigned t = (unsigned)(k / (TR_NWALK * TR_NEXCH * o->per_sg.n * TR_NVEC));
		if (!o->tile[t] || !o->vec[v] || !o->exch[x] || !o->walk[w])
			continue;
		struct tr_shape *sh = &p->shape[p->n_shapes++];
		*sh = (struct tr_shape){ .tile = 16u << t, .vec = 1u << v,
					 .per_sg = (unsigned)o->per_sg.v[i], .exch = x, .walk = w };
		if (!p->d.skip[TR_SHUFFLE])
			build_shape(r, o, p, sh);
	}
}

static void plan_build(struct bench_run *r, struct tr_opts *o, struct tr_state *p)
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
	/* a program per shuffle shape, the guide's, local and naive: a failure stays with them */
	if (sel >> TR_SHUFFLE & 1u)
		plan_shapes(r, o, p);
	for (int sg = 1; sg >= 0; sg--) {
		unsigned which = sel & (sg ? TR_SG_VARIANTS & ~(1u << TR_SHUFFLE) : ~TR_SG_VARIANTS);
		if (!which)
			continue;
		tr_options(r->dev, &d->c, o->sg.wg, sg, NULL, opts, sizeof(opts));
		sgd_build(r, d, "transpose.cl", opts, which, tr_kernels, sg ? o->sg.wg : 256);
	}
}

/*
 * The programs plan builds at --sg b->sg (0: auto) with the default options: the shuffle
 * variant's default shape, the broadcasts (the guide's and shuffle-bcast), local and naive.
 */
static void tr_builds(struct bench_builds *b)
{
	static const struct { int first, last, sg; bool shape; } progs[] = {
		{ TR_SHUFFLE, TR_SHUFFLE, 1, true }, { TR_BCAST, TR_BCAST, 1, false },
		{ TR_LOCAL, TR_NAIVE, 0, false } };
	struct tr_shape sh = default_shape();
	struct tr_opts all = { 0 };
	struct sgd_opts o;
	struct sgb_choice c;
	char err[1024], big[256];
	bool ok;

	cli_set_defaults(tr_cli, &all);
	o = all.sg;
	range_free(&all.n);
	range_free(&all.per_sg);
	o.sg = b->sg;
	o.sg_given = true;
	ok = sgd_choose(b->dev, NULL, &o, SGB_NEED_SHUFFLE, b->grf_large, &c, err, sizeof(err));
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		struct bench_build *bb = bench_builds_add(b, "transpose.cl");
		int sg = progs[i].sg;
		const char *why = tr_skip(b->dev, &c, progs[i].first);
		for (int v = progs[i].first; v <= progs[i].last; v++)
			bench_build_kernel(bb, tr_kernels[v], tr_names[v], sg ? o.wg : 256,
					   sg ? "--wg (default 256)" : "the tile's (32 x 8, 16 x 16)");
		if (!ok && c.backend == SGB_NONE) {
			bench_build_skip(bb, "%s", err);   /* no backend: nothing to build */
			bb->skip_options = true;
			continue;
		}
		tr_options(b->dev, &c, o.wg, sg, progs[i].shape ? &sh : NULL, bb->options,
			   sizeof(bb->options));
		bb->build = sgb_build_json(b->dev, &c);
		if (!ok)
			bench_build_skip(bb, "%s", err);
		else if (why)
			bench_build_skip(bb, "%s", why);
		else if (progs[i].shape && shape_skip(&sh, c.width, big, sizeof(big)))
			bench_build_skip(bb, "%s", big);
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
		for (int v = TR_SHUFFLE; v < TR_NVAR; v++)   /* the shuffle variant: each shape */
			for (size_t s = 0; o->sg.variant[v] && s < (v == TR_SHUFFLE ? p->n_shapes : 1);
			     s++) {
				sgd_add(&p->d, v, (unsigned)i + 1, o->n.v[i], tr_matrix_bytes(o->n.v[i]),
					(o->sg.seed + i) & INT64_MAX);
				p->d.items[p->d.n_items - 1].shape = (unsigned)s;
			}
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
	struct tr_opts *o = r->opts;

	for (size_t i = 0; i < p->n_shapes; i++) {
		struct tr_shape *sh = &p->shape[i];
		if (sh->k)
			clReleaseKernel(sh->k);
		if (sh->prog)
			clReleaseProgram(sh->prog);
		json_decref(sh->kernel_json);
		free(sh->skip);
		free(sh->fail);
	}
	if (p->m16)
		clReleaseMemObject(p->m16);
	sgd_teardown(&p->d);
	free(p);
	range_free(&o->n);
	range_free(&o->per_sg);
}

/* ---- launches ---- */

static cl_int tr_enqueue(void *arg, cl_command_queue q, cl_event *ev)
{
	const struct tr_launch *l = arg;

	return clEnqueueNDRangeKernel(q, l->k, l->dims, NULL, l->global, l->local, 0, NULL, ev);
}

/* 1-D launch of `subgroups` sub-groups of width w, rounded up to whole work-groups of wg. */
static struct tr_launch tr_sg_launch(cl_kernel k, uint64_t subgroups, unsigned w, unsigned wg)
{
	uint64_t items = subgroups * w;

	return (struct tr_launch){ k, 1, { (size_t)((items + wg - 1) / wg * wg), 1 }, { wg, 1 } };
}

/* The launch of variant v (shuffle: of shape sh) on an n x n matrix. */
static struct tr_launch tr_geometry(const struct sgd_state *d, int v, const struct tr_shape *sh,
				    uint64_t n)
{
	unsigned w = d->c.width, sw = w < 16 ? 16 : w;

	switch (v) {
	case TR_GUIDE16:
		return (struct tr_launch){ d->k[v], 1, { w, 1 }, { w, 1 } };
	case TR_SHUFFLE: {
		/* the kernel's sub-group: P tiles down by w / A across */
		uint64_t t = n / sh->tile, s = w ? w / shape_lanes(sh, w) : 1;
		return tr_sg_launch(sh->k, (t + sh->per_sg - 1) / sh->per_sg * ((t + s - 1) / s), w,
				    d->wg);
	}
	case TR_BCAST:   /* strips of 16 rows by max(w, 16) columns */
		return tr_sg_launch(d->k[v], n / 16 * ((n + sw - 1) / sw), w, d->wg);
	case TR_LOCAL:
		return (struct tr_launch){ d->k[v], 2,
					   { (size_t)((n + 31) / 32 * 32), (size_t)((n + 31) / 32 * 8) },
					   { 32, 8 } };
	default:
		return (struct tr_launch){ d->k[v], 2, { (size_t)n, (size_t)n }, { 16, 16 } };
	}
}

/*
 * Shuffle calls per lane per tile (the kernel header's algorithms): the shuffle
 * variant's T x T tile, butterfly E log2(A) / 2 or xor E (A - 1) / A; the
 * broadcasts' 16 x 16, 256.
 */
static unsigned tr_shuffles(unsigned w, int v, const struct tr_shape *sh)
{
	unsigned a, e, bits = 0;

	if (v != TR_SHUFFLE)
		return v == TR_GUIDE16 || v == TR_BCAST ? 256 : 0;
	a = shape_lanes(sh, w);
	e = shape_words(sh, w);
	while ((1u << bits) < a)
		bits++;
	return sh->exch ? e / a * (a - 1) : e / 2 * bits;
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
	cl_kernel k = a->l.k;
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

/* False (the point skipped or failed with the reason) where the shape cannot run at n. */
static bool shape_ready(const struct tr_shape *sh, struct bench_point *pt, uint64_t n)
{
	if (sh->skip)
		bench_skip(pt, "%s", sh->skip);
	else if (sh->fail)
		bench_fail(pt, "%s", sh->fail);
	else if (n % sh->tile)
		bench_skip(pt, "n %llu is not a multiple of the tile %u (the kernel's tiles lie "
			   "wholly inside the matrix)", (unsigned long long)n, sh->tile);
	return pt->status == POINT_OK;
}

static void tr_point(struct bench_run *r, struct bench_point *pt)
{
	struct tr_state *p = r->state;
	const struct sgd_item *it = &p->d.items[pt->index];
	struct tr_params *a = pt->params;
	int v = it->variant;
	const struct tr_shape *sh = v == TR_SHUFFLE ? &p->shape[it->shape] : NULL;
	char err[4096];

	*a = (struct tr_params){ v, it->size, tr_geometry(&p->d, v, sh, it->size), p->d.c, 0,
				 TR_USES_SG(v) && p->d.c.width ? tr_shuffles(p->d.c.width, v, sh) : 0,
				 it->seed, sh };
	sgd_ceiling(&p->d, pt, it);   /* every point of a size, skipped ones too, shows its ceiling */
	if (!sgd_ready(&p->d, pt, v) || (sh && !shape_ready(sh, pt, it->size)))
		return;
	if (!tr_validate(r, p, it, a, err, sizeof(err)))
		bench_fail(pt, "%s", err);
	bench_point_model(pt, sh ? &sh->res : &p->d.res[v], (unsigned)(a->l.local[0] * a->l.local[1]),
			  TR_USES_SG(v) ? (a->seen ? a->seen : p->d.c.width) : 0, v == TR_LOCAL,
			  a->l.global[0] / a->l.local[0] * (a->l.global[1] / a->l.local[1]));
	if (sh)
		pt->extra = json_pack("{sO}", "kernel", sh->kernel_json);
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

const struct bench_row transpose_row = {
	.cmd = {
		.name = "transpose",
		.summary = "shuffle, local-memory and naive matrix transposes",
		.synopsis = "usage: bench transpose [options]\n"
			    "  Transposes n x n ints (n a multiple of 16) and compares each way with the\n"
			    "  copy ceiling of the same bytes; GB/s count bytes read + written:\n"
			    "    guide16        the guide's example: one 16 x 16 matrix in place, one sub-group,\n"
			    "                   a broadcast shuffle per value\n"
			    "    shuffle        sub-groups transposing T x T tiles in registers by shuffles,\n"
			    "                   one point per shape: --tile T, --vec (ints per load),\n"
			    "                   --tiles-per-sg, --exchange, --walk (shown as\n"
			    "                   \"32 v4 x2 xor cols\")\n"
			    "    shuffle-bcast  16 x 16 tiles by the guide's broadcasts (256 shuffles a tile)\n"
			    "    local          32 x 32 tiles through local memory\n"
			    "    naive          one work-item per element\n",
		.flags = BENCH_DEVICE | BENCH_SG | BENCH_COLD,
		.opts = tr_cli,
		.opts_size = sizeof(struct tr_opts),
		.check = tr_check,
	},
	.params_size = sizeof(struct tr_params),
	.plan = tr_plan,
	.label = tr_label,
	.point = tr_point,
	.params = tr_params,
	.cols = tr_cols,
	.title = sgd_title,
	.relate = tr_relate,
	.report = tr_report,
	.teardown = tr_teardown,
	.builds = tr_builds,
	.checks = tr_checks,
};
