/* The device report: `bench info` as text and JSON, one table of fields for both. */
#include "dev.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static json_t *sg_sizes_json(const struct dev_info *d)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < d->n_sg_sizes; i++)
		json_array_append_new(a, json_integer((json_int_t)d->sg_sizes[i]));
	return a;
}

static json_t *atomic_caps_json(const struct dev_info *d)
{
	static const struct { uint64_t bit; const char *name; } caps[] = {
		{ 1u << 0, "relaxed" }, { 1u << 1, "acq_rel" }, { 1u << 2, "seq_cst" },
		{ 1u << 3, "work_item" }, { 1u << 4, "work_group" }, { 1u << 5, "device" },
		{ 1u << 6, "all_devices" },
	};
	json_t *a;

	if (!d->atomic_caps_known)
		return json_null();
	a = json_array();
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (d->atomic_mem_caps & caps[i].bit)
			json_array_append_new(a, json_string(caps[i].name));
	return a;
}

static json_t *vendor_json(const struct dev_info *d)
{
	json_t *v = json_object();

	if (d->intel_threads_per_eu) {
		json_object_set_new(v, "intel_slices", json_integer(d->intel_slices));
		json_object_set_new(v, "intel_subslices_per_slice",
				    json_integer(d->intel_subslices_per_slice));
		json_object_set_new(v, "intel_eus_per_subslice", json_integer(d->intel_eus_per_subslice));
		json_object_set_new(v, "intel_threads_per_eu", json_integer(d->intel_threads_per_eu));
		json_object_set_new(v, "intel_ip_version", json_integer(d->intel_ip_version));
		json_object_set_new(v, "intel_device_id", json_integer(d->intel_device_id));
	}
	if (d->nv_warp_size) {
		char cc[16];
		snprintf(cc, sizeof(cc), "%u.%u", d->nv_cc_major, d->nv_cc_minor);
		json_object_set_new(v, "nv_compute_capability", json_string(cc));
		json_object_set_new(v, "nv_warp_size", json_integer(d->nv_warp_size));
		json_object_set_new(v, "nv_registers_per_block", json_integer(d->nv_regs_per_block));
	}
	return v;
}

/* What clCreateSubDevices accepts: CL_DEVICE_PARTITION_PROPERTIES and the affinity domains. */
static json_t *partitions_json(const struct dev_info *d)
{
	static const struct { cl_device_affinity_domain bit; const char *name; } doms[] = {
		{ CL_DEVICE_AFFINITY_DOMAIN_NUMA, "numa" }, { CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, "l4_cache" },
		{ CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, "l3_cache" }, { CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, "l2_cache" },
		{ CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, "l1_cache" },
		{ CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, "next_partitionable" },
	};
	json_t *o = json_object(), *props = json_array(), *ad = json_array();

	for (unsigned i = 0; i < d->n_part_props; i++) {
		cl_device_partition_property q = d->part_props[i];
		json_array_append_new(props, json_string(
			q == CL_DEVICE_PARTITION_EQUALLY ? "equally" : q == CL_DEVICE_PARTITION_BY_COUNTS ? "by_counts"
			: q == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN ? "by_affinity_domain"
			: q == 0x4052 ? "by_names_intel" : "other"));
	}
	for (size_t i = 0; i < sizeof(doms) / sizeof(doms[0]); i++)
		if (d->part_domains & doms[i].bit)
			json_array_append_new(ad, json_string(doms[i].name));
	json_object_set_new(o, "properties", props);
	json_object_set_new(o, "affinity_domains", ad);
	json_object_set_new(o, "max_sub_devices", json_integer(d->part_max_sub));
	return o;
}

/* A sub-device's parent (null for a root device). */
static json_t *parent_json(const struct dev_info *d)
{
	const struct dev_info *p = d->parent;

	if (!p)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:s, s:s, s:I}", "index", (json_int_t)p->index,
			 "platform_index", (json_int_t)p->platform_index, "device_index",
			 (json_int_t)p->device_index, "name", p->name, "platform", p->platform_name,
			 "compute_units", (json_int_t)p->compute_units);
}

/* The partition that made a sub-device (null for a root device). */
static json_t *partition_json(const struct dev_info *d)
{
	static const char *const kinds[] = { "none", "by_affinity_domain", "equally", "by_counts" };
	json_t *v = json_array();
	char spec[128];

	if (!d->parent)
		return json_null();
	for (unsigned i = 0; i < d->part.n_v; i++)
		json_array_append_new(v, json_integer(d->part.v[i]));
	return json_pack("{s:s, s:s, s:o, s:o, s:I, s:I}", "spec", dev_part_str(&d->part, spec, sizeof(spec)),
			 "type", kinds[d->part.kind], "affinity_domain",
			 d->part.kind == DEV_PART_NUMA ? json_string("numa") : json_null(), "values", v,
			 "index", (json_int_t)d->sub_index, "of", (json_int_t)d->sub_count);
}

json_t *dev_to_json(const struct dev_info *d)
{
	json_t *o = json_object();
	char c[16];

	json_object_set_new(o, "index", json_integer(d->index));
	json_object_set_new(o, "platform_index", json_integer(d->platform_index));
	json_object_set_new(o, "device_index", json_integer(d->device_index));
	json_object_set_new(o, "platform", json_string(d->platform_name));
	json_object_set_new(o, "platform_version", json_string(d->platform_version));
	json_object_set_new(o, "name", json_string(d->name));
	json_object_set_new(o, "vendor", json_string(d->vendor));
	json_object_set_new(o, "type", json_string(dev_type_str(d->type)));
	json_object_set_new(o, "driver_version", json_string(d->driver));
	json_object_set_new(o, "opencl_version", json_string(d->version));
	json_object_set_new(o, "opencl_c_version", json_string(d->c_version));
	snprintf(c, sizeof(c), "%u.%u", d->c_major, d->c_minor);
	json_object_set_new(o, "opencl_c_highest", json_string(c));
	json_object_set_new(o, "compute_units", json_integer(d->compute_units));
	json_object_set_new(o, "max_clock_mhz", json_integer(d->clock_mhz));
	json_object_set_new(o, "max_work_group_size", json_integer((json_int_t)d->max_wg));
	json_object_set_new(o, "local_mem_bytes", json_integer((json_int_t)d->local_mem));
	json_object_set_new(o, "global_mem_bytes", json_integer((json_int_t)d->global_mem));
	json_object_set_new(o, "max_alloc_bytes", json_integer((json_int_t)d->max_alloc));
	json_object_set_new(o, "global_cache_bytes", json_integer((json_int_t)d->global_cache));
	json_object_set_new(o, "global_cacheline_bytes", json_integer((json_int_t)d->global_cacheline));
	json_object_set_new(o, "timer_resolution_ns", json_integer((json_int_t)d->timer_resolution_ns));
	json_object_set_new(o, "max_sub_groups", json_integer(d->max_sub_groups));
	json_object_set_new(o, "sub_group_sizes", sg_sizes_json(d));
	json_object_set_new(o, "cl_intel_subgroups", json_boolean(d->has_intel_subgroups));
	json_object_set_new(o, "cl_intel_required_subgroup_size", json_boolean(d->has_intel_reqd_sg));
	json_object_set_new(o, "cl_khr_subgroups", json_boolean(d->has_khr_subgroups));
	json_object_set_new(o, "cl_khr_subgroup_shuffle", json_boolean(d->has_khr_sg_shuffle));
	json_object_set_new(o, "opencl_c_subgroups", json_boolean(d->has_c30_subgroups));
	json_object_set_new(o, "atomic_memory_capabilities", atomic_caps_json(d));
	json_object_set_new(o, "vendor_attributes", vendor_json(d));
	json_object_set_new(o, "extensions", json_string(d->extensions ? d->extensions : ""));
	json_object_set_new(o, "partitions", partitions_json(d));
	json_object_set_new(o, "parent", parent_json(d));
	json_object_set_new(o, "partition", partition_json(d));
	return o;
}

static void print_value(FILE *f, const char *key, const json_t *v)
{
	char *s;

	if (json_is_string(v)) {
		fprintf(f, "  %-34s %s\n", key, json_string_value(v));
		return;
	}
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	fprintf(f, "  %-34s %s\n", key, s ? s : "?");
	free(s);
}

void dev_print(const struct dev_info *d, FILE *f)
{
	json_t *o = dev_to_json(d);
	const char *key;
	json_t *v;

	fprintf(f, "Device %u (%u:%u): %s\n", d->index, d->platform_index, d->device_index, d->name);
	json_object_foreach(o, key, v) {
		if (strcmp(key, "vendor_attributes") == 0) {
			const char *k2;
			json_t *v2;
			json_object_foreach(v, k2, v2)
				print_value(f, k2, v2);
		} else {
			print_value(f, key, v);
		}
	}
	json_decref(o);
}

json_t *dev_clock_json(const struct dev_info *d)
{
	json_t *c = json_object();
	uint32_t mhz = d->clock_mhz;

	json_object_set_new(c, "mhz", mhz ? json_integer(mhz) : json_null());
	json_object_set_new(c, "nominal", json_true());
	json_object_set_new(c, "source", json_string("CL_DEVICE_MAX_CLOCK_FREQUENCY"));
	json_object_set_new(c, "note", json_string(mhz ? "cycles = ns x nominal MHz / 1000; the "
						   "clock under load may differ" :
						   "the device reports 0 MHz: cycles are null"));
	return c;
}
