/*
 * bench locality's report: each point's parameters in the document, the table's columns, and
 * local against remote per memory kind and test, with why a remote read may look local.
 */
#include "host.h"
#include "stats.h"

#include <stdio.h>
#include <string.h>

/* ---- the document's parameters: the point's, and the run's options ---- */

#define VALUE(name) static json_t *name(const struct bench_run *r, const struct bench_point *pt)
#define OPTS(r) ((const struct locality_opts *)(r)->opts)
#define PEERS(r) (((const struct loc_state *)(r)->state)->peers)

VALUE(param_owner) { return json_string(PEERS(r)->label[LA(pt)->owner]); }
VALUE(param_reader) { return json_string(PEERS(r)->label[LA(pt)->reader]); }
VALUE(param_local) { (void)r; return json_boolean(LA(pt)->owner == LA(pt)->reader); }
VALUE(param_bytes) { (void)pt; return json_integer((json_int_t)OPTS(r)->size); }
VALUE(param_stride) { (void)pt; return json_integer((json_int_t)OPTS(r)->stride); }
VALUE(param_loads) { return json_integer((json_int_t)(LA(pt)->test == TEST_CHASE ? OPTS(r)->loads : 0)); }
VALUE(param_seed) { (void)pt; return json_integer((json_int_t)OPTS(r)->seed); }

#define AT(m) BENCH_AT(struct loc_params, m)
const struct bench_param locality_params[] = {
	{ "memory", .type = BENCH_PT_NAME, AT(memory), BENCH_NAMES(loc_mem_names),
	  .help = "buffer, an OpenCL buffer migrated to its owner and first written there; usm, a "
		  "device allocation of the owner (cl_intel_unified_shared_memory)" },
	{ "test", .type = BENCH_PT_NAME, AT(test), BENCH_NAMES(loc_test_names),
	  .help = "stream, a read of the whole buffer; chase, a pointer chase through it, one work-item" },
	{ "owner", .type = BENCH_PT_STR, .value = param_owner, .help = "the device label where the buffer lives" },
	{ "reader", .type = BENCH_PT_STR, .value = param_reader, .help = "the device label where the kernel runs" },
	{ "local", .type = BENCH_PT_BOOL, .value = param_local, .help = "owner = reader" },
	{ "bytes", .type = BENCH_PT_COUNT, .value = param_bytes, .unit = "bytes", .help = "of the buffer" },
	{ "stride", .type = BENCH_PT_COUNT, .value = param_stride, .unit = "bytes", .help = "between chase nodes" },
	{ "loads", .type = BENCH_PT_COUNT, .value = param_loads, .help = "per chase launch (0: a stream)" },
	{ "seed", .type = BENCH_PT_COUNT, .value = param_seed, .help = "of the random cycle" },
	{ 0 } };

#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)
CELL(cell_memory) { (void)r; snprintf(b, n, "%s", loc_mem_names[LA(pt)->memory]); }
CELL(cell_owner) { (void)r; snprintf(b, n, "d%u", LA(pt)->owner); }
CELL(cell_reader) { (void)r; snprintf(b, n, "d%u", LA(pt)->reader); }
CELL(cell_where) { (void)r; snprintf(b, n, "%s", LA(pt)->owner == LA(pt)->reader ? "local" : "remote"); }
CELL(cell_test) { (void)r; snprintf(b, n, "%s", loc_test_names[LA(pt)->test]); }
CELL(cell_ns)
{
	const struct loc_state *p = r->state;
	snprintf(b, n, p->ns[pt->index] > 0 ? "%.1f" : "-", p->ns[pt->index]);
}

const struct bench_col locality_cols[] = {
	{ "Memory", cell_memory }, { "Owner", cell_owner }, { "Reader", cell_reader },
	{ "Where", cell_where }, { "Test", cell_test }, { "median us", bench_cell_median_us },
	{ "CV %", bench_cell_cv }, { "GB/s", bench_cell_gbps }, { "ns/load", cell_ns },
	{ "status", bench_cell_status }, { 0 } };

void locality_title(const struct bench_run *r, FILE *f)
{
	const struct loc_state *p = r->state;

	fprintf(f, "locality: a buffer on its owner, read by a kernel on each device of one context\n");
	for (size_t i = 0; i < p->n; i++)
		fprintf(f, "  d%zu = %s\n", i, p->peers->label[i]);
}

void locality_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	struct loc_params a;

	loc_point_params(r, i, &a);
	snprintf(buf, len, "%s d%u->d%u %s", loc_mem_names[a.memory], a.owner, a.reader, loc_test_names[a.test]);
}

/* The 95 % interval of the median of a copy's event times (min..max for fewer than 6), ns. */
static void event_interval(const struct bench_point *pt, double *lo, double *hi)
{
	struct stats st;
	double cover;

	if (stats_median_ci(pt->wall_ns, pt->n, 0.95, lo, hi, &cover))
		return;
	stats_compute(pt->wall_ns, pt->n, &st);
	*lo = st.min;
	*hi = st.max;
}

/*
 * A copy between devices whose event is not surely slower than the copy within the reader
 * (the two medians' 95 % intervals overlap, or it is faster) timed no transfer over a link:
 * the devices share memory, or the driver moved the buffer before the command started, as
 * NVIDIA's does. Its figure is the host's either way; the note says what the event showed.
 */
static void not_transfers(struct bench_run *r)
{
	struct loc_state *p = r->state;

	memset(p->not_transfer, 0, sizeof(p->not_transfer));
	for (size_t i = 0; i < r->n_points; i++) {
		struct bench_point *pt = &r->points[i];
		const struct loc_params *a = LA(pt);
		double rlo, rhi, llo = 0, lhi = 0;
		size_t local = r->n_points;
		if (a->test != TEST_COPY || a->owner == a->reader || !(p->event_gbps[i] > 0))
			continue;
		for (size_t j = 0; j < r->n_points; j++) {   /* the reader's own copy within itself */
			const struct loc_params *b = LA(&r->points[j]);
			if (b->test == TEST_COPY && b->memory == a->memory && b->owner == a->reader &&
			    b->reader == a->reader && p->event_gbps[j] > 0)
				local = j;
		}
		if (local == r->n_points)
			continue;
		event_interval(pt, &rlo, &rhi);
		event_interval(&r->points[local], &llo, &lhi);
		if (rlo > lhi)   /* surely slower than the copy within one device: a transfer */
			continue;
		p->not_transfer[a->memory]++;
		bench_note(pt, "not a transfer: its event says %.2f GB/s, no slower than the copy within "
			   "d%u by its event (%.2f GB/s): the devices share memory, or the driver moved the "
			   "buffer before the timed command; the figure is the host's", p->event_gbps[i],
			   a->reader, p->event_gbps[local]);
	}
}

void locality_relate(struct bench_run *r)
{
	struct loc_state *p = r->state;

	for (size_t i = 0; i < r->n_points; i++) {
		const struct bench_point *pt = &r->points[i];
		struct stats ev;
		p->gbps[i] = pt->status == POINT_OK ? bench_point_gbps(pt) : 0;
		p->event_gbps[i] = 0;
		if (pt->status == POINT_OK && pt->n && pt->clock.host_figure && pt->bytes > 0) {
			stats_compute(pt->wall_ns, pt->n, &ev);   /* the events' times */
			p->event_gbps[i] = ev.median > 0 ? pt->bytes / ev.median : 0;
		}
	}
	not_transfers(r);
}

/* The median of the figures v[i] > 0 of the points of test t that match (0: none). */
static double median_of(const struct bench_run *r, const double *v, unsigned m, unsigned t,
			int local)
{
	double x[4 * BENCH_MAX_DEVICES * BENCH_MAX_DEVICES];
	size_t k = 0;
	struct stats st;

	for (size_t i = 0; i < r->n_points && k < sizeof(x) / sizeof(x[0]); i++) {
		const struct loc_params *a = LA(&r->points[i]);
		if (v[i] > 0 && a->memory == m && a->test == t && (a->owner == a->reader) == local)
			x[k++] = v[i];
	}
	if (!k)
		return 0;
	stats_compute(x, k, &st);
	return st.median;
}

/* Whether the driver says where every owner's buffer of memory kind m lives. */
static bool known(const struct loc_state *p, unsigned m)
{
	bool all = true;

	for (size_t i = 0; i < p->n; i++)
		all &= p->buf[m][i].known;
	return all;
}

static json_t *pos_or_null(double v)
{
	return v > 0 ? json_real(v) : json_null();
}

/*
 * Why a remote stream may read as fast as a local one: an OpenCL buffer has no query of where
 * it lives, and the driver may move it to the device that reads it before the first read, so
 * the timed reads after it are local (on 2 x H100, NVIDIA's driver: remote 2847.6 against
 * local 2850.4 GB/s, while the copy test, which writes the buffer again on its owner before
 * each copy, moves it between the devices). NULL where the remote stream is slower.
 */
static const char *migrated_note(const struct bench_run *r, unsigned m, double lg, double rg)
{
	if (m != MEM_BUFFER || !(lg > 0 && rg > 0) || rg < 0.9 * lg ||
	    (r->dev->type & CL_DEVICE_TYPE_CPU))   /* a CPU's memory is the host's either way */
		return NULL;
	return strstr(r->dev->platform_name, "NVIDIA")
		       ? "remote reads as fast as local: NVIDIA's driver migrates a buffer to the device "
			 "that reads it before the read, so after the first read the timed ones are local "
			 "(the copy test writes it again on its owner before each copy: between devices)"
		       : "remote reads as fast as local: where the buffer lives is not known (OpenCL has no "
			 "query), and a driver may migrate it to the device that reads it, so the timed reads "
			 "may be local ones (the copy test writes it again on its owner before each copy)";
}

/* Local against remote, per memory kind and test: medians over the pairs, side by side. */
static json_t *summary_of(struct bench_run *r, unsigned m)
{
	const struct loc_state *p = r->state;
	double lg = median_of(r, p->gbps, m, TEST_STREAM, 1), rg = median_of(r, p->gbps, m, TEST_STREAM, 0);
	double ln = median_of(r, p->ns, m, TEST_CHASE, 1), rn = median_of(r, p->ns, m, TEST_CHASE, 0);
	double lc = median_of(r, p->gbps, m, TEST_COPY, 1), rc = median_of(r, p->gbps, m, TEST_COPY, 0);
	double lce = median_of(r, p->event_gbps, m, TEST_COPY, 1);
	double rce = median_of(r, p->event_gbps, m, TEST_COPY, 0);
	const char *why = migrated_note(r, m, lg, rg);

	if (!r->co->quiet) {
		printf("  %-6s  stream GB/s local %.2f, remote %.2f (x%.3f); chase ns/load local %.1f, "
		       "remote %.1f (x%.3f)", loc_mem_names[m], lg, rg, lg > 0 ? rg / lg : 0, ln, rn,
		       ln > 0 ? rn / ln : 0);
		if (lc > 0 || rc > 0)
			printf("; copy GB/s (host clock) within a device %.2f, between devices %.2f "
			       "(by the events %.2f, %.2f%s)", lc, rc, lce, rce,
			       p->not_transfer[m] ? ": not a transfer" : "");
		printf("; placement %s\n", known(p, m) ? "known (the driver's query)"
						       : "not known (see the document)");
		if (why)
			printf("          note: %s\n", why);
	}
	json_t *s = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:b}",
		"local_gbps", pos_or_null(lg), "remote_gbps", pos_or_null(rg),
		"remote_over_local_gbps", pos_or_null(lg > 0 && rg > 0 ? rg / lg : 0),
		"local_ns_per_load", pos_or_null(ln), "remote_ns_per_load", pos_or_null(rn),
		"remote_over_local_ns", pos_or_null(ln > 0 && rn > 0 ? rn / ln : 0),
		"placement_known", known(p, m));
	json_object_set_new(s, "copy_local_gbps", pos_or_null(lc));
	json_object_set_new(s, "copy_remote_gbps", pos_or_null(rc));
	json_object_set_new(s, "copy_local_event_gbps", pos_or_null(lce));
	json_object_set_new(s, "copy_remote_event_gbps", pos_or_null(rce));
	json_object_set_new(s, "copy_not_transfer", json_integer(p->not_transfer[m]));
	json_object_set_new(s, "note", why ? json_string(why) : json_null());
	return s;
}

int locality_report(struct bench_run *r)
{
	const struct locality_opts *o = r->opts;
	json_t *sum = json_object();

	if (!r->co->quiet)
		printf("\nlocal against remote (medians over the devices):\n");
	for (unsigned m = 0; m < N_MEM; m++)
		if (o->memory[m])
			json_object_set_new(sum, loc_mem_names[m], summary_of(r, m));
	json_object_set_new(r->doc, "locality", sum);
	return EXIT_OK;
}
