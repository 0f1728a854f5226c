/* Intel GPU architectures and the offline compiler's targets (igpu.h). */
#include "igpu.h"

#include <stdlib.h>
#include <string.h>

const char *igpu_arch_name(enum igpu_arch a)
{
	static const char *const names[] = { "not an Intel GPU", "another Intel GPU", "Xe-LP",
					      "Xe-HPG", "Xe-HPC" };
	return (unsigned)a < sizeof(names) / sizeof(names[0]) ? names[a] : "?";
}

enum igpu_arch igpu_arch_of_family(const char *family)
{
	for (enum igpu_arch a = IGPU_XE_LP; a <= IGPU_XE_HPC; a++)
		if (strcmp(family, igpu_arch_name(a)) == 0)
			return a;
	return IGPU_NONE;
}

/* CL_DEVICE_IP_VERSION_INTEL: architecture in bits 31:22, release in 21:14 (as occ_live.c). */
static enum igpu_arch from_ip(uint32_t ip)
{
	unsigned arch = ip >> 22, release = (ip >> 14) & 0xff;

	if (arch != 12)
		return IGPU_OTHER;
	if (release < 50)
		return IGPU_XE_LP;
	if (release >= 55 && release < 60)
		return IGPU_XE_HPG;
	if (release >= 60 && release < 70)
		return IGPU_XE_HPC;
	return IGPU_OTHER;   /* Xe-HP (12.50), Xe-LPG (12.70+) */
}

/* Without an IP version: the PCI device id's families (compute-runtime's device id tables). */
static enum igpu_arch from_device_id(uint32_t id)
{
	unsigned hi = id >> 8;

	if (hi == 0x9a || hi == 0x46 || hi == 0xa7 || (id >= 0x4905 && id <= 0x4909))
		return IGPU_XE_LP;   /* Tiger Lake, Alder/Raptor Lake, DG1 */
	if (hi == 0x56)
		return IGPU_XE_HPG;  /* DG2: Arc A-series, Flex */
	if ((id & 0xfff0) == 0x0bd0)
		return IGPU_XE_HPC;  /* Ponte Vecchio: Max 1100, 1550 */
	return IGPU_OTHER;
}

enum igpu_arch igpu_arch(const struct dev_info *d)
{
	if (d->vendor_kind != DEV_VENDOR_INTEL || !(d->type & CL_DEVICE_TYPE_GPU))
		return IGPU_NONE;
	if (d->intel_ip_version)
		return from_ip(d->intel_ip_version);
	return d->intel_device_id ? from_device_id(d->intel_device_id) : IGPU_OTHER;
}

/*
 * What compute-runtime reports for each device (clinfo of the product; the sizes are those of
 * the GPU Optimization Guide's tables and of the model's products, host/model/occ_data.c).
 */
static const struct igpu_target targets[] = {
	{ "tgllp", IGPU_XE_LP, "Intel(R) Iris(R) Xe Graphics (offline: ocloc tgllp)", "TGL-96",
	  12u << 22, 0x9a49, { 8, 16, 32 }, 512, 64, 96, 7, 16, 1, 6 },
	{ "acm-g10", IGPU_XE_HPG, "Intel(R) Arc(TM) A770 Graphics (offline: ocloc acm-g10)", "A770",
	  12u << 22 | 55u << 14 | 8, 0x56a0, { 8, 16, 32 }, 1024, 64, 512, 8, 16, 8, 4 },
	{ "pvc", IGPU_XE_HPC, "Intel(R) Data Center GPU Max 1550 (offline: ocloc pvc)", "Max-1550",
	  12u << 22 | 60u << 14 | 7, 0x0bd5, { 16, 32 }, 1024, 128, 1024, 8, 8, 2, 64 },
};
#define N_TARGETS (sizeof(targets) / sizeof(targets[0]))

size_t igpu_target_count(void)
{
	return N_TARGETS;
}

const struct igpu_target *igpu_target_at(size_t i)
{
	return i < N_TARGETS ? &targets[i] : NULL;
}

const char *igpu_target_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_TARGETS && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", targets[i].name);
	return buf;
}

const struct igpu_target *igpu_target_for_arch(enum igpu_arch a)
{
	for (size_t i = 0; i < N_TARGETS; i++)
		if (targets[i].arch == a)
			return &targets[i];
	return NULL;
}

/* The extensions the suite reads, as compute-runtime lists them for these devices. */
#define TARGET_EXTENSIONS                                                                          \
	"cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "                          \
	"cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics "                    \
	"cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics "                           \
	"cl_khr_int64_extended_atomics cl_intel_subgroups cl_intel_required_subgroup_size "        \
	"cl_intel_subgroups_short cl_intel_subgroups_char cl_intel_subgroups_long "                \
	"cl_khr_subgroup_shuffle cl_khr_subgroup_shuffle_relative cl_khr_il_program "              \
	"cl_intel_device_attribute_query cl_intel_unified_shared_memory"

void igpu_target_dev(const struct igpu_target *t, const char *driver, struct dev_info *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", t->device);
	snprintf(d->vendor, sizeof(d->vendor), "Intel(R) Corporation");
	snprintf(d->platform_name, sizeof(d->platform_name), "Intel(R) OpenCL Graphics (offline)");
	snprintf(d->platform_version, sizeof(d->platform_version), "OpenCL 3.0");
	snprintf(d->driver, sizeof(d->driver), "%s", driver ? driver : "");
	snprintf(d->version, sizeof(d->version), "OpenCL 3.0 NEO");
	snprintf(d->c_version, sizeof(d->c_version), "OpenCL C 1.2");
	d->extensions = strdup(TARGET_EXTENSIONS);
	d->type = CL_DEVICE_TYPE_GPU;
	d->vendor_kind = DEV_VENDOR_INTEL;
	d->api_major = 3;
	d->c_major = 3;
	d->c_versions = 1u << 10 | 1u << 11 | 1u << 12 | 1u << 30;
	d->compute_units = t->eus;
	d->max_wg = t->max_wg;
	d->max_item_sizes[0] = d->max_item_sizes[1] = d->max_item_sizes[2] = t->max_wg;
	d->local_mem = (uint64_t)t->local_kib * 1024;
	d->global_mem = 16ull << 30;
	d->max_alloc = 4ull << 30;
	d->profiling = true;
	for (unsigned i = 0; i < 4 && t->sg_sizes[i]; i++)
		d->sg_sizes[d->n_sg_sizes++] = t->sg_sizes[i];
	d->max_sub_groups = t->max_wg / t->sg_sizes[0];
	d->has_intel_subgroups = d->has_intel_reqd_sg = true;
	d->has_khr_sg_shuffle = true;
	d->has_c30_subgroups = true;   /* __opencl_c_subgroups among CL_DEVICE_OPENCL_C_FEATURES */
	d->intel_slices = t->slices;
	d->intel_subslices_per_slice = t->subslices_per_slice;
	d->intel_eus_per_subslice = t->eus_per_subslice;
	d->intel_threads_per_eu = t->threads_per_eu;
	d->intel_ip_version = t->ip_version;
	d->intel_device_id = t->device_id;
}

void igpu_target_dev_free(struct dev_info *d)
{
	free(d->extensions);
	d->extensions = NULL;
}
