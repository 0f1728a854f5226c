/* The driver's count of resident work-groups (concurrent.h). */
#include "concurrent.h"

#include "dev.h"

#include <string.h>

/* cl_intel_concurrent_dispatch, not in the Khronos headers Debian ships. */
#define CONC_EXEC_INFO_DISPATCH_TYPE 0x4257
#define CONC_DISPATCH_CONCURRENT 1u

typedef cl_int (CL_API_CALL *conc_fn)(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
				      const size_t *global_work_offset,
				      const size_t *local_work_size, size_t *max_work_group_count);

bool conc_offered(const struct dev_info *d)
{
	return dev_has_ext(d, CONC_EXTENSION);
}

/* The entry point for d's platform, NULL where the driver has none. */
static conc_fn conc_entry(const struct dev_info *d)
{
	void *f = clGetExtensionFunctionAddressForPlatform(d->platform,
							   "clGetKernelMaxConcurrentWorkGroupCountINTEL");
	conc_fn fn;

	memcpy(&fn, &f, sizeof(fn));   /* an object pointer to a function pointer, as POSIX allows */
	return fn;
}

void conc_query(const struct prog_ctx *c, cl_kernel k, size_t wg, struct conc_answer *a)
{
	const struct dev_info *d = c->dev;
	size_t offset = 0, count = 0;
	conc_fn fn;

	memset(a, 0, sizeof(*a));
	if (!conc_offered(d)) {
		snprintf(a->note, sizeof(a->note), "not offered: '%s' does not list %s", d->name,
			 CONC_EXTENSION);
		return;
	}
	if (!(fn = conc_entry(d))) {
		snprintf(a->note, sizeof(a->note), "not offered: '%s' lists %s, but its platform has no "
			 "clGetKernelMaxConcurrentWorkGroupCountINTEL", d->name, CONC_EXTENSION);
		return;
	}
	a->offered = true;
	if (CL_CHECK(fn(c->q, k, 1, &offset, &wg, &count), a->note, sizeof(a->note))) {
		a->known = true;
		a->groups = count;
	}
}

json_t *conc_json(const struct conc_answer *a)
{
	json_t *o = json_object();

	json_object_set_new(o, "offered", json_boolean(a->offered));
	json_object_set_new(o, "resident_wg", a->known ? json_integer((json_int_t)a->groups)
						       : json_null());
	json_object_set_new(o, "source", json_string(CONC_SOURCE));
	if (!a->known)
		json_object_set_new(o, a->offered ? "error" : "reason", json_string(a->note));
	return o;
}

const char *conc_cell(const struct conc_answer *a, char *buf, size_t len)
{
	if (a->known)
		snprintf(buf, len, "%llu", (unsigned long long)a->groups);
	else
		snprintf(buf, len, "%s", a->offered ? "refused" : "not offered");
	return buf;
}

const char *conc_explain(const struct dev_info *d, uint64_t driver, uint64_t other,
			 enum conc_other what, char *buf, size_t len)
{
	const char *who = what == CONC_MEASURED ? "what the probe measured" : "what the model counts";

	if ((d->type & CL_DEVICE_TYPE_CPU) && driver > other)
		snprintf(buf, len, "a CPU runtime runs each work-group to its end on one worker thread, "
			 "so no more groups than its %u threads run at once (%s); the runtime's count "
			 "is not derived from its threads: it is how many groups a concurrent dispatch "
			 "may launch, not how many run at once", d->compute_units, who);
	else if (driver > other)
		snprintf(buf, len, "the driver promises more groups at once than %s: a device-wide "
			 "barrier over its count would wait for groups not yet started",
			 what == CONC_MEASURED ? "the device held" : "the model's resources allow");
	else
		snprintf(buf, len, "the driver's count leaves resident slots unused (%s more)",
			 what == CONC_MEASURED ? "the device held" : "the model allows");
	return buf;
}

bool conc_set_dispatch(cl_kernel k, char *err, size_t len)
{
	cl_uint type = CONC_DISPATCH_CONCURRENT;

	return CL_CHECK(clSetKernelExecInfo(k, CONC_EXEC_INFO_DISPATCH_TYPE, sizeof(type), &type), err,
			len);
}
