/*
 * Device fission: --sub-devices parsed, checked against what the device offers
 * (CL_DEVICE_PARTITION_PROPERTIES, CL_DEVICE_PARTITION_AFFINITY_DOMAIN), and the
 * sub-devices made by clCreateSubDevices and queried like any device.
 */
#include "dev.h"

#include "range.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char forms[] = "numa, equally:N or counts:A,B,... (N, A, B: compute units, 1 or more)";

/* One count: a whole number in 1..1<<20 with no trailing characters. */
static bool count(const char *s, size_t len, unsigned *v, const char *whole, char *err, size_t errlen)
{
	char buf[32], e[256];
	uint64_t x;

	if (len == 0 || len >= sizeof(buf)) {
		snprintf(err, errlen, "'%s': %s a count: allowed %s", whole, len ? "too long for" : "missing",
			 forms);
		return false;
	}
	snprintf(buf, sizeof(buf), "%.*s", (int)len, s);
	if (!parse_u64(buf, 1, 1u << 20, &x, e, sizeof(e))) {
		snprintf(err, errlen, "'%s': %s; allowed %s", whole, e, forms);
		return false;
	}
	*v = (unsigned)x;
	return true;
}

bool dev_part_parse(const char *s, struct dev_part *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	if (strcmp(s, "numa") == 0) {
		p->kind = DEV_PART_NUMA;
		return true;
	}
	if (strncmp(s, "equally:", 8) == 0) {
		p->kind = DEV_PART_EQUALLY;
		p->n_v = 1;
		return count(s + 8, strlen(s + 8), &p->v[0], s, err, errlen);
	}
	if (strncmp(s, "counts:", 7) != 0) {
		snprintf(err, errlen, "'%s' is not one of: %s", s, forms);
		return false;
	}
	p->kind = DEV_PART_COUNTS;
	for (const char *c = s + 7;; c++) {
		size_t len = strcspn(c, ",");
		if (p->n_v == DEV_PART_MAX_COUNTS) {
			snprintf(err, errlen, "'%s': more than %d counts", s, DEV_PART_MAX_COUNTS);
			return false;
		}
		if (!count(c, len, &p->v[p->n_v++], s, err, errlen))
			return false;
		c += len;
		if (!*c)
			return true;
	}
}

const char *dev_part_str(const struct dev_part *p, char *buf, size_t len)
{
	size_t off;

	switch (p->kind) {
	case DEV_PART_NUMA: snprintf(buf, len, "numa"); break;
	case DEV_PART_EQUALLY: snprintf(buf, len, "equally:%u", p->v[0]); break;
	case DEV_PART_COUNTS:
		off = (size_t)snprintf(buf, len, "counts:");
		for (unsigned i = 0; i < p->n_v && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "%s%u", i ? "," : "", p->v[i]);
		break;
	default: snprintf(buf, len, "none"); break;
	}
	return buf;
}

/* CL_DEVICE_PARTITION_BY_NAMES_INTEL (cl_intel_device_partition_by_names): named, not used. */
#define PART_BY_NAMES_INTEL 0x4052

bool dev_part_offers(const struct dev_info *d, cl_device_partition_property prop)
{
	for (unsigned i = 0; i < d->n_part_props; i++)
		if (d->part_props[i] == prop)
			return true;
	return false;
}

static const struct { cl_device_affinity_domain bit; const char *name; } domains[] = {
	{ CL_DEVICE_AFFINITY_DOMAIN_NUMA, "numa" },
	{ CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, "L4 cache" },
	{ CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, "L3 cache" },
	{ CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, "L2 cache" },
	{ CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, "L1 cache" },
	{ CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, "next partitionable" },
};

const char *dev_part_offered(const struct dev_info *d, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < d->n_part_props && off < len; i++) {
		cl_device_partition_property q = d->part_props[i];
		const char *name = q == CL_DEVICE_PARTITION_EQUALLY ? "equally:N"
				   : q == CL_DEVICE_PARTITION_BY_COUNTS ? "counts:A,B,..."
				   : q == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN ? "by affinity domain"
				   : q == PART_BY_NAMES_INTEL ? "by names (Intel; not offered by --sub-devices)"
				   : "an unknown partition";
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", name);
	}
	if (!off)
		snprintf(buf, len, "no partitioning (CL_DEVICE_PARTITION_PROPERTIES is empty)");
	else if (dev_part_offers(d, CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN)) {
		off += (size_t)snprintf(buf + off, len > off ? len - off : 0, "; affinity domains:");
		bool any = false;
		for (size_t i = 0; i < sizeof(domains) / sizeof(domains[0]) && off < len; i++)
			if (d->part_domains & domains[i].bit) {
				off += (size_t)snprintf(buf + off, len - off, "%s %s", any ? "," : "",
							domains[i].name);
				any = true;
			}
		if (!any && off < len)
			snprintf(buf + off, len - off, " none");
	}
	return buf;
}

/* Whether d offers p, and the numbers fit it; else a message for exit 2. */
static bool fits(const struct dev_info *d, const struct dev_part *p, char *err, size_t errlen)
{
	char spec[128], have[512];
	cl_device_partition_property need = p->kind == DEV_PART_NUMA ? CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN
					    : p->kind == DEV_PART_EQUALLY ? CL_DEVICE_PARTITION_EQUALLY
					    : CL_DEVICE_PARTITION_BY_COUNTS;
	unsigned long long sum = 0;

	dev_part_str(p, spec, sizeof(spec));
	dev_part_offered(d, have, sizeof(have));
	if (!dev_part_offers(d, need) || (p->kind == DEV_PART_NUMA && !(d->part_domains & CL_DEVICE_AFFINITY_DOMAIN_NUMA))) {
		snprintf(err, errlen, "%s: '%s' (%s) does not offer it; it offers %s", spec, d->name,
			 d->platform_name, have);
		return false;
	}
	for (unsigned i = 0; i < p->n_v; i++)
		sum += p->v[i];
	if (p->kind == DEV_PART_EQUALLY && p->v[0] > d->compute_units) {
		snprintf(err, errlen, "%s: '%s' has %u compute units, fewer than %u per sub-device", spec,
			 d->name, d->compute_units, p->v[0]);
		return false;
	}
	if (p->kind == DEV_PART_COUNTS && (sum > d->compute_units || (d->part_max_sub && p->n_v > d->part_max_sub))) {
		snprintf(err, errlen, "%s: '%s' has %u compute units and makes at most %u sub-devices "
			 "(CL_DEVICE_PARTITION_MAX_SUB_DEVICES); the counts add up to %llu in %u sub-devices",
			 spec, d->name, d->compute_units, d->part_max_sub, sum, p->n_v);
		return false;
	}
	return true;
}

/* The properties list clCreateSubDevices takes for p. */
static void properties(const struct dev_part *p, cl_device_partition_property *q)
{
	size_t k = 0;

	if (p->kind == DEV_PART_NUMA) {
		q[k++] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
		q[k++] = CL_DEVICE_AFFINITY_DOMAIN_NUMA;
	} else if (p->kind == DEV_PART_EQUALLY) {
		q[k++] = CL_DEVICE_PARTITION_EQUALLY;
		q[k++] = p->v[0];
	} else {
		q[k++] = CL_DEVICE_PARTITION_BY_COUNTS;
		for (unsigned i = 0; i < p->n_v; i++)
			q[k++] = p->v[i];
		q[k++] = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
	}
	q[k] = 0;
}

size_t dev_partition(const struct dev_info *d, const struct dev_part *p, struct dev_info *out,
		     size_t max, int *code, char *err, size_t errlen)
{
	cl_device_partition_property q[DEV_PART_MAX_COUNTS + 4];
	cl_device_id ids[64];
	cl_uint n = 0;
	cl_int e;
	char spec[128];

	*code = DEV_EXIT_USAGE;
	if (!fits(d, p, err, errlen))
		return 0;
	properties(p, q);
	e = clCreateSubDevices(d->id, q, 0, NULL, &n);
	if (e == CL_SUCCESS && (n == 0 || n > max || n > 64)) {
		snprintf(err, errlen, "%s: '%s' would make %u sub-devices; between 1 and %zu are run",
			 dev_part_str(p, spec, sizeof(spec)), d->name, n, max < 64 ? max : 64);
		return 0;
	}
	if (e == CL_SUCCESS)
		e = clCreateSubDevices(d->id, q, n, ids, NULL);
	if (e != CL_SUCCESS) {
		/* the numbers the device refused are the user's; a failure to partition is the driver's */
		*code = e == CL_INVALID_DEVICE_PARTITION_COUNT || e == CL_INVALID_VALUE ? DEV_EXIT_USAGE : 1;
		snprintf(err, errlen, "%sclCreateSubDevices(%s, %s): %s", *code == 1 ? "driver: " : "",
			 d->name, dev_part_str(p, spec, sizeof(spec)), cl_err_name(e));
		return 0;
	}
	for (cl_uint i = 0; i < n; i++) {
		struct dev_info *s = &out[i];
		memset(s, 0, sizeof(*s));
		s->index = d->index;
		s->platform_index = d->platform_index;
		s->device_index = d->device_index;
		s->platform = d->platform;
		memcpy(s->platform_name, d->platform_name, sizeof(s->platform_name));
		memcpy(s->platform_version, d->platform_version, sizeof(s->platform_version));
		s->id = ids[i];
		dev_query(s);
		s->parent = d;
		s->part = *p;
		s->sub_index = i;
		s->sub_count = n;
	}
	return n;
}

/*
 * PoCL 3.1's pthread device releases a finished command's event on its worker thread after
 * clFinish has returned; a sub-device released at once lets that thread read freed memory
 * (SIGSEGV in POclReleaseEvent while the next suite entry builds, about one run in eight on a
 * loaded host). Its sub-devices are left to the process's end.
 */
static bool sub_release_races(const struct dev_info *d)
{
	return strstr(d->platform_name, "Portable Computing Language") != NULL;
}

void dev_sub_free(struct dev_info *subs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (subs[i].id && subs[i].parent && !sub_release_races(&subs[i]))
			clReleaseDevice(subs[i].id);
		free(subs[i].extensions);
		subs[i].extensions = NULL;
	}
}

/* ---- Intel's device hierarchies ---- */

static const char *const hier_names[] = { "any", "FLAT", "COMPOSITE" };

/* Whether this process runs in mode want: ZE_FLAT_DEVICE_HIERARCHY (unset: FLAT, the default). */
static bool hier_offers(enum dev_hierarchy want, const char **env)
{
	*env = getenv("ZE_FLAT_DEVICE_HIERARCHY");
	if (*env && strcasecmp(*env, "COMBINED") == 0)
		return true;
	if (want == DEV_HIER_COMPOSITE)
		return *env && strcasecmp(*env, "COMPOSITE") == 0;
	return !*env || strcasecmp(*env, "FLAT") == 0;
}

bool dev_hierarchy_fits(enum dev_hierarchy want, const struct dev_info *const *devs, size_t n,
			char *why, size_t len)
{
	const struct dev_info *d = devs[0]->parent ? devs[0]->parent : devs[0];
	const char *env, *mode = hier_names[want];

	if (want == DEV_HIER_ANY)
		return true;
	if (!(d->type & CL_DEVICE_TYPE_GPU) || d->vendor_kind != DEV_VENDOR_INTEL) {
		snprintf(why, len, "the %s mode's run needs an Intel GPU with stacks (Data Center GPU "
			 "Max); '%s' (%s) is %s", mode, d->name, d->platform_name,
			 d->type & CL_DEVICE_TYPE_GPU ? "not an Intel GPU" : "not a GPU");
	} else if (!hier_offers(want, &env)) {
		snprintf(why, len, "the %s mode's run needs ZE_FLAT_DEVICE_HIERARCHY=%s%s; this process "
			 "runs with %s%s (Intel's runtime reads it once, when it starts: each mode is a "
			 "process of its own)", mode, mode, want == DEV_HIER_FLAT ? " or unset" : "",
			 env ? "ZE_FLAT_DEVICE_HIERARCHY=" : "it unset", env ? env : " (FLAT)");
	} else if (want == DEV_HIER_COMPOSITE && !(d->part_domains & CL_DEVICE_AFFINITY_DOMAIN_NUMA)) {
		snprintf(why, len, "'%s' offers no NUMA partition in COMPOSITE mode: a card of one "
			 "stack", d->name);
	} else if (n < 2) {
		snprintf(why, len, "'%s' is the only GPU of its platform in %s mode: no second stack (a "
			 "card of one stack, or ZE_AFFINITY_MASK hides the other)", d->name, mode);
	} else {
		return true;
	}
	return false;
}
