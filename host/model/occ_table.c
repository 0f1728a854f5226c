/*
 * The occupancy model's devices: the parameters by name, families and products found by
 * name or compute capability, a device resolved from the table (occ_data.c) with the
 * parameters a user overrides, its sub-group widths, and how occupancy is written.
 */
#include "occ.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

static const struct {
	const char *name, *unit;
	const char *desc;   /* what the parameter counts, for a reader of this table */
} param_info[OCC_P_COUNT] = {
	[OCC_P_CU_COUNT] = { "cu_count", "", "compute units: Xe-cores, SMs, CUs (WGPs), CPU threads" },
	[OCC_P_EU_PER_CU] = { "eu_per_cu", "",
			      "XVEs per Xe-core, sub-partitions per SM, SIMDs per CU" },
	[OCC_P_THREADS_PER_EU] = { "threads_per_eu", "", "thread / warp / wave slots per EU" },
	[OCC_P_WG_MAX] = { "wg_max", "", "largest work-group (work-items)" },
	[OCC_P_WG_PER_CU] = { "wg_per_cu", "", "resident work-groups per CU without barriers" },
	[OCC_P_BARRIER_WG_PER_CU] = { "barrier_wg_per_cu", "",
				      "resident work-groups per CU with barriers" },
	[OCC_P_SLM_PER_CU] = { "slm_per_cu", "bytes", "SLM / shared memory / LDS per CU" },
	[OCC_P_SLM_PER_WG] = { "slm_per_wg", "bytes", "local memory one work-group may allocate" },
	[OCC_P_SLM_GRANULE] = { "slm_granule", "bytes",
				"local memory allocation unit (0: Intel steps)" },
	[OCC_P_SLM_RESERVED] = { "slm_reserved", "bytes", "local memory reserved per work-group" },
	[OCC_P_REGS_PER_EU] = { "regs_per_eu", "",
				"registers per sub-partition (NVIDIA), VGPRs per lane (AMD)" },
	[OCC_P_REG_GRANULE] = { "reg_granule", "",
				"register allocation unit: per warp (NVIDIA), per lane (AMD)" },
	[OCC_P_REGS_MAX] = { "regs_max", "", "registers one work-item may use" },
};

const char *occ_param_name(enum occ_param_id id)
{
	return id < OCC_P_COUNT ? param_info[id].name : "?";
}

const char *occ_param_unit(enum occ_param_id id)
{
	return id < OCC_P_COUNT ? param_info[id].unit : "";
}

int occ_param_find(const char *name)
{
	for (int i = 0; i < OCC_P_COUNT; i++)
		if (strcmp(name, param_info[i].name) == 0)
			return i;
	return -1;
}

const char *occ_vendor_str(enum occ_vendor v)
{
	static const char *const names[] = { "intel", "nvidia", "amd", "cpu" };
	return (unsigned)v < 4 ? names[v] : "?";
}

/* ---- names -------------------------------------------------------------------------------- */

/* Lower-case letters and digits only: "Max 1550" and "max-1550" are one name. */
static void norm(const char *s, size_t n, char *out, size_t len)
{
	size_t j = 0;
	for (size_t i = 0; i < n && s[i] && j + 1 < len; i++)
		if (isalnum((unsigned char)s[i]))
			out[j++] = (char)tolower((unsigned char)s[i]);
	out[j] = '\0';
}

static bool name_is(const char *candidate, size_t n, const char *want_norm)
{
	char a[96];
	norm(candidate, n, a, sizeof(a));
	return a[0] && strcmp(a, want_norm) == 0;
}

/* True when name equals primary or one of the comma-separated aliases. */
static bool names_match(const char *primary, const char *aliases, const char *name)
{
	char want[96];
	norm(name, strlen(name), want, sizeof(want));
	if (name_is(primary, strlen(primary), want))
		return true;
	for (const char *p = aliases; p && *p;) {
		size_t n = strcspn(p, ",");
		if (name_is(p, n, want))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

const struct occ_family *occ_family_find(const char *name)
{
	for (size_t i = 0; i < occ_family_count(); i++) {
		const struct occ_family *f = occ_family_at(i);
		if (names_match(f->name, f->aliases, name))
			return f;
	}
	return NULL;
}

const struct occ_family *occ_family_by_cc(unsigned cc)
{
	for (size_t i = 0; i < occ_family_count(); i++)
		if (occ_family_at(i)->nv_cc == cc)
			return occ_family_at(i);
	return NULL;
}

/* ---- devices ------------------------------------------------------------------------------ */

static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void occ_device_from_family(const struct occ_family *f, struct occ_device *out)
{
	memset(out, 0, sizeof(*out));
	copy_str(out->name, sizeof(out->name), f->name);
	out->fam = f;
	out->family = f->name;
	out->vendor = f->vendor;
	out->cu_word = f->cu_word;
	for (unsigned i = 0; i < OCC_MAX_SG && f->sg_sizes[i]; i++)
		out->sg_sizes[out->n_sg++] = f->sg_sizes[i];
	memcpy(out->p, f->p, sizeof(out->p));
}

void occ_add_note(struct occ_device *dev, const char *fmt, ...)
{
	size_t used = strlen(dev->notes);
	if (used && used + 2 < sizeof(dev->notes)) {
		memcpy(dev->notes + used, "; ", 3);
		used += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(dev->notes + used, sizeof(dev->notes) - used, fmt, ap);
	va_end(ap);
}

static void resolve_product(const struct occ_product *pr, struct occ_device *out)
{
	occ_device_from_family(occ_family_find(pr->family), out);
	copy_str(out->name, sizeof(out->name), pr->name);
	out->desc = pr->desc;
	for (unsigned i = 0; i < OCC_MAX_PARAM_SET && pr->set[i].source; i++) {
		struct occ_param *p = &out->p[pr->set[i].id];
		p->value = pr->set[i].value;
		p->source = pr->set[i].source;
		p->disputed = pr->set[i].disputed;
		p->origin = OCC_FROM_TABLE;
	}
	if (pr->note)
		occ_add_note(out, "%s", pr->note);
}

/* Resolved table devices, built on first use (not thread-safe; the tool is single-threaded). */
static struct occ_device table_devs[OCC_MAX_PRODUCTS];
static size_t n_table_devs;

static void ensure_table(void)
{
	if (n_table_devs)
		return;
	for (size_t i = 0; i < occ_product_count(); i++) /* occ_data.c asserts the bound */
		resolve_product(occ_product_at(i), &table_devs[n_table_devs++]);
}

size_t occ_device_count(void)
{
	ensure_table();
	return n_table_devs;
}

const struct occ_device *occ_device_at(size_t i)
{
	ensure_table();
	return i < n_table_devs ? &table_devs[i] : NULL;
}

const struct occ_device *occ_find(const char *name)
{
	ensure_table();
	for (size_t i = 0; i < n_table_devs; i++) {
		const struct occ_product *pr = occ_product_at(i);
		if (names_match(pr->name, pr->aliases, name))
			return &table_devs[i];
	}
	const struct occ_family *f = occ_family_find(name);
	for (size_t i = 0; f && i < n_table_devs; i++)
		if (table_devs[i].fam == f)
			return &table_devs[i];
	return NULL;
}

bool occ_lookup(const char *name, struct occ_device *out)
{
	const struct occ_device *d = occ_find(name);
	if (d)
		*out = *d;
	return d != NULL;
}

void occ_list_names(FILE *f)
{
	ensure_table();
	for (int v = OCC_VENDOR_INTEL; v <= OCC_VENDOR_CPU; v++) {
		fprintf(f, "  %-7s", occ_vendor_str((enum occ_vendor)v));
		const char *sep = "";
		for (size_t i = 0; i < n_table_devs; i++)
			if (table_devs[i].vendor == (enum occ_vendor)v) {
				fprintf(f, "%s%s", sep, table_devs[i].name);
				sep = ", ";
			}
		fprintf(f, " (families:");
		for (size_t i = 0; i < occ_family_count(); i++)
			if (occ_family_at(i)->vendor == (enum occ_vendor)v)
				fprintf(f, " %s", occ_family_at(i)->name);
		fprintf(f, ")\n");
	}
}

/* Parameters the model divides by or sizes with: zero makes no sense for them. */
static bool needs_nonzero(enum occ_param_id id)
{
	return id == OCC_P_CU_COUNT || id == OCC_P_EU_PER_CU || id == OCC_P_THREADS_PER_EU ||
	       id == OCC_P_WG_MAX || id == OCC_P_WG_PER_CU;
}

bool occ_set_param(struct occ_device *dev, const char *name, unsigned long long value, char *err,
		   size_t errlen)
{
	int id = occ_param_find(name);
	if (id < 0) {
		int n = snprintf(err, errlen, "unknown model parameter '%s' (known:", name);
		for (int i = 0; i < OCC_P_COUNT && n > 0 && (size_t)n < errlen; i++)
			n += snprintf(err + n, errlen - (size_t)n, " %s", param_info[i].name);
		if (n > 0 && (size_t)n < errlen)
			snprintf(err + n, errlen - (size_t)n, ")");
		return false;
	}
	if (value > UINT_MAX || (value == 0 && needs_nonzero((enum occ_param_id)id))) {
		snprintf(err, errlen, "model parameter %s=%llu out of range (%s..%u)", name, value,
			 needs_nonzero((enum occ_param_id)id) ? "1" : "0", UINT_MAX);
		return false;
	}
	dev->p[id].value = value;
	dev->p[id].source = "override (--param)";
	dev->p[id].origin = OCC_FROM_OVERRIDE;
	return true;
}

/* ---- sub-group widths --------------------------------------------------------------------- */

unsigned occ_default_sg(const struct occ_device *dev)
{
	return dev->n_sg ? dev->sg_sizes[dev->n_sg - 1] : 32;
}

bool occ_sg_ok(const struct occ_device *dev, unsigned sg)
{
	for (unsigned i = 0; i < dev->n_sg; i++)
		if (dev->sg_sizes[i] == sg)
			return true;
	return false;
}

const char *occ_sg_list(const struct occ_device *dev, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < dev->n_sg && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%u", i ? ", " : "", dev->sg_sizes[i]);
		if (w < 0)
			break;
		n += (size_t)w;
	}
	return buf;
}

/* ---- percent strings ---------------------------------------------------------------------- */

const char *occ_pct_str(double frac, enum occ_pct_style style, char *buf, size_t len)
{
	if (!(frac > 0)) /* also NaN */
		frac = 0;
	long long tenths;
	switch (style) {
	case OCC_PCT_TRUNC1:
		/* 1e-9 absorbs binary error: 0.57 * 1000 may land just below 570 */
		tenths = (long long)floor(frac * 1000.0 + 1e-9);
		break;
	case OCC_PCT_ROUND0: tenths = 10 * llround(frac * 100.0); break;
	default: tenths = llround(frac * 1000.0); break;
	}
	if (tenths % 10 == 0)
		snprintf(buf, len, "%lld%%", tenths / 10);
	else
		snprintf(buf, len, "%lld.%lld%%", tenths / 10, tenths % 10);
	return buf;
}

const char *occ_format_occupancy(const struct occ_result *r, enum occ_pct_style style, char *buf,
				 size_t len)
{
	char a[24], b[24];
	if (!r->launchable)
		snprintf(buf, len, "fails to launch");
	else if (r->waves <= 1)
		snprintf(buf, len, "%llu/%llu = %s", r->first_threads, r->capacity,
			 occ_pct_str(r->gpu_occupancy, style, a, sizeof(a)));
	else if (!r->tail_threads) /* whole waves only: the guide writes "100%" */
		snprintf(buf, len, "%s", occ_pct_str(r->gpu_occupancy, style, a, sizeof(a)));
	else
		snprintf(buf, len, "%s then %s", occ_pct_str(r->gpu_occupancy, style, a, sizeof(a)),
			 occ_pct_str(r->tail_occupancy, style, b, sizeof(b)));
	return buf;
}

/* ---- JSON ---- */

static const char *origin_str(enum occ_origin o)
{
	static const char *const names[] = { "unset", "table", "live", "override" };
	return (unsigned)o < 4 ? names[o] : "?";
}

json_t *occ_params_json(const struct occ_device *dev)
{
	json_t *o = json_object();
	for (int i = 0; i < OCC_P_COUNT; i++)
		if (dev->p[i].origin != OCC_UNSET)
			json_object_set_new(o, param_info[i].name,
					    json_integer((json_int_t)dev->p[i].value));
	return o;
}

json_t *occ_choices_json(const struct occ_device *dev)
{
	json_t *o = json_object();
	for (int i = 0; i < OCC_P_COUNT; i++) {
		const struct occ_param *p = &dev->p[i];
		if (!p->disputed && p->origin != OCC_FROM_OVERRIDE && p->origin != OCC_FROM_LIVE)
			continue;
		json_object_set_new(o, param_info[i].name,
				    json_pack("{s:I, s:s?, s:s?, s:s}", "value", (json_int_t)p->value,
					      "source", p->source, "alternatives", p->disputed,
					      "origin", origin_str(p->origin)));
	}
	return o;
}
