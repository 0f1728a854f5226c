/*
 * Unit tests of device selection by spec (dev_match), on made-up device lists: no OpenCL.
 * The list mirrors a machine with an Intel GPU, Intel's CPU runtime, PoCL and two identical
 * NVIDIA GPUs, where "Intel" or "EPYC" name more than one device.
 */
#include "dev.h"
#include "unit.h"

static const struct dev_name devs[] = {
	{ "Intel(R) Arc(TM) A770 Graphics", "Intel(R) OpenCL Graphics", "OpenCL 3.0 ", "GPU", 0, 0 },
	{ "AMD EPYC", "Intel(R) OpenCL", "OpenCL 3.1 LINUX", "CPU", 1, 0 },
	{ "pthread-skylake-avx512-AMD EPYC", "Portable Computing Language",
	  "OpenCL 3.0 PoCL 3.1+debian  Linux", "CPU", 2, 0 },
	{ "NVIDIA H100 80GB HBM3", "NVIDIA CUDA", "OpenCL 3.0 CUDA 12.8", "GPU", 3, 0 },
	{ "NVIDIA H100 80GB HBM3", "NVIDIA CUDA", "OpenCL 3.0 CUDA 12.8", "GPU", 3, 1 },
};
#define N_DEVS (sizeof(devs) / sizeof(devs[0]))

struct pick {
	const char *spec;
	int want;   /* index, or -1 */
	int code;   /* when -1 */
	const char *msg[3];   /* parts of the message, when -1 */
};

static const struct pick picks[] = {
	/* indices and platform:device always mean what they say */
	{ "0", 0, 0, { NULL } },
	{ "4", 4, 0, { NULL } },
	{ "004", 4, 0, { NULL } },
	{ "3:1", 4, 0, { NULL } },
	{ "2:0", 2, 0, { NULL } },
	{ "5", -1, 2, { "'5' is out of range: allowed 0..4", "the devices found are",
		       "\n  4 (3:1) NVIDIA H100 80GB HBM3 [NVIDIA CUDA, GPU]" } },
	{ "99999999999999999999", -1, 2, { "'99999999999999999999' overflows: allowed 0..4" } },
	{ "99999999999:0", -1, 2, { "'99999999999:0' names no device: no device 0 on platform "
				   "99999999999" } },
	{ "2:1", -1, 2, { "'2:1' names no device: no device 1 on platform 2",
			 "\n  0 (0:0) Intel(R) Arc(TM) A770 Graphics [Intel(R) OpenCL Graphics, GPU]" } },
	/* '' used to mean the default device */
	{ "", -1, 2, { "'' names no device: give an index, platform:device",
		      "\n  2 (2:0) pthread-skylake-avx512-AMD EPYC [Portable Computing Language, CPU]" } },
	/* a substring naming several devices used to take the first */
	{ "Intel", -1, 2, { "'Intel' matches 2 devices; give one's index, platform:device or full name:",
			   "\n  0 (0:0) Intel(R) Arc(TM) A770 Graphics [Intel(R) OpenCL Graphics, GPU]"
			   "\n  1 (1:0) AMD EPYC [Intel(R) OpenCL, CPU]" } },
	{ "epyc", -1, 2, { "'epyc' matches 2 devices", "\n  1 (1:0) AMD EPYC",
			  "\n  2 (2:0) pthread-skylake-avx512-AMD EPYC" } },
	{ "opencl", -1, 2, { "'opencl' matches 5 devices" } },
	/* an exact name beats substrings of other names, case aside */
	{ "AMD EPYC", 1, 0, { NULL } },
	{ "amd epyc", 1, 0, { NULL } },
	{ "Intel(R) OpenCL", 1, 0, { NULL } },   /* platform name, also inside "... Graphics" */
	{ "intel(r) opencl graphics", 0, 0, { NULL } },
	/* an exact name shared by two devices is still ambiguous */
	{ "NVIDIA H100 80GB HBM3", -1, 2, { "matches 2 devices; give one's index or platform:device:",
					   "\n  3 (3:0) NVIDIA H100",
					   "\n  4 (3:1) NVIDIA H100" } },
	{ "NVIDIA CUDA", -1, 2, { "'NVIDIA CUDA' matches 2 devices" } },
	/* substrings of the device name, platform name or platform version */
	{ "PoCL", 2, 0, { NULL } },
	{ "arc", 0, 0, { NULL } },
	{ "Portable", 2, 0, { NULL } },
	{ "LINUX", -1, 2, { "'LINUX' matches 2 devices" } },   /* PoCL's version too */
	{ "3.1 linux", 1, 0, { NULL } },
	/* not an index: substring rules, and nothing matches */
	{ "1:", -1, 2, { "'1:' names no device; the devices found are (index, platform:device):",
			"\n  3 (3:0) NVIDIA H100 80GB HBM3 [NVIDIA CUDA, GPU]" } },
	{ "-1", -1, 2, { "'-1' names no device" } },
	{ "AMD Instinct", -1, 2, { "'AMD Instinct' names no device" } },
};

static void test_picks(void)
{
	for (size_t i = 0; i < sizeof(picks) / sizeof(picks[0]); i++) {
		const struct pick *p = &picks[i];
		char err[2048] = "";
		int code = -7;
		int got = dev_match(devs, N_DEVS, p->spec, &code, err, sizeof(err));
		if (got != p->want)
			fprintf(stderr, "spec '%s': %d, expected %d (%s)\n", p->spec, got, p->want, err);
		CHECK(got == p->want);
		if (p->want >= 0)
			continue;
		CHECK_EQ_U(code, p->code);
		for (size_t k = 0; k < 3 && p->msg[k]; k++)
			CHECK_STR_CONTAINS(err, p->msg[k]);
	}
}

/* No device at all is "no capable device" (77), whatever the spec. */
static void test_empty(void)
{
	char err[256] = "";
	int code = 0;

	CHECK(dev_match(devs, 0, "0", &code, err, sizeof(err)) == -1);
	CHECK_EQ_U(code, DEV_EXIT_NO_DEVICE);
	CHECK_STR_CONTAINS(err, "no OpenCL device found");
	code = 0;
	CHECK(dev_match(devs, 0, "", &code, err, sizeof(err)) == -1);
	CHECK_EQ_U(code, 77);
}

/* dev_choose on an empty list (what dev_list_query leaves when there is no platform). */
static void test_choose_empty(void)
{
	struct dev_list l = { 0 };
	char err[256] = "";
	int code = 0;

	CHECK(dev_choose(&l, NULL, &code, err, sizeof(err)) == NULL);
	CHECK_EQ_U(code, DEV_EXIT_NO_DEVICE);
	code = 0;
	CHECK(dev_choose(&l, "PoCL", &code, err, sizeof(err)) == NULL);
	CHECK_EQ_U(code, DEV_EXIT_NO_DEVICE);
}

/* A message cut short by a small buffer stays a terminated string. */
static void test_small_buffer(void)
{
	char err[24];
	int code = 0;

	memset(err, 'x', sizeof(err));
	CHECK(dev_match(devs, N_DEVS, "Intel", &code, err, sizeof(err)) == -1);
	CHECK(memchr(err, '\0', sizeof(err)) != NULL);
	memset(err, 'x', sizeof(err));
	CHECK(dev_match(devs, N_DEVS, "9", &code, err, sizeof(err)) == -1);
	CHECK(memchr(err, '\0', sizeof(err)) != NULL);
}

/* Sets of devices (--device all|gpu|cpu|LIST): the indices named, in order, or the error. */
static void test_sets(void)
{
	static const struct {
		const char *spec;
		size_t max;
		int n;                 /* -1: refused */
		unsigned want[5];
		int code;
		const char *msg;
	} sets[] = {
		{ "all", 16, 5, { 0, 1, 2, 3, 4 }, 0, NULL },
		{ "ALL", 16, 5, { 0, 1, 2, 3, 4 }, 0, NULL },
		{ "gpu", 16, 3, { 0, 3, 4 }, 0, NULL },
		{ "cpu", 16, 2, { 1, 2 }, 0, NULL },
		{ "0,2", 16, 2, { 0, 2 }, 0, NULL },
		{ "PoCL,arc", 16, 2, { 2, 0 }, 0, NULL },
		{ "3:1,AMD EPYC", 16, 2, { 4, 1 }, 0, NULL },
		{ "0,0", 16, -1, { 0 }, 2, "'0' names device 0 (0:0) Intel(R) Arc(TM) A770 Graphics a second time" },
		{ "arc,0", 16, -1, { 0 }, 2, "a second time" },
		{ "0,", 16, -1, { 0 }, 2, "'0,' has an empty item" },
		{ ",0", 16, -1, { 0 }, 2, "has an empty item" },
		{ "Intel,2", 16, -1, { 0 }, 2, "'Intel' matches 2 devices" },
		{ "0,9", 16, -1, { 0 }, 2, "'9' is out of range: allowed 0..4" },
		{ "all", 2, -1, { 0 }, 2, "more than 2 devices" },
	};
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		unsigned out[16];
		char err[2048] = "";
		int code = -7, n = dev_match_set(devs, N_DEVS, sets[i].spec, out, sets[i].max, &code, err,
						 sizeof(err));
		if (n != sets[i].n)
			fprintf(stderr, "set '%s': %d, expected %d (%s)\n", sets[i].spec, n, sets[i].n, err);
		CHECK(n == sets[i].n);
		for (int k = 0; n > 0 && k < n; k++)
			CHECK_EQ_U(out[k], sets[i].want[k]);
		if (n < 0) {
			CHECK_EQ_U(code, sets[i].code);
			CHECK_STR_CONTAINS(err, sets[i].msg);
		}
	}
	/* a type set that finds none is no capable device (77), listing the devices */
	static const struct dev_name cpus[] = {
		{ "AMD EPYC", "Intel(R) OpenCL", "OpenCL 3.1 LINUX", "CPU", 0, 0 },
	};
	unsigned out[4];
	char err[1024] = "";
	int code = 0;
	CHECK(dev_match_set(cpus, 1, "gpu", out, 4, &code, err, sizeof(err)) == -1);
	CHECK_EQ_U(code, DEV_EXIT_NO_DEVICE);
	CHECK_STR_CONTAINS(err, "'gpu': no GPU among the devices found");
	CHECK_STR_CONTAINS(err, "\n  0 (0:0) AMD EPYC [Intel(R) OpenCL, CPU]");
	code = 0;
	CHECK(dev_match_set(cpus, 0, "all", out, 4, &code, err, sizeof(err)) == -1);
	CHECK_EQ_U(code, DEV_EXIT_NO_DEVICE);
	CHECK(dev_spec_is_set("all") && dev_spec_is_set("Gpu") && dev_spec_is_set("cpu"));
	CHECK(dev_spec_is_set("0,1") && !dev_spec_is_set("PoCL") && !dev_spec_is_set(NULL));
}

/* One device of a type names it as a single spec (bench validate, bench model); several:
 * ambiguous, each listed; a name or substring matching the word comes first. */
static void test_type_spec(void)
{
	char err[1024] = "";
	int code = 0;
	static const struct dev_name one_gpu[] = {
		{ "NVIDIA H100 80GB HBM3", "NVIDIA CUDA", "OpenCL 3.0 CUDA 12.8", "GPU", 0, 0 },
		{ "cpu-skylake-avx512-Intel(R) Xeon(R)", "Portable Computing Language",
		  "OpenCL 3.0 PoCL 3.1+debian  Linux", "CPU", 1, 0 },
		{ "AMD EPYC", "Intel(R) OpenCL", "OpenCL 3.1 LINUX", "CPU", 2, 0 },
	};
	CHECK_EQ_U(dev_match(one_gpu, 3, "GPU", &code, err, sizeof(err)), 0);
	CHECK_EQ_U(dev_match(one_gpu, 3, "cpu", &code, err, sizeof(err)), 1);   /* PoCL's name */
	CHECK(dev_match(devs, N_DEVS, "gpu", &code, err, sizeof(err)) == -1);
	/* the keyword where one device is asked for: where it is taken instead, and the devices */
	CHECK_STR_CONTAINS(err, "'gpu' names a set of devices, which a benchmark, bench suite and "
			   "bench validate take, and only as the whole --device value");
	CHECK(dev_match(devs, N_DEVS, "all", &code, err, sizeof(err)) == -1);
	CHECK_STR_CONTAINS(err, "'all' names a set of devices");
	CHECK(dev_match(devs, N_DEVS, "Gpu2", &code, err, sizeof(err)) == -1);   /* not a keyword */
	CHECK(strstr(err, "names a set") == NULL);
	CHECK_STR_CONTAINS(err, "\n  4 (3:1) NVIDIA H100 80GB HBM3 [NVIDIA CUDA, GPU]");
}

/* --sub-devices: the forms accepted, written back as given, and every malformed one named. */
static void test_partitions(void)
{
	static const struct {
		const char *in;
		enum dev_part_kind kind;
		unsigned n_v, v0, vlast;
		const char *msg;   /* NULL: accepted */
	} parts[] = {
		{ "numa", DEV_PART_NUMA, 0, 0, 0, NULL },
		{ "equally:4", DEV_PART_EQUALLY, 1, 4, 4, NULL },
		{ "counts:1,2,3", DEV_PART_COUNTS, 3, 1, 3, NULL },
		{ "counts:8", DEV_PART_COUNTS, 1, 8, 8, NULL },
		{ "", 0, 0, 0, 0, "'' is not one of: numa, equally:N or counts:A,B,..." },
		{ "NUMA", 0, 0, 0, 0, "'NUMA' is not one of" },
		{ "equally", 0, 0, 0, 0, "'equally' is not one of" },
		{ "equally:", 0, 0, 0, 0, "'equally:': missing a count" },
		{ "equally:0", 0, 0, 0, 0, "'equally:0': '0' is out of range" },
		{ "equally:4x", 0, 0, 0, 0, "'equally:4x'" },
		{ "equally:-1", 0, 0, 0, 0, "'equally:-1'" },
		{ "counts:", 0, 0, 0, 0, "'counts:': missing a count" },
		{ "counts:1,,2", 0, 0, 0, 0, "missing a count" },
		{ "counts:1,2,", 0, 0, 0, 0, "missing a count" },
		{ "counts:1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", 0, 0, 0, 0, "more than 16 counts" },
		{ "counts:99999999999999999999", 0, 0, 0, 0, "overflows: allowed 1..1048576" },
		{ "counts:123456789012345678901234567890123", 0, 0, 0, 0, "too long for a count" },
	};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		struct dev_part p;
		char err[512] = "", back[128];
		bool ok = dev_part_parse(parts[i].in, &p, err, sizeof(err));
		if (ok != !parts[i].msg)
			fprintf(stderr, "--sub-devices '%s': %s (%s)\n", parts[i].in, ok ? "accepted" : "refused", err);
		CHECK(ok == !parts[i].msg);
		if (!ok) {
			CHECK_STR_CONTAINS(err, parts[i].msg);
			continue;
		}
		CHECK_EQ_U(p.kind, parts[i].kind);
		CHECK_EQ_U(p.n_v, parts[i].n_v);
		if (p.n_v) {
			CHECK_EQ_U(p.v[0], parts[i].v0);
			CHECK_EQ_U(p.v[p.n_v - 1], parts[i].vlast);
		}
		CHECK(strcmp(dev_part_str(&p, back, sizeof(back)), parts[i].in) == 0);
	}
}

int main(void)
{
	test_sets();
	test_type_spec();
	test_partitions();
	test_picks();
	test_empty();
	test_choose_empty();
	test_small_buffer();
	return UNIT_RESULT();
}
