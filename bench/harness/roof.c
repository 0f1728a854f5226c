/*
 * The memory roof: the best of honest kernels moving the bytes of a point's ceiling, each
 * validated before its figure counts (kernels/roof.cl): a copy, a read (a sum of every word,
 * one sum a work-group) and a write (a fill), each in 15 shapes: vectors of 1..16 uints and
 * 1, 4 or 16 vectors a work-item, the grid as many work-groups as the data needs. The shapes
 * are tuned the way clpeak tunes its global bandwidth (every vector width, 16 fetches a
 * work-item, the fastest kept) and BabelStream its arrays: each shape is timed briefly
 * (ROOF_TUNE_REPS launches, unvalidated, so its time only ranks it and is never written); then
 * each kind's shapes are validated in that order, the first whose output is right is timed
 * like any ceiling (warm-up, --reps, both clocks), and a refused shape is recorded with why.
 */
#include "check.h"
#define HARNESS_LAYER HARNESS_LAYER_MEASURE
#include "measure.h"

#include <stdlib.h>
#include <string.h>

#define ROOF_TUNE_REPS 3         /* launches a shape is ranked by (the fastest counts) */
#define ROOF_WG 256              /* work-items a group, at most (kernels/roof.cl's ROOF_WG_MAX) */

static const unsigned roof_widths[] = { 1, 2, 4, 8, 16 };   /* uints a vector */
static const unsigned roof_pers[] = { 1, 4, 16 };           /* vectors a work-item */
static const char *const roof_kind_names[] = { "roof_copy", "roof_read", "roof_fill" };
#define ROOF_NW (sizeof(roof_widths) / sizeof(roof_widths[0]))
#define ROOF_NP (sizeof(roof_pers) / sizeof(roof_pers[0]))
#define ROOF_NS (ROOF_NW * ROOF_NP)   /* shapes of one kind */

#define ROOF_BUCKETS 32           /* sizes ranked apart: floor(log4(bytes)), 4^31 bytes at most */

/* A kind's shapes as ranked at one size, shared by the sizes within a factor of 4 of it. */
struct roof_ranking {
	size_t bytes;                       /* the size it was ranked at, 0: not yet */
	unsigned n[ROOF_KINDS];             /* shapes that launched */
	unsigned order[ROOF_KINDS][ROOF_NS];/* fastest first */
};

struct harness_roof_prog {
	cl_program prog;
	cl_kernel k[ROOF_KINDS][ROOF_NS];   /* NULL: not built (why_not says why) */
	struct roof_ranking rank[ROOF_BUCKETS];
	bool tried;
	bool few;                           /* a CPU device: ROOF_FEW's shapes alone */
	char why_not[1024];
};

/* One shape's launch over `words` words at src/dst with the sums in sums. */
struct roof_job {
	struct bench_run *r;
	struct harness_reader *rd;
	cl_mem src, dst, sums;
	size_t words, wg;
	unsigned kind, shape, seed;
};

/* (measure.h) The ceiling's copies and the roof's kernels are timed alike. */
double harness_time_stats(struct bench_run *r, time_enqueue_fn fn, void *arg, size_t bytes,
			  const char *what, json_t **stats, char *why, size_t wlen)
{
	unsigned reps = r->co->reps;
	double *t = bench_alloc(2 * (size_t)reps * sizeof(double));
	struct stats st;
	char err[1024];

	struct harness_cold_cmd cold = { r, fn, arg };

	if (r->cold) {   /* the same start as the points' launches */
		fn = harness_enqueue_cold;
		arg = &cold;
	}
	if (!time_run(r->pc.q, fn, arg, r->co->warmup, reps, t, t + reps, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: the %s of %zu bytes (the ceiling): %s", what, bytes, err);
	harness_witness_samples(r, t, t + reps, reps, why, wlen);
	stats_compute(t, reps, &st);
	json_decref(*stats);
	*stats = res_stats_json(&st, t, reps);
	free(t);
	return st.median;
}

static unsigned shape_width(unsigned s) { return roof_widths[s / ROOF_NP]; }
static unsigned shape_per(unsigned s) { return roof_pers[s % ROOF_NP]; }

/* Whether a CPU device builds the shape (kernels/roof.cl's ROOF_FEW: 4 or 16 uints, 1 or 16). */
static bool shape_few(unsigned s)
{
	return (shape_width(s) == 4 || shape_width(s) == 16) && shape_per(s) != 4;
}

/* Vectors the shape moves, work-groups it launches. */
static cl_ulong shape_nvec(const struct roof_job *j) { return j->words / shape_width(j->shape); }
static size_t shape_groups(const struct roof_job *j)
{
	size_t block = j->wg * shape_per(j->shape);

	return (size_t)((shape_nvec(j) + block - 1) / block);
}

/* The bytes a launch moves (kernels/roof.cl's counts). */
static double roof_bytes(const struct roof_job *j)
{
	double n = (double)shape_nvec(j) * shape_width(j->shape) * 4;

	if (j->kind == ROOF_COPY)
		return 2 * n;
	return j->kind == ROOF_READ ? n + 4.0 * (double)shape_groups(j) : n;
}

void harness_roof_free(struct bench_session *s)
{
	struct harness_roof_prog *p = s->roof;

	if (!p)
		return;
	for (unsigned k = 0; k < ROOF_KINDS; k++)
		for (unsigned s = 0; s < ROOF_NS; s++)
			if (p->k[k][s])
				clReleaseKernel(p->k[k][s]);
	if (p->prog)
		clReleaseProgram(p->prog);
	free(p);
	s->roof = NULL;
}

/*
 * roof.cl as bench compile and bench model --kernel describe it: one kernel of each kind, in
 * the widest shape (a build lists BENCH_BUILD_KERNELS kernels at the most; the other shapes are
 * the same code with other constants). The names live as long as the process: a build keeps
 * the pointer.
 */
void harness_roof_builds(struct bench_builds *b)
{
	static char name[ROOF_KINDS][32];
	struct bench_build *bb = bench_builds_add(b, "roof.cl");
	unsigned s = ROOF_NS - 1;

	for (unsigned k = 0; k < ROOF_KINDS; k++) {
		snprintf(name[k], sizeof(name[k]), "%s_%u_%u", roof_kind_names[k], shape_width(s),
			 shape_per(s));
		bench_build_kernel(bb, name[k], name[k], ROOF_WG, "256, or the device maximum if lower");
	}
}

/*
 * Builds roof.cl once a session (through --kernels, as the ceiling's copy), so the runs of a
 * suite share it; a failure is a note, and the ceiling keeps its copies.
 */
static struct harness_roof_prog *roof_prog(struct bench_run *r)
{
	struct harness_roof_prog *p = r->sess->roof;
	char name[32], *log = NULL;

	if (!p)
		p = r->sess->roof = bench_zalloc(sizeof(*p));
	if (p->tried)
		return p;
	p->tried = true;
	p->few = r->dev->type & CL_DEVICE_TYPE_CPU;
	p->prog = prog_build_tool(&r->pc, "roof.cl", p->few ? "-DROOF_FEW" : "", &log, p->why_not,
				  sizeof(p->why_not));
	free(log);
	for (unsigned k = 0; p->prog && k < ROOF_KINDS; k++)
		for (unsigned s = 0; s < ROOF_NS; s++) {
			if (p->few && !shape_few(s))
				continue;
			snprintf(name, sizeof(name), "%s_%u_%u", roof_kind_names[k], shape_width(s),
				 shape_per(s));
			p->k[k][s] = prog_kernel(p->prog, name, p->why_not, sizeof(p->why_not));
		}
	if (!p->prog)
		fprintf(stderr, "bench %s: note: the roof has no kernels of its own: roof.cl did not "
			"build: %s\n", cli_cmd, p->why_not);
	return p;
}

/* Sets the shape's arguments and returns its launch. */
static bool roof_args(const struct roof_job *j, cl_kernel k, struct time_launch *l, char *err,
		      size_t len)
{
	cl_ulong nvec = shape_nvec(j);
	cl_uint seed = j->seed;
	cl_mem a = j->kind == ROOF_FILL ? j->dst : j->src;
	cl_mem b = j->kind == ROOF_COPY ? j->dst : j->sums;

	*l = (struct time_launch){ k, shape_groups(j) * j->wg, j->wg };
	return PROG_SET_ARGS(k, err, len, PROG_ARG(a), PROG_ARG(b), PROG_ARG(nvec), PROG_ARG(seed));
}

void harness_reader_open(struct bench_run *r, struct harness_reader *rd)
{
	size_t bytes = (size_t)HARNESS_READER_WORDS * 4;

	memset(rd, 0, sizeof(*rd));
	rd->r = r;
	for (unsigned i = 0; i < 2; i++) {
		cl_int e = CL_SUCCESS;

		rd->stage[i] = clCreateBuffer(r->pc.ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes,
					      NULL, &e);
		if (e == CL_SUCCESS)
			rd->p[i] = clEnqueueMapBuffer(r->pc.q, rd->stage[i], CL_TRUE,
						      CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
						      NULL, &e);
		if (e != CL_SUCCESS || !rd->p[i]) {   /* no pinned memory: the host's own */
			if (rd->stage[i])
				clReleaseMemObject(rd->stage[i]);
			rd->stage[i] = NULL;
			rd->p[i] = bench_alloc(bytes);
		}
	}
}

const uint32_t *harness_reader_get(struct harness_reader *rd, unsigned i, cl_mem m, size_t off,
				   size_t n, char *err, size_t len)
{
	if (!CL_CHECK(clEnqueueReadBuffer(rd->r->pc.q, m, CL_TRUE, off * 4, n * 4, rd->p[i], 0, NULL,
					  NULL), err, len))
		return NULL;
	return rd->p[i];
}

void harness_reader_close(struct harness_reader *rd)
{
	for (unsigned i = 0; i < 2; i++) {
		if (!rd->stage[i]) {
			free(rd->p[i]);
			continue;
		}
		/* enqueued, never waited for: a run ended by a hung kernel must not wait for it */
		clEnqueueUnmapMemObject(rd->r->pc.q, rd->stage[i], rd->p[i], 0, NULL, NULL);
		clReleaseMemObject(rd->stage[i]);
	}
	memset(rd, 0, sizeof(*rd));
}

bool harness_reader_copied(struct harness_reader *rd, cl_mem src, cl_mem dst, size_t words,
			   char *err, size_t len)
{
	size_t piece = words < HARNESS_READER_WORDS ? words : HARNESS_READER_WORDS;
	struct check_tally t = { 0 };
	bool ok = true;

	for (size_t off = 0; ok && off < words; off += piece) {
		size_t m = words - off < piece ? words - off : piece;
		const uint32_t *a = harness_reader_get(rd, 0, src, off, m, err, len);
		const uint32_t *b = a ? harness_reader_get(rd, 1, dst, off, m, err, len) : NULL;

		ok = b != NULL;
		if (ok)
			check_tally_u32(&t, b, a, m, off);
	}
	return ok && check_tally_reason(&t, err, len) == 0;
}

/*
 * Checks a copy's or a fill's words piece by piece: a copy's dst against its src, a fill's
 * against seed + the word's vector (kernels/roof.cl).
 */
static bool roof_check_words(const struct roof_job *j, char *err, size_t len)
{
	size_t words = (size_t)shape_nvec(j) * shape_width(j->shape), w = shape_width(j->shape);
	size_t piece = words < HARNESS_READER_WORDS ? words : HARNESS_READER_WORDS;
	uint32_t *ref;
	struct check_tally t = { 0 };
	bool ok = true;

	if (j->kind == ROOF_COPY)
		return harness_reader_copied(j->rd, j->src, j->dst, words, err, len);
	ref = bench_alloc(piece * 4);
	for (size_t off = 0; ok && off < words; off += piece) {
		size_t m = words - off < piece ? words - off : piece;
		const uint32_t *got = harness_reader_get(j->rd, 1, j->dst, off, m, err, len);
		uint32_t v = j->seed + (uint32_t)(off / w);   /* pieces hold whole vectors */

		ok = got != NULL;
		for (size_t i = 0; ok && i < m; i += w, v++)
			for (size_t k = 0; k < w; k++)
				ref[i + k] = v;
		if (ok)
			check_tally_u32(&t, got, ref, m, off);
	}
	free(ref);
	return ok && check_tally_reason(&t, err, len) == 0;
}

/* Checks a read's sums: each work-group's, the sum of the words of its vectors (mod 2^32). */
static bool roof_check_sums(const struct roof_job *j, char *err, size_t len)
{
	size_t words = (size_t)shape_nvec(j) * shape_width(j->shape), groups = shape_groups(j);
	size_t block = j->wg * shape_per(j->shape) * shape_width(j->shape);   /* a group's words */
	/* whole groups a piece, or one group's part at a time where a group outgrows a slot */
	size_t piece = block <= HARNESS_READER_WORDS ? HARNESS_READER_WORDS / block * block
						     : HARNESS_READER_WORDS;
	uint32_t *got = bench_alloc(groups * 4), *ref = bench_zalloc(groups * 4);
	struct check_tally t = { 0 };
	bool ok = CL_CHECK(clEnqueueReadBuffer(j->r->pc.q, j->sums, CL_TRUE, 0, groups * 4, got, 0,
					       NULL, NULL), err, len);

	for (size_t off = 0; ok && off < words; off += piece) {
		size_t m = words - off < piece ? words - off : piece;
		const uint32_t *a = harness_reader_get(j->rd, 0, j->src, off, m, err, len);

		ok = a != NULL;
		for (size_t i = 0; ok && i < m;) {   /* a run of one group's words at a time */
			size_t g = (off + i) / block, end = (g + 1) * block - off;
			uint32_t sum = 0;

			if (end > m)
				end = m;
			for (; i < end; i++)
				sum += a[i];
			ref[g] += sum;
		}
	}
	if (ok)
		check_tally_u32(&t, got, ref, groups, 0);
	free(got);
	free(ref);
	if (!ok || check_tally_reason(&t, err, len) == 0)
		return ok;
	snprintf(err + strlen(err), len - strlen(err), " (words: the sums of work-groups)");
	return false;
}

/* One validated launch of the shape, its output poisoned first; false with why in err. */
static bool roof_validate(const struct roof_job *j, cl_kernel k, char *err, size_t len)
{
	struct time_launch l;
	cl_mem out = j->kind == ROOF_READ ? j->sums : j->dst;
	size_t out_bytes = j->kind == ROOF_READ ? shape_groups(j) * 4 : j->words * 4;

	if (!roof_args(j, k, &l, err, len) ||
	    !CL_CHECK(check_poison(j->r->pc.q, out, out_bytes), err, len) ||
	    !bench_enqueue_once(j->r, time_enqueue_launch, &l, err, len))
		return false;
	err[0] = 0;
	return j->kind == ROOF_READ ? roof_check_sums(j, err, len) : roof_check_words(j, err, len);
}

/* A shape's name in the document and the notes: "uint16 x16". */
static void shape_name(unsigned s, char *b, size_t n)
{
	if (shape_width(s) == 1)
		snprintf(b, n, "uint x%u", shape_per(s));
	else
		snprintf(b, n, "uint%u x%u", shape_width(s), shape_per(s));
}

/* The shape's rank figure: GB/s of its fastest of ROOF_TUNE_REPS launches, 0: not launched. */
static double roof_tune(const struct roof_job *j, cl_kernel k)
{
	double dev[ROOF_TUNE_REPS], wall[ROOF_TUNE_REPS], best = 0;
	struct time_launch l;
	struct harness_cold_cmd cold = { j->r, time_enqueue_launch, &l };
	time_enqueue_fn fn = j->r->cold ? harness_enqueue_cold : time_enqueue_launch;
	char err[1024];

	if (!k || !shape_nvec(j) || !roof_args(j, k, &l, err, sizeof(err)) ||
	    !time_run(j->r->pc.q, fn, j->r->cold ? (void *)&cold : &l, 1, ROOF_TUNE_REPS, dev, wall,
		      err, sizeof(err)))
		return 0;
	for (unsigned i = 0; i < ROOF_TUNE_REPS; i++)
		if (dev[i] > 0 && (best == 0 || dev[i] < best))
			best = dev[i];
	return best > 0 ? roof_bytes(j) / best : 0;
}

/* The shapes of kind j->kind, fastest first, into order; how many launched. */
static unsigned roof_rank(struct roof_job *j, struct harness_roof_prog *p, unsigned *order)
{
	double g[ROOF_NS];
	unsigned n = 0;

	for (unsigned s = 0; s < ROOF_NS; s++) {
		j->shape = s;
		g[s] = roof_tune(j, p->k[j->kind][s]);
		if (g[s] > 0)
			order[n++] = s;
	}
	for (unsigned a = 1; a < n; a++)   /* insertion sort, fastest first */
		for (unsigned b = a; b > 0 && g[order[b]] > g[order[b - 1]]; b--) {
			unsigned t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	return n;
}

/* A candidate's record: its kernel and shape (and the caller adds its figure or why not). */
static json_t *shape_json(const struct roof_job *j)
{
	char name[32];

	shape_name(j->shape, name, sizeof(name));
	return json_pack("{s:s, s:s, s:i, s:i, s:I, s:I}", "kernel", roof_kind_names[j->kind],
			 "shape", name, "vector_width", (int)shape_width(j->shape),
			 "per_item", (int)shape_per(j->shape), "work_group", (json_int_t)j->wg,
			 "groups", (json_int_t)shape_groups(j));
}

/* The bucket of a size: floor(log4(bytes)). */
static unsigned roof_bucket(size_t bytes)
{
	unsigned b = 0;

	for (size_t x = bytes; x >= 4 && b + 1 < ROOF_BUCKETS; x /= 4)
		b++;
	return b;
}

/*
 * The ranking of j's size: measured at the first size of its bucket (a factor of 4) in the
 * session, so a sweep of many sizes (vecadd --groups 1..48: 48) ranks the shapes a few times,
 * not once a size; each size still validates and times its own candidates.
 */
static struct roof_ranking *roof_ranking(struct roof_job *j, struct harness_roof_prog *p)
{
	struct roof_ranking *rk = &p->rank[roof_bucket(j->words * 4)];

	if (rk->bytes && rk->n[j->kind])
		return rk;
	rk->bytes = j->words * 4;
	rk->n[j->kind] = roof_rank(j, p, rk->order[j->kind]);
	return rk;
}

/*
 * Kind j->kind: its shapes validated in their rank's order until one is right, which is then
 * timed; the candidate (or null where none is right) added to out's record, refusals too.
 */
static void roof_kind(struct roof_job *j, struct harness_roof_prog *p, struct harness_roof *out,
		      json_t *cands, json_t *refused, json_t *ranked)
{
	struct roof_ranking *rk = roof_ranking(j, p);
	unsigned *order = rk->order[j->kind], n = rk->n[j->kind];
	json_t *names = json_array(), *c, *stats = NULL;
	char err[2048], why[512], name[32];
	struct time_launch l;

	for (unsigned i = 0; i < n; i++) {
		shape_name(order[i], name, sizeof(name));
		json_array_append_new(names, json_string(name));
	}
	json_object_set_new(ranked, roof_kind_names[j->kind], names);
	for (unsigned i = 0; i < n; i++) {
		j->shape = order[i];
		if (!roof_validate(j, p->k[j->kind][j->shape], err, sizeof(err))) {
			c = shape_json(j);
			json_object_set_new(c, "reason", json_string(err));
			json_array_append_new(refused, c);
			fprintf(stderr, "bench %s: note: the roof refuses %s %s: %s\n", cli_cmd,
				roof_kind_names[j->kind], name, err);
			continue;
		}
		roof_args(j, p->k[j->kind][j->shape], &l, err, sizeof(err));
		double ns = harness_time_stats(j->r, time_enqueue_launch, &l, (size_t)roof_bytes(j),
					       roof_kind_names[j->kind], &stats, why, sizeof(why));
		double g = why[0] ? 0 : roof_bytes(j) / ns;
		c = shape_json(j);
		json_object_set_new(c, "validated", json_true());
		json_object_set_new(c, "bytes", json_real(roof_bytes(j)));
		json_object_set_new(c, "gbps", g > 0 ? json_real(g) : json_null());
		json_object_set_new(c, "time_ns", stats);
		if (why[0])
			json_object_set_new(c, "clock", json_string(why));
		json_array_append_new(cands, c);
		if (g > out->gbps) {
			out->gbps = g;
			out->by = roof_kind_names[j->kind];
			shape_name(j->shape, out->shape, sizeof(out->shape));
			json_decref(out->stats);
			out->stats = json_incref(stats);
		}
		return;
	}
}

/* Work-items a group: a power of 2 up to ROOF_WG and the device's maximum. */
static size_t roof_wg(const struct bench_run *r)
{
	size_t wg = 1;

	while (wg * 2 <= ROOF_WG && wg * 2 <= r->dev->max_wg)
		wg *= 2;
	return wg;
}

void harness_roof_measure(struct bench_run *r, struct harness_reader *rd, cl_mem src, cl_mem dst,
			  size_t bytes, struct harness_roof *out)
{
	struct harness_roof_prog *p = roof_prog(r);
	struct roof_job j = { r, rd, src, dst, NULL, bytes / 4, roof_wg(r), 0, 0, 0 };
	json_t *cands = json_array(), *refused = json_array(), *ranked = json_object();
	cl_int e = CL_SUCCESS;

	memset(out, 0, sizeof(*out));
	out->doc = json_object();
	if (!p->prog || !j.words) {
		json_object_set_new(out->doc, "why_not", json_string(p->prog ? "no whole word" : p->why_not));
		goto out;
	}
	/* one sum a work-group: most groups at 1 uint a vector and 1 vector a work-item */
	j.sums = clCreateBuffer(r->pc.ctx, CL_MEM_READ_WRITE, (j.words + j.wg - 1) / j.wg * 4, NULL, &e);
	if (e != CL_SUCCESS)
		cli_die(EXIT_FAIL, "driver: clCreateBuffer (%zu bytes of the roof's sums): %s",
			(j.words + j.wg - 1) / j.wg * 4, cl_err_name(e));
	for (j.kind = 0; j.kind < ROOF_KINDS; j.kind++) {
		j.seed = 0x51ee0000u + (unsigned)bytes * 7u + j.kind;
		roof_kind(&j, p, out, cands, refused, ranked);
	}
	clReleaseMemObject(j.sums);
	json_object_set_new(out->doc, "ranked_at_bytes",
			    json_integer((json_int_t)p->rank[roof_bucket(j.words * 4)].bytes));
out:
	json_object_set_new(out->doc, "candidates", cands);
	json_object_set_new(out->doc, "refused", refused);
	json_object_set_new(out->doc, "ranked", ranked);
}

void harness_roof_clear(struct harness_roof *h)
{
	json_decref(h->stats);
	json_decref(h->doc);
	memset(h, 0, sizeof(*h));
}
