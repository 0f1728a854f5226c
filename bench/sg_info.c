/*
 * bench sg-info: the guide's sg_size and sg_max_size experiments. For each
 * ND-range and sub-group width, every work-item's ids as the device reports
 * them, checked for consistency (ids contiguous, sizes adding up, only the
 * last sub-group partial), never assumed.
 */
#include "compat.h"
#include "check.h"
#include "sgb.h"
#include "subcommands.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

#define SGI_WORDS 8   /* per work-item, kernels/sg_info.cl */
#define SGI_MAX_SG 64 /* sub-groups per work-group the summary lists */

static const char *const sgi_columns[SGI_WORDS] = {
	"global_id", "group_id", "local_id", "sg_id", "sg_local_id", "sg_size", "sg_max_size",
	"num_sub_groups" };

struct sgi_opts {
	const char *backend;     /* --sg-backend, NULL: the device's first */
	struct range sg;         /* --sg widths for nd_range(32, 32) */
	bool sg_given;
	bool dump;
};

/* One ND-range to capture. */
struct sgi_config {
	size_t global, local;
	struct sgb_choice c;     /* width 0: the driver's choice */
	const char *skip;        /* set: a skipped point with this reason */
};

/* What the mapping of work-group 0 looked like, once checked. */
struct sgi_summary {
	unsigned max, nsg;
	unsigned sizes[SGI_MAX_SG];
	bool partial;
};

void sg_info_usage(FILE *f)
{
	fprintf(f,
		"usage: bench sg-info [options]\n"
		"  Captures every work-item's global id, work-group id, sub-group id, sub-group\n"
		"  local id, sub-group size and maximum sub-group size for nd_range(32, 32) with\n"
		"  each sub-group width the backend can build for (intel/khr: each size that can\n"
		"  be required, then the driver's choice), and nd_range(15, 15) with a required\n"
		"  size of 16 (the guide: size 15, maximum 16), and checks the mapping.\n"
		"  --sg-backend B  intel, khr, nv or emulated (default: the first the device runs)\n"
		"  --sg LIST       widths for nd_range(32, 32), e.g. 8,16,32 (default: all)\n"
		"  --dump          print every work-item's row, not only the summary\n"
		COMMON_USAGE
		"  (one launch per ND-range: --reps and --warmup do not apply)\n");
}

static void parse_args(int argc, char **argv, struct sgi_opts *o, struct common_opts *co)
{
	enum { O_BACKEND = OPT_BENCH_BASE, O_SG, O_DUMP };
	static const struct option lo[] = {
		COMMON_LONGOPTS,
		{ "sg-backend", required_argument, NULL, O_BACKEND },
		{ "sg", required_argument, NULL, O_SG },
		{ "dump", no_argument, NULL, O_DUMP },
		{ 0 } };
	int c;

	memset(o, 0, sizeof(*o));
	common_defaults(co);
	while ((c = getopt_long(argc, argv, "+:", lo, NULL)) != -1) {
		if (common_opt(co, c, optarg))
			continue;
		switch (c) {
		case O_BACKEND: o->backend = optarg; break;
		case O_SG:
			range_free(&o->sg);
			opt_range("sg", optarg, 1, 1024, &o->sg);
			o->sg_given = true;
			break;
		case O_DUMP: o->dump = true; break;
		case 'h': sg_info_usage(stdout); exit(EXIT_OK);
		default: opt_reject(c, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

/* The configurations of the run, in order; exits 2 for a width the backend cannot build. */
static size_t plan(const struct dev_info *d, const struct sgi_opts *o, const struct sgb_choice *base,
		   struct sgi_config *cf, size_t max)
{
	unsigned w[SGB_MAX_WIDTHS];
	size_t nw = sgb_widths(d, base->backend, w), n = 0;
	bool native = base->backend == SGB_INTEL || base->backend == SGB_KHR;
	char err[512];

	if (o->sg_given) {
		nw = 0;
		for (size_t i = 0; i < o->sg.n && nw < SGB_MAX_WIDTHS; i++)
			w[nw++] = (unsigned)o->sg.v[i];
	}
	for (size_t i = 0; i < nw && n < max; i++) {
		cf[n] = (struct sgi_config){ 32, 32, *base, NULL };
		if (!sgb_set_width(d, &cf[n].c, true, w[i], 0, err, sizeof(err)))
			usage_error("%s", err);
		n++;
	}
	if (native && !o->sg_given) {   /* the driver's own choice */
		cf[n] = (struct sgi_config){ 32, 32, *base, NULL };
		sgb_set_width(d, &cf[n++].c, true, 0, 0, err, sizeof(err));
	}
	/* The guide's nd_range(15, 15) with a required size of 16. */
	cf[n] = (struct sgi_config){ 15, 15, *base, NULL };
	if (sgb_set_width(d, &cf[n].c, true, 16, 0, err, sizeof(err)) && cf[n].c.width == 16)
		return n + 1;
	cf[n].c.width = 16;
	cf[n].c.required = native;
	cf[n].c.width_source = "required (intel_reqd_sub_group_size)";
	cf[n++].skip = base->backend == SGB_NV
			       ? "the nv backend's sub-group is the 32-wide warp: a size of 16 "
				 "cannot be required"
			       : d->has_intel_reqd_sg ? "the device does not list sub-group size 16"
						      : "no cl_intel_required_subgroup_size: a size "
							"of 16 cannot be required";
	/* ...and the same range with the backend's own width, for its partial sub-group. */
	cf[n] = (struct sgi_config){ 15, 15, *base, NULL };
	sgb_set_width(d, &cf[n++].c, false, 0, 0, err, sizeof(err));
	return n;
}

/* Checks one work-group's items [g L, g L + L); fills sum for group 0. */
static bool check_group(const uint32_t *rec, size_t g, size_t L, const struct sgb_choice *c,
			struct sgi_summary *sum, char *err, size_t len)
{
	const uint32_t *r0 = rec + g * L * SGI_WORDS;
	unsigned max = r0[6], nsg = r0[7], runs = 0;

	if (max == 0 || (c->width && max != c->width)) {
		snprintf(err, len, "group %zu: maximum sub-group size %u, built for %u", g, max, c->width);
		return false;
	}
	for (size_t i = 0; i < L; i++) {
		const uint32_t *r = r0 + i * SGI_WORDS;
		if (r[0] != g * L + i || r[1] != g || r[2] != i || r[6] != max || r[7] != nsg) {
			snprintf(err, len, "work-item %zu reports global id %u, group %u, local id %u, "
				 "max size %u, %u sub-groups (group 0 item 0: max %u, %u sub-groups)",
				 g * L + i, r[0], r[1], r[2], r[6], r[7], max, nsg);
			return false;
		}
	}
	for (size_t pos = 0; pos < L; runs++) {
		size_t run = 0;
		while (pos + run < L && r0[(pos + run) * SGI_WORDS + 3] == r0[pos * SGI_WORDS + 3])
			run++;
		if (r0[pos * SGI_WORDS + 3] != runs) {
			snprintf(err, len, "group %zu: local id %zu starts sub-group %u, expected %u "
				 "(ids not contiguous)", g, pos, r0[pos * SGI_WORDS + 3], runs);
			return false;
		}
		for (size_t k = 0; k < run; k++) {
			const uint32_t *r = r0 + (pos + k) * SGI_WORDS;
			if (r[4] != k || r[5] != run) {
				snprintf(err, len, "group %zu: local id %zu in sub-group %u has sub-group "
					 "local id %u and size %u; its run is %zu long, it is item %zu",
					 g, pos + k, runs, r[4], r[5], run, k);
				return false;
			}
		}
		if (run > max || (pos + run < L && run != max)) {
			snprintf(err, len, "group %zu: sub-group %u has %zu work-items, maximum %u "
				 "(only the last may be partial)", g, runs, run, max);
			return false;
		}
		if (g == 0 && runs < SGI_MAX_SG)
			sum->sizes[runs] = (unsigned)run;
		sum->partial = run < max;
		pos += run;
	}
	if (runs != nsg) {
		snprintf(err, len, "group %zu: %u sub-groups found, get_num_sub_groups() says %u", g, runs, nsg);
		return false;
	}
	sum->max = max;
	sum->nsg = nsg;
	return true;
}

/* The driver's own account of the kernel against what the kernel saw. */
static bool check_driver(const struct sgi_config *cf, const struct kernel_res *res,
			 const struct sgi_summary *sum, char *err, size_t len)
{
	/* nv and emulated sub-groups are the layer's own: the driver knows nothing of them. */
	if (cf->c.backend != SGB_INTEL && cf->c.backend != SGB_KHR)
		return true;
	if (cf->c.required && res->compiled_sg && res->compiled_sg != cf->c.width) {
		snprintf(err, len, "driver: CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL is %u, required %u",
			 res->compiled_sg, cf->c.width);
		return false;
	}
	if (res->max_sg_for_local && res->max_sg_for_local != sum->max) {
		snprintf(err, len, "driver: CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE(%zu) is %u, the "
			 "kernel saw %u", cf->local, res->max_sg_for_local, sum->max);
		return false;
	}
	if (res->sg_count_for_local && res->sg_count_for_local != sum->nsg) {
		snprintf(err, len, "driver: CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE(%zu) is %u, the "
			 "kernel saw %u", cf->local, res->sg_count_for_local, sum->nsg);
		return false;
	}
	return true;
}

/* Builds, launches once and reads back the records; false with the reason. */
static bool capture(struct bench_session *s, const struct sgi_config *cf, uint32_t *rec,
		    struct kernel_res *res, char *opts, size_t optlen, char *err, size_t len)
{
	size_t bytes = cf->global * SGI_WORDS * 4;
	char *log = NULL;
	cl_program p = NULL;
	cl_kernel k = NULL;
	cl_mem m = NULL;
	struct time_launch l;
	double dn, wn;
	bool ok = false;
	cl_int e;

	sgb_build_options(s->dev, &cf->c, cf->local, opts, optlen);
	if (!(p = prog_build(&s->pc, "sg_info.cl", opts, &log, err, len)) ||
	    !(k = prog_kernel(p, "sg_info", err, len)) ||
	    !(m = prog_buffer(&s->pc, CL_MEM_READ_WRITE, bytes, err, len)))
		goto out;
	prog_kernel_res(&s->pc, k, cf->local, log, res);
	if ((e = check_poison(s->pc.q, m, bytes)) != CL_SUCCESS ||
	    (e = clSetKernelArg(k, 0, sizeof(m), &m)) != CL_SUCCESS) {
		snprintf(err, len, "preparing the launch: %s", cl_err_name(e));
		goto out;
	}
	l = (struct time_launch){ k, cf->global, cf->local };
	if (!time_run(s->pc.q, time_enqueue_launch, &l, 0, 1, &dn, &wn, err, len))
		goto out;
	if ((e = clEnqueueReadBuffer(s->pc.q, m, CL_TRUE, 0, bytes, rec, 0, NULL, NULL)) != CL_SUCCESS) {
		snprintf(err, len, "reading the records: %s", cl_err_name(e));
		goto out;
	}
	ok = true;
out:
	if (m)
		clReleaseMemObject(m);
	if (k)
		clReleaseKernel(k);
	if (p)
		clReleaseProgram(p);
	free(log);
	return ok;
}

/* "2x16", "15", "3x8+4" */
static void sizes_str(const struct sgi_summary *sum, char *buf, size_t len)
{
	size_t off = 0;
	unsigned n = sum->nsg < SGI_MAX_SG ? sum->nsg : SGI_MAX_SG;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && off < len;) {
		unsigned j = i;
		while (j < n && sum->sizes[j] == sum->sizes[i])
			j++;
		if (j - i > 1)
			off += (size_t)snprintf(buf + off, len - off, "%s%ux%u", off ? "+" : "", j - i,
						sum->sizes[i]);
		else
			off += (size_t)snprintf(buf + off, len - off, "%s%u", off ? "+" : "",
						sum->sizes[i]);
		i = j;
	}
}

static json_t *mapping_json(const uint32_t *rec, size_t global, const struct sgi_summary *sum)
{
	json_t *m = json_object(), *sz = json_array(), *cols = json_array(), *items = json_array();

	json_object_set_new(m, "max_sg_size", json_integer(sum->max));
	json_object_set_new(m, "num_sub_groups", json_integer(sum->nsg));
	for (unsigned i = 0; i < sum->nsg && i < SGI_MAX_SG; i++)
		json_array_append_new(sz, json_integer(sum->sizes[i]));
	json_object_set_new(m, "sizes", sz);
	json_object_set_new(m, "partial_last", json_boolean(sum->partial));
	json_object_set_new(m, "contiguous", json_true());
	for (size_t i = 0; i < SGI_WORDS; i++)
		json_array_append_new(cols, json_string(sgi_columns[i]));
	json_object_set_new(m, "columns", cols);
	for (size_t i = 0; i < global; i++) {
		json_t *row = json_array();
		for (size_t k = 0; k < SGI_WORDS; k++)
			json_array_append_new(row, json_integer(rec[i * SGI_WORDS + k]));
		json_array_append_new(items, row);
	}
	json_object_set_new(m, "items", items);
	return m;
}

static void dump_rows(const struct sgi_config *cf, const uint32_t *rec)
{
	printf("nd_range(%zu, %zu), %s, ", cf->global, cf->local, sgb_name(cf->c.backend));
	if (cf->c.width)
		printf("width %u:\n", cf->c.width);
	else
		printf("width chosen by the driver:\n");
	for (size_t i = 0; i < cf->global; i++) {
		const uint32_t *r = rec + i * SGI_WORDS;
		printf("  globalId = %2u groupId = %u sgGroupId = %u sgId = %2u sgSize = %2u "
		       "sgMaxSize = %2u\n", r[0], r[1], r[3], r[4], r[5], r[6]);
	}
}

static const char *const sgi_head[] = { "nd_range", "backend", "width", "max", "sub-groups",
					"sizes", "partial", "driver max/count", "status" };
#define SGI_NCOLS (sizeof(sgi_head) / sizeof(sgi_head[0]))

static void row(struct table *t, const struct sgi_config *cf, const struct sgi_summary *sum,
		const struct kernel_res *res, const char *status)
{
	char c[SGI_NCOLS][64];
	const char *cells[SGI_NCOLS];
	bool seen = sum->max != 0;

	snprintf(c[0], 64, "%zu, %zu", cf->global, cf->local);
	snprintf(c[1], 64, "%s", sgb_name(cf->c.backend));
	snprintf(c[2], 64, cf->c.width ? "%u%s" : "driver", cf->c.width, cf->c.required ? " (reqd)" : "");
	snprintf(c[3], 64, seen ? "%u" : "-", sum->max);
	snprintf(c[4], 64, seen ? "%u" : "-", sum->nsg);
	if (seen)
		sizes_str(sum, c[5], 64);
	else
		snprintf(c[5], 64, "-");
	snprintf(c[6], 64, !seen ? "-" : sum->partial ? "last: %u of %u" : "none",
		 sum->nsg ? sum->sizes[(sum->nsg < SGI_MAX_SG ? sum->nsg : SGI_MAX_SG) - 1] : 0, sum->max);
	if ((cf->c.backend == SGB_INTEL || cf->c.backend == SGB_KHR) &&
	    (res->max_sg_for_local || res->sg_count_for_local))
		snprintf(c[7], 64, "%u/%u", res->max_sg_for_local, res->sg_count_for_local);
	else
		snprintf(c[7], 64, "-");
	snprintf(c[8], 64, "%s", status);
	for (size_t i = 0; i < SGI_NCOLS; i++)
		cells[i] = c[i];
	table_add(t, cells);
}

static void run_config(struct bench_session *s, const struct sgi_opts *o,
		       const struct sgi_config *cf, struct table *t)
{
	json_t *pt = point_new(), *pa = json_object_get(pt, "params");
	struct sgi_summary sum = { 0 };
	struct kernel_res res = { 0 };
	uint32_t *rec = calloc(cf->global * SGI_WORDS, 4);
	char err[8192] = "", opts[512] = "";
	bool ok = false;

	json_object_set_new(pa, "global", json_integer((json_int_t)cf->global));
	json_object_set_new(pa, "local", json_integer((json_int_t)cf->local));
	sgb_params(pa, &cf->c);
	if (cf->skip) {
		point_set_status(pt, "skipped", cf->skip);
		row(t, cf, &sum, &res, "skipped");
		session_add_point(s, pt);
		free(rec);
		return;
	}
	if (!rec)
		die(EXIT_FAIL, "out of host memory");
	ok = capture(s, cf, rec, &res, opts, sizeof(opts), err, sizeof(err));
	for (size_t g = 0; ok && g < cf->global / cf->local; g++)
		ok = check_group(rec, g, cf->local, &cf->c, &sum, err, sizeof(err));
	ok = ok && check_driver(cf, &res, &sum, err, sizeof(err));
	json_object_set_new(pa, "sg_size_kernel", sum.max ? json_integer(sum.max) : json_null());
	if (*opts)
		json_object_set_new(pt, "build_options", json_string(opts));
	json_object_set_new(pt, "compiler", prog_kernel_res_json("sg_info.cl", "sg_info", opts, &res));
	if (ok) {
		json_object_set_new(pt, "validated", json_true());
		json_object_set_new(pt, "mapping", mapping_json(rec, cf->global, &sum));
	}
	point_set_status(pt, ok ? "ok" : "failed", ok ? NULL : err);
	struct occ_result mr;
	json_object_set_new(pt, "model", session_model(s, &res, (unsigned)cf->local, sum.max, false,
						       cf->global / cf->local, &mr));
	if (o->dump && !s->opts->quiet && sum.max)
		dump_rows(cf, rec);
	row(t, cf, &sum, &res, ok ? "ok" : "failed");
	session_add_point(s, pt);
	free(rec);
}

int sg_info_main(int argc, char **argv)
{
	struct sgi_opts o;
	struct common_opts co;
	struct bench_session s;
	struct sgb_choice base;
	struct sgi_config cf[SGB_MAX_WIDTHS + 4];
	struct table t;
	char err[1024];
	size_t n;

	parse_args(argc, argv, &o, &co);
	session_open(&s, &co, "sg-info");
	if (!sgb_select(s.dev, o.backend, &base, err, sizeof(err)))
		usage_error("%s", err);
	base.width_source = "per ND-range, below";
	n = plan(s.dev, &o, &base, cf, SGB_MAX_WIDTHS + 2);
	json_object_set_new(s.doc, "sub_groups", sgb_report_json(s.dev, &base));
	table_init(&t, SGI_NCOLS, sgi_head);
	for (size_t i = 0; i < n; i++)
		run_config(&s, &o, &cf[i], &t);
	if (!co.quiet) {
		printf("sg-info on %s (%s)\n", s.dev->name, s.dev->platform_name);
		sgb_print(stdout, s.dev, &base);
		table_print(&t, stdout);
	}
	table_free(&t);
	range_free(&o.sg);
	return session_finish(&s);
}
