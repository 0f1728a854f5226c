/* Sub-group backends (kernels/sg.h): capability checks, selection, build options. */
#include "sgb.h"

#include <string.h>

static const char *const sgb_names[] = { [SGB_INTEL] = "intel", [SGB_KHR] = "khr",
					 [SGB_NV] = "nv", [SGB_EMULATED] = "emulated" };

const char *sgb_name(enum sgb_backend b)
{
	return b >= SGB_FIRST && b <= SGB_LAST ? sgb_names[b] : "?";
}

bool sgb_parse(const char *s, enum sgb_backend *b)
{
	for (int i = SGB_FIRST; i <= SGB_LAST; i++)
		if (strcmp(s, sgb_names[i]) == 0) {
			*b = (enum sgb_backend)i;
			return true;
		}
	return false;
}

static bool why_set(char *why, size_t len, const char *msg)
{
	snprintf(why, len, "%s", msg);
	return false;
}

bool sgb_available(const struct dev_info *d, enum sgb_backend b, char *why, size_t len)
{
	switch (b) {
	case SGB_INTEL:
		return d->has_intel_subgroups ||
		       why_set(why, len, "no cl_intel_subgroups (shuffles and block reads)");
	case SGB_KHR:
		if (!d->has_khr_subgroups && !d->has_c30_subgroups)
			return why_set(why, len, "no cl_khr_subgroups and no OpenCL C 3.0 "
						 "__opencl_c_subgroups");
		return d->has_khr_sg_shuffle || why_set(why, len, "no cl_khr_subgroup_shuffle");
	case SGB_NV:
		/* Inline PTX is accepted by NVIDIA's own OpenCL compiler only. */
		if (d->vendor_kind != DEV_VENDOR_NVIDIA || !(d->type & CL_DEVICE_TYPE_GPU))
			return why_set(why, len, "not an NVIDIA GPU (inline PTX shfl.sync needs "
						 "NVIDIA's OpenCL compiler)");
		if (d->nv_warp_size == 0)
			return why_set(why, len, "CL_DEVICE_WARP_SIZE_NV not reported "
						 "(no cl_nv_device_attribute_query)");
		if (d->nv_warp_size != SGB_NV_WARP) {
			snprintf(why, len, "warp size %u; the nv backend is written for 32",
				 d->nv_warp_size);
			return false;
		}
		return true;
	case SGB_EMULATED:
		return true;   /* local memory and barriers: every device */
	}
	return why_set(why, len, "unknown backend");
}

const char *sgb_allowed_str(const struct dev_info *d, char *buf, size_t len)
{
	size_t off = 0;
	char why[256];

	buf[0] = '\0';
	for (int i = SGB_FIRST; i <= SGB_LAST && off < len; i++)
		if (sgb_available(d, (enum sgb_backend)i, why, sizeof(why)))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						sgb_names[i]);
	return buf;
}

bool sgb_select(const struct dev_info *d, const char *forced, struct sgb_choice *c, char *err,
		size_t len)
{
	char why[256], allowed[128];

	memset(c, 0, sizeof(*c));
	if (!forced) {
		for (int i = SGB_FIRST; i <= SGB_LAST; i++)
			if (sgb_available(d, (enum sgb_backend)i, why, sizeof(why))) {
				c->backend = (enum sgb_backend)i;
				return true;
			}
		snprintf(err, len, "bench bug: no sub-group backend for '%s'", d->name);
		return false;
	}
	if (!sgb_parse(forced, &c->backend)) {
		snprintf(err, len, "--sg-backend '%s' is not a backend: allowed intel, khr, nv, "
			 "emulated (on '%s': %s)", forced, d->name,
			 sgb_allowed_str(d, allowed, sizeof(allowed)));
		return false;
	}
	c->forced = true;
	if (!sgb_available(d, c->backend, why, sizeof(why))) {
		snprintf(err, len, "--sg-backend %s cannot run on '%s': %s; allowed backends there: "
			 "%s", forced, d->name, why, sgb_allowed_str(d, allowed, sizeof(allowed)));
		return false;
	}
	return true;
}

size_t sgb_widths(const struct dev_info *d, enum sgb_backend b, unsigned *w)
{
	size_t n = 0;

	switch (b) {
	case SGB_INTEL:
	case SGB_KHR:
		for (unsigned i = 0; d->has_intel_reqd_sg && i < d->n_sg_sizes && n < SGB_MAX_WIDTHS; i++)
			w[n++] = (unsigned)d->sg_sizes[i];
		break;
	case SGB_NV:
		w[n++] = SGB_NV_WARP;
		break;
	case SGB_EMULATED:
		for (unsigned x = 4; x <= SGB_EMULATED_MAX && x <= d->max_wg; x *= 2)
			w[n++] = x;
		break;
	}
	return n;
}

const char *sgb_widths_str(const struct dev_info *d, enum sgb_backend b, char *buf, size_t len)
{
	unsigned w[SGB_MAX_WIDTHS];
	size_t n = sgb_widths(d, b, w), off = 0;

	snprintf(buf, len, "none");
	for (size_t i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u", i ? ", " : "", w[i]);
	return buf;
}

static bool width_listed(const struct dev_info *d, enum sgb_backend b, unsigned x)
{
	unsigned w[SGB_MAX_WIDTHS];
	size_t n = sgb_widths(d, b, w);

	for (size_t i = 0; i < n; i++)
		if (w[i] == x)
			return true;
	return false;
}

/* intel and khr: a size required with cl_intel_required_subgroup_size, or the driver's. */
static bool set_width_native(const struct dev_info *d, struct sgb_choice *c, bool given,
			     unsigned want, unsigned dflt, char *err, size_t len)
{
	char sizes[128];

	c->width = 0;
	c->required = false;
	c->width_source = "chosen by the driver";
	if (!given) {
		if (dflt && width_listed(d, c->backend, dflt)) {
			c->width = dflt;
			c->required = true;
			c->width_source = "required (intel_reqd_sub_group_size)";
		} else if (dflt) {
			c->width_source = d->has_intel_reqd_sg
						  ? "chosen by the driver (the default size is not listed)"
						  : "chosen by the driver (no cl_intel_required_subgroup_size)";
		}
		return true;
	}
	if (want == 0)
		return true;
	if (!d->has_intel_reqd_sg) {
		snprintf(err, len, "--sg %u: '%s' cannot require a sub-group size (no "
			 "cl_intel_required_subgroup_size); use --sg auto", want, d->name);
		return false;
	}
	if (!width_listed(d, c->backend, want)) {
		snprintf(err, len, "--sg %u is not supported by '%s': supported sizes are %s, or auto",
			 want, d->name, sgb_widths_str(d, c->backend, sizes, sizeof(sizes)));
		return false;
	}
	c->width = want;
	c->required = true;
	c->width_source = "required (intel_reqd_sub_group_size)";
	return true;
}

bool sgb_set_width(const struct dev_info *d, struct sgb_choice *c, bool given, unsigned want,
		   unsigned dflt, char *err, size_t len)
{
	char sizes[128];

	switch (c->backend) {
	case SGB_INTEL:
	case SGB_KHR:
		return set_width_native(d, c, given, want, dflt, err, len);
	case SGB_NV:
		if (given && want && want != SGB_NV_WARP) {
			snprintf(err, len, "--sg %u: the nv backend's sub-group is the 32-wide warp: "
				 "use --sg 32 or auto", want);
			return false;
		}
		c->width = SGB_NV_WARP;
		c->required = false;
		c->width_source = "the warp (CL_DEVICE_WARP_SIZE_NV)";
		return true;
	case SGB_EMULATED:
		if (given && want && !width_listed(d, c->backend, want)) {
			snprintf(err, len, "--sg %u: the emulated widths on '%s' are %s", want, d->name,
				 sgb_widths_str(d, c->backend, sizes, sizeof(sizes)));
			return false;
		}
		c->width = given && want ? want : width_listed(d, c->backend, dflt) ? dflt : 16;
		c->required = false;
		c->width_source = "emulated in local memory";
		return true;
	}
	snprintf(err, len, "bench bug: backend %d", (int)c->backend);
	return false;
}

int sgb_build_options(const struct dev_info *d, const struct sgb_choice *c, size_t wg_max,
		      char *buf, size_t len)
{
	const char *std = "";
	const char *khr = "";

	if (c->backend == SGB_INTEL)
		std = d->c_major >= 3 ? " -cl-std=CL3.0" : d->c_major == 2 ? " -cl-std=CL2.0" : "";
	if (c->backend == SGB_KHR) {
		std = d->has_c30_subgroups ? " -cl-std=CL3.0" : " -cl-std=CL2.0";
		khr = d->has_c30_subgroups ? "" : " -DHAVE_KHR_SG=1";
	}
	/* nv and emulated: OpenCL C 1.2, the compiler's default (no -cl-std). */
	int off = snprintf(buf, len, "-DSG_BACKEND=%d -DSG_WIDTH=%u -DSG_WG_MAX=%zu", (int)c->backend,
			   c->width, wg_max ? wg_max : 1);

	if (c->required && off >= 0 && (size_t)off < len)
		off += snprintf(buf + off, len - (size_t)off, " -DREQD_SG=%u", c->width);
	if (off >= 0 && (size_t)off < len)
		off += snprintf(buf + off, len - (size_t)off, "%s%s", khr, std);
	return off;
}

bool sgb_block_io(enum sgb_backend b, const char **impl, const char **why_not)
{
	*impl = NULL;
	*why_not = NULL;
	switch (b) {
	case SGB_INTEL:
		*impl = "intel_sub_group_block_read8/write8";
		return true;
	case SGB_NV:
		*impl = "coalesced loads/stores of the same addresses (lane + k x 32), as "
			"block reads have no PTX equivalent";
		return true;
	case SGB_KHR:
		*why_not = "the khr backend has no sub-group block reads/writes "
			   "(cl_khr_subgroups offers none); not replaced by ordinary loads";
		return false;
	case SGB_EMULATED:
		*why_not = "the emulated backend has no sub-group block reads/writes; not replaced "
			   "by ordinary loads";
		return false;
	}
	*why_not = "unknown backend";
	return false;
}

json_t *sgb_report_json(const struct dev_info *d, const struct sgb_choice *c)
{
	json_t *o = json_object(), *av = json_object();
	char why[256];

	json_object_set_new(o, "backend", json_string(sgb_name(c->backend)));
	json_object_set_new(o, "forced", json_boolean(c->forced));
	json_object_set_new(o, "width", c->width ? json_integer(c->width) : json_null());
	json_object_set_new(o, "width_source", json_string(c->width_source ? c->width_source : ""));
	for (int i = SGB_FIRST; i <= SGB_LAST; i++) {
		json_t *b = json_object(), *ws = json_array();
		unsigned w[SGB_MAX_WIDTHS];
		size_t n = sgb_widths(d, (enum sgb_backend)i, w);
		bool ok = sgb_available(d, (enum sgb_backend)i, why, sizeof(why));

		json_object_set_new(b, "available", json_boolean(ok));
		json_object_set_new(b, "reason", ok ? json_null() : json_string(why));
		for (size_t k = 0; ok && k < n; k++)
			json_array_append_new(ws, json_integer(w[k]));
		json_object_set_new(b, "widths", ws);
		json_object_set_new(av, sgb_names[i], b);
	}
	json_object_set_new(o, "backends", av);
	return o;
}

void sgb_params(json_t *params, const struct sgb_choice *c)
{
	json_object_set_new(params, "sg_backend", json_string(sgb_name(c->backend)));
	json_object_set_new(params, "sg_width", c->width ? json_integer(c->width) : json_null());
	json_object_set_new(params, "sg_width_source",
			    json_string(c->width_source ? c->width_source : ""));
	json_object_set_new(params, "sg_size_required",
			    c->required ? json_integer(c->width) : json_null());
}

void sgb_print(FILE *f, const struct dev_info *d, const struct sgb_choice *c)
{
	char why[256];

	fprintf(f, "sub-group backend %s (%s)", sgb_name(c->backend),
		c->forced ? "--sg-backend" : "default");
	if (c->width)
		fprintf(f, ", width %u, %s", c->width, c->width_source);
	else
		fprintf(f, ", width %s", c->width_source ? c->width_source : "?");
	for (int i = SGB_FIRST; i <= SGB_LAST; i++) {
		if (i == (int)c->backend)
			continue;
		if (sgb_available(d, (enum sgb_backend)i, why, sizeof(why)))
			fprintf(f, "; %s available", sgb_names[i]);
		else
			fprintf(f, "; %s unavailable: %s", sgb_names[i], why);
	}
	fputc('\n', f);
}
