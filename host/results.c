/* Results documents: versioned JSON written atomically (outfile.h), and CSV views. */
#include "results.h"

#include "dev.h"
#include "range.h"
#include "version.h"

#include <errno.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

const char *res_tool_version(void)
{
	return BENCH_VERSION;
}

const char *res_tool_describe(void)
{
	return BENCH_DESCRIBE;
}

/*
 * What is recorded from the environment: names ending in '*' are prefixes. Each changes
 * which driver runs or how it runs, or what bench itself does.
 */
static const char *const env_recorded[] = {
	"OCL_ICD_*",                   /* ocl-icd: OCL_ICD_VENDORS, OCL_ICD_FILENAMES, platform order */
	"OPENCL_LAYERS", "OPENCL_LAYER_PATH",   /* Khronos loader layers */
	"ZE_*", "ZEX_*", "ZET_*",      /* Level Zero: ZE_FLAT_DEVICE_HIERARCHY, ZE_AFFINITY_MASK, ZEX_NUMBER_OF_CCS */
	"NEO*", "IGC_*",               /* Intel compute runtime debug keys, Intel Graphics Compiler */
	"SYCL_*", "ONEAPI_*",          /* oneAPI device selection */
	"CL_CONFIG_*",                 /* Intel's CPU runtime */
	"POCL_*",                      /* PoCL: devices, work-group method, cache */
	"CUDA_*",                      /* NVIDIA: CUDA_VISIBLE_DEVICES, CUDA_CACHE_DISABLE */
	"NVIDIA_VISIBLE_DEVICES",      /* containers */
	"GPU_*", "HSA_*", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "AMD_*",   /* AMD */
	"OMP_*",                       /* bench's host side (inputs and checks) runs on OpenMP */
	"BENCH_*",                     /* bench's own: BENCH_DEVICE, BENCH_SG, BENCH_HOST_MEMORY */
	"LD_LIBRARY_PATH", "LD_PRELOAD",        /* which loader and drivers are loaded */
};

static bool env_wanted(const char *entry)
{
	size_t name_len = strcspn(entry, "=");

	for (size_t i = 0; i < sizeof(env_recorded) / sizeof(env_recorded[0]); i++) {
		const char *pat = env_recorded[i];
		size_t n = strlen(pat);
		if (pat[n - 1] == '*' ? name_len >= n - 1 && strncmp(entry, pat, n - 1) == 0
				      : name_len == n && strncmp(entry, pat, n) == 0)
			return true;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

json_t *res_environment_json(void)
{
	extern char **environ;
	json_t *o = json_object();
	size_t n = 0, k = 0;
	const char **set;

	while (environ[n])
		n++;
	if (!(set = malloc((n ? n : 1) * sizeof(*set))))
		return o;
	for (size_t i = 0; i < n; i++)
		if (strchr(environ[i], '=') && env_wanted(environ[i]))
			set[k++] = environ[i];
	qsort(set, k, sizeof(*set), cmp_str);
	for (size_t i = 0; i < k; i++) {
		const char *eq = strchr(set[i], '=');
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(eq - set[i]), set[i]);
		json_object_set_new(o, name, json_string(eq + 1));
	}
	free(set);
	return o;
}

/*
 * What decides what a device is on Intel's GPU runtime: read when the driver starts, so one
 * mode per process. ZE_FLAT_DEVICE_HIERARCHY: FLAT (the default since 2023 on Xe-HPC) makes
 * each stack of a Max 1550 its own root device; COMPOSITE makes one root device per card
 * whose stacks are NUMA sub-devices, and a kernel on the root device has its work-groups
 * split over the stacks (implicit scaling); COMBINED, both. ZE_AFFINITY_MASK hides devices
 * or stacks; ZEX_NUMBER_OF_CCS splits a stack into 2 or 4 compute command streamers.
 * Their values are in `environment`; this names them and says which were unset.
 */
json_t *res_hierarchy_json(void)
{
	static const char *const vars[] = { "ZE_FLAT_DEVICE_HIERARCHY", "ZE_AFFINITY_MASK",
					    "ZEX_NUMBER_OF_CCS" };
	static const char *const modes[] = { "FLAT", "COMPOSITE", "COMBINED" };
	json_t *o = json_object(), *names = json_array(), *unset = json_array();
	const char *flat = getenv(vars[0]), *mode = "driver default";

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		json_array_append_new(names, json_string(vars[i]));
		if (!getenv(vars[i]))
			json_array_append_new(unset, json_string(vars[i]));
	}
	for (size_t i = 0; flat && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcasecmp(flat, modes[i]) == 0)
			mode = modes[i];
	if (flat && strcmp(mode, "driver default") == 0)
		mode = "not a mode the driver knows";
	json_object_set_new(o, "mode", json_string(mode));
	json_object_set_new(o, "variables", names);
	json_object_set_new(o, "unset", unset);
	json_object_set_new(o, "note", json_string(
		"Intel's GPU runtime reads these when it starts: one mode per process (values of the "
		"ones set are in `environment`). FLAT, its default since 2023 on Xe-HPC: each stack is "
		"its own root device. COMPOSITE: one root device per card, its stacks NUMA "
		"sub-devices (--sub-devices numa), a kernel on the root device split over the stacks "
		"by work-group (implicit scaling). ZE_AFFINITY_MASK hides devices or stacks; "
		"ZEX_NUMBER_OF_CCS splits each stack into 2 or 4 compute command streamers. Other "
		"drivers ignore them."));
	return o;
}

static void utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void res_doc_finish(json_t *doc)
{
	char ts[32];

	utc_now(ts, sizeof(ts));
	json_object_set_new(doc, "end_timestamp", json_string(ts));
}

static json_t *host_json(void)
{
	json_t *h = json_object();
	struct utsname u;
	char name[256] = "";

	gethostname(name, sizeof(name) - 1);
	json_object_set_new(h, "hostname", json_string(name));
	if (uname(&u) == 0) {
		json_object_set_new(h, "os", json_string(u.sysname));
		json_object_set_new(h, "kernel", json_string(u.release));
		json_object_set_new(h, "machine", json_string(u.machine));
	}
	json_object_set_new(h, "cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	return h;
}

json_t *res_doc_new(int argc, char **argv, const struct dev_info *dev, const char *benchmark)
{
	json_t *doc = json_object(), *tool = json_object(), *cmd = json_array();
	char ts[32];

	utc_now(ts, sizeof(ts));
	json_object_set_new(tool, "name", json_string("bench"));
	json_object_set_new(tool, "version", json_string(BENCH_VERSION));
	json_object_set_new(tool, "git_describe", json_string(BENCH_DESCRIBE));
	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	json_object_set_new(doc, "schema_version", json_integer(RESULTS_SCHEMA_VERSION));
	json_object_set_new(doc, "tool", tool);
	json_object_set_new(doc, "timestamp", json_string(ts));
	json_object_set_new(doc, "command", cmd);
	json_object_set_new(doc, "host", host_json());
	json_object_set_new(doc, "environment", res_environment_json());
	json_object_set_new(doc, "device_hierarchy", res_hierarchy_json());
	json_object_set_new(doc, "device", dev ? dev_to_json(dev) : json_null());
	json_object_set_new(doc, "benchmark", json_string(benchmark));
	json_object_set_new(doc, "points", json_array());
	return doc;
}

void res_doc_add_point(json_t *doc, json_t *point)
{
	json_array_append_new(json_object_get(doc, "points"), point);
}

json_t *res_stats_json(const struct stats *s, const double *samples, size_t n)
{
	json_t *o = json_object(), *a = json_array();

	json_object_set_new(o, "min", json_real(s->min));
	json_object_set_new(o, "median", json_real(s->median));
	json_object_set_new(o, "mean", json_real(s->mean));
	json_object_set_new(o, "stddev", json_real(s->stddev));
	json_object_set_new(o, "cv", json_real(s->cv));
	json_object_set_new(o, "p5", json_real(s->p5));
	json_object_set_new(o, "p95", json_real(s->p95));
	json_object_set_new(o, "max", json_real(s->max));
	json_object_set_new(o, "n", json_integer((json_int_t)n));
	double lo, hi, level;
	if (stats_median_ci(samples, n, 0.95, &lo, &hi, &level)) {
		json_object_set_new(o, "median_ci95", json_pack("[f, f]", lo, hi));
		json_object_set_new(o, "median_ci95_level", json_real(level));
	} else {
		json_object_set_new(o, "median_ci95", json_null());   /* fewer than 6 samples */
		json_object_set_new(o, "median_ci95_level", json_null());
	}
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_real(samples[i]));
	json_object_set_new(o, "samples", a);
	return o;
}

bool res_write_json(struct outf *o, const json_t *doc, char *err, size_t errlen)
{
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	bool ok;

	if (!s) {
		snprintf(err, errlen, "bench bug: cannot serialise the results document");
		outf_abort(o);
		return false;
	}
	size_t n = strlen(s);
	char *text = realloc(s, n + 2);   /* room for the final newline */
	if (!text) {
		free(s);
		snprintf(err, errlen, "out of memory writing the results document");
		outf_abort(o);
		return false;
	}
	s = text;
	s[n++] = '\n';
	ok = outf_commit(o, s, n, err, errlen);
	free(s);
	return ok;
}
