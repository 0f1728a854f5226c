/*
 * Unit tests of the sub-group layer's host table (host/sgb.c) on made-up devices:
 * which backend a run picks for what its kernels need, the build options made from
 * the table (prog_sg_options included), and that kernels/bench_common.h spells
 * every backend macro the table defines. Expected values are written out here.
 */
#include "igpu.h"
#include "prog.h"
#include "sgb.h"

#include "../unit.h"

#include <stdlib.h>

static struct dev_info intel_cpu(void)
{
	struct dev_info d = { .name = "intel-like", .type = CL_DEVICE_TYPE_CPU, .c_major = 3,
			      .max_wg = 8192, .has_intel_subgroups = true, .has_intel_reqd_sg = true,
			      .has_khr_subgroups = true, .has_khr_sg_shuffle = true,
			      .has_c30_subgroups = true, .n_sg_sizes = 3 };
	d.sg_sizes[0] = 8;
	d.sg_sizes[1] = 16;
	d.sg_sizes[2] = 32;
	return d;
}

/* cl_khr_subgroups without cl_khr_subgroup_shuffle, OpenCL C 2.0. */
static struct dev_info khr_no_shuffle(void)
{
	return (struct dev_info){ .name = "khr-like", .type = CL_DEVICE_TYPE_GPU, .c_major = 2,
				  .max_wg = 256, .has_khr_subgroups = true };
}

static struct dev_info nvidia(void)
{
	return (struct dev_info){ .name = "nv-like", .type = CL_DEVICE_TYPE_GPU, .c_major = 3,
				  .max_wg = 1024, .vendor_kind = DEV_VENDOR_NVIDIA, .nv_warp_size = 32 };
}

static struct dev_info plain(void)
{
	return (struct dev_info){ .name = "plain", .type = CL_DEVICE_TYPE_CPU, .c_major = 1,
				  .max_wg = 4096 };
}

static enum sgb_backend pick(const struct dev_info *d, const char *forced, unsigned need)
{
	struct sgb_choice c;
	char err[512];

	return sgb_select(d, forced, need, &c, err, sizeof(err)) ? c.backend : (enum sgb_backend)-1;
}

static void test_select(void)
{
	struct dev_info i = intel_cpu(), k = khr_no_shuffle(), n = nvidia(), p = plain();
	struct sgb_choice c;
	char err[512];

	CHECK_EQ_U(pick(&i, NULL, 0), SGB_INTEL);
	CHECK_EQ_U(pick(&k, NULL, 0), SGB_KHR);
	CHECK_EQ_U(pick(&k, NULL, SGB_NEED_SHUFFLE), SGB_EMULATED);
	CHECK_EQ_U(pick(&k, NULL, SGB_NATIVE_OR_NONE), SGB_KHR);
	CHECK_EQ_U(pick(&n, NULL, SGB_NEED_SHUFFLE), SGB_NV);
	CHECK_EQ_U(pick(&n, NULL, SGB_NATIVE_OR_NONE), SGB_NONE);
	CHECK_EQ_U(pick(&p, NULL, 0), SGB_EMULATED);
	CHECK_EQ_U(pick(&p, NULL, SGB_NATIVE_OR_NONE), SGB_NONE);
	CHECK_EQ_U(pick(&p, "emulated", SGB_NATIVE_OR_NONE), SGB_EMULATED);
	/* a forced backend the device cannot run: the reason and what it can */
	CHECK(!sgb_select(&k, "khr", SGB_NEED_SHUFFLE, &c, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "--sg-backend khr cannot run on 'khr-like': no cl_khr_subgroup_shuffle");
	CHECK_STR_CONTAINS(err, "allowed backends there: emulated");
	CHECK(!sgb_select(&p, "cuda", 0, &c, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "allowed intel, khr, nv, emulated");
}

static void test_options(void)
{
	struct dev_info i = intel_cpu(), k = khr_no_shuffle(), n = nvidia(), p = plain();
	struct sgb_choice c;
	char err[512], buf[512];

	sgb_select(&i, NULL, 0, &c, err, sizeof(err));
	CHECK(sgb_set_width(&i, &c, false, 0, 16, err, sizeof(err)));
	sgb_build_options(&i, &c, 256, buf, sizeof(buf));
	/* cl_intel_subgroups is an OpenCL C 1.2 extension: no -cl-std (the compiler's 1.2) */
	CHECK(strcmp(buf, "-DSG_INTEL=1 -DSG_WIDTH=16 -DSG_WG_MAX=256 -DREQD_SG=16 "
			  "-DSG_HAS_BLOCK_IO=1") == 0);
	CHECK_EQ_U(sgb_opencl_c(&i, &c, err, sizeof(err)), 12);
	CHECK_STR_CONTAINS(err, "OpenCL C 1.2, the lowest version that offers what the kernel needs: "
				"cl_intel_subgroups");
	sgb_select(&k, NULL, 0, &c, err, sizeof(err));
	CHECK(sgb_set_width(&k, &c, false, 0, 16, err, sizeof(err)));
	sgb_build_options(&k, &c, 64, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "-DSG_KHR=1 -DSG_WIDTH=0 -DSG_WG_MAX=64 -DHAVE_KHR_SG=1 -cl-std=CL2.0");
	sgb_select(&n, NULL, 0, &c, err, sizeof(err));
	CHECK(sgb_set_width(&n, &c, true, 0, 16, err, sizeof(err)));
	sgb_build_options(&n, &c, 128, buf, sizeof(buf));
	CHECK(strcmp(buf, "-DSG_NV=1 -DSG_WIDTH=32 -DSG_WG_MAX=128 -DSG_HAS_BLOCK_IO=1") == 0);
	sgb_select(&p, NULL, 0, &c, err, sizeof(err));
	CHECK(!sgb_set_width(&p, &c, true, 7, 16, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "--sg 7: the emulated widths on 'plain' are 4, 8, 16, 32, 64");
	CHECK(sgb_set_width(&p, &c, true, 8, 16, err, sizeof(err)));
	CHECK_EQ_U((unsigned)sgb_build_options(&p, &c, 32, buf, 8),
		   strlen("-DSG_EMULATED=1 -DSG_WIDTH=8 -DSG_WG_MAX=32"));
	CHECK(strcmp(buf, "-DSG_EM") == 0);   /* cut, still terminated */
	/* the caller's OpenCL C version (C11 atomics) and the backend's: the higher one */
	sgb_select(&k, NULL, SGB_NATIVE_OR_NONE, &c, err, sizeof(err));
	c.c_version = 30;
	sgb_build_options(&k, &c, 0, buf, sizeof(buf));
	CHECK(strcmp(buf, "-DSG_KHR=1 -DSG_WIDTH=0 -DHAVE_KHR_SG=1 -cl-std=CL3.0") == 0);
	sgb_select(&n, NULL, SGB_NATIVE_OR_NONE, &c, err, sizeof(err));
	c.c_version = 20;
	sgb_build_options(&n, &c, 0, buf, sizeof(buf));
	CHECK(strcmp(buf, "-cl-std=CL2.0") == 0);
	/* the thin form for kernels that only read the driver's width */
	prog_sg_options(&i, 32, buf, sizeof(buf));
	CHECK(strcmp(buf, " -DSG_INTEL=1 -DSG_WIDTH=32 -DREQD_SG=32 -DSG_HAS_BLOCK_IO=1") == 0);
	prog_sg_options(&n, 0, buf, sizeof(buf));
	CHECK(strcmp(buf, "") == 0);
	prog_sg_options(&k, 0, buf, sizeof(buf));
	CHECK(strcmp(buf, " -DSG_KHR=1 -DSG_WIDTH=0 -DHAVE_KHR_SG=1 -cl-std=CL2.0") == 0);
}

/* An OpenCL 3.0 device listing OpenCL C 1.0-1.2 and 3.0 (as NVIDIA's and PoCL do). */
static struct dev_info listed_12_30(void)
{
	struct dev_info d = nvidia();

	d.c_versions = 1u << 10 | 1u << 11 | 1u << 12 | 1u << 30;
	return d;
}

/* The rules keyed on the device, on the offline targets' dev_info (what the driver reports). */
static void test_intel_gpus(void)
{
	struct dev_info t[3], l = listed_12_30(), i = intel_cpu();
	struct sgb_choice c;
	const char *impl;
	char err[1024], buf[768];

	for (int k = 0; k < 3; k++)
		igpu_target_dev(igpu_target_at((size_t)k), "22.43", &t[k]);
	CHECK_EQ_U(igpu_arch(&t[0]), IGPU_XE_LP);
	CHECK_EQ_U(igpu_arch(&t[1]), IGPU_XE_HPG);
	CHECK_EQ_U(igpu_arch(&t[2]), IGPU_XE_HPC);
	CHECK_EQ_U(igpu_arch(&i), IGPU_NONE);   /* Intel's CPU runtime is no Intel GPU */
	/* block I/O at a required 32: refused on Xe-LP and Xe-HPG by the rule, not on Xe-HPC */
	for (int k = 0; k < 3; k++) {
		sgb_select(&t[k], NULL, 0, &c, err, sizeof(err));
		CHECK(sgb_set_width(&t[k], &c, true, 32, 16, err, sizeof(err)));
		CHECK(sgb_block_io(&t[k], &c, &impl, err, sizeof(err)) == (k == 2));
		if (k < 2)
			CHECK_STR_CONTAINS(err, "Block reads not supported in SIMD32");
		CHECK(sgb_set_width(&t[k], &c, true, 16, 16, err, sizeof(err)));
		CHECK(sgb_block_io(&t[k], &c, &impl, err, sizeof(err)));
	}
	/* C11 atomics need 2.0: an Xe GPU compiles it though its driver lists 1.2 and 3.0 only;
	 * another device listing those gets 3.0 */
	prog_sg_choice(&t[2], 32, &c);
	c.c_version = 20;
	sgb_build_options(&t[2], &c, 0, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "-cl-std=CL2.0");
	CHECK_EQ_U(sgb_opencl_c(&t[2], &c, err, sizeof(err)), 20);
	CHECK_STR_CONTAINS(err, "not listed by the driver of this Xe GPU");
	prog_sg_choice(&l, 0, &c);
	c.c_version = 20;
	sgb_build_options(&l, &c, 0, buf, sizeof(buf));
	CHECK(strcmp(buf, "-cl-std=CL3.0") == 0);
	/* no Intel GPU target is built with OpenCL C 3.0 by the intel backend */
	for (int k = 0; k < 3; k++) {
		prog_sg_choice(&t[k], 16, &c);
		sgb_build_options(&t[k], &c, 0, buf, sizeof(buf));
		CHECK(strstr(buf, "-cl-std") == NULL);
	}
	/* --grf large: the option on Intel GPUs, effective on Xe-HPG and Xe-HPC, refused elsewhere */
	for (int k = 0; k < 3; k++) {
		prog_sg_choice(&t[k], 16, &c);
		CHECK(sgb_set_grf(&t[k], &c, true, err, sizeof(err)));
		sgb_build_options(&t[k], &c, 0, buf, sizeof(buf));
		CHECK_STR_CONTAINS(buf, SGB_GRF_LARGE_OPTION);
		CHECK(sgb_grf_large(&t[k], &c) == (k > 0));
	}
	CHECK(!sgb_set_grf(&i, &c, true, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "--grf large: 'intel-like' is not an Intel GPU");
	for (int k = 0; k < 3; k++)
		igpu_target_dev_free(&t[k]);
}

/* Every backend's macro, as the build options define it, is spelled in the kernels' header. */
static void test_header(const char *path)
{
	struct dev_info d = nvidia();
	FILE *f = fopen(path, "rb");
	static char text[1 << 16];
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;

	CHECK(f != NULL);
	if (f)
		fclose(f);
	text[n] = '\0';
	for (int b = SGB_FIRST; b <= SGB_LAST; b++) {
		struct sgb_choice c = { .backend = (enum sgb_backend)b, .width = 32 };
		char opts[256], macro[64], want[80];
		sgb_build_options(&d, &c, 0, opts, sizeof(opts));
		CHECK(sscanf(opts, "-D%63[A-Z_]=1", macro) == 1);
		snprintf(want, sizeof(want), "defined(%s)", macro);
		CHECK_STR_CONTAINS(text, want);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_sgb KERNELS/bench_common.h\n");
		return 2;
	}
	test_select();
	test_options();
	test_intel_gpus();
	test_header(argv[1]);
	return UNIT_RESULT();
}
