/*
 * Unit tests of the occupancy model beyond Intel's tables (host/model/occ.c, occ_table.c,
 * occ_data.c, host/occ_live.c): NVIDIA, AMD and CPU devices, overrides, names, the table
 * itself, live devices and multi-stack GPUs. Every expected value is written out, from the
 * vendors' published figures or worked by hand in the comments.
 */
#include "occ_unit.h"

#include "dev.h"
#include "occ_point.h"

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

/* The limits within one SM of an H100: registers, their granularity, shared memory. */
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
}

/* What does not launch on an H100, the whole device's waves, and cc 8.9. */
static void test_nvidia_device(void)
{
	const struct occ_device *h100 = dev("H100");
	struct occ_result r;

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
	test_nvidia_sweep();
	test_nvidia_limits();
	test_nvidia_device();
	test_amd();
	test_cpu();
	test_overrides();
	test_names();
	test_table();
	test_live();
	test_stacks();
	return occ_unit_done("test_occ_vendors");
}
