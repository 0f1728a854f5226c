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
#define DEV_MAX_PART_PROPS 8
#define DEV_PART_MAX_COUNTS 16

/*
 * A partition of a device into sub-devices (clCreateSubDevices), as --sub-devices names it:
 * numa (CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA: on Intel's
 * GPU runtime in COMPOSITE mode, the stacks), equally:N (compute units per sub-device),
 * counts:A,B,... (compute units of each sub-device).
 */
enum dev_part_kind { DEV_PART_NONE, DEV_PART_NUMA, DEV_PART_EQUALLY, DEV_PART_COUNTS };
struct dev_part {
	enum dev_part_kind kind;
	unsigned v[DEV_PART_MAX_COUNTS];   /* equally: v[0]; counts: v[0..n_v) */
	unsigned n_v;
};

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
	uint32_t c_versions;             /* every OpenCL C version offered: bit 10 major + minor */
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
	/* device fission: what clCreateSubDevices accepts (CL_DEVICE_PARTITION_PROPERTIES, 0s
	 * where none), the affinity domains, the most sub-devices */
	cl_device_partition_property part_props[DEV_MAX_PART_PROPS];
	unsigned n_part_props;
	cl_device_affinity_domain part_domains;
	uint32_t part_max_sub;
	/* a sub-device: its parent (NULL: a root device), the partition that made it, its
	 * place among the sub-devices (sub_index of sub_count) */
	const struct dev_info *parent;
	struct dev_part part;
	unsigned sub_index, sub_count;
};

/* All devices of all platforms. */
struct dev_list {
	struct dev_info *d;
	unsigned n;
	unsigned n_platforms;
};

/*
 * Exit codes a failed selection calls for (the values of bench's EXIT_USAGE and EXIT_SKIP):
 * a spec that is malformed, names nothing or names several devices is the user's to fix; no
 * device at all is "no capable device", a skip.
 */
enum { DEV_EXIT_USAGE = 2, DEV_EXIT_NO_DEVICE = 77 };

/*
 * Queries every platform and device. False (message in err) only when there is no device at
 * all: no platform (l->n_platforms == 0) or platforms without devices; either way l->n == 0
 * and the exit code is DEV_EXIT_NO_DEVICE.
 */
bool dev_list_query(struct dev_list *l, char *err, size_t errlen);
/*
 * Why a registered driver gave no platform, where the reason is known (dev_lost.c: PoCL and its
 * cache folder under a read-only HOME), as a sentence to add to a message ("" where none).
 */
void dev_lost_hint(const struct dev_list *l, char *buf, size_t len);
void dev_list_free(struct dev_list *l);

/* What device matching reads of one device; dev_match needs nothing else (and no OpenCL). */
struct dev_name {
	const char *name, *platform, *platform_version, *type;
	unsigned platform_index, device_index;
};

/*
 * The device spec names, among devs[0..n) (the position is the global index). In order:
 *   "N"          global index, in 0..n-1;
 *   "P:D"        platform index : device index within it;
 *   otherwise    a device's full name, case-insensitive; failing that a platform's full name;
 *                failing that a case-insensitive substring of the device name, platform name or
 *                platform version; failing that a device type ("gpu", "cpu": the one device of
 *                that type). The first of these that matches anything decides, so an exact
 *                name always beats a substring of another device's name.
 * Returns the index, or -1 with *code DEV_EXIT_USAGE and a message naming spec in err when
 * spec is "" or malformed, names no device (the devices are listed), or names more than one
 * (each match listed with its index and platform:device); *code DEV_EXIT_NO_DEVICE when n is 0.
 * spec must not be NULL (the default device is dev_choose's business).
 */
int dev_match(const struct dev_name *devs, size_t n, const char *spec, int *code, char *err,
	      size_t errlen);

/*
 * Picks a device by spec (dev_match's rules) or, for a NULL spec, the default: the first GPU,
 * else the CPU device with the most sub-group features. Returns NULL with a message in err and
 * *code DEV_EXIT_USAGE (bad spec: "", malformed, no match, ambiguous) or DEV_EXIT_NO_DEVICE
 * (the list is empty).
 */
const struct dev_info *dev_choose(const struct dev_list *l, const char *spec, int *code,
				  char *err, size_t errlen);

/*
 * The devices a set spec names, among devs[0..n): "all" every device, "gpu" or "cpu" every
 * device of that type (case-insensitive), or a comma-separated list of single specs
 * (dev_match's rules, each naming one device, none twice). Fills out[] with the indices in
 * the order named (type sets in list order) and returns how many, or -1 with *code and a
 * message: DEV_EXIT_USAGE for an item that names none, several or the same device twice,
 * or more than max devices; DEV_EXIT_NO_DEVICE where the list is empty or "gpu"/"cpu"
 * finds no such device (the devices listed).
 */
int dev_match_set(const struct dev_name *devs, size_t n, const char *spec, unsigned *out,
		  size_t max, int *code, char *err, size_t errlen);
/* Whether spec names a set of devices (all, gpu, cpu, or a list) rather than one. */
bool dev_spec_is_set(const char *spec);

/* ---- device fission (host/dev_part.c) ---- */

/*
 * Parses a --sub-devices value: "numa", "equally:N" (N >= 1), "counts:A,B,..." (each >= 1,
 * at most DEV_PART_MAX_COUNTS). False with a message naming the value and the allowed forms.
 */
bool dev_part_parse(const char *s, struct dev_part *p, char *err, size_t errlen);
/* Whether d offers partition property prop (CL_DEVICE_PARTITION_PROPERTIES). */
bool dev_part_offers(const struct dev_info *d, cl_device_partition_property prop);
/* "numa", "equally:2", "counts:1,1" into buf. */
const char *dev_part_str(const struct dev_part *p, char *buf, size_t len);
/*
 * What the device offers, in words ("equally, by counts; affinity domains: numa"), into buf
 * ("no partitioning" where CL_DEVICE_PARTITION_PROPERTIES is empty).
 */
const char *dev_part_offered(const struct dev_info *d, char *buf, size_t len);
/*
 * Partitions d by p (clCreateSubDevices) into out[0..max), each queried like a root device
 * with parent, part, sub_index and sub_count set. Returns how many, or 0 with *code and a
 * message: DEV_EXIT_USAGE where the device does not offer the partition (naming what it
 * does offer) or the numbers do not fit its compute units or CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
 * 1 where the driver fails (the error's name). Release with dev_sub_free.
 */
size_t dev_partition(const struct dev_info *d, const struct dev_part *p, struct dev_info *out,
		     size_t max, int *code, char *err, size_t errlen);
void dev_sub_free(struct dev_info *subs, size_t n);

/*
 * The two device hierarchies of Intel's GPU runtime for a GPU of several stacks (one mode
 * per process, read from ZE_FLAT_DEVICE_HIERARCHY when the runtime starts): FLAT, each
 * stack a root device (the default); COMPOSITE, one root device per card, its stacks NUMA
 * sub-devices. COMBINED offers both.
 */
enum dev_hierarchy { DEV_HIER_ANY, DEV_HIER_FLAT, DEV_HIER_COMPOSITE };
/*
 * Whether a run in mode `want` has what it needs: devs[0..n) the devices it measures
 * across (a COMPOSITE run: sub-devices of one card), an Intel GPU with stacks, in that mode
 * in this process. False with why (the device, the mode found and how to get the other).
 */
bool dev_hierarchy_fits(enum dev_hierarchy want, const struct dev_info *const *devs, size_t n,
			char *why, size_t len);
/* Fills every query of a device whose platform, id and indices are set (dev_list_query's). */
void dev_query(struct dev_info *di);

bool dev_has_ext(const struct dev_info *d, const char *ext);
/*
 * True when the device offers OpenCL C version v (12: 1.2, 20, 30): listed in
 * CL_DEVICE_OPENCL_C_ALL_VERSIONS (OpenCL 3.0), else at most CL_DEVICE_OPENCL_C_VERSION.
 */
bool dev_offers_c(const struct dev_info *d, unsigned v);
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
