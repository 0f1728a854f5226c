/* Device discovery, selection and the device report. */
#include "dev.h"

#include "range.h"

#include <CL/cl_ext.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Vendor attribute queries (cl_intel_device_attribute_query, cl_nv_device_attribute_query). */
#ifndef CL_DEVICE_IP_VERSION_INTEL
#define CL_DEVICE_IP_VERSION_INTEL 0x4250
#define CL_DEVICE_ID_INTEL 0x4251
#define CL_DEVICE_NUM_SLICES_INTEL 0x4252
#define CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL 0x4253
#define CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL 0x4254
#define CL_DEVICE_NUM_THREADS_PER_EU_INTEL 0x4255
#endif
#ifndef CL_DEVICE_WARP_SIZE_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CL_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif

static void get_str(cl_device_id d, cl_device_info p, char *buf, size_t len)
{
	buf[0] = '\0';
	if (clGetDeviceInfo(d, p, len, buf, NULL) != CL_SUCCESS)
		buf[0] = '\0';
	buf[len - 1] = '\0';
	for (size_t n = strlen(buf); n > 0 && isspace((unsigned char)buf[n - 1]); n--)
		buf[n - 1] = '\0';
}

/* Reads a scalar property of any size; leaves *v zeroed when the query fails. */
static bool get_val(cl_device_id d, cl_device_info p, void *v, size_t size)
{
	memset(v, 0, size);
	return clGetDeviceInfo(d, p, size, v, NULL) == CL_SUCCESS;
}

static char *get_heap_str(cl_device_id d, cl_device_info p)
{
	size_t len = 0;
	char *s;

	if (clGetDeviceInfo(d, p, 0, NULL, &len) != CL_SUCCESS)
		len = 0;
	s = calloc(len + 1, 1);
	if (s && len && clGetDeviceInfo(d, p, len, s, NULL) != CL_SUCCESS)
		s[0] = '\0';
	return s;
}

static void parse_version(const char *s, const char *prefix, unsigned *maj, unsigned *min)
{
	*maj = *min = 0;
	if (strncmp(s, prefix, strlen(prefix)) == 0)
		sscanf(s + strlen(prefix), "%u.%u", maj, min);
}

static void query_subgroups(struct dev_info *di)
{
	size_t sizes[DEV_MAX_SG_SIZES], len = 0;

	di->has_intel_subgroups = dev_has_ext(di, "cl_intel_subgroups");
	di->has_intel_reqd_sg = dev_has_ext(di, "cl_intel_required_subgroup_size");
	di->has_khr_subgroups = dev_has_ext(di, "cl_khr_subgroups");
	di->has_khr_sg_shuffle = dev_has_ext(di, "cl_khr_subgroup_shuffle");
	if (di->api_major > 2 || (di->api_major == 2 && di->api_minor >= 1))
		get_val(di->id, CL_DEVICE_MAX_NUM_SUB_GROUPS, &di->max_sub_groups,
			sizeof(di->max_sub_groups));
	if (di->has_intel_reqd_sg &&
	    clGetDeviceInfo(di->id, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof(sizes), sizes, &len) ==
		    CL_SUCCESS) {
		di->n_sg_sizes = (unsigned)(len / sizeof(size_t));
		memcpy(di->sg_sizes, sizes, len);
	}
	if (di->api_major >= 3) {
		cl_name_version feats[128];
		size_t fl = 0;
		if (clGetDeviceInfo(di->id, CL_DEVICE_OPENCL_C_FEATURES, sizeof(feats), feats, &fl) ==
		    CL_SUCCESS)
			for (size_t i = 0; i < fl / sizeof(feats[0]); i++)
				if (strcmp(feats[i].name, "__opencl_c_subgroups") == 0)
					di->has_c30_subgroups = true;
	}
}

static void query_c_version(struct dev_info *di)
{
	parse_version(di->c_version, "OpenCL C ", &di->c_major, &di->c_minor);
	if (di->c_major)   /* before OpenCL 3.0 every version up to the highest is offered */
		for (unsigned v = 10; v <= di->c_major * 10 + di->c_minor && v < 32; v++)
			di->c_versions |= 1u << v;
	if (di->api_major >= 3) {
		cl_name_version v[16];
		size_t len = 0;
		if (clGetDeviceInfo(di->id, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof(v), v, &len) ==
		    CL_SUCCESS)
			for (size_t i = 0; i < len / sizeof(v[0]); i++) {
				unsigned ma = CL_VERSION_MAJOR(v[i].version);
				unsigned mi = CL_VERSION_MINOR(v[i].version);
				if (ma * 10 + mi < 32)
					di->c_versions |= 1u << (ma * 10 + mi);
				if (ma > di->c_major || (ma == di->c_major && mi > di->c_minor)) {
					di->c_major = ma;
					di->c_minor = mi;
				}
			}
	}
}

static void query_vendor(struct dev_info *di)
{
	cl_uint vid = 0;

	get_val(di->id, CL_DEVICE_VENDOR_ID, &vid, sizeof(vid));
	if (vid == 0x8086 || strstr(di->vendor, "Intel"))
		di->vendor_kind = DEV_VENDOR_INTEL;
	else if (vid == 0x10de || strstr(di->vendor, "NVIDIA"))
		di->vendor_kind = DEV_VENDOR_NVIDIA;
	else if (vid == 0x1002 || strstr(di->vendor, "Advanced Micro Devices"))
		di->vendor_kind = DEV_VENDOR_AMD;
	if (dev_has_ext(di, "cl_intel_device_attribute_query")) {
		get_val(di->id, CL_DEVICE_NUM_SLICES_INTEL, &di->intel_slices, 4);
		get_val(di->id, CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL,
			&di->intel_subslices_per_slice, 4);
		get_val(di->id, CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL, &di->intel_eus_per_subslice, 4);
		get_val(di->id, CL_DEVICE_NUM_THREADS_PER_EU_INTEL, &di->intel_threads_per_eu, 4);
		get_val(di->id, CL_DEVICE_IP_VERSION_INTEL, &di->intel_ip_version, 4);
		get_val(di->id, CL_DEVICE_ID_INTEL, &di->intel_device_id, 4);
	}
	if (dev_has_ext(di, "cl_nv_device_attribute_query")) {
		get_val(di->id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, &di->nv_cc_major, 4);
		get_val(di->id, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, &di->nv_cc_minor, 4);
		get_val(di->id, CL_DEVICE_WARP_SIZE_NV, &di->nv_warp_size, 4);
		get_val(di->id, CL_DEVICE_REGISTERS_PER_BLOCK_NV, &di->nv_regs_per_block, 4);
	}
}

/* Device fission: the partitions offered (CL_DEVICE_PARTITION_PROPERTIES, 0-terminated). */
static void query_partition(struct dev_info *di)
{
	size_t len = 0;

	if (clGetDeviceInfo(di->id, CL_DEVICE_PARTITION_PROPERTIES, sizeof(di->part_props),
			    di->part_props, &len) != CL_SUCCESS)
		len = 0;
	di->n_part_props = 0;
	for (size_t i = 0; i < len / sizeof(di->part_props[0]) && di->part_props[i]; i++)
		di->n_part_props++;
	get_val(di->id, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, &di->part_domains,
		sizeof(di->part_domains));
	get_val(di->id, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, &di->part_max_sub, 4);
}

void dev_query(struct dev_info *di)
{
	cl_command_queue_properties qp = 0;

	get_str(di->id, CL_DEVICE_NAME, di->name, sizeof(di->name));
	get_str(di->id, CL_DEVICE_VENDOR, di->vendor, sizeof(di->vendor));
	get_str(di->id, CL_DRIVER_VERSION, di->driver, sizeof(di->driver));
	get_str(di->id, CL_DEVICE_VERSION, di->version, sizeof(di->version));
	get_str(di->id, CL_DEVICE_OPENCL_C_VERSION, di->c_version, sizeof(di->c_version));
	di->extensions = get_heap_str(di->id, CL_DEVICE_EXTENSIONS);
	parse_version(di->version, "OpenCL ", &di->api_major, &di->api_minor);
	get_val(di->id, CL_DEVICE_TYPE, &di->type, sizeof(di->type));
	get_val(di->id, CL_DEVICE_MAX_COMPUTE_UNITS, &di->compute_units, 4);
	get_val(di->id, CL_DEVICE_MAX_CLOCK_FREQUENCY, &di->clock_mhz, 4);
	get_val(di->id, CL_DEVICE_MAX_WORK_GROUP_SIZE, &di->max_wg, sizeof(size_t));
	get_val(di->id, CL_DEVICE_MAX_WORK_ITEM_SIZES, di->max_item_sizes,
		sizeof(di->max_item_sizes));
	get_val(di->id, CL_DEVICE_LOCAL_MEM_SIZE, &di->local_mem, 8);
	get_val(di->id, CL_DEVICE_GLOBAL_MEM_SIZE, &di->global_mem, 8);
	get_val(di->id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, &di->max_alloc, 8);
	get_val(di->id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, &di->global_cache, 8);
	cl_uint line = 0;
	get_val(di->id, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, &line, 4);
	di->global_cacheline = line;
	get_val(di->id, CL_DEVICE_PROFILING_TIMER_RESOLUTION, &di->timer_resolution_ns,
		sizeof(size_t));
	get_val(di->id, CL_DEVICE_QUEUE_PROPERTIES, &qp, sizeof(qp));
	di->profiling = (qp & CL_QUEUE_PROFILING_ENABLE) != 0;
	query_c_version(di);
	query_subgroups(di);
	di->atomic_caps_known = di->api_major >= 3 &&
				get_val(di->id, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
					&di->atomic_mem_caps, sizeof(di->atomic_mem_caps));
	query_vendor(di);
	query_partition(di);
}

static void get_platform_str(cl_platform_id p, cl_platform_info what, char *buf, size_t len)
{
	if (clGetPlatformInfo(p, what, len, buf, NULL) != CL_SUCCESS)
		buf[0] = '\0';
	buf[len - 1] = '\0';
}

/*
 * Why no platform was found: where OCL_ICD_VENDORS or OCL_ICD_FILENAMES is set, the ICD loader
 * reads only what it names (ocl-icd), which is the likelier cause than a missing driver.
 */
static void no_platform(cl_int e, char *err, size_t errlen)
{
	const char *vendors = getenv("OCL_ICD_VENDORS"), *files = getenv("OCL_ICD_FILENAMES");
	const char *why = e == CL_SUCCESS ? "0 platforms" : cl_err_name(e);

	if (vendors || files)
		snprintf(err, errlen, "no OpenCL platform found (%s) with %s=%s set: the ICD loader "
			 "reads only the drivers it names (OCL_ICD_VENDORS: a folder of .icd files or "
			 "one .icd file; OCL_ICD_FILENAMES: driver libraries, ':'-separated); check "
			 "that they exist and load, or unset it for the system's /etc/OpenCL/vendors",
			 why, vendors ? "OCL_ICD_VENDORS" : "OCL_ICD_FILENAMES", vendors ? vendors : files);
	else
		snprintf(err, errlen, "no OpenCL platform found (%s). Install one: on Debian, `apt-get "
			 "install pocl-opencl-icd` (CPU) or your GPU vendor's OpenCL driver; "
			 "`scripts/setup.sh` installs both CPU platforms this project tests on", why);
}

bool dev_list_query(struct dev_list *l, char *err, size_t errlen)
{
	cl_platform_id plats[32];
	cl_uint np = 0;
	cl_int e = clGetPlatformIDs(32, plats, &np);

	memset(l, 0, sizeof(*l));
	if (e != CL_SUCCESS || np == 0) {
		no_platform(e, err, errlen);
		return false;
	}
	l->n_platforms = np;
	for (cl_uint p = 0; p < np; p++) {
		cl_device_id ids[64];
		cl_uint nd = 0;
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, ids, &nd) != CL_SUCCESS)
			continue;
		struct dev_info *nl = realloc(l->d, (l->n + nd) * sizeof(*nl));
		if (!nl)
			break;
		l->d = nl;
		for (cl_uint d = 0; d < nd; d++) {
			struct dev_info *di = &l->d[l->n];
			memset(di, 0, sizeof(*di));
			di->index = l->n++;
			di->platform_index = p;
			di->device_index = d;
			di->platform = plats[p];
			di->id = ids[d];
			get_platform_str(plats[p], CL_PLATFORM_NAME, di->platform_name,
					 sizeof(di->platform_name));
			get_platform_str(plats[p], CL_PLATFORM_VERSION, di->platform_version,
					 sizeof(di->platform_version));
			dev_query(di);
		}
	}
	if (l->n == 0) {
		snprintf(err, errlen, "%u OpenCL platform(s) found but no device", np);
		return false;
	}
	return true;
}

void dev_list_free(struct dev_list *l)
{
	for (unsigned i = 0; i < l->n; i++)
		free(l->d[i].extensions);
	free(l->d);
	memset(l, 0, sizeof(*l));
}

bool dev_has_ext(const struct dev_info *d, const char *ext)
{
	size_t n = strlen(ext);

	for (const char *p = d->extensions; p && (p = strstr(p, ext)); p += n)
		if ((p == d->extensions || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

bool dev_offers_c(const struct dev_info *d, unsigned v)
{
	if (v >= 32)
		return false;
	if (d->c_versions)
		return (d->c_versions >> v & 1u) != 0;
	return v <= d->c_major * 10 + d->c_minor;
}

bool dev_can_require_sg(const struct dev_info *d, unsigned sz)
{
	if (!d->has_intel_reqd_sg)
		return false;
	for (unsigned i = 0; i < d->n_sg_sizes; i++)
		if (d->sg_sizes[i] == sz)
			return true;
	return false;
}

bool dev_has_subgroups(const struct dev_info *d)
{
	return d->has_intel_subgroups || d->has_khr_subgroups || d->has_c30_subgroups;
}

const char *dev_sg_sizes_str(const struct dev_info *d, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < d->n_sg_sizes && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%zu", i ? ", " : "", d->sg_sizes[i]);
	if (d->n_sg_sizes == 0)
		snprintf(buf, len, "none");
	return buf;
}

const char *dev_type_str(cl_device_type t)
{
	if (t & CL_DEVICE_TYPE_GPU)
		return "GPU";
	if (t & CL_DEVICE_TYPE_CPU)
		return "CPU";
	if (t & CL_DEVICE_TYPE_ACCELERATOR)
		return "accelerator";
	return "other";
}

/* Sub-group features, for the default choice among CPU platforms. */
static int sg_score(const struct dev_info *d)
{
	return 4 * d->has_intel_reqd_sg + 2 * d->has_intel_subgroups +
	       (d->has_khr_subgroups || d->has_c30_subgroups);
}

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

/* How dev_match reads a spec that is not an index, strongest first. */
enum match_tier { TIER_NAME, TIER_PLATFORM, TIER_SUBSTRING, TIER_TYPE, N_TIERS, TIER_ANY = N_TIERS };

static bool tier_matches(const struct dev_name *d, enum match_tier t, const char *spec)
{
	switch (t) {
	case TIER_NAME: return strcasecmp(d->name, spec) == 0;
	case TIER_PLATFORM: return strcasecmp(d->platform, spec) == 0;
	case TIER_SUBSTRING:
		return contains_ci(d->name, spec) || contains_ci(d->platform, spec) ||
		       contains_ci(d->platform_version, spec);
	case TIER_TYPE: return d->type && strcasecmp(d->type, spec) == 0;
	default: return true;
	}
}

/* Appends "\n  I (P:D) NAME [PLATFORM, TYPE]" to buf for each device the tier matches. */
static void list_names(const struct dev_name *d, size_t n, enum match_tier t, const char *spec,
		       char *buf, size_t len)
{
	size_t off = strlen(buf);

	for (size_t i = 0; i < n && off < len; i++)
		if (tier_matches(&d[i], t, spec))
			off += (size_t)snprintf(buf + off, len - off, "\n  %zu (%u:%u) %s [%s, %s]", i,
						d[i].platform_index, d[i].device_index, d[i].name,
						d[i].platform, d[i].type);
}

static bool all_digits(const char *s, size_t len)
{
	return len > 0 && strspn(s, "0123456789") >= len;
}

/* The value of len digits; false when it does not fit in an unsigned. */
static bool digits_value(const char *s, size_t len, unsigned *v)
{
	*v = 0;
	for (size_t i = 0; i < len; i++) {
		if (*v > (UINT_MAX - (unsigned)(s[i] - '0')) / 10)
			return false;
		*v = *v * 10 + (unsigned)(s[i] - '0');
	}
	return true;
}

/* "N" or "P:D": the index (>= 0), -1 with a message, or -2 when spec is neither form. */
static int match_index(const struct dev_name *d, size_t n, const char *spec, char *err,
		       size_t errlen)
{
	const char *colon = strchr(spec, ':');
	uint64_t idx;
	unsigned a, b;

	if (all_digits(spec, strlen(spec)))
		return parse_u64(spec, 0, n - 1, &idx, err, errlen) ? (int)idx : -1;
	if (!colon || !all_digits(spec, (size_t)(colon - spec)) ||
	    !all_digits(colon + 1, strlen(colon + 1)))
		return -2;
	if (digits_value(spec, (size_t)(colon - spec), &a) &&
	    digits_value(colon + 1, strlen(colon + 1), &b))
		for (size_t i = 0; i < n; i++)
			if (d[i].platform_index == a && d[i].device_index == b)
				return (int)i;
	snprintf(err, errlen, "'%s' names no device: no device %s on platform %.*s", spec,
		 colon + 1, (int)(colon - spec), spec);
	return -1;
}

/*
 * 'all', 'gpu' and 'cpu' where one device is asked for (bench info, model, an item of a list):
 * where they are taken instead. true with err written when spec is one of them.
 */
static bool keyword_misplaced(const char *spec, const char *found, char *err, size_t errlen)
{
	if (strcasecmp(spec, "all") != 0 && strcasecmp(spec, "gpu") != 0 && strcasecmp(spec, "cpu") != 0)
		return false;
	snprintf(err, errlen, "'%s' names a set of devices, which a benchmark, bench suite and bench "
		 "validate take, and only as the whole --device value (not an item of a list); here give "
		 "one device: an index, platform:device or a name%s", spec, found);
	return true;
}

/*
 * The devices spec names in the first tier (name, then the looser ones) where any does: how
 * many, *idx the last of them, *tier that tier; 0 where no tier matches.
 */
static size_t first_tier_hits(const struct dev_name *devs, size_t n, const char *spec, int *idx,
			      enum match_tier *tier)
{
	for (enum match_tier t = TIER_NAME; t < N_TIERS; t++) {
		size_t hits = 0;
		for (size_t i = 0; i < n; i++)
			if (tier_matches(&devs[i], t, spec)) {
				hits++;
				*idx = (int)i;
			}
		*tier = t;
		if (hits)
			return hits;
	}
	return 0;
}

int dev_match(const struct dev_name *devs, size_t n, const char *spec, int *code, char *err,
	      size_t errlen)
{
	static const char found[] = "; the devices found are (index, platform:device):";
	enum match_tier t;
	int idx = -2;

	*code = DEV_EXIT_USAGE;
	if (n == 0) {
		*code = DEV_EXIT_NO_DEVICE;
		snprintf(err, errlen, "no OpenCL device found");
		return -1;
	}
	if (!*spec) {
		snprintf(err, errlen, "'' names no device: give an index, platform:device, a device "
			 "or platform name, or part of one%s", found);
	} else if ((idx = match_index(devs, n, spec, err, errlen)) == -1) {
		strncat(err, found, errlen - strlen(err) - 1);
	} else if (idx == -2 && keyword_misplaced(spec, found, err, errlen)) {
		/* a single device that the keyword names as a name ('cpu' with one CPU) is taken */
		if (first_tier_hits(devs, n, spec, &idx, &t) == 1)
			return idx;
	} else if (idx == -2) {
		size_t hits = first_tier_hits(devs, n, spec, &idx, &t);
		if (hits == 1)
			return idx;
		if (hits > 1) {
			snprintf(err, errlen, "'%s' matches %zu devices; give one's index%s:", spec, hits,
				 t == TIER_SUBSTRING ? ", platform:device or full name" : " or platform:device");
			list_names(devs, n, t, spec, err, errlen);
			return -1;
		}
		snprintf(err, errlen, "'%s' names no device%s", spec, found);
	} else {
		return idx;
	}
	list_names(devs, n, TIER_ANY, spec, err, errlen);
	return -1;
}

bool dev_spec_is_set(const char *spec)
{
	return spec && (strcasecmp(spec, "all") == 0 || strcasecmp(spec, "gpu") == 0 ||
			strcasecmp(spec, "cpu") == 0 || strchr(spec, ','));
}

/* Appends index i to out (refusing a device named twice or more than max). */
static bool set_add(const struct dev_name *devs, unsigned *out, size_t *k, size_t max, unsigned i,
		    const char *item, int *code, char *err, size_t errlen)
{
	*code = DEV_EXIT_USAGE;
	for (size_t j = 0; j < *k; j++)
		if (out[j] == i) {
			snprintf(err, errlen, "'%s' names device %u (%u:%u) %s a second time", item, i,
				 devs[i].platform_index, devs[i].device_index, devs[i].name);
			return false;
		}
	if (*k >= max) {
		snprintf(err, errlen, "more than %zu devices: name at most %zu", max, max);
		return false;
	}
	out[(*k)++] = i;
	return true;
}

int dev_match_set(const struct dev_name *devs, size_t n, const char *spec, unsigned *out,
		  size_t max, int *code, char *err, size_t errlen)
{
	bool all = strcasecmp(spec, "all") == 0, gpu = strcasecmp(spec, "gpu") == 0;
	char item[256];
	size_t k = 0;

	if (n == 0)
		return dev_match(devs, n, spec, code, err, errlen);
	if (all || gpu || strcasecmp(spec, "cpu") == 0) {
		for (size_t i = 0; i < n; i++)
			if ((all || strcmp(devs[i].type, gpu ? "GPU" : "CPU") == 0) &&
			    !set_add(devs, out, &k, max, (unsigned)i, spec, code, err, errlen))
				return -1;
		if (k)
			return (int)k;
		*code = DEV_EXIT_NO_DEVICE;
		snprintf(err, errlen, "'%s': no %s among the devices found (index, platform:device):",
			 spec, gpu ? "GPU" : "CPU");
		list_names(devs, n, TIER_ANY, spec, err, errlen);
		return -1;
	}
	for (const char *p = spec;; p++) {
		size_t len = strcspn(p, ",");
		int i;
		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		if (!*item) {
			*code = DEV_EXIT_USAGE;
			snprintf(err, errlen, "'%s' has an empty item: give comma-separated indices, "
				 "platform:device or names", spec);
			return -1;
		}
		if ((i = dev_match(devs, n, item, code, err, errlen)) < 0 ||
		    !set_add(devs, out, &k, max, (unsigned)i, item, code, err, errlen))
			return -1;
		p += len;
		if (!*p)
			break;
	}
	return (int)k;
}

/* The first GPU, else the device with the most sub-group features. */
static const struct dev_info *dev_default(const struct dev_list *l)
{
	const struct dev_info *best = &l->d[0];

	for (unsigned i = 0; i < l->n; i++)
		if (l->d[i].type & CL_DEVICE_TYPE_GPU)
			return &l->d[i];
	for (unsigned i = 1; i < l->n; i++)
		if (sg_score(&l->d[i]) > sg_score(best))
			best = &l->d[i];
	return best;
}

const struct dev_info *dev_choose(const struct dev_list *l, const char *spec, int *code,
				  char *err, size_t errlen)
{
	struct dev_name *names;
	int i;

	if (!spec && l->n > 0)
		return dev_default(l);
	if (!spec)
		spec = "";   /* dev_match reports the empty list */
	names = malloc((l->n ? l->n : 1) * sizeof(*names));
	if (!names) {
		*code = 1;
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (unsigned k = 0; k < l->n; k++)
		names[k] = (struct dev_name){ l->d[k].name, l->d[k].platform_name,
					      l->d[k].platform_version, dev_type_str(l->d[k].type),
					      l->d[k].platform_index, l->d[k].device_index };
	i = dev_match(names, l->n, spec, code, err, errlen);
	free(names);
	return i < 0 ? NULL : &l->d[i];
}
