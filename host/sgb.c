/* The sub-group backends (kernels/bench_common.h): one table, selection, widths, build options. */
#include "sgb.h"

#include <stdarg.h>
#include <string.h>

static bool why_set(char *why, size_t len, const char *msg)
{
	snprintf(why, len, "%s", msg);
	return false;
}

/* ---- availability ---- */

static bool avail_intel(const struct dev_info *d, char *why, size_t len)
{
	return d->has_intel_subgroups ||
	       why_set(why, len, "no cl_intel_subgroups (shuffles and block reads)");
}

static bool avail_khr(const struct dev_info *d, char *why, size_t len)
{
	return d->has_khr_subgroups || d->has_c30_subgroups ||
	       why_set(why, len, "no cl_khr_subgroups and no OpenCL C 3.0 __opencl_c_subgroups");
}

static bool shuffle_khr(const struct dev_info *d, char *why, size_t len)
{
	return d->has_khr_sg_shuffle || why_set(why, len, "no cl_khr_subgroup_shuffle");
}

static bool avail_nv(const struct dev_info *d, char *why, size_t len)
{
	/* Inline PTX is accepted by NVIDIA's own OpenCL compiler only. */
	if (d->vendor_kind != DEV_VENDOR_NVIDIA || !(d->type & CL_DEVICE_TYPE_GPU))
		return why_set(why, len, "not an NVIDIA GPU (inline PTX shfl.sync needs NVIDIA's "
					 "OpenCL compiler)");
	if (d->nv_warp_size == 0)
		return why_set(why, len, "CL_DEVICE_WARP_SIZE_NV not reported "
					 "(no cl_nv_device_attribute_query)");
	if (d->nv_warp_size != SGB_NV_WARP) {
		snprintf(why, len, "warp size %u; the nv backend is written for %d", d->nv_warp_size,
			 SGB_NV_WARP);
		return false;
	}
	return true;
}

static bool avail_always(const struct dev_info *d, char *why, size_t len)
{
	(void)d, (void)why, (void)len;
	return true;   /* emulated: local memory and barriers, every device */
}

/* ---- widths ---- */

/* intel, khr (and none): the sizes d can require. */
static size_t widths_native(const struct dev_info *d, unsigned *w)
{
	size_t n = 0;

	for (unsigned i = 0; d->has_intel_reqd_sg && i < d->n_sg_sizes && n < SGB_MAX_WIDTHS; i++)
		w[n++] = (unsigned)d->sg_sizes[i];
	return n;
}

static size_t widths_nv(const struct dev_info *d, unsigned *w)
{
	(void)d;
	w[0] = SGB_NV_WARP;
	return 1;
}

static size_t widths_emulated(const struct dev_info *d, unsigned *w)
{
	size_t n = 0;

	for (unsigned x = 4; x <= SGB_EMULATED_MAX && x <= d->max_wg && n < SGB_MAX_WIDTHS; x *= 2)
		w[n++] = x;
	return n;
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

#define SRC_REQUIRED "required (intel_reqd_sub_group_size)"

/* intel, khr (and none): a size required with cl_intel_required_subgroup_size, or the driver's. */
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
			c->width_source = SRC_REQUIRED;
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
	c->width_source = SRC_REQUIRED;
	return true;
}

static bool set_width_nv(const struct dev_info *d, struct sgb_choice *c, bool given, unsigned want,
			 unsigned dflt, char *err, size_t len)
{
	(void)d, (void)dflt;
	if (given && want && want != SGB_NV_WARP) {
		snprintf(err, len, "--sg %u: the nv backend's sub-group is the %d-wide warp: use --sg "
			 "%d or auto", want, SGB_NV_WARP, SGB_NV_WARP);
		return false;
	}
	c->width = SGB_NV_WARP;
	c->required = false;
	c->width_source = "the warp (CL_DEVICE_WARP_SIZE_NV)";
	return true;
}

static bool set_width_emulated(const struct dev_info *d, struct sgb_choice *c, bool given,
			       unsigned want, unsigned dflt, char *err, size_t len)
{
	char sizes[128];

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

/* ---- language: the OpenCL C version (20, 30; 0: the compiler's 1.2) and macros ---- */

static unsigned lang_intel(const struct dev_info *d, const char **defs)
{
	*defs = "";
	return d->c_major >= 3 ? 30 : d->c_major == 2 ? 20 : 0;
}

static unsigned lang_khr(const struct dev_info *d, const char **defs)
{
	/* cl_khr_subgroups needs OpenCL C 2.0 and its pragma (bench_common.h, HAVE_KHR_SG). */
	*defs = d->has_c30_subgroups ? "" : " -DHAVE_KHR_SG=1";
	return d->has_c30_subgroups ? 30 : 20;
}

/* ---- the table ---- */

struct sgb_desc {
	const char *name;         /* --sg-backend, results */
	const char *macro;        /* defined to 1 in the build options; NULL: none */
	bool native;              /* the driver's sub-groups */
	bool (*available)(const struct dev_info *d, char *why, size_t len);
	bool (*shuffles)(const struct dev_info *d, char *why, size_t len); /* NULL: with the backend */
	size_t (*widths)(const struct dev_info *d, unsigned *w);
	bool (*set_width)(const struct dev_info *d, struct sgb_choice *c, bool given, unsigned want,
			  unsigned dflt, char *err, size_t len);
	unsigned (*lang)(const struct dev_info *d, const char **defs);  /* NULL: OpenCL C 1.2 */
	const char *block_io;     /* how block reads/writes are done; NULL: none, for no_block_io */
	const char *no_block_io;
};

/* Adding a backend: a row here, its enum value in sgb.h, its spelling in kernels/bench_common.h. */
static const struct sgb_desc sgb_table[] = {
	[SGB_NONE] = { .name = "none", .available = avail_always, .widths = widths_native,
		       .set_width = set_width_native, .no_block_io = "no sub-group backend" },
	[SGB_INTEL] = { .name = "intel", .macro = "SG_INTEL", .native = true,
			.available = avail_intel, .widths = widths_native,
			.set_width = set_width_native, .lang = lang_intel,
			.block_io = "intel_sub_group_block_read8/write8" },
	[SGB_KHR] = { .name = "khr", .macro = "SG_KHR", .native = true, .available = avail_khr,
		      .shuffles = shuffle_khr, .widths = widths_native,
		      .set_width = set_width_native, .lang = lang_khr,
		      .no_block_io = "the khr backend has no sub-group block reads/writes "
				     "(cl_khr_subgroups offers none); not replaced by ordinary loads" },
	/* nv and emulated: OpenCL C 1.2, the compiler's default (no -cl-std). */
	[SGB_NV] = { .name = "nv", .macro = "SG_NV", .available = avail_nv, .widths = widths_nv,
		     .set_width = set_width_nv,
		     .block_io = "coalesced loads/stores of the same addresses (lane + k x 32), as "
				 "block reads have no PTX equivalent" },
	[SGB_EMULATED] = { .name = "emulated", .macro = "SG_EMULATED", .available = avail_always,
			   .widths = widths_emulated, .set_width = set_width_emulated,
			   .no_block_io = "the emulated backend has no sub-group block reads/writes; "
					  "not replaced by ordinary loads" },
};

static const struct sgb_desc *desc(enum sgb_backend b)
{
	return &sgb_table[b >= SGB_NONE && b <= SGB_LAST ? b : SGB_NONE];
}

/* ---- names, selection ---- */

const char *sgb_name(enum sgb_backend b)
{
	return b >= SGB_NONE && b <= SGB_LAST ? sgb_table[b].name : "?";
}

bool sgb_parse(const char *s, enum sgb_backend *b)
{
	for (int i = SGB_FIRST; i <= SGB_LAST; i++)
		if (strcmp(s, sgb_table[i].name) == 0) {
			*b = (enum sgb_backend)i;
			return true;
		}
	return false;
}

const char *sgb_names_str(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = SGB_FIRST; i <= SGB_LAST && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
					sgb_table[i].name);
	return buf;
}

bool sgb_native(enum sgb_backend b)
{
	return desc(b)->native;
}

bool sgb_available(const struct dev_info *d, enum sgb_backend b, unsigned need, char *why,
		   size_t len)
{
	const struct sgb_desc *t = desc(b);

	if (!t->available(d, why, len))
		return false;
	return !(need & SGB_NEED_SHUFFLE) || !t->shuffles || t->shuffles(d, why, len);
}

const char *sgb_allowed_str(const struct dev_info *d, unsigned need, char *buf, size_t len)
{
	size_t off = 0;
	char why[256];

	buf[0] = '\0';
	for (int i = SGB_FIRST; i <= SGB_LAST && off < len; i++)
		if (sgb_available(d, (enum sgb_backend)i, need, why, sizeof(why)))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						sgb_table[i].name);
	return buf;
}

/* The first backend d runs for `need` (SGB_NONE where the need allows no other). */
static enum sgb_backend first_available(const struct dev_info *d, unsigned need)
{
	char why[256];

	for (int i = SGB_FIRST; i <= SGB_LAST; i++) {
		if ((need & SGB_NATIVE_OR_NONE) && !sgb_table[i].native)
			continue;
		if (sgb_available(d, (enum sgb_backend)i, need, why, sizeof(why)))
			return (enum sgb_backend)i;
	}
	return SGB_NONE;
}

bool sgb_select(const struct dev_info *d, const char *forced, unsigned need, struct sgb_choice *c,
		char *err, size_t len)
{
	char why[256], allowed[128], names[128];

	memset(c, 0, sizeof(*c));
	c->need = need;
	if (!forced) {
		c->backend = first_available(d, need);
		if (c->backend == SGB_NONE && !(need & SGB_NATIVE_OR_NONE)) {
			snprintf(err, len, "bench bug: no sub-group backend for '%s'", d->name);
			return false;
		}
		return true;
	}
	if (!sgb_parse(forced, &c->backend)) {
		snprintf(err, len, "--sg-backend '%s' is not a backend: allowed %s (on '%s': %s)",
			 forced, sgb_names_str(names, sizeof(names)), d->name,
			 sgb_allowed_str(d, need, allowed, sizeof(allowed)));
		return false;
	}
	c->forced = true;
	if (!sgb_available(d, c->backend, need, why, sizeof(why))) {
		snprintf(err, len, "--sg-backend %s cannot run on '%s': %s; allowed backends there: "
			 "%s", forced, d->name, why, sgb_allowed_str(d, need, allowed, sizeof(allowed)));
		return false;
	}
	return true;
}

/* ---- widths ---- */

size_t sgb_widths(const struct dev_info *d, enum sgb_backend b, unsigned *w)
{
	return desc(b)->widths(d, w);
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

bool sgb_set_width(const struct dev_info *d, struct sgb_choice *c, bool given, unsigned want,
		   unsigned dflt, char *err, size_t len)
{
	return desc(c->backend)->set_width(d, c, given, want, dflt, err, len);
}

/* ---- build options ---- */

/* Appends to buf at *off, keeping *off the would-be length (as snprintf counts). */
__attribute__((format(printf, 4, 5)))
static void append(char *buf, size_t len, int *off, const char *fmt, ...)
{
	va_list ap;
	size_t at = *off >= 0 ? (size_t)*off : len;

	va_start(ap, fmt);
	*off += vsnprintf(at < len ? buf + at : NULL, at < len ? len - at : 0, fmt, ap);
	va_end(ap);
}

int sgb_build_options(const struct dev_info *d, const struct sgb_choice *c, size_t wg_max,
		      char *buf, size_t len)
{
	const struct sgb_desc *t = desc(c->backend);
	const char *defs = "";
	unsigned std = t->lang ? t->lang(d, &defs) : 0;
	int off = 0;

	if (len)
		buf[0] = '\0';
	if (t->macro)
		append(buf, len, &off, "-D%s=1 -DSG_WIDTH=%u", t->macro, c->width);
	if (t->macro && wg_max)
		append(buf, len, &off, " -DSG_WG_MAX=%zu", wg_max);
	if (c->required)
		append(buf, len, &off, "%s-DREQD_SG=%u", off ? " " : "", c->width);
	if (t->block_io)
		append(buf, len, &off, " -DSG_HAS_BLOCK_IO=1");
	std = c->c_version > std ? c->c_version : std;
	append(buf, len, &off, "%s", defs);
	if (std)
		append(buf, len, &off, "%s-cl-std=CL%u.%u", off ? " " : "", std / 10, std % 10);
	return off;
}

bool sgb_block_io(enum sgb_backend b, const char **impl, const char **why_not)
{
	const struct sgb_desc *t = desc(b);

	*impl = t->block_io;
	*why_not = t->block_io ? NULL : t->no_block_io;
	return t->block_io != NULL;
}

/* ---- reports ---- */

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
		bool ok = sgb_available(d, (enum sgb_backend)i, c->need, why, sizeof(why));

		json_object_set_new(b, "available", json_boolean(ok));
		json_object_set_new(b, "reason", ok ? json_null() : json_string(why));
		for (size_t k = 0; ok && k < n; k++)
			json_array_append_new(ws, json_integer(w[k]));
		json_object_set_new(b, "widths", ws);
		json_object_set_new(av, sgb_table[i].name, b);
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
		if (sgb_available(d, (enum sgb_backend)i, c->need, why, sizeof(why)))
			fprintf(f, "; %s available", sgb_table[i].name);
		else
			fprintf(f, "; %s unavailable: %s", sgb_table[i].name, why);
	}
	fputc('\n', f);
}
