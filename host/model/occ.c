/*
 * The occupancy model's computations (formulas and sources: docs/model.md, "The occupancy
 * model"); the device table and its parameters are occ_table.c's.
 *
 * Per compute unit (CU) each vendor's limits give the resident work-groups
 * (wg_per_cu) and the resource that binds; the launch of G work-groups is then
 * cut into waves the same way for everyone. Intel work-groups without barrier
 * or SLM may spread their threads over CUs (Intel's GPU optimization guide: "threads from any
 * work-group can be dispatched to any Xe-core"), so their waves are counted in
 * threads; all others sit whole on one CU.
 */
#include "occ.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

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
	snprintf(r->occupancy_str, sizeof(r->occupancy_str), "fails to launch");
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
		 * (CUDA's cuda_occupancy.h: regsAssumedPerCTA).
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
