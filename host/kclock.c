/* cl_khr_kernel_clock: the query, the scope and the document (see kclock.h). */
#include "kclock.h"
#include "dev.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* cl_khr_kernel_clock (OpenCL 3.0 extension specification), for headers older than it. */
#ifndef CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR
#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR 0x1076
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR (1 << 0)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR (1 << 1)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR (1 << 2)
#endif

static const struct {
	enum kclock_scope scope;
	uint64_t bit;
	const char *name, *builtin;
} scopes[] = {   /* narrowest first: the order kclock_pick prefers */
	{ KCLOCK_SUB_GROUP, CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR, "sub_group",
	  "clock_read_sub_group" },
	{ KCLOCK_WORK_GROUP, CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR, "work_group",
	  "clock_read_work_group" },
	{ KCLOCK_DEVICE, CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR, "device", "clock_read_device" },
};
#define NSCOPES (sizeof(scopes) / sizeof(scopes[0]))

const char *kclock_scope_name(enum kclock_scope s)
{
	for (size_t i = 0; i < NSCOPES; i++)
		if (scopes[i].scope == s)
			return scopes[i].name;
	return NULL;
}

const char *kclock_builtin(enum kclock_scope s)
{
	for (size_t i = 0; i < NSCOPES; i++)
		if (scopes[i].scope == s)
			return scopes[i].builtin;
	return NULL;
}

void kclock_drop(struct kclock *k, const char *fmt, ...)
{
	va_list ap;

	k->scope = KCLOCK_NONE;
	k->options[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(k->reason, sizeof(k->reason), fmt, ap);
	va_end(ap);
}

void kclock_pick(const struct dev_info *d, struct kclock *k)
{
	cl_ulong caps = 0;
	cl_int e;

	*k = (struct kclock){ .offered = dev_has_ext(d, "cl_khr_kernel_clock") };
	if (!k->offered) {
		kclock_drop(k, "'%s' does not offer cl_khr_kernel_clock: cycles come from event "
			    "times alone", d->name);
		return;
	}
	e = clGetDeviceInfo(d->id, CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR, sizeof(caps), &caps, NULL);
	if (e != CL_SUCCESS) {
		kclock_drop(k, "driver: CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR failed (%d) on a device "
			    "offering cl_khr_kernel_clock", e);
		return;
	}
	k->caps = caps;
	for (size_t i = 0; i < NSCOPES; i++)
		if (caps & scopes[i].bit) {
			k->scope = scopes[i].scope;
			snprintf(k->options, sizeof(k->options), "-DKCLOCK_SCOPE=%d", (int)k->scope);
			return;
		}
	kclock_drop(k, "CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR is 0x%llx: no scope offered",
		    (unsigned long long)caps);
}

json_t *kclock_json(const struct kclock *k, const char *what, unsigned launches)
{
	json_t *j = json_object(), *sc = json_array();
	bool on = k->scope != KCLOCK_NONE;
	char note[512];

	for (size_t i = 0; i < NSCOPES; i++)
		if (k->caps & scopes[i].bit)
			json_array_append_new(sc, json_string(scopes[i].name));
	snprintf(note, sizeof(note), "%s read inside the kernel around %s, in a launch of its own "
		 "after the timed ones (those stay the kernels without the clock); cycles are the "
		 "clock's ticks: the extension fixes neither rate nor unit", on ? kclock_builtin(k->scope)
		 : "the clock", what);
	json_object_set_new(j, "extension", json_string("cl_khr_kernel_clock"));
	json_object_set_new(j, "offered", json_boolean(k->offered));
	json_object_set_new(j, "capabilities", json_integer((json_int_t)k->caps));
	json_object_set_new(j, "scopes", sc);
	json_object_set_new(j, "measured", json_boolean(on));
	json_object_set_new(j, "scope", on ? json_string(kclock_scope_name(k->scope)) : json_null());
	json_object_set_new(j, "builtin", on ? json_string(kclock_builtin(k->scope)) : json_null());
	json_object_set_new(j, "launches", on ? json_integer(launches) : json_null());
	json_object_set_new(j, "reason", on ? json_null() : json_string(k->reason));
	json_object_set_new(j, "note", json_string(note));
	return j;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double kclock_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void kclock_print_title(FILE *f, const struct kclock *k, uint32_t clock_mhz, const char *what,
			unsigned launches)
{
	if (clock_mhz)
		fprintf(f, "cycles from the nominal clock, CL_DEVICE_MAX_CLOCK_FREQUENCY = %u MHz\n",
			clock_mhz);
	else
		fprintf(f, "cycles: none (CL_DEVICE_MAX_CLOCK_FREQUENCY reports 0 MHz)\n");
	if (k->scope != KCLOCK_NONE)
		fprintf(f, "%s read inside the kernel: %s (cl_khr_kernel_clock, %s scope), %u launches "
			"after the timed ones\n", what, kclock_builtin(k->scope),
			kclock_scope_name(k->scope), launches);
	else
		fprintf(f, "%s read inside the kernel: none (%s)\n", what, k->reason);
}
