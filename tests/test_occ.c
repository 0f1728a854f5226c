/*
 * Unit tests of the occupancy model (host/occ.c, occ_data.c, occ_live.c).
 *
 * Every expected value is written out here, from the published tables (the
 * "Thread Mapping and GPU Occupancy" chapter of Intel's oneAPI GPU Optimization
 * Guide, called "the seed" below, in its editions) or worked by hand in the
 * comments; none is computed by the code under test. Where a seed's cell
 * disagrees with its own table's rule the row keeps the seed's string beside the
 * asserted one, and a comment says why.
 *
 * Exit 0 when every check passes, 1 otherwise; each failure prints expected and actual.
 */
#include "occ.h"

#include "dev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;

static void check_u(const char *ctx, const char *what, unsigned long long exp, unsigned long long act,
		    int line)
{
	checks++;
	if (exp == act)
		return;
	failures++;
	fprintf(stderr, "test_occ.c:%d: %s: %s: expected %llu, actual %llu\n", line, ctx, what, exp,
		act);
}

static void check_s(const char *ctx, const char *what, const char *exp, const char *act, int line)
{
	checks++;
	if (exp && act && strcmp(exp, act) == 0)
		return;
	failures++;
	fprintf(stderr, "test_occ.c:%d: %s: %s: expected \"%s\", actual \"%s\"\n", line, ctx, what,
		exp ? exp : "(null)", act ? act : "(null)");
}

#define CHECK_U(ctx, what, e, a) check_u((ctx), (what), (e), (a), __LINE__)
#define CHECK_S(ctx, what, e, a) check_s((ctx), (what), (e), (a), __LINE__)
#define CHECK(ctx, cond) check_u((ctx), #cond, 1, !!(cond), __LINE__)

static const char *pct(double frac, enum occ_pct_style st)
{
	static char buf[4][24];
	static int i;
	i = (i + 1) % 4;
	return occ_pct_str(frac, st, buf[i], sizeof(buf[i]));
}

static const struct occ_device *dev(const char *name)
{
	const struct occ_device *d = occ_find(name);
	if (!d) {
		fprintf(stderr, "test_occ.c: device '%s' missing from the table\n", name);
		exit(1);
	}
	return d;
}

static struct occ_result run(const struct occ_device *d, unsigned wg, unsigned sg, unsigned long slm,
			     bool barrier, unsigned regs, unsigned long long groups)
{
	struct occ_kernel k = { .wg_size = wg,
				.sg_size = sg,
				.slm_bytes = slm,
				.barrier = barrier,
				.regs_per_thread = regs };
	struct occ_result r;
	occ_predict(d, &k, groups, &r);
	return r;
}

/* ---- percent styles ----------------------------------------------------------------------- */

static void test_pct(void)
{
	CHECK_S("pct", "16/672 round1", "2.4%", pct(16.0 / 672, OCC_PCT_ROUND1));
	CHECK_S("pct", "128/672 round1 drops .0", "19%", pct(128.0 / 672, OCC_PCT_ROUND1));
	CHECK_S("pct", "1 round1", "100%", pct(1.0, OCC_PCT_ROUND1));
	CHECK_S("pct", "0 round1", "0%", pct(0.0, OCC_PCT_ROUND1));
	CHECK_S("pct", "1/16 round1, half away from zero", "6.3%", pct(0.0625, OCC_PCT_ROUND1));
	CHECK_S("pct", "8/56 trunc1", "14.2%", pct(8.0 / 56, OCC_PCT_TRUNC1));
	CHECK_S("pct", "0.57 trunc1 (binary 569.99...)", "57%", pct(0.57, OCC_PCT_TRUNC1));
	CHECK_S("pct", "6/7 round0", "86%", pct(6.0 / 7, OCC_PCT_ROUND0));
}

/* ---- TGL VectorAdd2: guide editions, 512 work-items, SIMD 32, 672 thread slots ---------- */

static const struct {
	unsigned long long groups, items, threads, waves;
	const char *seed;   /* the seed's Occupancy cell */
	const char *expect; /* asserted where it differs from the seed, else NULL */
} tgl_vadd2[] = {
	{ 1, 512, 16, 1, "16/672 = 2.4%", NULL },
	{ 2, 1024, 32, 1, "32/672 = 4.8%", NULL },
	{ 3, 1536, 48, 1, "48/672 = 7.1%", NULL },
	{ 4, 2048, 64, 1, "64/672 = 9.5%", NULL },
	{ 5, 2560, 80, 1, "80/672 = 11.9%", NULL },
	{ 6, 3072, 96, 1, "96/672 = 14.3%", NULL },
	{ 7, 3584, 112, 1, "112/672 = 16.7%", NULL },
	{ 8, 4096, 128, 1, "128/672 = 19%", NULL },
	{ 12, 6144, 192, 1, "192/672 = 28.6%", NULL },
	{ 16, 8192, 256, 1, "256/672 = 38.1%", NULL },
	/* seed typo: 320/672 = 0.47619, 47.6% rounded and truncated alike */
	{ 20, 10240, 320, 1, "320/672 = 47.7%", "320/672 = 47.6%" },
	{ 24, 12288, 384, 1, "384/672 = 57.1%", NULL },
	{ 28, 14336, 448, 1, "448/672 = 66.7%", NULL },
	{ 32, 16384, 512, 1, "512/672 = 76.2%", NULL },
	{ 36, 18432, 576, 1, "576/672 = 85.7%", NULL },
	{ 40, 20480, 640, 1, "640/672 = 95.2%", NULL },
	{ 42, 21504, 672, 1, "672/672 = 100%", NULL },
	/*
	 * 704 threads: 672 then 32 = 32/672 = 4.76%. The same table writes
	 * 32/672 as "4.8%" (row 2): "4.7%" here is truncation in a rounded
	 * table, so no one rule gives both; the model keeps the table's rule
	 * (test_tgl_vadd2 shows that truncation gives the seed's string).
	 */
	{ 44, 22528, 704, 2, "100% then 4.7%", "100% then 4.8%" },
	/* 768 threads: 672 then 96 = 96/672 = 14.29% */
	{ 48, 24576, 768, 2, "100% then 14.3%", NULL },
};

static void test_tgl_vadd2(void)
{
	const struct occ_device *tgl = dev("TGL-96");
	char ctx[64], buf[64];
	for (size_t i = 0; i < sizeof(tgl_vadd2) / sizeof(tgl_vadd2[0]); i++) {
		unsigned long long g = tgl_vadd2[i].groups;
		struct occ_result r = run(tgl, 512, 32, 0, false, 0, g);
		snprintf(ctx, sizeof(ctx), "TGL VectorAdd2<%llu>", g);
		CHECK_U(ctx, "work-items (table data)", tgl_vadd2[i].items, g * 512);
		CHECK(ctx, r.launchable);
		CHECK_U(ctx, "threads per work-group", 16, r.threads_per_wg);
		CHECK_U(ctx, "threads", tgl_vadd2[i].threads, r.threads);
		CHECK_U(ctx, "capacity", 672, r.capacity);
		CHECK_U(ctx, "waves", tgl_vadd2[i].waves, r.waves);
		CHECK_S(ctx, "occupancy", tgl_vadd2[i].expect ? tgl_vadd2[i].expect : tgl_vadd2[i].seed,
			r.occupancy_str);
		CHECK(ctx, r.splittable);
	}
	struct occ_result r = run(tgl, 512, 32, 0, false, 0, 44);
	CHECK_S("TGL VectorAdd2<44>", "occupancy truncated", "100% then 4.7%",
		occ_format_occupancy(&r, OCC_PCT_TRUNC1, buf, sizeof(buf)));
	r = run(tgl, 512, 32, 0, false, 0, 2);
	CHECK_S("TGL VectorAdd2<2>", "occupancy truncated (the seed writes 4.8%)", "32/672 = 4.7%",
		occ_format_occupancy(&r, OCC_PCT_TRUNC1, buf, sizeof(buf)));
	r = run(tgl, 512, 32, 0, false, 0, 1);
	CHECK_S("TGL VectorAdd2<1>", "limiter", "launch size", r.limiter);
	CHECK_S("TGL VectorAdd2<1>", "Xe-core limiter", "threads", r.cu_limiter);
	CHECK_U("TGL VectorAdd2<1>", "work-groups per Xe-core (112 / 16)", 7, r.wg_per_cu);
	CHECK_S("TGL VectorAdd2<1>", "Xe-core occupancy 16/112", "14.3%",
		pct(r.cu_occupancy, OCC_PCT_ROUND1));
	/*
	 * VectorAdd1: the seed writes 53760 work-groups but 13.7M work-items
	 * and 430K threads, which are 26880 work-groups of 512 (13762560 =
	 * the seed's N). Both fill whole waves: "100%".
	 */
	r = run(tgl, 512, 32, 0, false, 0, 26880);
	CHECK_U("TGL VectorAdd1 26880", "threads (430K)", 430080, r.threads);
	CHECK_U("TGL VectorAdd1 26880", "waves", 640, r.waves);
	CHECK_S("TGL VectorAdd1 26880", "occupancy", "100%", r.occupancy_str);
	r = run(tgl, 512, 32, 0, false, 0, 53760);
	CHECK_U("TGL VectorAdd1 53760", "threads", 860160, r.threads);
	CHECK_S("TGL VectorAdd1 53760", "occupancy", "100%", r.occupancy_str);
}

/* ---- Gen9 P630 vec_add: the Gen9 vec_add notebook, 256 work-items, SIMD 32, 3 x 56 thread slots ----------- */

/*
 * The table truncates to 0.1 (14.2%, 28.5%, 42.8% for 14.29, 28.57, 42.86)
 * and drops ".0" (19%, 38%). Rows 12, 16 and 20 write the GPU column without
 * its decimal: 96/168 = 4/7 is "57.1%" in the same table's Xe-core column
 * (row 4), so the rule's 57.1 / 76.1 / 95.2 are asserted.
 */
static const struct {
	unsigned long long groups, threads;
	const char *xe_seed, *gpu_seed, *gpu_expect;
} gen9_vadd[] = {
	{ 1, 8, "14.2%", "4.7%", NULL },
	{ 2, 16, "28.5%", "9.5%", NULL },
	{ 3, 24, "42.8%", "14.2%", NULL },
	{ 4, 32, "57.1%", "19%", NULL },
	{ 5, 40, "71.4%", "23.8%", NULL },
	{ 6, 48, "85.7%", "28.5%", NULL },
	{ 7, 56, "100%", "33.3%", NULL },
	{ 8, 64, "100%", "38%", NULL },
	{ 12, 96, "100%", "57%", "57.1%" },
	{ 16, 128, "100%", "76%", "76.1%" },
	{ 20, 160, "100%", "95%", "95.2%" },
	{ 24, 192, "100%", "100%", NULL }, /* 192 > 168: the first wave is full */
};

static void test_gen9_vadd(void)
{
	const struct occ_device *p630 = dev("P630");
	char ctx[64];
	for (size_t i = 0; i < sizeof(gen9_vadd) / sizeof(gen9_vadd[0]); i++) {
		unsigned long long g = gen9_vadd[i].groups;
		struct occ_result r = run(p630, 256, 32, 0, false, 0, g);
		snprintf(ctx, sizeof(ctx), "Gen9 vec_add<%llu>", g);
		CHECK_U(ctx, "threads per work-group", 8, r.threads_per_wg);
		CHECK_U(ctx, "threads", gen9_vadd[i].threads, r.threads);
		CHECK_U(ctx, "capacity", 168, r.capacity);
		CHECK_S(ctx, "Xe-core occupancy", gen9_vadd[i].xe_seed,
			pct(r.cu_occupancy, OCC_PCT_TRUNC1));
		CHECK_S(ctx, "GPU occupancy",
			gen9_vadd[i].gpu_expect ? gen9_vadd[i].gpu_expect : gen9_vadd[i].gpu_seed,
			pct(r.gpu_occupancy, OCC_PCT_TRUNC1));
	}
	struct occ_result r = run(p630, 256, 32, 0, false, 0, 24);
	CHECK_U("Gen9 vec_add<24>", "waves", 2, r.waves);
	CHECK_S("Gen9 vec_add<24>", "occupancy (24/168 left)", "100% then 14.2%",
		occ_format_occupancy(&r, OCC_PCT_TRUNC1, (char[64]){ 0 }, 64));
	r = run(p630, 512, 32, 0, false, 0, 1);
	CHECK("Gen9 work-group 512 > 256", !r.launchable);
}

/* ---- barriers: guide editions, TGL, local range (1, R, 128), SIMD 8 -------------------- */

/*
 * Utilization = threads / 112 of one work-group; occupancy with N resident
 * work-groups = N * threads / 112, N = floor(112 / threads). The table rounds
 * to whole percents (14%, 86%, 57%); "28.2%" is a typo for 32/112 = 28.57%,
 * and "42.9%" keeps one decimal in that column (asserted below in 0.1 too).
 */
static const struct {
	unsigned r, wg, threads;
	const char *util_seed, *util_expect;
	unsigned resident;
	const char *occ_seed;
} barrier_tab[] = {
	{ 1, 128, 16, "16/112 = 14%", NULL, 7, "100%" },
	{ 2, 256, 32, "32/112 = 28.2%", "32/112 = 29%", 3, "86%" },
	{ 3, 384, 48, "48/112 = 42.9%", "48/112 = 43%", 2, "86%" },
	{ 4, 512, 64, "64/112 = 57%", NULL, 1, "57%" },
};

static void test_barrier(void)
{
	const struct occ_device *tgl = dev("TGL-96");
	char ctx[64], util[64];
	for (size_t i = 0; i < sizeof(barrier_tab) / sizeof(barrier_tab[0]); i++) {
		struct occ_result one = run(tgl, barrier_tab[i].wg, 8, 0, true, 0, 1);
		struct occ_result full =
			run(tgl, barrier_tab[i].wg, 8, 0, true, 0, barrier_tab[i].resident);
		snprintf(ctx, sizeof(ctx), "barrier R=%u", barrier_tab[i].r);
		CHECK_U(ctx, "threads", barrier_tab[i].threads, one.threads_per_wg);
		snprintf(util, sizeof(util), "%u/%u = %s", one.threads_per_wg, one.slots_per_cu,
			 pct(one.cu_occupancy, OCC_PCT_ROUND0));
		CHECK_S(ctx, "Xe-core utilization",
			barrier_tab[i].util_expect ? barrier_tab[i].util_expect
						   : barrier_tab[i].util_seed,
			util);
		CHECK_U(ctx, "work-groups per Xe-core", barrier_tab[i].resident, full.wg_per_cu);
		CHECK_S(ctx, "Xe-core occupancy", barrier_tab[i].occ_seed,
			pct(full.cu_occupancy, OCC_PCT_ROUND0));
		CHECK_S(ctx, "limiter", "threads", full.cu_limiter);
		CHECK(ctx, !full.splittable);
	}
	CHECK_S("barrier R=3", "utilization in 0.1", "42.9%", pct(48.0 / 112, OCC_PCT_ROUND1));
	CHECK_S("barrier R=2", "utilization in 0.1 (not the seed's 28.2)", "28.6%",
		pct(run(tgl, 256, 8, 0, true, 0, 1).cu_occupancy, OCC_PCT_ROUND1));
	struct occ_result r = run(tgl, 640, 8, 0, true, 0, 1);
	CHECK("barrier R=5 (640 work-items) fails to launch", !r.launchable);
	CHECK("barrier R=5 names the maximum", strstr(r.why_not, "512") != NULL);
	CHECK_S("barrier R=5", "occupancy", "fails to launch", r.occupancy_str);
	/* R=4 on the GPU: whole work-groups, 1 per Xe-core: 6 x 64 = 384 of 672 */
	r = run(tgl, 512, 8, 0, true, 0, 6);
	CHECK_S("barrier R=4, 6 groups", "occupancy", "384/672 = 57.1%", r.occupancy_str);
	r = run(tgl, 512, 8, 0, true, 0, 7);
	CHECK_U("barrier R=4, 7 groups", "waves", 2, r.waves);
	CHECK_S("barrier R=4, 7 groups", "occupancy (1 x 64 left)", "57.1% then 9.5%", r.occupancy_str);
	/* the same work-group without the barrier spreads: 7 x 64 = 448 of 672 */
	r = run(tgl, 512, 8, 0, false, 0, 7);
	CHECK_S("R=4 without barrier, 7 groups", "occupancy", "448/672 = 66.7%", r.occupancy_str);
}

/* ---- full occupancy: the guide's TGL table -------------------------------------------------- */

static void test_full(void)
{
	struct occ_device tgl;
	struct occ_full f;
	char why[128], err[256];
	CHECK("lookup TGL", occ_lookup("TGL-96", &tgl));
	/*
	 * the guide: min 8 threads (16 work-groups per sub-slice: 8 x 16 =
	 * 128 > 112), max 64 (512 / SIMD 8), SIMD 8..32, max work-group 512.
	 * The 16 is the 2021 guide's; the calculator's 112 is the default.
	 */
	CHECK("set wg_per_cu=16", occ_set_param(&tgl, "wg_per_cu", 16, err, sizeof(err)));
	CHECK("TGL full occupancy", occ_full_occupancy(&tgl, false, &f, why, sizeof(why)));
	CHECK_U("TGL full (wg_per_cu 16)", "minimum threads", 8, f.min_threads);
	CHECK_U("TGL full (wg_per_cu 16)", "maximum threads", 64, f.max_threads);
	CHECK_U("TGL full (wg_per_cu 16)", "minimum sub-group", 8, f.min_sg);
	CHECK_U("TGL full (wg_per_cu 16)", "maximum sub-group", 32, f.max_sg);
	CHECK_U("TGL full (wg_per_cu 16)", "maximum work-group", 512, f.max_wg);
	CHECK_U("TGL full (wg_per_cu 16)", "thread slots", 112, f.slots);
	/* with the calculator's cap of 112 a single thread per work-group fills a sub-slice */
	CHECK("TGL full, default", occ_full_occupancy(dev("TGL-96"), false, &f, why, sizeof(why)));
	CHECK_U("TGL full (wg_per_cu 112)", "minimum threads", 1, f.min_threads);
	/* H100: 64 warp slots, 32 blocks: 2 warps minimum; 1024 / 32 = 32 maximum */
	CHECK("H100 full", occ_full_occupancy(dev("H100"), false, &f, why, sizeof(why)));
	CHECK_U("H100 full", "minimum warps", 2, f.min_threads);
	CHECK_U("H100 full", "maximum warps", 32, f.max_threads);
	CHECK("CPU has no full-occupancy table",
	      !occ_full_occupancy(dev("cpu"), false, &f, why, sizeof(why)));
}

/*
 * ---- NVIDIA: compute capability 9.0 (H100: 64 warps, 32 blocks, 64K regs, 228 KiB) --------
 *
 * Worked by hand below; the same cases (and the cc 8.9 one) were run once
 * through NVIDIA's cuda_occupancy.h (CUDA 13.0, cudaOccMaxActiveBlocksPerMultiprocessor)
 * and gave the same blocks per SM and the same limiting factor.
 */

/*
 * No registers or shared memory given: blocks per SM = min(floor(64 / warps),
 * 32); the 1 KiB reserved per block gives 233472 / 1024 = 228, never binding.
 * Active warps = blocks x warps; occupancy = active / 64.
 */
static const struct {
	unsigned block, warps, blocks, active;
} h100_sweep[] = {
	{ 32, 1, 32, 32 },  { 64, 2, 32, 64 },  { 96, 3, 21, 63 },  { 128, 4, 16, 64 },
	{ 160, 5, 12, 60 }, { 192, 6, 10, 60 }, { 224, 7, 9, 63 },  { 256, 8, 8, 64 },
	{ 288, 9, 7, 63 },  { 320, 10, 6, 60 }, { 352, 11, 5, 55 }, { 384, 12, 5, 60 },
	{ 416, 13, 4, 52 }, { 448, 14, 4, 56 }, { 480, 15, 4, 60 }, { 512, 16, 4, 64 },
	{ 544, 17, 3, 51 }, { 576, 18, 3, 54 }, { 608, 19, 3, 57 }, { 640, 20, 3, 60 },
	{ 672, 21, 3, 63 }, { 704, 22, 2, 44 }, { 736, 23, 2, 46 }, { 768, 24, 2, 48 },
	{ 800, 25, 2, 50 }, { 832, 26, 2, 52 }, { 864, 27, 2, 54 }, { 896, 28, 2, 56 },
	{ 928, 29, 2, 58 }, { 960, 30, 2, 60 }, { 992, 31, 2, 62 }, { 1024, 32, 2, 64 },
};

static void test_nvidia_sweep(void)
{
	const struct occ_device *h100 = dev("H100");
	char ctx[64];
	for (size_t i = 0; i < sizeof(h100_sweep) / sizeof(h100_sweep[0]); i++) {
		struct occ_result r = run(h100, h100_sweep[i].block, 32, 0, false, 0, 1000000);
		snprintf(ctx, sizeof(ctx), "cc 9.0 block %u", h100_sweep[i].block);
		CHECK_U(ctx, "warps per block", h100_sweep[i].warps, r.threads_per_wg);
		CHECK_U(ctx, "blocks per SM", h100_sweep[i].blocks, r.wg_per_cu);
		CHECK_U(ctx, "active warps", h100_sweep[i].active,
			(unsigned long long)r.wg_per_cu * r.threads_per_wg);
		CHECK(ctx, r.cu_occupancy == h100_sweep[i].active / 64.0);
		CHECK_S(ctx, "limiter", h100_sweep[i].block == 32 ? "blocks" : "warps", r.cu_limiter);
	}
	CHECK("cc 9.0 block 1056 fails to launch", !run(h100, 1056, 32, 0, false, 0, 1).launchable);
	CHECK("cc 9.0 warp 16 is not a width", !run(h100, 256, 16, 0, false, 0, 1).launchable);
}

/* Exact check of the sweep's occupancy as a fraction of 64 warps. */
static void check_warps(const char *ctx, const struct occ_result *r, unsigned blocks, unsigned active,
			const char *limiter)
{
	CHECK_U(ctx, "blocks per SM", blocks, r->wg_per_cu);
	CHECK_U(ctx, "active warps", active, (unsigned long long)r->wg_per_cu * r->threads_per_wg);
	CHECK_S(ctx, "limiter", limiter, r->cu_limiter);
}

static void test_nvidia_limits(void)
{
	const struct occ_device *h100 = dev("H100");
	struct occ_result r;
	/*
	 * Registers: 64 per thread, block 256 (8 warps). Per warp 64 x 32 =
	 * 2048 (a multiple of 256); per sub-partition 65536 / 4 = 16384 /
	 * 2048 = 8 warps; 4 x 8 = 32 warps per SM; 32 / 8 = 4 blocks = 50%.
	 */
	r = run(h100, 256, 32, 0, false, 64, 1000);
	check_warps("cc 9.0 regs 64 block 256", &r, 4, 32, "registers");
	/*
	 * Allocation granularity: 37 per thread, block 256. 37 x 32 = 1184,
	 * rounded to 1280; 16384 / 1280 = 12 warps per sub-partition, 48 per
	 * SM; 48 / 8 = 6 blocks = 75%.
	 */
	r = run(h100, 256, 32, 0, false, 37, 1000);
	check_warps("cc 9.0 regs 37 block 256", &r, 6, 48, "registers");
	/*
	 * Sub-partitions: 40 per thread, block 96 (3 warps). 40 x 32 = 1280;
	 * 16384 / 1280 = 12 per sub-partition, 48 per SM, 48 / 3 = 16 blocks
	 * = 75% (a whole-SM count, 65536 / 1280 = 51 warps, would say 17).
	 */
	r = run(h100, 96, 32, 0, false, 40, 1000);
	check_warps("cc 9.0 regs 40 block 96", &r, 16, 48, "registers");
	/*
	 * Shared memory: 48 KiB per block, block 128 (4 warps). 49152 + 1024
	 * reserved = 50176 (a multiple of 128); 233472 / 50176 = 4 blocks =
	 * 16 warps = 25%.
	 */
	r = run(h100, 128, 32, 48 * 1024, false, 0, 1000);
	check_warps("cc 9.0 smem 48K block 128", &r, 4, 16, "shared memory");
	/*
	 * Granularity: 10000 B, block 64 (2 warps). 10000 + 1024 = 11024,
	 * rounded to 11136 (87 x 128); 233472 / 11136 = 20 blocks = 40 warps
	 * = 62.5%.
	 */
	r = run(h100, 64, 32, 10000, false, 0, 1000);
	check_warps("cc 9.0 smem 10000 block 64", &r, 20, 40, "shared memory");
	CHECK("cc 9.0 smem 48K+1 above the OpenCL limit",
	      !run(h100, 64, 32, 49153, false, 0, 1).launchable);
	CHECK("cc 9.0 256 registers fails", !run(h100, 64, 32, 0, false, 256, 1).launchable);
	/*
	 * Block 800 (25 warps), 80 registers: 2560 per warp; the block counts
	 * as 28 warps (whole sub-partitions): 71680 > 65536 registers.
	 */
	r = run(h100, 800, 32, 0, false, 80, 1);
	CHECK("cc 9.0 block 800 x 80 registers fails", !r.launchable);
	CHECK("cc 9.0 block 800 x 80 registers: 71680 per block", strstr(r.why_not, "71680") != NULL);
	/*
	 * The device: 132 SMs x 64 = 8448 warps; block 256 gives 8 x 132 =
	 * 1056 resident blocks. 2000 blocks = 16000 warps: 8448, then 7552 =
	 * 89.39%.
	 */
	r = run(h100, 256, 32, 0, false, 0, 2000);
	CHECK_U("H100 2000 x 256", "capacity", 8448, r.capacity);
	CHECK_U("H100 2000 x 256", "resident blocks", 1056, r.resident_wg);
	CHECK_U("H100 2000 x 256", "waves", 2, r.waves);
	CHECK_S("H100 2000 x 256", "occupancy", "100% then 89.4%", r.occupancy_str);
	/* cc 8.9 (L40S): 48 warps, 24 blocks: block 64 gives min(24, 24) = 24 blocks = 100% */
	r = run(dev("L40S"), 64, 32, 0, false, 0, 1000);
	check_warps("cc 8.9 block 64", &r, 24, 48, "warps");
}

/* ---- AMD: MI250X (one GCD: 110 CUs x 4 SIMDs x 8 waves of 64) ----------------------------- */

static void test_amd(void)
{
	const struct occ_device *mi = dev("MI250X");
	struct occ_result r;
	/*
	 * Work-group 256 = 4 waves; 100 VGPRs round to 104 (granule 8);
	 * 512 / 104 = 4 waves per SIMD; 4 SIMDs x 4 = 16 waves per CU = 4
	 * work-groups (the 16-barrier and 32-wave caps allow more) = 16 / 32 = 50%.
	 */
	r = run(mi, 256, 64, 0, false, 100, 1000);
	CHECK_U("MI250X vgpr 100", "waves per work-group", 4, r.threads_per_wg);
	CHECK_U("MI250X vgpr 100", "work-groups per CU", 4, r.wg_per_cu);
	CHECK_S("MI250X vgpr 100", "CU occupancy", "50%", pct(r.cu_occupancy, OCC_PCT_ROUND1));
	CHECK_S("MI250X vgpr 100", "limiter", "registers", r.cu_limiter);
	CHECK_U("MI250X vgpr 100", "capacity (110 x 32 waves)", 3520, r.capacity);
	/* LDS: 20000 B rounds to 20480 (granule 512); 65536 / 20480 = 3 work-groups = 12 / 32 */
	r = run(mi, 256, 64, 20000, false, 0, 1000);
	CHECK_U("MI250X lds 20000", "work-groups per CU", 3, r.wg_per_cu);
	CHECK_S("MI250X lds 20000", "CU occupancy", "37.5%", pct(r.cu_occupancy, OCC_PCT_ROUND1));
	CHECK_S("MI250X lds 20000", "limiter", "LDS", r.cu_limiter);
	CHECK("MI250X wave 32 not offered", !run(mi, 256, 32, 0, false, 0, 1).launchable);
}

/* ---- CPU: one work-group per hardware thread (the generic row: 16 threads) ---------------- */

static void test_cpu(void)
{
	const struct occ_device *cpu = dev("cpu");
	struct occ_result r = run(cpu, 1024, 8, 0, false, 0, 4);
	CHECK_U("cpu 4 groups", "threads per work-group", 1, r.threads_per_wg);
	CHECK_S("cpu 4 groups", "occupancy", "4/16 = 25%", r.occupancy_str);
	r = run(cpu, 1024, 8, 0, false, 0, 24);
	CHECK_U("cpu 24 groups", "waves", 2, r.waves);
	CHECK_S("cpu 24 groups", "occupancy (16, then 8)", "100% then 50%", r.occupancy_str);
	r = run(cpu, 1024, 8, 0, false, 0, 32);
	CHECK_S("cpu 32 groups", "occupancy (two full waves)", "100%", r.occupancy_str);
	CHECK("cpu work-group 8193", !run(cpu, 8193, 8, 0, false, 0, 1).launchable);
}

/* ---- overrides and disputed values -------------------------------------------------------- */

static void test_overrides(void)
{
	struct occ_device tgl;
	char err[256];
	CHECK("lookup", occ_lookup("tgl", &tgl));
	/*
	 * Work-group 64 at SIMD 16 = 4 threads, 16 KiB SLM (a step): with 64 KiB
	 * per Xe-core 4 fit (16 / 112 = 14.3%); with 128 KiB, 8 (32 / 112 = 28.6%).
	 */
	struct occ_result r = run(&tgl, 64, 16, 16384, false, 0, 100);
	CHECK_U("TGL slm 16K, 64 KiB", "work-groups per Xe-core", 4, r.wg_per_cu);
	CHECK_S("TGL slm 16K, 64 KiB", "limiter", "SLM", r.cu_limiter);
	CHECK_S("TGL slm 16K, 64 KiB", "Xe-core occupancy", "14.3%",
		pct(r.cu_occupancy, OCC_PCT_ROUND1));
	CHECK("TGL slm_per_cu is disputed", tgl.p[OCC_P_SLM_PER_CU].disputed != NULL);
	CHECK("set slm_per_cu", occ_set_param(&tgl, "slm_per_cu", 131072, err, sizeof(err)));
	r = run(&tgl, 64, 16, 16384, false, 0, 100);
	CHECK_U("TGL slm 16K, 128 KiB", "work-groups per Xe-core", 8, r.wg_per_cu);
	CHECK_S("TGL slm 16K, 128 KiB", "Xe-core occupancy", "28.6%",
		pct(r.cu_occupancy, OCC_PCT_ROUND1));
	CHECK_U("override", "origin", OCC_FROM_OVERRIDE, tgl.p[OCC_P_SLM_PER_CU].origin);
	/* 5000 B rounds up to the 8 KiB step: 131072 / 8192 = 16 (thread slots would allow 28) */
	r = run(&tgl, 64, 16, 5000, false, 0, 100);
	CHECK_U("TGL slm 5000 (8 KiB step), 128 KiB", "work-groups per Xe-core", 16, r.wg_per_cu);
	CHECK("TGL slm 70000 above 64 KiB", !run(&tgl, 64, 16, 70000, false, 0, 1).launchable);
	CHECK("unknown parameter", !occ_set_param(&tgl, "slm_per_xc", 1, err, sizeof(err)));
	CHECK("unknown parameter lists the known", strstr(err, "slm_per_cu") != NULL);
	CHECK("cu_count 0", !occ_set_param(&tgl, "cu_count", 0, err, sizeof(err)));
	CHECK("the table stays as it was", occ_find("TGL-96")->p[OCC_P_SLM_PER_CU].value == 65536);

	json_t *j = occ_result_json(&tgl, &(struct occ_kernel){ .wg_size = 64, .sg_size = 16 }, &r);
	json_t *c = json_object_get(json_object_get(j, "choices"), "slm_per_cu");
	CHECK("json choices.slm_per_cu", c != NULL);
	CHECK_S("json", "choices.slm_per_cu.origin", "override",
		json_string_value(json_object_get(c, "origin")));
	CHECK("json alternatives recorded",
	      json_string_value(json_object_get(c, "alternatives")) != NULL);
	json_decref(j);
}

static void test_grf(void)
{
	const struct occ_device *pvc = dev("Max-1100");
	struct occ_kernel k = { .wg_size = 1024, .sg_size = 16, .grf_large = true };
	struct occ_result r;
	/* large GRF: 8 XVEs x 4 threads = 32 slots; 1024 / 16 = 64 threads do not fit */
	occ_predict(pvc, &k, 1, &r);
	CHECK("Max-1100 large GRF 1024/16", !r.launchable);
	/* 512 / 16 = 32 threads: one work-group, 32 of the 64 small-GRF slots = 50% */
	k.wg_size = 512;
	occ_predict(pvc, &k, 1, &r);
	CHECK_U("Max-1100 large GRF 512/16", "slots", 32, r.slots_per_cu);
	CHECK_S("Max-1100 large GRF 512/16", "Xe-core occupancy", "50%",
		pct(r.cu_occupancy, OCC_PCT_ROUND1));
	CHECK_U("Max-1100 large GRF 512/16", "capacity (56 x 64)", 3584, r.capacity);
	occ_predict(dev("TGL-96"), &k, 1, &r);
	CHECK("TGL has no large GRF mode", !r.launchable);
}

/* ---- names -------------------------------------------------------------------------------- */

static void test_names(void)
{
	static const struct {
		const char *query, *expect;
	} names[] = {
		{ "TGL-96", "TGL-96" }, { "tgl", "TGL-96" },        { "Iris Xe", "TGL-96" },
		{ "xe-lp", "TGL-96" },  { "tgl 80", "TGL-80" },     { "SM_90", "H100" },
		{ "hopper", "H100" },   { "h200", "H200" },         { "Max 1550", "Max-1550" },
		{ "max1550-stack", "Max-1550-stack" }, { "Max 1550 stack", "Max-1550-stack" },
		{ "gfx90a", "MI250X" }, { "xe2", "LNL" },           { "B580", "B580" },
		{ "a770", "A770" },     { "rtx 4090", "RTX-4090" }, { "CPU", "cpu" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct occ_device *d = occ_find(names[i].query);
		CHECK_S(names[i].query, "occ_find", names[i].expect, d ? d->name : "(none)");
	}
	CHECK("unknown name", occ_find("voodoo5") == NULL);
	CHECK("empty name", occ_find("") == NULL);
	FILE *f = tmpfile();
	char buf[2048] = "";
	occ_list_names(f);
	rewind(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	CHECK("name list has TGL-96", strstr(buf, "TGL-96") != NULL);
	CHECK("name list has families", strstr(buf, "Xe-HPC") != NULL);
}

/* ---- the table itself: every row resolves, every number has a source ---------------------- */

static void test_table(void)
{
	for (size_t i = 0; i < occ_product_count(); i++) {
		const struct occ_product *pr = occ_product_at(i);
		const struct occ_device *d = occ_device_at(i);
		CHECK(pr->name, occ_family_find(pr->family) != NULL);
		CHECK(pr->name, d->p[OCC_P_CU_COUNT].value > 0);
		CHECK(pr->name, d->n_sg > 0);
		for (int p = 0; p < OCC_P_COUNT; p++)
			if (d->p[p].origin != OCC_UNSET)
				CHECK(pr->name, d->p[p].source != NULL && d->p[p].source[0] != '\0');
	}
	for (size_t i = 0; i < occ_family_count(); i++) {
		const struct occ_family *f = occ_family_at(i);
		const struct occ_device *d = occ_find(f->name);
		CHECK(f->name, d != NULL && d->fam == f); /* a family name finds one of its products */
	}
}

/* ---- live devices (struct dev_info as dev.c fills it) ------------------------------------- */

static void test_live(void)
{
	struct dev_info d;
	struct occ_device o;
	char note[640];
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "Intel(R) Iris(R) Xe Graphics");
	d.type = CL_DEVICE_TYPE_GPU;
	d.vendor_kind = DEV_VENDOR_INTEL;
	d.compute_units = 96;
	d.max_wg = 512;
	d.local_mem = 65536;
	d.intel_slices = 1, d.intel_subslices_per_slice = 6;
	d.intel_eus_per_subslice = 16, d.intel_threads_per_eu = 7;
	d.intel_ip_version = 12u << 22;
	d.sg_sizes[0] = 32, d.sg_sizes[1] = 8, d.sg_sizes[2] = 16, d.n_sg_sizes = 3;
	CHECK("live TGL", occ_device_from_live(&d, &o, note, sizeof(note)));
	CHECK_S("live TGL", "family", "Xe-LP", o.family);
	CHECK_U("live TGL", "Xe-cores", 6, o.p[OCC_P_CU_COUNT].value);
	CHECK_U("live TGL", "origin", OCC_FROM_LIVE, o.p[OCC_P_CU_COUNT].origin);
	CHECK_U("live TGL", "sorted SIMD widths", 8, o.sg_sizes[0]);
	CHECK_S("live TGL", "VectorAdd2<44>", "100% then 4.8%",
		run(&o, 512, 32, 0, false, 0, 44).occupancy_str);
	/* an 80-EU part may report the full 6 sub-slices: compute units say 5 */
	d.compute_units = 80;
	CHECK("live TGL-80", occ_device_from_live(&d, &o, note, sizeof(note)));
	CHECK_U("live TGL-80", "Xe-cores", 5, o.p[OCC_P_CU_COUNT].value);
	CHECK("live TGL-80 says why", strstr(note, "fused") != NULL);

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "NVIDIA H100 PCIe");
	d.type = CL_DEVICE_TYPE_GPU;
	d.vendor_kind = DEV_VENDOR_NVIDIA;
	d.compute_units = 114;
	d.max_wg = 1024;
	d.local_mem = 49152;
	d.nv_cc_major = 9, d.nv_warp_size = 32, d.nv_regs_per_block = 65536;
	CHECK("live H100", occ_device_from_live(&d, &o, note, sizeof(note)));
	CHECK_S("live H100", "family", "sm_90", o.family);
	CHECK_U("live H100", "capacity (114 x 64)", 7296, run(&o, 256, 32, 0, false, 0, 1).capacity);
	d.nv_cc_major = 7, d.nv_cc_minor = 5;
	CHECK("live cc 7.5 unknown", !occ_device_from_live(&d, &o, note, sizeof(note)));
	CHECK("live cc 7.5 says so", strstr(note, "7.5") != NULL);

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "cpu-haswell-Intel(R) Xeon(R)");
	d.type = CL_DEVICE_TYPE_CPU;
	d.compute_units = 8;
	d.max_wg = 4096;
	CHECK("live CPU", occ_device_from_live(&d, &o, note, sizeof(note)));
	CHECK_S("live CPU 12 groups", "occupancy", "100% then 50%",
		run(&o, 64, 8, 0, false, 0, 12).occupancy_str);

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "Mali-G78");
	d.type = CL_DEVICE_TYPE_GPU;
	d.vendor_kind = DEV_VENDOR_OTHER;
	CHECK("live Mali unknown", !occ_device_from_live(&d, &o, note, sizeof(note)));
	CHECK("live Mali says unknown", strstr(note, "unknown to the model") != NULL);
}

/*
 * Multi-stack: a Max 1550 is two stacks of 64 Xe-cores (the guide's Multi-Stack GPU
 * Architecture; 1024 XVEs / 8 per Xe-core = 128 Xe-cores). One stack holds 64 x 8 XVEs x 8
 * threads = 4096 thread slots, the card 8192. A NUMA sub-device of the COMPOSITE root device
 * reports its own 512 EUs as compute units, while the attribute query may still describe the
 * card (8 slices x 16 sub-slices): the model takes its own share, 64 Xe-cores.
 */
static void test_stacks(void)
{
	const struct occ_device *card = dev("Max-1550"), *stack = dev("Max-1550-stack");
	struct dev_info root, sub;
	struct occ_device o;
	char note[640];

	CHECK_U("Max-1550", "Xe-cores", 128, card->p[OCC_P_CU_COUNT].value);
	CHECK_U("Max-1550-stack", "Xe-cores", 64, stack->p[OCC_P_CU_COUNT].value);
	CHECK_U("Max-1550-stack", "capacity (64 x 8 x 8)", 4096, run(stack, 512, 32, 0, false, 0, 1).capacity);
	CHECK_U("Max-1550", "capacity (2 stacks)", 8192, run(card, 512, 32, 0, false, 0, 1).capacity);
	/* 512 groups of 512 at SIMD 32 = 8192 threads: one wave on the card, two on a stack */
	CHECK_S("Max-1550 card, 512 x 512", "occupancy", "8192/8192 = 100%",
		run(card, 512, 32, 0, false, 0, 512).occupancy_str);
	CHECK_U("Max-1550 stack, 512 x 512", "waves", 2, run(stack, 512, 32, 0, false, 0, 512).waves);

	memset(&root, 0, sizeof(root));
	snprintf(root.name, sizeof(root.name), "Intel(R) Data Center GPU Max 1550");
	root.type = CL_DEVICE_TYPE_GPU;
	root.vendor_kind = DEV_VENDOR_INTEL;
	root.compute_units = 1024;
	root.max_wg = 1024;
	root.local_mem = 131072;
	root.intel_slices = 8, root.intel_subslices_per_slice = 16;
	root.intel_eus_per_subslice = 8, root.intel_threads_per_eu = 8;
	root.intel_ip_version = (12u << 22) | (60u << 14);
	CHECK("live Max 1550 COMPOSITE root", occ_device_from_live(&root, &o, note, sizeof(note)));
	CHECK_S("live Max 1550 root", "family", "Xe-HPC", o.family);
	CHECK_U("live Max 1550 root", "Xe-cores", 128, o.p[OCC_P_CU_COUNT].value);
	sub = root;
	sub.compute_units = 512;
	sub.parent = &root;
	sub.part.kind = DEV_PART_NUMA;
	sub.sub_index = 1, sub.sub_count = 2;
	CHECK("live Max 1550 stack", occ_device_from_live(&sub, &o, note, sizeof(note)));
	CHECK_U("live Max 1550 stack", "Xe-cores: its own share", 64, o.p[OCC_P_CU_COUNT].value);
	CHECK("live stack says sub-device", strstr(note, "sub-device 1 of 2") != NULL);
	CHECK("live stack says own share", strstr(note, "own share") != NULL);
	CHECK_U("live Max 1550 stack", "capacity as the stack row", 4096,
		run(&o, 512, 32, 0, false, 0, 1).capacity);
}

int main(void)
{
	test_pct();
	test_tgl_vadd2();
	test_gen9_vadd();
	test_barrier();
	test_full();
	test_nvidia_sweep();
	test_nvidia_limits();
	test_amd();
	test_cpu();
	test_overrides();
	test_grf();
	test_names();
	test_table();
	test_live();
	test_stacks();
	printf("test_occ: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
