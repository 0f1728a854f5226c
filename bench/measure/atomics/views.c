/*
 * bench atomics's views: each point's parameters in the document (the API, order and scope the
 * kernel used), the table's columns, its title and the points' notes.
 */
#include "host.h"

#include <stdio.h>

/* The API, order and scope the kernel used; NULL for a point that did not run. */
static const char *api_used(const struct at_params *a)
{
	return !a->ran ? NULL : a->c11 ? "atomic_fetch_add_explicit" : "atomic_add";
}

static const char *order_used(const struct at_params *a)
{
	return !a->ran ? NULL : !a->c11 ? "none (OpenCL 1.x)" : a->ord == AT_RELAXED
		? "memory_order_relaxed" : "memory_order_acq_rel";
}

static const char *scope_used(const struct at_params *a)
{
	return !a->ran ? NULL : !a->c11 ? "none (OpenCL 1.x)" : at_is_local(a->pat)
		? "memory_scope_work_group" : "memory_scope_device";
}

#define AP(pt) ((const struct at_params *)(pt)->params)
#define VALUE(name) static json_t *name(const struct bench_run *r, const struct bench_point *pt)

VALUE(param_api) { (void)r; return bench_json_str0(api_used(AP(pt))); }
VALUE(param_order_used) { (void)r; return bench_json_str0(order_used(AP(pt))); }
VALUE(param_scope_used) { (void)r; return bench_json_str0(scope_used(AP(pt))); }
VALUE(param_within_caps) { (void)r; return AP(pt)->c11 ? json_boolean(!AP(pt)->missing[0]) : json_null(); }
VALUE(param_caps) { (void)r; return AP(pt)->caps_known ? json_integer((json_int_t)AP(pt)->caps) : json_null(); }
VALUE(param_memory) { (void)r; return json_string(at_is_local(AP(pt)->pat) ? "local" : "global"); }
VALUE(param_flush) { (void)r; return json_boolean(AP(pt)->flush_bytes > 0); }

static const char *const memory_names[] = { "global", "local" };
static const char *const api_names[] = { "atomic_fetch_add_explicit", "atomic_add" };

#define AT(m) BENCH_AT(struct at_params, m)
const struct bench_param atomics_params[] = {
	{ "pattern", .type = BENCH_PT_NAME, AT(pat), BENCH_NAMES(at_pattern_names),
	  .help = "who adds to which counter" },
	{ "order", .type = BENCH_PT_NAME, AT(ord), BENCH_NAMES(at_order_names),
	  .help = "the memory order asked" },
	{ "api", .type = BENCH_PT_STR0, .value = param_api, BENCH_NAMES(api_names),
	  .help = "the API that ran (--api c11 or 1.x asks for one); null: the point did not run" },
	{ "order_used", .type = BENCH_PT_STR0, .value = param_order_used,
	  .help = "memory_order_relaxed, memory_order_acq_rel, or none (OpenCL 1.x); null: did not run" },
	{ "scope_used", .type = BENCH_PT_STR0, .value = param_scope_used,
	  .help = "memory_scope_device, memory_scope_work_group, or none (OpenCL 1.x); null: did not run" },
	{ "within_declared_caps", .type = BENCH_PT_BOOL0, .value = param_within_caps,
	  .help = "the order and scope used lie within what the device declares (null: the 1.x API, "
		  "or the point did not run)" },
	{ "atomic_caps", .type = BENCH_PT_COUNT0, .value = param_caps,
	  .help = "CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES's bits (null where it cannot say)" },
	{ "memory", .type = BENCH_PT_NAME, .value = param_memory, BENCH_NAMES(memory_names),
	  .help = "where the counters live" },
	{ "work_items", .type = BENCH_PT_COUNT, AT(work_items), .unit = "work-items", .help = "launched" },
	{ "wg_size", .type = BENCH_PT_COUNT, AT(wg), .unit = "work-items", .help = "the work-group" },
	{ "scale", .type = BENCH_PT_COUNT, AT(scale), .help = "--scale: 1024 x scale work-items" },
	{ "ops", .type = BENCH_PT_COUNT, AT(ops), .help = "fetch-adds per work-item" },
	{ "sg_size", .type = BENCH_PT_COUNT0, AT(sg), .unit = "work-items",
	  .help = "the sub-group size (null: none stated)" },
	{ "sg_source", .type = BENCH_PT_STR0, AT(sg_source), .help = "where sg_size comes from" },
	{ "counters", .type = BENCH_PT_COUNT, AT(counters), .help = "counters added to" },
	{ "items_per_counter", .type = BENCH_PT_COUNT, AT(items_per_counter), .unit = "work-items",
	  .help = "work-items adding to each counter" },
	{ "stride_bytes", .type = BENCH_PT_COUNT0, AT(stride), .unit = "bytes",
	  .help = "between counters (null: one counter per group)" },
	{ "flush", .type = BENCH_PT_BOOL, .value = param_flush, .help = "the cache flushed before each launch" },
	{ "flush_bytes", .type = BENCH_PT_COUNT0, AT(flush_bytes), .unit = "bytes",
	  .help = "read to flush it (null without --cache cold)" },
	BENCH_PARAMS_SG_LAYER(true, struct at_params, sgc),
	{ 0 } };

#define OK(pt) ((pt)->status == POINT_OK)
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

CELL(cell_pattern) { (void)r; snprintf(b, n, "%s", at_pattern_names[AP(pt)->pat]); }
CELL(cell_order) { (void)r; snprintf(b, n, "%s", at_order_names[AP(pt)->ord]); }
CELL(cell_api) { (void)r; snprintf(b, n, "%s", !AP(pt)->ran ? "-" : AP(pt)->c11 ? "c11" : "1.x"); }
CELL(cell_scope)
{
	(void)r;
	snprintf(b, n, "%s", !AP(pt)->ran ? "-" : !AP(pt)->c11 ? "none"
				: at_is_local(AP(pt)->pat) ? "work_group" : "device");
}
CELL(cell_counters) { (void)r; snprintf(b, n, "%llu", (unsigned long long)AP(pt)->counters); }
CELL(cell_ipc) { (void)r; snprintf(b, n, "%u", AP(pt)->items_per_counter); }
/* a point that failed after its timed launches shows "-", as for its figures */
CELL(cell_median) { (void)r; snprintf(b, n, OK(pt) ? "%.2f" : "-", pt->time.median / 1e3); }
CELL(cell_cv) { (void)r; snprintf(b, n, OK(pt) ? "%.1f" : "-", pt->time.cv); }
CELL(cell_gatomics) { (void)r; snprintf(b, n, OK(pt) ? "%.4f" : "-", at_per_s(AP(pt)->ns) / 1e9); }
CELL(cell_ns) { (void)r; snprintf(b, n, OK(pt) ? "%.3f" : "-", AP(pt)->ns); }
CELL(cell_cycles)
{
	uint32_t mhz = r->dev->clock_mhz;

	snprintf(b, n, OK(pt) && mhz ? "%.1f" : "-", AP(pt)->ns * mhz / 1e3);
}
CELL(cell_kclock)
{
	(void)r;
	snprintf(b, n, OK(pt) && AP(pt)->kc_cycles >= 0 ? "%.1f" : "-", AP(pt)->kc_cycles);
}
/* "(note)" on any point with a reason: the reasons follow the table */
CELL(cell_status)
{
	(void)r;
	snprintf(b, n, "%s%s", bench_status_names[pt->status], pt->reason[0] ? " (note)" : "");
}

const struct bench_col atomics_cols[] = {
	{ "Pattern", cell_pattern }, { "Order", cell_order }, { "API", cell_api },
	{ "Scope", cell_scope }, { "Counters", cell_counters }, { "Items/ctr", cell_ipc },
	{ "Model occupancy", bench_cell_occupancy }, { "median us", cell_median },
	{ "CV %", cell_cv }, { "Gatomic/s", cell_gatomics }, { "ns/atomic", cell_ns },
	{ "cycles", cell_cycles }, { "clock cycles", cell_kclock }, { "status", cell_status },
	{ 0 } };

void atomics_title(const struct bench_run *r, FILE *f)
{
	const struct dev_info *d = r->dev;
	const struct atomics_opts *o = r->opts;
	const struct at_state *p = r->state;

	fprintf(f, "atomics on %s (%s): %llu work-items (1024 x %u), work-groups of %u, %u "
		"fetch-adds each\n", d->name, d->platform_name, (unsigned long long)p->items, o->scale,
		p->wg, o->ops);
	if (p->sgc.width)
		fprintf(f, "sub-group size %u: %s", p->sgc.width, p->sg_source);
	else
		fprintf(f, "sub-group size: %s", p->sg_source);
	fprintf(f, p->sgc.forced ? " (--sg-backend %s)\n" : "\n", sgb_name(p->sgc.backend));
	kclock_print_title(f, &p->kc, d->clock_mhz, "chain's clock cycles", AT_KCLOCK_LAUNCHES);
	if (p->flush_bytes)
		fprintf(f, "flush: %llu bytes read before each timed launch (last-level cache %llu "
			"bytes, %s)\n", (unsigned long long)p->flush_bytes, (unsigned long long)p->llc,
			p->llc_source);
}

/* The reasons and notes of the points, below the table. */
int atomics_report(struct bench_run *r)
{
	if (r->co->quiet)
		return EXIT_OK;
	for (size_t i = 0; i < r->n_points; i++) {
		const struct bench_point *pt = &r->points[i];
		if (pt->reason[0])
			printf("  %s %s: %s\n", at_pattern_names[AP(pt)->pat], at_order_names[AP(pt)->ord],
			       pt->reason);
	}
	return EXIT_OK;
}

void atomics_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	const struct at_state *p = r->state;

	snprintf(buf, len, "%s %s", at_pattern_names[p->list[i].pat], at_order_names[p->list[i].ord]);
}
