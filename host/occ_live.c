/*
 * The occupancy model's device from a live OpenCL device: what the queries
 * tell (Intel's device-attribute query, NVIDIA's compute capability, compute
 * units, work-group and local-memory limits, sub-group sizes) replaces the
 * table; the rest comes from the family's row, and the notes say so.
 * No OpenCL calls: everything was queried once into struct dev_info.
 */
#include "occ.h"

#include "dev.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void set_live(struct occ_device *o, enum occ_param_id id, unsigned long long v, const char *src)
{
	o->p[id].value = v;
	o->p[id].source = src;
	o->p[id].disputed = NULL; /* measured on the device, no longer a choice */
	o->p[id].origin = OCC_FROM_LIVE;
}

static bool name_has(const struct dev_info *d, const char *needle)
{
	return strstr(d->name, needle) != NULL;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* Limits every live device reports for itself. */
static void apply_common(const struct dev_info *d, struct occ_device *o)
{
	o->live = true;
	snprintf(o->name, sizeof(o->name), "%.*s", (int)sizeof(o->name) - 1, d->name);
	if (d->max_wg)
		set_live(o, OCC_P_WG_MAX, d->max_wg, "live: CL_DEVICE_MAX_WORK_GROUP_SIZE");
	if (d->local_mem)
		set_live(o, OCC_P_SLM_PER_WG, d->local_mem, "live: CL_DEVICE_LOCAL_MEM_SIZE");
	if (d->n_sg_sizes) {
		o->n_sg = 0;
		for (unsigned i = 0; i < d->n_sg_sizes && o->n_sg < OCC_MAX_SG - 1; i++)
			o->sg_sizes[o->n_sg++] = (unsigned)d->sg_sizes[i];
		o->sg_sizes[o->n_sg] = 0;
		qsort(o->sg_sizes, o->n_sg, sizeof(o->sg_sizes[0]), cmp_unsigned);
	}
}

/* CL_DEVICE_IP_VERSION_INTEL: architecture in bits 31:22, release in bits 21:14. */
static const char *intel_family_from_ip(uint32_t ip, const char **note)
{
	unsigned arch = ip >> 22, release = (ip >> 14) & 0xff;
	*note = NULL;
	switch (arch) {
	case 9: return "Gen9";
	case 11: return "Gen11";
	case 20: return "Xe2";
	case 30: *note = "Xe3 is not in the table: modelled with the Xe2 row"; return "Xe2";
	case 12:
		if (release < 50)
			return "Xe-LP";
		if (release < 60)
			return "Xe-HPG";
		if (release < 70)
			return "Xe-HPC";
		*note = "Xe-LPG is not in the table: modelled with the Xe-HPG row";
		return "Xe-HPG";
	default: return NULL;
	}
}

/* Without a usable IP version: the shape of an Xe-core, then the name. */
static const char *intel_family_from_shape(const struct dev_info *d, const char **note)
{
	unsigned thr = d->intel_threads_per_eu, eus = d->intel_eus_per_subslice;
	*note = NULL;
	if (thr == 7 && eus == 8)
		return name_has(d, "Iris(R) Plus") ? "Gen11" : "Gen9";
	if (thr == 7 && eus == 16)
		return "Xe-LP";
	if (thr == 8 && eus == 16)
		return "Xe-HPG";
	if (thr == 8 && eus == 8)
		return name_has(d, "Max") ? "Xe-HPC" : "Xe2";
	/* no attribute query: the marketing name */
	*note = "family guessed from the device name (no cl_intel_device_attribute_query)";
	if (name_has(d, "Data Center GPU Max"))
		return "Xe-HPC";
	if (name_has(d, "Arc(TM) B") || name_has(d, "Arc(TM) 1"))
		return "Xe2";
	if (name_has(d, "Arc(TM) A") || name_has(d, "Flex"))
		return "Xe-HPG";
	if (name_has(d, "Iris(R) Xe"))
		return "Xe-LP";
	if (name_has(d, "Iris(R) Plus"))
		return "Gen11";
	if (name_has(d, "UHD Graphics 6") || name_has(d, "UHD Graphics P6") ||
	    name_has(d, "HD Graphics 5"))
		return "Gen9";
	*note = NULL;
	return NULL;
}

/* Xe-cores: the attribute query, checked against compute units (= EUs on Intel). */
static void intel_counts(const struct dev_info *d, struct occ_device *o)
{
	unsigned long long eus = d->intel_eus_per_subslice;
	if (eus && d->intel_threads_per_eu) {
		set_live(o, OCC_P_EU_PER_CU, eus, "live: CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL");
		set_live(o, OCC_P_THREADS_PER_EU, d->intel_threads_per_eu,
			 "live: CL_DEVICE_NUM_THREADS_PER_EU_INTEL");
	} else {
		eus = o->p[OCC_P_EU_PER_CU].value;
		occ_add_note(o,
			     "EUs per Xe-core and threads per EU from the %s row: the device does "
			     "not answer cl_intel_device_attribute_query",
			     o->family);
	}
	unsigned long long by_attr = (unsigned long long)d->intel_slices * d->intel_subslices_per_slice;
	unsigned long long by_cu = eus ? d->compute_units / eus : 0;
	if (by_cu && by_cu != by_attr) {
		set_live(o, OCC_P_CU_COUNT, by_cu,
			 "live: CL_DEVICE_MAX_COMPUTE_UNITS / EUs per Xe-core");
		if (by_attr && d->parent)
			occ_add_note(o,
				     "attributes give %llu sub-slices, compute units %llu Xe-cores: "
				     "using the compute units (a sub-device's own share)",
				     by_attr, by_cu);
		else if (by_attr)
			occ_add_note(o,
				     "attributes give %llu sub-slices, compute units %llu Xe-cores: "
				     "using the compute units (fused-off units)",
				     by_attr, by_cu);
	} else if (by_attr) {
		set_live(o, OCC_P_CU_COUNT, by_attr,
			 "live: CL_DEVICE_NUM_SLICES_INTEL x CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL");
	}
	if (!o->p[OCC_P_CU_COUNT].value)
		occ_add_note(o, "Xe-core count unknown: set --param cu_count=N");
}

static bool from_intel(const struct dev_info *d, struct occ_device *o)
{
	const char *note = NULL, *fam = intel_family_from_ip(d->intel_ip_version, &note);
	if (!fam)
		fam = intel_family_from_shape(d, &note);
	if (!fam)
		return false;
	occ_device_from_family(occ_family_find(fam), o);
	if (note)
		occ_add_note(o, "%s", note);
	intel_counts(d, o);
	occ_add_note(o, "not queryable, from the %s row: slm_per_cu, wg_per_cu, barrier_wg_per_cu",
		     o->family);
	return true;
}

static bool from_nvidia(const struct dev_info *d, struct occ_device *o, char *why, size_t len)
{
	unsigned cc = d->nv_cc_major * 10 + d->nv_cc_minor;
	const struct occ_family *f = cc ? occ_family_by_cc(cc) : NULL;
	if (!cc) {
		snprintf(why, len, "compute capability unknown (no cl_nv_device_attribute_query)");
		return false;
	}
	if (!f) {
		snprintf(why, len,
			 "compute capability %u.%u is not in the table (8.0 8.6 8.9 9.0 10.0 "
			 "12.0)",
			 d->nv_cc_major, d->nv_cc_minor);
		return false;
	}
	occ_device_from_family(f, o);
	set_live(o, OCC_P_CU_COUNT, d->compute_units, "live: CL_DEVICE_MAX_COMPUTE_UNITS (SMs)");
	if (d->nv_regs_per_block)
		set_live(o, OCC_P_REGS_PER_EU, d->nv_regs_per_block / o->p[OCC_P_EU_PER_CU].value,
			 "live: CL_DEVICE_REGISTERS_PER_BLOCK_NV / 4 sub-partitions");
	if (d->nv_warp_size && d->nv_warp_size != 32)
		occ_add_note(o, "warp size %u reported, the model assumes 32", d->nv_warp_size);
	occ_add_note(o, "registers per thread unknown unless given (--regs, or a -cl-nv-verbose "
			"build log)");
	return true;
}

/* AMD names the device by its gfx target: "gfx90a:sramecc+:xnack-". */
static bool from_amd(const struct dev_info *d, struct occ_device *o, char *why, size_t len)
{
	const char *g = strstr(d->name, "gfx");
	char target[16] = "";
	size_t n = 0;
	while (g && n + 1 < sizeof(target) && isalnum((unsigned char)g[n])) {
		target[n] = g[n];
		n++;
	}
	target[n] = '\0';
	const struct occ_family *f = n ? occ_family_find(target) : NULL;
	if (!f || f->vendor != OCC_VENDOR_AMD) {
		snprintf(why, len, "AMD target '%.48s' is not in the table (gfx90a, gfx94x, gfx110x)",
			 n ? target : d->name);
		return false;
	}
	occ_device_from_family(f, o);
	set_live(o, OCC_P_CU_COUNT, d->compute_units, "live: CL_DEVICE_MAX_COMPUTE_UNITS");
	if (strcmp(f->name, "RDNA3") == 0)
		occ_add_note(o,
			     "compute units taken as WGPs (WGP mode); if the device counts CUs, "
			     "set --param cu_count=%u",
			     d->compute_units / 2);
	occ_add_note(o, "VGPRs per work-item unknown unless given (--regs)");
	return true;
}

static void from_cpu(const struct dev_info *d, struct occ_device *o)
{
	occ_device_from_family(occ_family_find("CPU"), o);
	set_live(o, OCC_P_CU_COUNT, d->compute_units, "live: CL_DEVICE_MAX_COMPUTE_UNITS");
	if (d->local_mem)
		set_live(o, OCC_P_SLM_PER_CU, d->local_mem, "live: CL_DEVICE_LOCAL_MEM_SIZE");
	if (!d->n_sg_sizes)
		occ_add_note(o, "sub-group sizes not reported; they do not change a CPU's occupancy");
}

bool occ_device_from_live(const struct dev_info *d, struct occ_device *out, char *note, size_t notelen)
{
	char why[160] = "";
	bool ok;
	bool gpu = (d->type & CL_DEVICE_TYPE_GPU) != 0;
	if (d->type & CL_DEVICE_TYPE_CPU) {
		from_cpu(d, out);
		ok = true;
	} else if (gpu && d->vendor_kind == DEV_VENDOR_INTEL) {
		ok = from_intel(d, out);
		if (!ok)
			snprintf(why, sizeof(why),
				 "Intel GPU of unknown family (IP version 0x%x, %u "
				 "threads per EU, %u EUs per sub-slice)",
				 d->intel_ip_version, d->intel_threads_per_eu,
				 d->intel_eus_per_subslice);
	} else if (gpu && d->vendor_kind == DEV_VENDOR_NVIDIA) {
		ok = from_nvidia(d, out, why, sizeof(why));
	} else if (gpu && d->vendor_kind == DEV_VENDOR_AMD) {
		ok = from_amd(d, out, why, sizeof(why));
	} else {
		snprintf(why, sizeof(why), "%s device of vendor '%.64s'", gpu ? "GPU" : "non-GPU",
			 d->vendor);
		ok = false;
	}
	if (!ok) {
		snprintf(note, notelen, "'%s' is unknown to the model: %s", d->name, why);
		return false;
	}
	apply_common(d, out);
	if (d->parent)   /* a stack, or any part: the model holds its own compute units */
		occ_add_note(out, "sub-device %u of %u of '%s': its own %u of the parent's %u compute units",
			     d->sub_index, d->sub_count, d->parent->name, d->compute_units,
			     d->parent->compute_units);
	snprintf(note, notelen, "%s", out->notes);
	return true;
}
