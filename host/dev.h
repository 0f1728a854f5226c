/* Device discovery, selection and the device report. */
#ifndef BENCH_DEV_H
#define BENCH_DEV_H

#include "clerr.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define DEV_MAX_SG_SIZES 16

enum dev_vendor { DEV_VENDOR_OTHER, DEV_VENDOR_INTEL, DEV_VENDOR_NVIDIA, DEV_VENDOR_AMD };

/* Everything the suite asks of one device, queried once. */
struct dev_info {
	unsigned index;             /* global index across platforms, as `bench list` shows */
	unsigned platform_index, device_index;
	cl_platform_id platform;
	cl_device_id id;
	char platform_name[128], platform_version[128];
	char name[256], vendor[128], driver[128], version[128], c_version[128];
	char *extensions;           /* heap, space separated */
	cl_device_type type;
	enum dev_vendor vendor_kind;
	unsigned api_major, api_minor;   /* from CL_DEVICE_VERSION */
	unsigned c_major, c_minor;       /* highest OpenCL C version offered */
	uint32_t compute_units;
	uint32_t clock_mhz;
	size_t max_wg;
	size_t max_item_sizes[3];
	uint64_t local_mem, global_mem, max_alloc;
	uint64_t global_cache, global_cacheline;
	size_t timer_resolution_ns;
	bool profiling;
	/* sub-groups */
	uint32_t max_sub_groups;              /* CL_DEVICE_MAX_NUM_SUB_GROUPS, 0 if none */
	size_t sg_sizes[DEV_MAX_SG_SIZES];    /* CL_DEVICE_SUB_GROUP_SIZES_INTEL */
	unsigned n_sg_sizes;
	bool has_intel_subgroups, has_intel_reqd_sg, has_khr_subgroups;
	bool has_khr_sg_shuffle, has_c30_subgroups;
	/* atomics */
	uint64_t atomic_mem_caps;             /* CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, 0 if not queryable */
	bool atomic_caps_known;
	/* vendor attributes, 0 where not offered */
	uint32_t intel_slices, intel_subslices_per_slice, intel_eus_per_subslice, intel_threads_per_eu;
	uint32_t intel_ip_version, intel_device_id;
	uint32_t nv_cc_major, nv_cc_minor, nv_warp_size, nv_regs_per_block;
};

/* All devices of all platforms. */
struct dev_list {
	struct dev_info *d;
	unsigned n;
	unsigned n_platforms;
};

/* Queries every platform and device. Returns false (message in err) when no platform exists. */
bool dev_list_query(struct dev_list *l, char *err, size_t errlen);
void dev_list_free(struct dev_list *l);

/*
 * Picks a device by spec: "N" (global index), "P:D" (platform:device), or a
 * case-insensitive substring of the device name, platform name or platform version. NULL spec means
 * the default: the first GPU, else the CPU device with the most sub-group
 * features. Returns NULL with a message listing the devices when none matches.
 */
const struct dev_info *dev_select(const struct dev_list *l, const char *spec, char *err,
				  size_t errlen);

bool dev_has_ext(const struct dev_info *d, const char *ext);
/* True when the device lists sz among CL_DEVICE_SUB_GROUP_SIZES_INTEL and can require it. */
bool dev_can_require_sg(const struct dev_info *d, unsigned sz);
/* True when kernels can call get_sub_group_size() and friends. */
bool dev_has_subgroups(const struct dev_info *d);
/* "8, 16, 32" into buf. */
const char *dev_sg_sizes_str(const struct dev_info *d, char *buf, size_t len);
const char *dev_type_str(cl_device_type t);

/* The device report as JSON (the object `bench info --json` prints for one device). */
json_t *dev_to_json(const struct dev_info *d);
/* The nominal clock used to turn ns into cycles: {mhz, nominal, source, note}. */
json_t *dev_clock_json(const struct dev_info *d);
/* The report as text lines on f. */
void dev_print(const struct dev_info *d, FILE *f);

#endif
