/* bench info: the OpenCL devices found, as text or JSON. */
#include "rows.h"
#include "tool.h"

struct info_opts {
	bool all;              /* --all: every device (also the default) */
	const char *device;    /* --device SPEC: only that device */
	bool dflt;             /* --default: only the device chosen without --device */
	bool json;             /* --json: a JSON array on stdout */
};

#define IO(f) offsetof(struct info_opts, f)
static const struct cli_opt info_cli[] = {
	{ "all", NULL, CLI_FLAG, IO(all), .help = "every device (as without --device or --default)" },
	{ "device", "SPEC", CLI_STR, IO(device),
	  .help = "only this device: index, platform:device, or name substring" },
	{ "default", NULL, CLI_FLAG, IO(dflt),
	  .help = "only the device chosen when no --device is given" },
	{ "json", NULL, CLI_FLAG, IO(json), .help = "print a JSON array of device objects on stdout" },
	{ 0 } };

/* --all, --device and --default each choose what to report: one of them at most. */
static void info_check(void *opts, const struct cli_set *given)
{
	(void)opts;
	if (cli_given(given, "all") + cli_given(given, "device") + cli_given(given, "default") > 1)
		cli_usage_error("--all, --device and --default choose different devices: give one of them");
}

static int info_main(void *opts)
{
	const struct info_opts *o = opts;
	const struct dev_info *one = NULL;
	struct dev_list l;
	json_t *arr;
	char lost[1536];

	if (o->device || o->dflt)
		one = bench_device(&l, o->device);
	else
		bench_device(&l, NULL);   /* the list, or exit 77 without any device */
	/* a registered driver that gave no platform (PoCL under a read-only HOME): said on stderr,
	 * the list on stdout staying what the drivers gave */
	dev_lost_hint(&l, lost, sizeof(lost));
	if (lost[0])
		fprintf(stderr, "bench info: %s\n", lost + 1);
	arr = json_array();
	for (unsigned i = 0; i < l.n; i++) {
		if (one && one != &l.d[i])
			continue;
		if (o->json)
			json_array_append_new(arr, dev_to_json(&l.d[i]));
		else
			dev_print(&l.d[i], stdout);
	}
	if (o->json) {
		json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
	}
	json_decref(arr);
	dev_list_free(&l);
	return EXIT_OK;
}

const struct bench_tool info_tool = {
	.cmd = {
		.name = "info",
		.summary = "report the OpenCL devices found (text or --json)",
		.synopsis = "usage: bench info [--all | --device SPEC | --default] [--json]\n"
			    "  Reports every device, or one: platform, device, driver, versions, compute\n"
			    "  units, clock, work-group and memory limits, sub-group support, atomic\n"
			    "  capabilities, vendor attributes and the profiling timer resolution.\n",
		.opts = info_cli,
		.opts_size = sizeof(struct info_opts),
		.check = info_check,
	},
	.main = info_main,
};
