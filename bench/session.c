/*
 * The session: what one process keeps open across its runs (the device, its context and
 * queue, the model of the device), the device requirement of --require-device, and the
 * output files of a single benchmark's run, reserved before any work.
 */
#include "harness_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- outputs: reserved before any work, removed by an early exit ---- */

static struct res_out out_json = { .fd = -1 }, out_csv = { .fd = -1 };

void harness_drop_outputs(void)
{
	res_out_abort(&out_json);
	res_out_abort(&out_csv);
}

void bench_outputs_open(const struct common_opts *o)
{
	static bool registered;
	char err[1024];

	if (!registered)
		atexit(harness_drop_outputs);
	registered = true;
	if (o->json_path && o->csv_path && res_out_same_file(o->json_path, o->csv_path))
		cli_usage_error("--json and --csv name the same file '%s'", o->json_path);
	if (o->json_path && !res_out_open(&out_json, o->json_path, err, sizeof(err)))
		cli_usage_error("--json %s", err);
	if (o->csv_path && !res_out_open(&out_csv, o->csv_path, err, sizeof(err)))
		cli_usage_error("--csv %s", err);
}

int bench_outputs_write(const struct common_opts *o, json_t *doc)
{
	char err[1024];
	int rc = EXIT_OK;

	if (doc)
		res_doc_finish(doc);
	if (o->json_path && !res_write_json(&out_json, doc, err, sizeof(err))) {
		fprintf(stderr, "bench %s: %s\n", cli_cmd, err);
		rc = EXIT_FAIL;
	}
	if (o->csv_path && !res_write_csv(&out_csv, doc, err, sizeof(err))) {
		fprintf(stderr, "bench %s: %s\n", cli_cmd, err);
		rc = EXIT_FAIL;
	}
	return rc;
}

/* ---- the device and --require-device ---- */

static const char *type_name(cl_device_type t)
{
	return t & CL_DEVICE_TYPE_GPU ? "GPU" : t & CL_DEVICE_TYPE_CPU ? "CPU"
	       : t & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator" : "other";
}

/* Whether d is what --require-device asks: gpu, cpu, or a name in the device or platform. */
static bool satisfies(const struct dev_info *d, const char *req)
{
	if (strcasecmp(req, "gpu") == 0)
		return d->type & CL_DEVICE_TYPE_GPU;
	if (strcasecmp(req, "cpu") == 0)
		return d->type & CL_DEVICE_TYPE_CPU;
	return strcasestr(d->name, req) || strcasestr(d->platform_name, req) ||
	       strcasestr(d->platform_version, req);
}

static const char *req_words(const char *req, char *buf, size_t len)
{
	if (strcasecmp(req, "gpu") == 0 || strcasecmp(req, "cpu") == 0)
		snprintf(buf, len, "%s", strcasecmp(req, "gpu") == 0 ? "GPU" : "CPU");
	else
		snprintf(buf, len, "device or platform named '%s'", req);
	return buf;
}

/*
 * Exit 77: the device asked for is not there (a runner that lost its GPU), or --device
 * chose another (why says so).
 */
noreturn static void no_such_device(const struct dev_list *l, const char *req, const char *why)
{
	char want[320], list[4096] = "";

	for (unsigned i = 0; i < l->n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%u: %s (%s, %s)",
			 i ? "; " : "", i, l->d[i].name, type_name(l->d[i].type), l->d[i].platform_name);
	req_words(req, want, sizeof(want));
	if (why)
		cli_die(EXIT_SKIP, "device: --require-device %s: %s, so nothing is measured. The devices "
			"found: %s", req, why, l->n ? list : "none");
	cli_die(EXIT_SKIP, "device: --require-device %s: no %s among the devices found, so nothing "
		"is measured (%s). Is its driver installed and registered (clinfo -l)?", req, want,
		l->n ? list : "none");
}

/*
 * The device spec names (NULL: the default), held to require (NULL: none). No platform
 * or device at all is 77; a spec that names none, several or is empty is 2.
 */
static const struct dev_info *pick_device(struct dev_list *l, const char *spec, const char *require)
{
	const struct dev_info *d;
	char err[4096];
	int code = EXIT_USAGE;

	if (spec && !*spec && spec == getenv("BENCH_DEVICE"))
		spec = NULL;   /* an empty BENCH_DEVICE is no choice: the default device */
	if (!dev_list_query(l, err, sizeof(err))) {
		if (require)
			no_such_device(l, require, err);
		cli_die(EXIT_SKIP, "device: %s", err);   /* no platform, or platforms without devices */
	}
	if (!(d = dev_choose(l, spec, &code, err, sizeof(err))))
		cli_die(code, "%s%s", spec && code == EXIT_USAGE ? "usage: --device " : "device: ", err);
	if (!require || satisfies(d, require))
		return d;
	if (spec) {
		char why[512];
		char want[320];
		snprintf(why, sizeof(why), "--device '%s' selects '%s' (%s, %s), which is not a %s",
			 spec, d->name, type_name(d->type), d->platform_name,
			 req_words(require, want, sizeof(want)));
		no_such_device(l, require, why);
	}
	/* without --device, the first device that satisfies it */
	for (unsigned i = 0; i < l->n; i++)
		if (satisfies(&l->d[i], require))
			return &l->d[i];
	no_such_device(l, require, NULL);
}

const struct dev_info *bench_device(struct dev_list *l, const char *spec)
{
	return pick_device(l, spec, NULL);
}

/* ---- the session ---- */

void bench_session_open(struct bench_session *s, const struct common_opts *co)
{
	char err[4096];

	s->co = co;
	watch_start(s);   /* before any driver thread, which inherits the blocked signals */
	if (co->kernels_dir && access(co->kernels_dir, R_OK | X_OK) != 0)
		cli_usage_error("--kernels '%s' is not a readable folder", co->kernels_dir);
	s->dev = pick_device(&s->devs, co->device, co->require);
	if (!prog_ctx_create(&s->pc, s->dev, co->kernels_dir, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: %s on '%s'", err, s->dev->name);
	occ_live_init(&s->model, s->dev);
}

void bench_session_close(struct bench_session *s)
{
	watch_stop();
	harness_cache_free(s);
	prog_ctx_release(&s->pc);
	dev_list_free(&s->devs);
}

/* The document's time_origin: what the points' start_ns count from. */
json_t *harness_origin_json(const struct bench_session *s)
{
	if (!s->have_origin)
		return json_null();
	return json_pack("{s:I, s:I, s:s}", "device_ns", (json_int_t)s->origin_dev_ns, "host_unix_ns",
			 (json_int_t)s->origin_unix_ns, "note",
			 "start_ns counts from the first timed launch's CL_PROFILING_COMMAND_START "
			 "(device_ns, the device's clock); host_unix_ns is the host's UTC time just "
			 "before that launch was enqueued");
}
