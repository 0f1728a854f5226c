/* A point's record: its status and reason, what to time, the model's inputs, its figures. */
#define HARNESS_LAYER HARNESS_LAYER_POINT
#include "point.h"

#include <stdarg.h>
#include <string.h>

const char *const bench_status_names[] = { "ok", "failed", "skipped", "suspect" };

static void set_reason(struct bench_point *pt, const char *fmt, va_list ap)
{
	size_t len = strlen(pt->reason);

	/* a note adds to earlier ones; a failure or skip replaces them */
	if (pt->status != POINT_OK || !len)
		len = 0;
	else
		len += (size_t)snprintf(pt->reason + len, sizeof(pt->reason) - len, "; ");
	if (len < sizeof(pt->reason))
		vsnprintf(pt->reason + len, sizeof(pt->reason) - len, fmt, ap);
}

void bench_fail(struct bench_point *pt, const char *fmt, ...)
{
	va_list ap;

	pt->status = POINT_FAILED;
	va_start(ap, fmt);
	set_reason(pt, fmt, ap);
	va_end(ap);
}

void bench_skip(struct bench_point *pt, const char *fmt, ...)
{
	va_list ap;

	pt->status = POINT_SKIPPED;
	va_start(ap, fmt);
	set_reason(pt, fmt, ap);
	va_end(ap);
}

void bench_suspect(struct bench_point *pt, const char *fmt, ...)
{
	va_list ap;

	if (pt->status != POINT_OK)
		return;
	pt->status = POINT_SUSPECT;
	va_start(ap, fmt);
	set_reason(pt, fmt, ap);
	va_end(ap);
}

void bench_note(struct bench_point *pt, const char *fmt, ...)
{
	va_list ap;

	if (pt->status != POINT_OK)
		return;
	va_start(ap, fmt);
	set_reason(pt, fmt, ap);
	va_end(ap);
}

void bench_point_time_launch(struct bench_point *pt, cl_kernel k, size_t global, size_t local)
{
	pt->launch = (struct time_launch){ k, global, local };
	pt->enqueue = time_enqueue_launch;
	pt->enqueue_arg = &pt->launch;
}

void bench_point_model(struct bench_point *pt, const struct kernel_res *res, unsigned wg,
		       unsigned simd, bool barrier, uint64_t groups)
{
	pt->res = *res;
	pt->model_wg = wg;
	pt->model_simd = simd;
	pt->model_barrier = barrier;
	pt->model_groups = groups;
}

const char *bench_wg_note(unsigned wg, const struct kernel_res *res, char *buf, size_t len)
{
	if (!res->wg_max || wg <= res->wg_max)
		return NULL;
	snprintf(buf, len, "work-group %u exceeds the kernel's CL_KERNEL_WORK_GROUP_SIZE %zu, yet "
		 "the driver launched it", wg, res->wg_max);
	return buf;
}

double bench_point_gbps(const struct bench_point *pt)
{
	return pt->n && pt->bytes > 0 ? pt->bytes / pt->time.median : 0;
}

double bench_point_copy_gbps(const struct bench_point *pt)
{
	return pt->ceil_copy_ns > 0 ? 2.0 * (double)pt->ceil_bytes / pt->ceil_copy_ns : 0;
}

double bench_point_ceiling_gbps(const struct bench_point *pt)
{
	return pt->ceil_ns > 0 ? 2.0 * (double)pt->ceil_bytes / pt->ceil_ns : 0;
}

json_t *bench_json_uint0(uint64_t v)
{
	return v ? json_integer((json_int_t)v) : json_null();
}

json_t *bench_json_str0(const char *s)
{
	return s ? json_string(s) : json_null();
}

void bench_check_add(struct bench_check_plan *p, const struct bench_check *c)
{
	p->add(p, c);
}
