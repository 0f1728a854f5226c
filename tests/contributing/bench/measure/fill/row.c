/*
 * bench fill, the contributing guide's worked example (CONTRIBUTING.md, "A worked example"):
 * each point writes n ints with kernels/fill.cl, checks every one, and has the harness time
 * the launch. The test suite builds it into a bench of its own and runs it
 * (tests/contributing/meson.build), so the example cannot drift from the code it shows.
 */
#include "row.h"

#include <stdlib.h>

struct fill_opts {
	struct range n;          /* --n: ints written per launch */
};

/* A point's parameters: the document's params are written from this struct (fill_params). */
struct fill_params {
	uint64_t n;
	unsigned value;          /* the first int written: a new one per point, so that a launch
				  * that wrote nothing never passes for the point before it */
};

struct fill_state {
	cl_program prog;
	cl_kernel k;
	char *log;
	struct kernel_res res;
	cl_mem out;
	uint32_t *host;
};

#define FO(f) offsetof(struct fill_opts, f)
static const struct cli_opt fill_cli[] = {
	{ "n", "RANGE", CLI_SIZE_RANGE, FO(n), 1, 1ull << 28, .def = "1Mi,4Mi",
	  .help = "ints written per launch, e.g. 1Mi, 1Mi..16Mi:x2" },
	{ 0 } };

/* The kernel's counts per launch (kernels/fill.cl states them). */
static double fill_bytes(uint64_t n)
{
	return 4.0 * (double)n;
}

static uint64_t fill_max_n(const struct fill_opts *o)
{
	uint64_t m = 0;

	for (size_t i = 0; i < o->n.n; i++)
		m = o->n.v[i] > m ? o->n.v[i] : m;
	return m;
}

static size_t fill_plan(struct bench_run *r)
{
	const struct fill_opts *o = r->opts;
	struct fill_state *s = bench_zalloc(sizeof(*s));
	uint64_t max_n = fill_max_n(o);

	r->state = s;
	bench_host_fits(r, max_n * 4, max_n * 4, "bench fill's buffer");
	s->k = bench_build(r, "fill.cl", "fill", "", &s->prog, &s->log);
	prog_kernel_res(&r->pc, s->k, 0, s->log, &s->res);
	s->out = bench_buffer(r, CL_MEM_WRITE_ONLY, (size_t)max_n * 4);
	s->host = bench_alloc((size_t)max_n * 4);
	return o->n.n;
}

/* Launches once and checks every int; false with the reason. */
static bool fill_validate(struct bench_run *r, struct fill_state *s, const struct fill_params *a,
			  char *err, size_t len)
{
	if (!PROG_SET_ARGS(s->k, err, len, PROG_ARG(s->out), PROG_ARG(a->value)) ||
	    !bench_launch_once(r, s->k, (size_t)a->n, 0, &s->res, "n", err, len) ||
	    !CL_CHECK(clEnqueueReadBuffer(r->pc.q, s->out, CL_TRUE, 0, (size_t)a->n * 4, s->host, 0,
					  NULL, NULL), err, len))
		return false;
	for (uint64_t i = 0; i < a->n; i++)
		if (s->host[i] != a->value + (uint32_t)i) {
			snprintf(err, len, "out[%llu] = %u, expected %u", (unsigned long long)i,
				 s->host[i], a->value + (uint32_t)i);
			return false;
		}
	return true;
}

static void fill_point(struct bench_run *r, struct bench_point *pt)
{
	const struct fill_opts *o = r->opts;
	struct fill_state *s = r->state;
	struct fill_params *a = pt->params;
	char err[512];

	a->n = o->n.v[pt->index];
	a->value = 0x1000u * (unsigned)(pt->index + 1);
	if (!fill_validate(r, s, a, err, sizeof(err))) {
		bench_fail(pt, "%s", err);
		return;
	}
	pt->validated = true;
	bench_point_time_launch(pt, s->k, (size_t)a->n, 0);
	pt->bytes = fill_bytes(a->n);
}

static void fill_teardown(struct bench_run *r)
{
	struct fill_state *s = r->state;

	if (!s)
		return;
	if (s->out)
		clReleaseMemObject(s->out);
	if (s->k)
		clReleaseKernel(s->k);
	if (s->prog)
		clReleaseProgram(s->prog);
	free(s->log);
	free(s->host);
	free(s);
	r->state = NULL;
}

static void fill_builds(struct bench_builds *b)
{
	bench_build_kernel(bench_builds_add(b, "fill.cl"), "fill", "fill", 0, "chosen by the driver");
}

static void fill_checks(struct bench_check_plan *p)
{
	bench_check_add(p, &(struct bench_check){ .id = "fill/4Ki", .args = "--n 4Ki",
		.desc = "4 Ki ints written, every one checked" });
}

static void cell_n(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, "%llu", (unsigned long long)((const struct fill_params *)pt->params)->n);
}

static const struct bench_col fill_cols[] = {
	{ "n", cell_n }, { "median us", bench_cell_median_us }, { "CV %", bench_cell_cv },
	{ "GB/s", bench_cell_gbps }, { "status", bench_cell_status }, { 0 } };

#define AT(m) BENCH_AT(struct fill_params, m)
static const struct bench_param fill_params[] = {
	{ "n", .type = BENCH_PT_COUNT, AT(n), .unit = "ints", .help = "written per launch" },
	{ "value", .type = BENCH_PT_COUNT, AT(value), .help = "the first int written (value + i at i)" },
	{ 0 } };

const struct bench_row fill_row = {
	.cmd = {
		.name = "fill",
		.summary = "the contributing guide's example: n ints written and checked",
		.synopsis = "usage: bench fill [options]\n",
		.flags = BENCH_DEVICE,
		.opts = fill_cli,
		.opts_size = sizeof(struct fill_opts),
	},
	.params_size = sizeof(struct fill_params),
	.plan = fill_plan,
	.point = fill_point,
	.params = fill_params,
	.cols = fill_cols,
	.teardown = fill_teardown,
	.builds = fill_builds,
	.checks = fill_checks,
};
