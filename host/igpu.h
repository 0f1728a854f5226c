/*
 * Intel GPUs by architecture, and the targets of Intel's offline compiler (ocloc).
 *
 * A rule keyed on the device (host/sgb.c) asks igpu_arch() of a struct dev_info: a real
 * GPU answers from CL_DEVICE_IP_VERSION_INTEL (or its device id), an offline target from
 * the dev_info igpu_target_dev() makes of it, which holds what Intel's GPU driver reports
 * for that device. The build options, the rules and the skips are then the same offline as
 * on the device.
 */
#ifndef BENCH_IGPU_H
#define BENCH_IGPU_H

#include "dev.h"

enum igpu_arch {
	IGPU_NONE = 0,   /* not an Intel GPU */
	IGPU_OTHER,      /* an Intel GPU of another architecture (Gen9, Gen11, Xe2, ...) */
	IGPU_XE_LP,      /* Tiger Lake, DG1 (IP 12.0-12.10) */
	IGPU_XE_HPG,     /* Arc A-series, Flex (IP 12.55-12.59) */
	IGPU_XE_HPC,     /* Data Center GPU Max (IP 12.60-12.69) */
};

/* "Xe-LP", "Xe-HPG", "Xe-HPC", "another Intel GPU", "not an Intel GPU". */
const char *igpu_arch_name(enum igpu_arch a);

/*
 * The architecture of d: an Intel GPU's CL_DEVICE_IP_VERSION_INTEL (architecture 12,
 * release < 50 Xe-LP, 55-59 Xe-HPG, 60-69 Xe-HPC), else its CL_DEVICE_ID_INTEL; IGPU_NONE
 * for anything not an Intel GPU.
 */
enum igpu_arch igpu_arch(const struct dev_info *d);

/* The architecture the occupancy model's family name stands for ("Xe-HPC"), IGPU_NONE if none. */
enum igpu_arch igpu_arch_of_family(const char *family);

/* One ocloc target and what Intel's GPU driver reports for the device it stands for. */
struct igpu_target {
	const char *name;            /* ocloc -device: "tgllp" */
	enum igpu_arch arch;
	const char *device;          /* the device named, as CL_DEVICE_NAME */
	const char *model;           /* the occupancy model's product of the same device */
	uint32_t ip_version;         /* CL_DEVICE_IP_VERSION_INTEL: arch << 22 | release << 14 | rev */
	uint32_t device_id;          /* CL_DEVICE_ID_INTEL */
	unsigned sg_sizes[4];        /* CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0-terminated */
	unsigned max_wg;             /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
	unsigned local_kib;          /* CL_DEVICE_LOCAL_MEM_SIZE, KiB */
	unsigned eus, threads_per_eu, eus_per_subslice, slices, subslices_per_slice;
};

size_t igpu_target_count(void);
const struct igpu_target *igpu_target_at(size_t i);
/* "tgllp, acm-g10, pvc" into buf. */
const char *igpu_target_names(char *buf, size_t len);
/* The target of an architecture (Xe-HPG: acm-g10), or NULL for none. */
const struct igpu_target *igpu_target_for_arch(enum igpu_arch a);

/*
 * The dev_info of t as Intel's GPU driver of Debian 12 (compute-runtime 22.43) reports it:
 * OpenCL 3.0, OpenCL C 1.2 and 3.0 (CL_DEVICE_OPENCL_C_ALL_VERSIONS 1.0-1.2, 3.0), the
 * sub-group extensions and sizes, limits and attributes; driver is the compiler's version.
 * No platform or device id: nothing may call OpenCL with it. Free with igpu_target_dev_free.
 */
void igpu_target_dev(const struct igpu_target *t, const char *driver, struct dev_info *d);
void igpu_target_dev_free(struct dev_info *d);

#endif
