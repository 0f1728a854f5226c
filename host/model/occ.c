/*
 * The occupancy model's computations (formulas and sources: README.md, "The occupancy model").
 *
 * Per compute unit (CU) each vendor's limits give the resident work-groups
 * (wg_per_cu) and the resource that binds; the launch of G work-groups is then
 * cut into waves the same way for everyone. Intel work-groups without barrier
 * or SLM may spread their threads over CUs (Intel's GPU optimization guide: "threads from any
 * work-group can be dispatched to any Xe-core"), so their waves are counted in
 * threads; all others sit whole on one CU.
 */
#include "occ.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

static const struct {
	const char *name, *unit, *desc;
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

const char *occ_param_desc(enum occ_param_id id)
{
	return id < OCC_P_COUNT ? param_info[id].desc : "";
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

/* ---- the per-CU fit ----------------------------------------------------------------------- */

/* What one compute unit holds for this kernel. */
struct fit {
	unsigned tpw;                 /* threads (warps, waves) per work-group */
	unsigned slots;               /* thread slots a CU offers this kernel */
	unsigned cap_slots;           /* slots counted as 100% (Intel: small GRF) */
	unsigned long long wg_per_cu; /* the tightest limit so far */
	const char *limiter;
	unsigned long long other; /* tightest limit other than thread slots */
	bool splittable;
};

static unsigned long long pv(const struct occ_device *d, enum occ_param_id id)
{
	return d->p[id].value;
}

static unsigned long long div_up(unsigned long long a, unsigned long long b)
{
	return b ? (a + b - 1) / b : 0;
}

static unsigned long long round_up(unsigned long long a, unsigned long long g)
{
	return g ? div_up(a, g) * g : a;
}

static unsigned long long sat_mul(unsigned long long a, unsigned long long b)
{
	return (b && a > ULLONG_MAX / b) ? ULLONG_MAX : a * b;
}

static void limit(struct fit *f, const char *name, unsigned long long n, bool thread_slots)
{
	if (!thread_slots && n < f->other)
		f->other = n;
	if (n < f->wg_per_cu) {
		f->wg_per_cu = n;
		f->limiter = name;
	}
}

static bool fail(struct occ_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct occ_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->why_not, sizeof(r->why_not), fmt, ap);
	va_end(ap);
	r->launchable = false;
	r->limiter = r->cu_limiter = "fails to launch";
	copy_str(r->occupancy_str, sizeof(r->occupancy_str), "fails to launch");
	return false;
}

/* Smallest Intel SLM allocation step holding slm bytes; 0 if none does. */
static unsigned long long intel_slm_round(const struct occ_device *d, unsigned long long slm)
{
	if (pv(d, OCC_P_SLM_GRANULE))
		return round_up(slm, pv(d, OCC_P_SLM_GRANULE));
	for (unsigned i = 0; d->fam && i < d->fam->n_slm_steps; i++)
		if (slm <= d->fam->slm_steps_kib[i] * 1024ULL)
			return d->fam->slm_steps_kib[i] * 1024ULL;
	return 0;
}

static bool fit_slots(const struct occ_device *d, unsigned sg, const struct occ_kernel *k,
		      struct fit *f, struct occ_result *r, const char *word)
{
	f->tpw = (unsigned)div_up(k->wg_size, sg);
	if (f->tpw > f->slots)
		return fail(r, "a work-group needs %u %s, a %s holds %u", f->tpw, word, d->cu_word,
			    f->slots);
	limit(f, word, f->slots / f->tpw, true);
	return true;
}

static bool fit_intel(const struct occ_device *d, unsigned sg, const struct occ_kernel *k,
		      struct fit *f, struct occ_result *r)
{
	if (k->grf_large && !(d->fam && d->fam->grf_large_ok))
		return fail(r, "large GRF mode: the table has it for Xe-HPC only, not %s", d->family);
	f->cap_slots = (unsigned)(pv(d, OCC_P_EU_PER_CU) * pv(d, OCC_P_THREADS_PER_EU));
	f->slots = k->grf_large ? f->cap_slots / 2 : f->cap_slots;
	if (!fit_slots(d, sg, k, f, r, "threads"))
		return false;
	limit(f, "work-group cap", pv(d, OCC_P_WG_PER_CU), false);
	if (k->barrier && pv(d, OCC_P_BARRIER_WG_PER_CU))
		limit(f, "barriers", pv(d, OCC_P_BARRIER_WG_PER_CU), false);
	if (k->slm_bytes) {
		unsigned long long s = intel_slm_round(d, k->slm_bytes);
		if (!s)
			return fail(r, "SLM of %lu B is above the largest allocation step",
				    k->slm_bytes);
		limit(f, "SLM", pv(d, OCC_P_SLM_PER_CU) / s, false);
	}
	/* without barrier and SLM the threads of a work-group may go to any Xe-core */
	f->splittable = !k->barrier && !k->slm_bytes;
	return true;
}

/* cudaOccMaxActiveBlocksPerMultiprocessor's limits: warps, blocks, registers, shared memory. */
static bool fit_nvidia(const struct occ_device *d, unsigned sg, const struct occ_kernel *k,
		       struct fit *f, struct occ_result *r)
{
	unsigned long long parts = pv(d, OCC_P_EU_PER_CU);
	f->cap_slots = f->slots = (unsigned)(parts * pv(d, OCC_P_THREADS_PER_EU));
	if (!fit_slots(d, sg, k, f, r, "warps"))
		return false;
	limit(f, "blocks", pv(d, OCC_P_WG_PER_CU), false);
	if (k->regs_per_thread) {
		if (k->regs_per_thread > pv(d, OCC_P_REGS_MAX))
			return fail(r, "%u registers per thread, at most %llu", k->regs_per_thread,
				    pv(d, OCC_P_REGS_MAX));
		/*
		 * Registers are allocated per warp, in each sub-partition; a block
		 * is checked as if its warps filled whole sub-partitions
		 * (cuda_occupancy.h: regsAssumedPerCTA).
		 */
		unsigned long long per_warp =
			round_up((unsigned long long)k->regs_per_thread * sg, pv(d, OCC_P_REG_GRANULE));
		unsigned long long per_block = per_warp * round_up(f->tpw, parts);
		if (per_block > pv(d, OCC_P_REGS_PER_EU) * parts)
			return fail(r, "%llu registers per block, at most %llu", per_block,
				    pv(d, OCC_P_REGS_PER_EU) * parts);
		unsigned long long warps = pv(d, OCC_P_REGS_PER_EU) / per_warp * parts;
		limit(f, "registers", warps / f->tpw, false);
	}
	unsigned long long smem =
		round_up(k->slm_bytes + pv(d, OCC_P_SLM_RESERVED), pv(d, OCC_P_SLM_GRANULE));
	if (smem)
		limit(f, "shared memory", pv(d, OCC_P_SLM_PER_CU) / smem, false);
	return true;
}

/* Waves per SIMD from VGPRs, LDS, barriers and the wave cap (LLVM AMDGPU's occupancy rules). */
static bool fit_amd(const struct occ_device *d, unsigned sg, const struct occ_kernel *k, struct fit *f,
		    struct occ_result *r)
{
	unsigned long long simds = pv(d, OCC_P_EU_PER_CU), waves = pv(d, OCC_P_THREADS_PER_EU);
	f->cap_slots = f->slots = (unsigned)(simds * waves);
	if (!fit_slots(d, sg, k, f, r, "waves"))
		return false;
	limit(f, "work-group cap", pv(d, OCC_P_WG_PER_CU), false);
	/* a work-group of one wave needs no barrier resource (LLVM getMaxWorkGroupsPerCU) */
	if (f->tpw > 1 && pv(d, OCC_P_BARRIER_WG_PER_CU))
		limit(f, "barriers", pv(d, OCC_P_BARRIER_WG_PER_CU), false);
	if (k->regs_per_thread) {
		if (k->regs_per_thread > pv(d, OCC_P_REGS_MAX))
			return fail(r, "%u VGPRs per work-item, at most %llu", k->regs_per_thread,
				    pv(d, OCC_P_REGS_MAX));
		unsigned long long v = round_up(k->regs_per_thread, pv(d, OCC_P_REG_GRANULE));
		unsigned long long w = pv(d, OCC_P_REGS_PER_EU) / v;
		if (w > waves)
			w = waves;
		/* the waves of a work-group spread over the SIMDs of its CU */
		if (w * simds < f->tpw)
			return fail(r, "%u waves of %llu VGPRs do not fit a %s", f->tpw, v, d->cu_word);
		limit(f, "registers", w * simds / f->tpw, false);
	}
	if (k->slm_bytes)
		limit(f, "LDS",
		      pv(d, OCC_P_SLM_PER_CU) / round_up(k->slm_bytes, pv(d, OCC_P_SLM_GRANULE)),
		      false);
	return true;
}

/* One work-group at a time per worker thread. */
static bool fit_cpu(const struct occ_device *d, const struct occ_kernel *k, struct fit *f,
		    struct occ_result *r)
{
	(void)k;
	(void)r;
	f->tpw = f->slots = f->cap_slots = 1;
	limit(f, "threads", 1, true);
	limit(f, "work-group cap", pv(d, OCC_P_WG_PER_CU), false);
	return true;
}

/* Checks every vendor shares; sg is the width used. */
static bool check_common(const struct occ_device *d, const struct occ_kernel *k, unsigned sg,
			 struct occ_result *r)
{
	char list[64];
	if (!pv(d, OCC_P_CU_COUNT) || !pv(d, OCC_P_EU_PER_CU) || !pv(d, OCC_P_THREADS_PER_EU))
		return fail(r, "the device's %s count or thread slots are unknown", d->cu_word);
	if (!occ_sg_ok(d, sg))
		return fail(r, "SIMD %u not offered (%s)", sg, occ_sg_list(d, list, sizeof(list)));
	if (k->wg_size == 0)
		return fail(r, "work-group size 0");
	if (k->wg_size > pv(d, OCC_P_WG_MAX))
		return fail(r, "work-group of %u above the device maximum %llu", k->wg_size,
			    pv(d, OCC_P_WG_MAX));
	if (pv(d, OCC_P_SLM_PER_WG) && k->slm_bytes > pv(d, OCC_P_SLM_PER_WG))
		return fail(r, "%lu B of local memory above the %llu B a work-group may use",
			    k->slm_bytes, pv(d, OCC_P_SLM_PER_WG));
	return true;
}

static bool fit_device(const struct occ_device *d, const struct occ_kernel *k, unsigned sg,
		       struct fit *f, struct occ_result *r)
{
	memset(f, 0, sizeof(*f));
	f->wg_per_cu = f->other = ULLONG_MAX;
	if (!check_common(d, k, sg, r))
		return false;
	bool ok = false;
	switch (d->vendor) {
	case OCC_VENDOR_INTEL: ok = fit_intel(d, sg, k, f, r); break;
	case OCC_VENDOR_NVIDIA: ok = fit_nvidia(d, sg, k, f, r); break;
	case OCC_VENDOR_AMD: ok = fit_amd(d, sg, k, f, r); break;
	case OCC_VENDOR_CPU: ok = fit_cpu(d, k, f, r); break;
	}
	if (ok && f->wg_per_cu == 0)
		return fail(r, "no work-group fits a %s: %s", d->cu_word, f->limiter);
	return ok;
}

/* ---- the launch --------------------------------------------------------------------------- */

static void launch(const struct occ_device *d, const struct fit *f, unsigned long long groups,
		   struct occ_result *r)
{
	unsigned long long cu = pv(d, OCC_P_CU_COUNT), wave;
	r->threads_per_wg = f->tpw;
	r->slots_per_cu = f->slots;
	r->wg_per_cu = (unsigned)f->wg_per_cu;
	r->cu_limiter = f->limiter;
	r->splittable = f->splittable;
	r->capacity = sat_mul(cu, f->cap_slots);
	r->resident_wg = sat_mul(cu, f->wg_per_cu);
	r->threads = sat_mul(groups, f->tpw);
	wave = sat_mul(r->resident_wg, f->tpw);
	if (f->splittable) {
		/* a wave is bounded by thread slots, and by the work-group caps counted in threads */
		wave = sat_mul(cu, f->slots);
		unsigned long long capped = sat_mul(sat_mul(cu, f->other), f->tpw);
		if (capped < wave)
			wave = capped;
	}
	r->wave_threads = wave;
	r->first_threads = r->threads < wave ? r->threads : wave;
	r->waves = div_up(r->threads, wave);
	r->tail_threads = r->waves > 1 ? r->threads - (r->waves - 1) * wave : 0;
	if (r->tail_threads == wave)
		r->tail_threads = 0; /* the last wave is full */
	unsigned long long on_cu = groups < f->wg_per_cu ? groups : f->wg_per_cu;
	r->cu_occupancy = (double)(on_cu * f->tpw) / f->cap_slots;
	r->gpu_occupancy = (double)r->first_threads / (double)r->capacity;
	r->tail_occupancy = (double)r->tail_threads / (double)r->capacity;
	r->limiter = r->first_threads < wave ? "launch size" : f->limiter;
	occ_format_occupancy(r, OCC_PCT_ROUND1, r->occupancy_str, sizeof(r->occupancy_str));
}

void occ_predict(const struct occ_device *dev, const struct occ_kernel *k, unsigned long long groups,
		 struct occ_result *r)
{
	struct fit f;
	memset(r, 0, sizeof(*r));
	r->launchable = true;
	r->sg_size = k->sg_size ? k->sg_size : occ_default_sg(dev);
	if (!fit_device(dev, k, r->sg_size, &f, r))
		return;
	launch(dev, &f, groups, r);
}

/* ---- full occupancy ----------------------------------------------------------------------- */

bool occ_full_occupancy(const struct occ_device *dev, bool grf_large, struct occ_full *out, char *why,
			size_t whylen)
{
	memset(out, 0, sizeof(*out));
	if (dev->vendor == OCC_VENDOR_CPU) {
		snprintf(why, whylen,
			 "a CPU runs one work-group per hardware thread: any work-group size "
			 "fills it once %llu work-groups run",
			 pv(dev, OCC_P_CU_COUNT));
		return false;
	}
	out->slots = (unsigned)(pv(dev, OCC_P_EU_PER_CU) * pv(dev, OCC_P_THREADS_PER_EU));
	if (grf_large && dev->vendor == OCC_VENDOR_INTEL)
		out->slots /= 2;
	out->wg_cap = (unsigned)pv(dev, OCC_P_WG_PER_CU);
	out->min_sg = dev->sg_sizes[0];
	out->max_sg = dev->sg_sizes[dev->n_sg - 1];
	out->max_wg = (unsigned)pv(dev, OCC_P_WG_MAX);
	out->max_threads = out->max_wg / out->min_sg;
	if (out->max_threads > out->slots)
		out->max_threads = out->slots;
	/*
	 * Threads per work-group are work-group size / SIMD, both powers of two in
	 * practice; the smallest such count whose capped number of work-groups
	 * still fills the slots (GPU Optimization Guide, DPC++ edition: "8 x 16 = 128 > 112").
	 */
	unsigned long long need = div_up(out->slots, out->wg_cap);
	out->min_threads = 1;
	while (out->min_threads < need)
		out->min_threads *= 2;
	if (out->min_threads > out->max_threads) {
		snprintf(why, whylen, "no work-group size fills a %s: %u threads needed, at most %u",
			 dev->cu_word, out->min_threads, out->max_threads);
		return false;
	}
	return true;
}

/* ---- JSON --------------------------------------------------------------------------------- */

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

static json_t *kernel_json(const struct occ_kernel *k, unsigned sg)
{
	return json_pack("{s:I, s:I, s:I, s:b, s:b, s:I}", "wg_size", (json_int_t)k->wg_size, "sg_size",
			 (json_int_t)sg, "slm_bytes", (json_int_t)k->slm_bytes, "barrier", k->barrier,
			 "grf_large", k->grf_large, "regs_per_thread", (json_int_t)k->regs_per_thread);
}

static void add_counts(json_t *o, const struct occ_result *r)
{
	json_object_update_new(o, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:I, s:I, s:I}",
					    "threads_per_wg", (json_int_t)r->threads_per_wg, "threads",
					    (json_int_t)r->threads, "capacity", (json_int_t)r->capacity,
					    "slots_per_cu", (json_int_t)r->slots_per_cu, "wg_per_cu",
					    (json_int_t)r->wg_per_cu, "resident_wg",
					    (json_int_t)r->resident_wg, "splittable", r->splittable,
					    "wave_threads", (json_int_t)r->wave_threads,
					    "first_threads", (json_int_t)r->first_threads,
					    "tail_threads", (json_int_t)r->tail_threads));
	json_object_update_new(o, json_pack("{s:f, s:f, s:f, s:I, s:s, s:s, s:s}", "cu_occupancy",
					    r->cu_occupancy, "gpu_occupancy", r->gpu_occupancy,
					    "tail_occupancy", r->tail_occupancy, "waves",
					    (json_int_t)r->waves, "limiter", r->limiter, "cu_limiter",
					    r->cu_limiter, "occupancy", r->occupancy_str));
}

json_t *occ_result_json(const struct occ_device *dev, const struct occ_kernel *k,
			const struct occ_result *r)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:b}", "device", dev->name, "family",
			      dev->family, "vendor", occ_vendor_str(dev->vendor), "live", dev->live,
			      "kernel", kernel_json(k, r->sg_size), "params", occ_params_json(dev),
			      "choices", occ_choices_json(dev), "launchable", r->launchable);
	if (r->launchable)
		add_counts(o, r);
	else
		json_object_set_new(o, "why_not", json_string(r->why_not));
	json_object_set_new(o, "notes", dev->notes[0] ? json_string(dev->notes) : json_null());
	return o;
}
