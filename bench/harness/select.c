/*
 * Choosing devices: the one a spec names, a set (all, gpu, cpu, a list), the parts of each
 * (--sub-devices), the devices of one platform a row across devices needs, and what
 * --require-device asks, with the one rule of exit codes (2: a bad spec; 77: no such device).
 */
#define HARNESS_LAYER HARNESS_LAYER_SESSION
#include "session.h"

#include <stdlib.h>
#include <string.h>

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

/* A spec that is an empty BENCH_DEVICE is no choice: the default device. */
static const char *spec_of(const char *spec)
{
	return spec && !*spec && spec == getenv("BENCH_DEVICE") ? NULL : spec;
}

/* Where a spec came from, as a message names it: the option, or the variable it defaults to. */
static const char *spec_name(const char *spec)
{
	return spec && spec == getenv("BENCH_DEVICE") ? "BENCH_DEVICE=" : "--device ";
}

/* Lists the devices: none at all is 77 (with --require-device: the devices wanted). */
static void list_devices(struct dev_list *l, const char *require)
{
	char err[4096];

	if (!dev_list_query(l, err, sizeof(err))) {
		dev_lost_hint(l, err + strlen(err), sizeof(err) - strlen(err));
		if (require)
			no_such_device(l, require, err);
		cli_die(EXIT_SKIP, "device: %s", err);   /* no platform, or platforms without devices */
	}
}

/*
 * The device spec names (NULL: the default) among the listed devices, held to require
 * (NULL: none); a spec that names none, several or is empty is 2.
 */
static const struct dev_info *choose_one(struct dev_list *l, const char *spec, const char *require)
{
	const struct dev_info *d;
	char err[4096];
	int code = EXIT_USAGE;

	if (!(d = dev_choose(l, spec, &code, err, sizeof(err)))) {
		dev_lost_hint(l, err + strlen(err), sizeof(err) - strlen(err));
		cli_die(code, "%s%s%s", spec && code == EXIT_USAGE ? "usage: " : "device: ",
			spec && code == EXIT_USAGE ? spec_name(spec) : "", err);
	}
	if (!require || satisfies(d, require))
		return d;
	if (spec) {
		char why[512];
		char want[320];
		snprintf(why, sizeof(why), "%s'%s' selects '%s' (%s, %s), which is not a %s",
			 spec_name(spec), spec, d->name, type_name(d->type), d->platform_name,
			 req_words(require, want, sizeof(want)));
		no_such_device(l, require, why);
	}
	/* without --device, the first device that satisfies it */
	for (unsigned i = 0; i < l->n; i++)
		if (satisfies(&l->d[i], require))
			return &l->d[i];
	no_such_device(l, require, NULL);
}

/* The device spec names (NULL: the default), held to require: 77 where there is none. */
static const struct dev_info *pick_device(struct dev_list *l, const char *spec, const char *require)
{
	spec = spec_of(spec);
	list_devices(l, require);
	return choose_one(l, spec, require);
}

const struct dev_info *bench_device(struct dev_list *l, const char *spec)
{
	return pick_device(l, spec, NULL);
}

const struct dev_info *harness_pick_device(struct dev_list *l, const struct common_opts *co)
{
	return pick_device(l, co->device, co->require);
}

/* ---- the devices of a run on several ---- */

/* The names dev_match reads, of every device listed. */
static struct dev_name *names_of(const struct dev_list *l)
{
	struct dev_name *names = bench_alloc((l->n ? l->n : 1) * sizeof(*names));

	for (unsigned k = 0; k < l->n; k++)
		names[k] = (struct dev_name){ l->d[k].name, l->d[k].platform_name,
					      l->d[k].platform_version, dev_type_str(l->d[k].type),
					      l->d[k].platform_index, l->d[k].device_index };
	return names;
}

/* The devices a set spec names (all, gpu, cpu, a list): 2 for a bad one, 77 for none. */
static size_t match_set(struct bench_devset *ds, const char *spec, const struct dev_info **out)
{
	struct dev_name *names = names_of(&ds->devs);
	unsigned idx[BENCH_MAX_DEVICES];
	char err[4096];
	int code, n = dev_match_set(names, ds->devs.n, spec, idx, BENCH_MAX_DEVICES, &code, err,
				    sizeof(err));

	free(names);
	if (n < 0)
		cli_die(code, "%s%s%s", code == EXIT_USAGE ? "usage: " : "device: ", spec_name(spec), err);
	for (int i = 0; i < n; i++)
		out[i] = &ds->devs.d[idx[i]];
	return (size_t)n;
}

/* --require-device over a set: the devices that satisfy it, 77 where none does. */
static size_t require_set(struct bench_devset *ds, const char *spec, const char *req,
			  const struct dev_info **d, size_t n)
{
	size_t k = 0;
	char why[512], want[320];

	for (size_t i = 0; i < n; i++)
		if (satisfies(d[i], req))
			d[k++] = d[i];
	if (k)
		return k;
	snprintf(why, sizeof(why), "%s'%s' selects no %s", spec_name(spec), spec,
		 req_words(req, want, sizeof(want)));
	no_such_device(&ds->devs, req, why);
}

/*
 * A BENCH_PEERS row's devices without --device: the devices of the first platform that has
 * two or more (the default device's first), else the default device alone (partitioned by
 * numa where it offers that, else refused by peers_check).
 */
static size_t peers_default(struct bench_devset *ds, const struct dev_info **out)
{
	const struct dev_list *l = &ds->devs;
	int code;
	char err[512];
	const struct dev_info *def = dev_choose(l, NULL, &code, err, sizeof(err));
	size_t best = 0, n = 0;

	for (unsigned p = 0; p < l->n_platforms; p++) {
		unsigned cnt = 0, plat = (def->platform_index + p) % l->n_platforms;
		for (unsigned i = 0; i < l->n; i++)
			cnt += l->d[i].platform_index == plat;
		if (cnt >= 2 && !best) {
			for (unsigned i = 0; i < l->n && n < BENCH_MAX_DEVICES; i++)
				if (l->d[i].platform_index == plat)
					out[n++] = &l->d[i];
			best = n;
		}
	}
	if (best)
		return best;
	out[0] = def;
	return 1;
}

/* A part of each device, where --sub-devices asks: 2 for one a device does not offer. */
static void partition(struct bench_devset *ds, const struct dev_part *part)
{
	const struct dev_info *roots[BENCH_MAX_DEVICES];
	size_t n = ds->n;
	char err[2048];
	int code;

	memcpy(roots, ds->dev, n * sizeof(roots[0]));
	ds->n = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = dev_partition(roots[i], part, ds->subs + ds->n_subs,
					 BENCH_MAX_DEVICES - ds->n_subs, &code, err, sizeof(err));
		if (!k)
			cli_die(code, "%s%s", code == EXIT_USAGE ? "usage: --sub-devices " : "", err);
		for (size_t j = 0; j < k; j++)
			ds->dev[ds->n++] = &ds->subs[ds->n_subs + j];
		ds->n_subs += k;
	}
}

/*
 * A BENCH_PEERS row measures across the devices of one context, which holds devices of one
 * platform only: the platform with the most devices of the set, at least two. False, with
 * why, where none has two (the set left as it was).
 */
static bool peers_pick(struct bench_devset *ds, char *why, size_t len)
{
	size_t best = 0, cnt[BENCH_MAX_DEVICES] = { 0 }, k = 0;
	char list[2048] = "";

	for (size_t i = 0; i < ds->n; i++)
		for (size_t j = 0; j < ds->n; j++)
			cnt[i] += ds->dev[j]->platform == ds->dev[i]->platform;
	for (size_t i = 1; i < ds->n; i++)
		best = cnt[i] > cnt[best] ? i : best;
	for (size_t i = 0; i < ds->n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s'%s' (%s)", i ? ", " : "",
			 ds->dev[i]->name, ds->dev[i]->platform_name);
	if (cnt[best] < 2) {
		snprintf(why, len, "bench %s measures between two devices of one OpenCL context, and a "
			 "context holds the devices of one platform only; here: %s, none with a second "
			 "device on its platform. A two-stack GPU offers two: Intel's runtime in FLAT mode "
			 "(its default) makes each stack a device of one platform; in COMPOSITE mode "
			 "--sub-devices numa makes the stacks sub-devices. Where a driver partitions a "
			 "device (CPU runtimes), --sub-devices equally:N or counts:A,B pairs its parts",
			 cli_cmd, list);
		return false;
	}
	for (size_t i = 0; i < ds->n; i++)
		if (ds->dev[i]->platform == ds->dev[best]->platform)
			ds->dev[k++] = ds->dev[i];
		else
			fprintf(stderr, "bench %s: note: '%s' (%s) left out: a context holds the devices "
				"of one platform, '%s'\n", cli_cmd, ds->dev[i]->name, ds->dev[i]->platform_name,
				ds->dev[best]->platform_name);
	ds->n = k;
	return true;
}

/* NAME (PLATFORM), #k for the k-th root of that name and platform, the part of a sub-device. */
static void label(struct bench_devset *ds, size_t i)
{
	const struct dev_info *d = ds->dev[i], *root = d->parent ? d->parent : d;
	unsigned k = 0, of = 0;
	char *b = ds->label[i], spec[128];
	size_t len = BENCH_LABEL_LEN, off;

	for (unsigned j = 0; j < ds->devs.n; j++)
		if (strcmp(ds->devs.d[j].name, root->name) == 0 &&
		    strcmp(ds->devs.d[j].platform_name, root->platform_name) == 0) {
			of++;
			k = &ds->devs.d[j] == root ? of : k;
		}
	off = (size_t)snprintf(b, len, "%s (%s)", root->name, root->platform_name);
	if (k > 1 && off < len)
		off += (size_t)snprintf(b + off, len - off, " #%u", k);
	if (d->parent && off < len)
		snprintf(b + off, len - off, ", sub-device %u (%s)", d->sub_index,
			 dev_part_str(&d->part, spec, sizeof(spec)));
}

/* The devices of co, and the parts of each that --sub-devices (or a peers row's numa) asks. */
static void devset_select(struct bench_devset *ds, const struct common_opts *co, bool peers)
{
	const char *spec = spec_of(co->device);

	memset(ds, 0, sizeof(*ds));
	list_devices(&ds->devs, co->require);
	if (dev_spec_is_set(spec)) {
		ds->n = match_set(ds, spec, ds->dev);
		if (co->require)
			ds->n = require_set(ds, spec, co->require, ds->dev, ds->n);
	} else if (spec || !peers || co->require || co->sub_devices) {
		ds->dev[0] = choose_one(&ds->devs, spec, co->require);
		ds->n = 1;
	} else {
		ds->n = peers_default(ds, ds->dev);
	}
	if (co->sub_devices) {
		partition(ds, &co->part);
	} else if (peers && ds->n == 1 && (ds->dev[0]->part_domains & CL_DEVICE_AFFINITY_DOMAIN_NUMA)) {
		struct dev_part numa = { .kind = DEV_PART_NUMA };
		partition(ds, &numa);   /* a GPU in COMPOSITE mode: its stacks */
	}
}

bool bench_devset_open(struct bench_devset *ds, const struct common_opts *co, bool peers, char *why,
		       size_t len)
{
	bool two = true;

	devset_select(ds, co, peers);
	if (peers)
		two = peers_pick(ds, why, len);
	for (size_t i = 0; i < ds->n; i++)
		label(ds, i);
	return two;
}

void bench_devset_close(struct bench_devset *ds)
{
	dev_sub_free(ds->subs, ds->n_subs);
	dev_list_free(&ds->devs);
}

size_t bench_device_refs(const struct common_opts *co, struct bench_device_ref *out, size_t max)
{
	struct bench_devset ds;
	size_t n;

	if (co->sub_devices || co->concurrent)
		cli_usage_error("bench %s runs one process per device: --sub-devices and --concurrent "
				"are for a benchmark's run on several devices", cli_cmd);
	bench_devset_open(&ds, co, false, NULL, 0);   /* no peers: nothing to say why */
	n = ds.n < max ? ds.n : max;
	for (size_t i = 0; i < n; i++) {
		snprintf(out[i].spec, sizeof(out[i].spec), "%u:%u", ds.dev[i]->platform_index,
			 ds.dev[i]->device_index);
		snprintf(out[i].label, sizeof(out[i].label), "%s", ds.label[i]);
	}
	bench_devset_close(&ds);
	return n;
}
