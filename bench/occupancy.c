/*
 * bench occupancy: how many work-groups are really resident at once, measured
 * by the probe in kernels/occupancy.cl, beside the model's prediction; and
 * (--waves) the time of a fixed amount of work per group against the number
 * of groups, whose steps show where the device runs out of room.
 */
#include "compat.h"
#include "check.h"
#include "occupancy_host.h"
#include "subcommands.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

void occupancy_usage(FILE *f)
{
	fprintf(f,
		"usage: bench occupancy [options]\n"
		"  Launches several times more work-groups than the device can hold; each records\n"
		"  its arrival and departure, and the peak count is the number resident at once.\n"
		"  --wg RANGE       work-group sizes (default 32..MAX:32, MAX the device maximum, <= 1024)\n"
		"  --sg RANGE|auto  required sub-group sizes (cl_intel_required_subgroup_size; default auto)\n"
		"  --slm RANGE      local memory per work-group, bytes: a range of sizes with K/Ki\n"
		"                   suffixes, e.g. 0,16Ki,32Ki or 0..48Ki:8Ki (default 0)\n"
		"  --barrier MODE   on, off or both (default both): departure after a barrier, or\n"
		"                   counted per work-item with no barrier in the kernel\n"
		"  --groups N       work-groups per launch (default: 4 x the model's capacity, at least\n"
		"                   8 x compute units; doubled while the peak equals it)\n"
		"  --spin N         dependent rounds per work-item (default: from 2048, doubled until\n"
		"                   the peak stops changing)\n"
		"  --check          exit 1 when a measurement and the model disagree, naming each point\n"
		"  --waves          instead: time fixed work per group against the number of groups\n"
		"                   (first --wg, --sg, --slm; --groups RANGE then sets the sweep)\n"
		COMMON_USAGE);
}

static void parse_args(int argc, char **argv, struct occ_opts *o, struct common_opts *co)
{
	enum { O_WG = OPT_BENCH_BASE, O_SG, O_SLM, O_BARRIER, O_GROUPS, O_SPIN, O_CHECK, O_WAVES };
	static const struct option lo[] = {
		COMMON_LONGOPTS,
		{ "wg", required_argument, NULL, O_WG },
		{ "sg", required_argument, NULL, O_SG },
		{ "slm", required_argument, NULL, O_SLM },
		{ "barrier", required_argument, NULL, O_BARRIER },
		{ "groups", required_argument, NULL, O_GROUPS },
		{ "spin", required_argument, NULL, O_SPIN },
		{ "check", no_argument, NULL, O_CHECK },
		{ "waves", no_argument, NULL, O_WAVES },
		{ 0 } };
	const char *groups_arg = NULL;
	int c;

	memset(o, 0, sizeof(*o));
	o->barrier_on = o->barrier_off = true;
	common_defaults(co);
	while ((c = getopt_long(argc, argv, "+:", lo, NULL)) != -1) {
		if (common_opt(co, c, optarg))
			continue;
		switch (c) {
		case O_WG: range_free(&o->wg); opt_range("wg", optarg, 1, 65535, &o->wg); break;
		case O_SG:
			range_free(&o->sg);
			if (strcmp(optarg, "auto") != 0)
				opt_range("sg", optarg, 1, 128, &o->sg);
			break;
		case O_SLM: range_free(&o->slm); opt_size_range("slm", optarg, 0, 1ull << 30, &o->slm); break;
		case O_BARRIER:
			o->barrier_on = strcmp(optarg, "on") == 0 || strcmp(optarg, "both") == 0;
			o->barrier_off = strcmp(optarg, "off") == 0 || strcmp(optarg, "both") == 0;
			if (!o->barrier_on && !o->barrier_off)
				usage_error("--barrier '%s': allowed on, off or both", optarg);
			break;
		case O_GROUPS: groups_arg = optarg; break;
		case O_SPIN: o->spin = (unsigned)opt_u64("spin", optarg, 1, 1u << 26); break;
		case O_CHECK: o->check = true; break;
		case O_WAVES: o->waves = true; break;
		case 'h': occupancy_usage(stdout); exit(EXIT_OK);
		default: opt_reject(c, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (groups_arg && o->waves)
		opt_range("groups", groups_arg, 1, 1u << 22, &o->groups);
	else if (groups_arg)
		o->fixed_groups = opt_u64("groups", groups_arg, 1, 1u << 22);
	if (o->waves && o->check)
		usage_error("--check applies to the residency probe, not to --waves");
	if (!o->slm.n)
		opt_size_range("slm", "0", 0, 0, &o->slm);
}

/* Default and bounds of --wg against the device. */
static void check_wg(const struct bench_session *s, struct occ_opts *o)
{
	const struct dev_info *d = s->dev;
	size_t max = d->max_wg < 1024 ? d->max_wg : 1024;

	if (!o->wg.n) {
		char def[64];
		snprintf(def, sizeof(def), "%zu..%zu:32", max < 32 ? max : 32, max);
		opt_range("wg", def, 1, 65535, &o->wg);
	}
	for (size_t i = 0; i < o->wg.n; i++)
		if (o->wg.v[i] > d->max_wg)
			usage_error("--wg %llu exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE of '%s': allowed 1..%zu",
				    (unsigned long long)o->wg.v[i], d->name, d->max_wg);
	for (size_t i = 0; i < o->slm.n; i++)
		if (o->slm.v[i] > d->local_mem)
			usage_error("--slm %llu exceeds CL_DEVICE_LOCAL_MEM_SIZE of '%s': allowed 0..%llu",
				    (unsigned long long)o->slm.v[i], d->name,
				    (unsigned long long)d->local_mem);
	for (size_t i = 0; i < o->sg.n; i++) {
		char sizes[128];
		if (!dev_can_require_sg(d, (unsigned)o->sg.v[i]))
			usage_error("--sg %llu cannot be required on '%s': supported sizes are %s",
				    (unsigned long long)o->sg.v[i], d->name,
				    d->has_intel_reqd_sg ? dev_sg_sizes_str(d, sizes, sizeof(sizes))
							 : "none (no cl_intel_required_subgroup_size)");
	}
}

int occupancy_main(int argc, char **argv)
{
	struct occ_opts o;
	struct common_opts co;
	struct bench_session s;
	int rc;

	parse_args(argc, argv, &o, &co);
	session_open(&s, &co, o.waves ? "occupancy-waves" : "occupancy");
	check_wg(&s, &o);
	rc = o.waves ? occ_waves_run(&s, &o) : occ_probe_run(&s, &o);
	range_free(&o.wg);
	range_free(&o.sg);
	range_free(&o.slm);
	range_free(&o.groups);
	return rc;
}
