/* bench info: the OpenCL devices found, as text or JSON. */
#include "compat.h"
#include "subcommands.h"

#include <stdlib.h>

void info_usage(FILE *f)
{
	fprintf(f, "usage: bench info [--all | --device SPEC] [--json]\n"
		   "  Reports every device (--all, the default without --device) or the one\n"
		   "  --device selects: platform, device, driver, versions, compute units, clock,\n"
		   "  work-group and memory limits, sub-group support, atomic capabilities,\n"
		   "  vendor attributes and the profiling timer resolution.\n"
		   "  --json prints a JSON array of device objects on stdout.\n"
		   "  Also: --default prints only the device chosen when no --device is given.\n");
}

int info_main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "default", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 } };
	const char *spec = getenv("BENCH_DEVICE");
	bool json = false, all = true, dflt = false;
	struct dev_list l;
	char err[4096];
	int c;

	while ((c = getopt_long(argc, argv, "+:", lo, NULL)) != -1) {
		switch (c) {
		case OPT_DEVICE: spec = optarg; all = false; break;
		case 'j': json = true; break;
		case 'a': all = true; spec = NULL; break;
		case 'D': dflt = true; all = false; spec = NULL; break;
		case 'h': info_usage(stdout); return EXIT_OK;
		default: opt_reject(c, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!dev_list_query(&l, err, sizeof(err)))
		die(EXIT_USAGE, "%s", err);
	const struct dev_info *one = NULL;
	if (!all || dflt) {
		one = dev_select(&l, spec, err, sizeof(err));
		if (!one) {
			dev_list_free(&l);
			die(EXIT_USAGE, "--device %s", err);
		}
	}
	json_t *arr = json_array();
	for (unsigned i = 0; i < l.n; i++) {
		if (one && one != &l.d[i])
			continue;
		if (json)
			json_array_append_new(arr, dev_to_json(&l.d[i]));
		else
			dev_print(&l.d[i], stdout);
	}
	if (json) {
		json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
	}
	json_decref(arr);
	dev_list_free(&l);
	return EXIT_OK;
}
