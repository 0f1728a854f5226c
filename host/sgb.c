/* The sub-group backends (kernels/bench_common.h): one table, selection, widths, build options. */
#include "sgb.h"
#include "igpu.h"

#include <stdarg.h>
#include <string.h>

const char *const sgb_grf_names[2] = { "small", "large" };

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
	c->unrequired = NULL;
	if (!given) {
		if (dflt && width_listed(d, c->backend, dflt)) {
			c->width = dflt;
			c->required = true;
			c->width_source = SRC_REQUIRED;
		} else if (dflt) {
			c->unrequired = d->has_intel_reqd_sg ? SGB_UNLISTED : SGB_NO_REQD;
			c->width_source = d->has_intel_reqd_sg
						  ? "chosen by the driver (the default size is not listed)"
						  : "chosen by the driver (" SGB_NO_REQD ")";
		}
		return true;
	}
	if (want == 0)
		return true;
	if (!d->has_intel_reqd_sg) {
		snprintf(err, len, "--sg %u: '%s' cannot require a sub-group size (" SGB_NO_REQD
			 "); use --sg auto", want, d->name);
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

/* ---- language: what the kernels need of OpenCL C, and the macros ---- */

/*
 * The lowest OpenCL C version (12: 1.2, 20, 30) that offers what a backend's kernels use, and
 * why. sgb_opencl_c then takes the lowest version the device offers at or above it. Never
 * higher than needed: Intel's compiler of Debian 12 (IGC 1.0.12504, compute-runtime 22.43)
 * refuses every -cl-std=CL3.0 build for Xe-HPC (its headers declare image types that
 * OpenCL C 3.0 without __opencl_c_images forbids), while 1.2 and 2.0 builds of the same
 * kernels compile (shared/reference/intel-offline-compile.md).
 */
static unsigned lang_intel(const struct dev_info *d, const char **defs, const char **why)
{
	(void)d;
	*defs = "";
	*why = "cl_intel_subgroups (shuffles, block reads/writes, required sizes) is an "
	       "extension of OpenCL C 1.2";
	return 12;
}

static unsigned lang_khr(const struct dev_info *d, const char **defs, const char **why)
{
	/* cl_khr_subgroups needs OpenCL C 2.0 and its pragma (bench_common.h, HAVE_KHR_SG) */
	if (d->has_khr_subgroups && (dev_offers_c(d, 20) || !d->has_c30_subgroups)) {
		*defs = " -DHAVE_KHR_SG=1";
		*why = "cl_khr_subgroups is an extension of OpenCL C 2.0";
		return 20;
	}
	*defs = "";
	*why = "__opencl_c_subgroups is a feature of OpenCL C 3.0 (the device has no "
	       "cl_khr_subgroups)";
	return 30;
}

/* ---- rules keyed on the device ---- */

/* What a rule refuses. */
enum sgb_rule_what { SGB_RULE_END = 0, SGB_RULE_BLOCK_IO };

/*
 * A build some Intel GPUs cannot have, refused before building: the same rule on a real
 * device (igpu_arch from CL_DEVICE_IP_VERSION_INTEL) and on an offline target (bench compile).
 */
struct sgb_rule {
	enum sgb_rule_what what;
	unsigned width;          /* at this required sub-group width */
	unsigned archs;          /* 1 << enum igpu_arch of the devices concerned */
	const char *why;         /* the evidence */
};

#define ARCH(a) (1u << (a))
static const struct sgb_rule intel_rules[] = {
	{ SGB_RULE_BLOCK_IO, 32, ARCH(IGPU_XE_LP) | ARCH(IGPU_XE_HPG),
	  "sub-group block reads/writes do not compile at SIMD32 on Xe-LP and Xe-HPG (IGC: "
	  "\"Block reads not supported in SIMD32\"; ocloc 22.43 for tgllp and acm-g10)" },
	{ SGB_RULE_END, 0, 0, NULL } };

/* The first rule of the backend's that refuses `what` for c on d, or NULL. */
static const struct sgb_rule *rule_for(const struct dev_info *d, const struct sgb_choice *c,
				       enum sgb_rule_what what);

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
	/* the OpenCL C version the kernels need, macros, why; NULL: 1.2 */
	unsigned (*lang)(const struct dev_info *d, const char **defs, const char **why);
	const char *block_io;     /* how block reads/writes are done; NULL: none, for no_block_io */
	const char *no_block_io;
	const struct sgb_rule *rules;  /* what some devices cannot build; ends with what 0 */
};

/* Adding a backend: a row here, its enum value in sgb.h, its spelling in kernels/bench_common.h. */
static const struct sgb_desc sgb_table[] = {
	[SGB_NONE] = { .name = "none", .available = avail_always, .widths = widths_native,
		       .set_width = set_width_native, .no_block_io = "no sub-group backend" },
	[SGB_INTEL] = { .name = "intel", .macro = "SG_INTEL", .native = true,
			.available = avail_intel, .widths = widths_native,
			.set_width = set_width_native, .lang = lang_intel,
			.block_io = "intel_sub_group_block_read8/write8", .rules = intel_rules },
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

static const struct sgb_rule *rule_for(const struct dev_info *d, const struct sgb_choice *c,
				       enum sgb_rule_what what)
{
	const struct sgb_rule *r = desc(c->backend)->rules;
	unsigned arch = ARCH(igpu_arch(d));

	for (; r && r->what; r++)
		if (r->what == what && (r->archs & arch) && c->required && c->width == r->width)
			return r;
	return NULL;
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

/* The version needed (12, 20, 30) and why: the backend's, or the caller's where higher. */
static unsigned lang_need(const struct dev_info *d, const struct sgb_choice *c, const char **defs,
			  const char **why)
{
	const struct sgb_desc *t = desc(c->backend);
	unsigned need = 12;

	*defs = "";
	*why = "no sub-group extension is used";
	if (t->lang)
		need = t->lang(d, defs, why);
	if (c->c_version > need) {
		need = c->c_version;
		*why = c->c_version_for ? c->c_version_for : "the kernel needs it";
	}
	return need;
}

/*
 * Whether d compiles OpenCL C version v. Xe GPUs: compute-runtime 22.43 lists OpenCL C 1.0-1.2
 * and 3.0 only (CL_DEVICE_OPENCL_C_ALL_VERSIONS; 2.0 from later releases), yet its compiler
 * builds -cl-std=CL2.0 (ocloc 22.43 for tgllp, acm-g10 and pvc), where 3.0 fails on Xe-HPC:
 * 2.0 is taken as offered there.
 */
static bool compiles_c(const struct dev_info *d, unsigned v, bool *by_rule)
{
	enum igpu_arch a = igpu_arch(d);

	*by_rule = false;
	if (dev_offers_c(d, v))
		return true;
	*by_rule = v == 20 && (a == IGPU_XE_LP || a == IGPU_XE_HPG || a == IGPU_XE_HPC);
	return *by_rule;
}

unsigned sgb_opencl_c(const struct dev_info *d, const struct sgb_choice *c, char *why, size_t len)
{
	static const unsigned versions[] = { 12, 20, 30 };
	const char *defs, *need_why;
	unsigned need = lang_need(d, c, &defs, &need_why);
	bool by_rule;

	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		unsigned v = versions[i];
		if (v < need || !compiles_c(d, v, &by_rule))
			continue;
		if (v == need)
			snprintf(why, len, "OpenCL C %u.%u, the lowest version that offers what the "
				 "kernel needs: %s%s", v / 10, v % 10, need_why, by_rule
				 ? " (not listed by the driver of this Xe GPU, which compiles it; its "
				   "OpenCL C 3.0 builds fail on Xe-HPC with compute-runtime 22.43)" : "");
		else
			snprintf(why, len, "OpenCL C %u.%u, the lowest that '%s' offers at or above %u.%u: "
				 "%s", v / 10, v % 10, d->name, need / 10, need % 10, need_why);
		return v;
	}
	snprintf(why, len, "'%s' offers no OpenCL C %u.%u or later (%s): %s", d->name, need / 10,
		 need % 10, d->c_version, need_why);
	return 0;
}

bool sgb_grf_large(const struct dev_info *d, const struct sgb_choice *c)
{
	enum igpu_arch a = igpu_arch(d);

	return c->grf_large && (a == IGPU_XE_HPG || a == IGPU_XE_HPC);
}

bool sgb_set_grf(const struct dev_info *d, struct sgb_choice *c, bool large, char *err, size_t len)
{
	c->grf_large = false;
	if (!large)
		return true;
	if (igpu_arch(d) == IGPU_NONE) {
		snprintf(err, len, "--grf large: '%s' is not an Intel GPU (the large register file, "
			 "%s, is an Intel GPU's)", d->name, SGB_GRF_LARGE_OPTION);
		return false;
	}
	c->grf_large = true;
	return true;
}

int sgb_build_options(const struct dev_info *d, const struct sgb_choice *c, size_t wg_max,
		      char *buf, size_t len)
{
	const struct sgb_desc *t = desc(c->backend);
	const char *defs, *why;
	char note[512];
	unsigned need = lang_need(d, c, &defs, &why), std = sgb_opencl_c(d, c, note, sizeof(note));
	int off = 0;

	if (!std)   /* none offered: the version needed, for the compiler to say */
		std = need;
	if (len)
		buf[0] = '\0';
	if (t->macro)
		append(buf, len, &off, "-D%s=1 -DSG_WIDTH=%u", t->macro, c->width);
	if (t->macro && wg_max)
		append(buf, len, &off, " -DSG_WG_MAX=%zu", wg_max);
	if (c->required)
		append(buf, len, &off, "%s-DREQD_SG=%u", off ? " " : "", c->width);
	if (t->block_io)   /* a rule refusing it skips the point before building (sgb_block_io) */
		append(buf, len, &off, " -DSG_HAS_BLOCK_IO=1");
	append(buf, len, &off, "%s", defs);
	if (std > 12)
		append(buf, len, &off, "%s-cl-std=CL%u.%u", off ? " " : "", std / 10, std % 10);
	if (c->grf_large && igpu_arch(d) != IGPU_NONE)
		append(buf, len, &off, "%s%s", off ? " " : "", SGB_GRF_LARGE_OPTION);
	return off;
}

bool sgb_block_io(const struct dev_info *d, const struct sgb_choice *c, const char **impl,
		  char *why_not, size_t len)
{
	const struct sgb_desc *t = desc(c->backend);
	const struct sgb_rule *r = rule_for(d, c, SGB_RULE_BLOCK_IO);

	*impl = t->block_io;
	if (t->block_io && !r)
		return true;
	*impl = NULL;
	if (r)
		snprintf(why_not, len, "%s: '%s' is %s", r->why, d->name, igpu_arch_name(igpu_arch(d)));
	else
		snprintf(why_not, len, "%s", t->no_block_io);
	return false;
}

json_t *sgb_build_json(const struct dev_info *d, const struct sgb_choice *c)
{
	json_t *o = json_object();
	char why[768];
	unsigned v = sgb_opencl_c(d, c, why, sizeof(why));
	char ver[16];

	snprintf(ver, sizeof(ver), "%u.%u", v / 10 % 10, v % 10);
	json_object_set_new(o, "opencl_c", v ? json_string(ver) : json_null());
	json_object_set_new(o, "opencl_c_why", json_string(why));
	if (igpu_arch(d) != IGPU_NONE) {
		json_object_set_new(o, "intel_gpu", json_string(igpu_arch_name(igpu_arch(d))));
		json_object_set_new(o, "grf", json_string(sgb_grf_names[c->grf_large]));
		if (c->grf_large && !sgb_grf_large(d, c))
			json_object_set_new(o, "grf_note", json_string(SGB_GRF_XE_LP_NOTE));
	}
	return o;
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
