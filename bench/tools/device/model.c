/*
 * bench model: the analytic occupancy model (host/model/occ.h) as the published tables,
 * for a device of the table or the live one. No kernel runs.
 */
#include "rows.h"
#include "tool.h"
#include "device.h"
#include "sgb.h"
#include "occ.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 16

/* A --param NAME=VALUE, checked at parse: the parameter's id and its value. */
struct model_param {
	enum occ_param_id id;
	uint64_t value;
};

struct model_opts {
	struct common_opts co; /* the shared options it takes: --device, --json, --csv, --quiet */
	const char *gpu;       /* --gpu NAME|live */
	unsigned wg, sg, regs; /* 0: the device's default */
	uint64_t slm;
	bool barrier, list, full;
	unsigned grf;          /* index in sgb_grf_names */
	unsigned pct;          /* enum occ_pct_style, index in pct_names */
	struct range groups;   /* n == 0: one full wave */
	struct model_param params[MAX_PARAMS];
	unsigned n_params;
	const char *kernel;    /* --kernel ROW:VARIANT: inputs from what the compiler built */
};

/* The device the model runs on, and the live list it may come from. */
struct model_dev {
	struct occ_device d;
	struct dev_list devs;
	const struct dev_info *live;
};

/* ---- options ------------------------------------------------------------------------------ */

/* In enum occ_pct_style order. */
static const char *const pct_names[] = { "round", "trunc", "integer" };

/* "cu_count, eu_per_cu, ...": the parameters --param may set. */
static const char *param_names(char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < OCC_P_COUNT; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "",
			 occ_param_name((enum occ_param_id)i));
	return buf;
}

/* --param NAME=VALUE: a known name and a size; repeatable. */
static void parse_param(void *base, const char *arg)
{
	struct model_opts *o = base;
	const char *eq = strchr(arg, '=');
	char name[64], opt[96], list[512];
	int id;

	if (!eq || eq == arg)
		cli_usage_error("--param '%s' is not NAME=VALUE: NAME one of %s", arg,
				param_names(list, sizeof(list)));
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	id = (size_t)(eq - arg) < sizeof(name) ? occ_param_find(name) : -1;
	if (id < 0)
		cli_usage_error("--param %s: unknown parameter '%.*s'; the model's parameters are: %s",
				arg, (int)(eq - arg), arg, param_names(list, sizeof(list)));
	if (o->n_params == MAX_PARAMS)
		cli_usage_error("--param given more than %d times", MAX_PARAMS);
	snprintf(opt, sizeof(opt), "param %s:", name);
	o->params[o->n_params++] = (struct model_param){ (enum occ_param_id)id,
							 cli_size(opt, eq + 1, 0, UINT32_MAX) };
}

#define MO(f) offsetof(struct model_opts, f)
static const struct cli_opt model_cli[] = {
	{ "gpu", "NAME", CLI_STR, MO(gpu),
	  .help = "a device of the table (--list), a family, or 'live' (--device)" },
	{ "wg", "N", CLI_UINT, MO(wg), 1, 1u << 20, .def_note = "the device's maximum",
	  .help = "work-items per work-group" },
	{ "sg", "N", CLI_UINT, MO(sg), 1, 1024, .def_note = "the device's widest",
	  .help = "SIMD / warp / wave width" },
	{ "groups", "RANGE", CLI_RANGE, MO(groups), 1, 1ull << 40, .def_note = "one full wave",
	  .help = "work-groups per launch, e.g. 1..8,12..48:4" },
	{ "slm", "BYTES", CLI_SIZE, MO(slm), 0, 1ull << 30,
	  .help = "local memory per work-group (K/Ki suffixes)" },
	{ "barrier", NULL, CLI_FLAG, MO(barrier), .help = "the kernel uses work-group barriers" },
	{ "grf", "MODE", CLI_CHOICE, MO(grf), .names = sgb_grf_names, .n_names = 2, .def = "small",
	  .help = "Intel GRF mode: small or large (half the threads per XVE)" },
	{ "regs", "N", CLI_UINT, MO(regs), 0, 65536,
	  .help = "registers per work-item (NVIDIA) or VGPRs (AMD)" },
	{ "param", "NAME=VAL", CLI_FN, 0, .fn = parse_param,
	  .help = "override a model parameter, e.g. slm_per_cu=128Ki (see --list);\nrepeatable" },
	{ "percent", "STYLE", CLI_CHOICE, MO(pct), .names = pct_names, .n_names = 3, .def = "round",
	  .help = "round (2.4%), trunc (14.2%) or integer (86%)" },
	{ "full-occupancy", NULL, CLI_FLAG, MO(full),
	  .help = "the configurations that ensure full occupancy" },
	{ "kernel", "ROW:VARIANT", CLI_STR, MO(kernel),
	  .help = "take SIMD width, GRF mode, local memory and barriers from what\n"
		  "Intel's compiler builds of this kernel for the device's target\n"
		  "(ocloc, as bench compile), e.g. transpose:shuffle; --sg and --grf\n"
		  "are then the row's. A live device without such a target (a CPU)\n"
		  "builds it with its own driver. Beside the model: the driver's\n"
		  "count (cl_intel_concurrent_dispatch, where offered)" },
	{ "list", NULL, CLI_FLAG, MO(list),
	  .help = "the known devices; with --gpu, one device's parameters and sources" },
	{ "device", "SPEC", CLI_STR, MO(co.device),
	  .help = "the OpenCL device for --gpu live (env BENCH_DEVICE)" },
	BENCH_OPT_JSON(MO(co.json_path)),
	BENCH_OPT_CSV(MO(co.csv_path)),
	BENCH_OPT_QUIET(MO(co.quiet)),
	{ 0 } };

static void model_defaults(void *opts)
{
	((struct model_opts *)opts)->co.device = getenv("BENCH_DEVICE");
}

static void model_check(void *opts, const struct cli_set *given)
{
	struct model_opts *o = opts;

	if (o->list && (o->full || o->co.json_path || o->co.csv_path))
		cli_usage_error("--list prints the table only: no --full-occupancy, --json or --csv with it");
	if (!o->list && !o->gpu)
		cli_usage_error("--gpu NAME|live is required (bench model --list names the devices)");
	/* --device on the command line; BENCH_DEVICE applies only where it can */
	if (cli_given(given, "device") && (!o->gpu || strcmp(o->gpu, "live") != 0))
		cli_usage_error("--device applies to --gpu live only");
	if (o->kernel && (cli_given(given, "slm") || cli_given(given, "barrier") ||
			  cli_given(given, "regs") || o->full || o->list))
		cli_usage_error("--kernel takes local memory and barriers from the compiled kernel: "
				"no --slm, --barrier, --regs, --full-occupancy or --list with it");
}


/* ---- the device --------------------------------------------------------------------------- */

static void unknown_name(const char *name)
{
	char *list = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&list, &len);

	if (f) {
		occ_list_names(f);
		fclose(f);
	}
	cli_usage_error("unknown --gpu '%s'; the model knows:\n%s", name, list ? list : "");
}

static void open_live(const struct model_opts *o, struct model_dev *m)
{
	char note[640];

	m->live = bench_device(&m->devs, o->co.device);
	if (!occ_device_from_live(m->live, &m->d, note, sizeof(note)))
		cli_die(EXIT_SKIP, "%s", note);
}

/* The --param overrides, names and sizes checked at parse; the model checks the value. */
static void apply_params(const struct model_opts *o, struct occ_device *d)
{
	char err[512];

	for (unsigned i = 0; i < o->n_params; i++)
		if (!occ_set_param(d, occ_param_name(o->params[i].id), o->params[i].value, err,
				   sizeof(err)))
			cli_usage_error("--param %s", err);
}

static void resolve(const struct model_opts *o, struct model_dev *m)
{
	char list[64];

	memset(m, 0, sizeof(*m));
	if (strcmp(o->gpu, "live") == 0)
		open_live(o, m);
	else if (!occ_lookup(o->gpu, &m->d))
		unknown_name(o->gpu);
	apply_params(o, &m->d);
	if (o->sg && !occ_sg_ok(&m->d, o->sg))
		cli_usage_error("--sg %u: %s offers %s", o->sg, m->d.name,
				occ_sg_list(&m->d, list, sizeof(list)));
	if (o->grf && m->d.vendor != OCC_VENDOR_INTEL)
		cli_usage_error("--grf large applies to Intel GPUs only");
}

/* ---- text --------------------------------------------------------------------------------- */

/* Words by vendor (enum occ_vendor order): Intel, NVIDIA, AMD, CPU. */
static const char *const simd_word[] = { "SIMD", "Warp", "Wave", "SIMD" };
static const char *const thread_word[] = { "Threads", "Warps", "Waves", "Threads" };
static const char *const slot_word[] = { "threads", "warps", "waves", "threads" };
static const char *const eu_word[] = { "XVEs", "sub-partitions", "SIMDs", "threads" };

static void print_choices(const struct occ_device *d, FILE *f)
{
	for (int i = 0; i < OCC_P_COUNT; i++) {
		const struct occ_param *p = &d->p[i];
		if (!p->disputed && p->origin != OCC_FROM_OVERRIDE)
			continue;
		fprintf(f, "  %s = %llu%s%s (%s)\n", occ_param_name((enum occ_param_id)i), p->value,
			*occ_param_unit((enum occ_param_id)i) ? " " : "",
			occ_param_unit((enum occ_param_id)i), p->source);
		if (p->disputed)
			fprintf(f, "    disputed: %s; choose with --param %s=N\n", p->disputed,
				occ_param_name((enum occ_param_id)i));
	}
}

static void print_header(const struct occ_device *d, const struct occ_kernel *k,
			 const struct occ_result *r1, FILE *f)
{
	const struct occ_param *p = d->p;

	fprintf(f, "Device: %s (%s, %s%s)%s%s\n", d->name, d->family, occ_vendor_str(d->vendor),
		d->live ? ", live" : "", d->desc ? ": " : "", d->desc ? d->desc : "");
	if (d->vendor == OCC_VENDOR_CPU)
		fprintf(f, "  %llu hardware threads, one work-group at a time on each\n",
			p[OCC_P_CU_COUNT].value);
	else
		fprintf(f, "  %llu %ss x %llu %s x %llu %s = %llu slots\n", p[OCC_P_CU_COUNT].value,
			d->cu_word, p[OCC_P_EU_PER_CU].value, eu_word[d->vendor],
			p[OCC_P_THREADS_PER_EU].value, slot_word[d->vendor],
			p[OCC_P_CU_COUNT].value * p[OCC_P_EU_PER_CU].value *
				p[OCC_P_THREADS_PER_EU].value);
	print_choices(d, f);
	if (d->notes[0])
		fprintf(f, "  note: %s\n", d->notes);
	fprintf(f, "Kernel: work-group %u, %s %u, local memory %lu B, %s", k->wg_size,
		simd_word[d->vendor], r1->sg_size, k->slm_bytes, k->barrier ? "barrier" : "no barrier");
	if (d->vendor == OCC_VENDOR_INTEL)
		fprintf(f, ", %s GRF", sgb_grf_names[k->grf_large]);
	if (k->regs_per_thread)
		fprintf(f, ", %u %s per work-item", k->regs_per_thread,
			d->vendor == OCC_VENDOR_AMD ? "VGPRs" : "registers");
	fputc('\n', f);
	if (k->regs_per_thread && (d->vendor == OCC_VENDOR_INTEL || d->vendor == OCC_VENDOR_CPU))
		fprintf(f, "  (--regs is not modelled on %s devices; on Intel use --grf large)\n",
			occ_vendor_str(d->vendor));
	if (r1->launchable && d->vendor != OCC_VENDOR_CPU)
		fprintf(f, "  per %s: %u work-groups (limit: %s) of %u %s, %u slots; %s %s%s\n\n",
			d->cu_word, r1->wg_per_cu, r1->cu_limiter, r1->threads_per_wg,
			slot_word[d->vendor], r1->slots_per_cu,
			r1->splittable ? "threads may spread over" : "a work-group sits whole on one",
			d->cu_word, r1->splittable ? "s" : "");
	else if (!r1->launchable)
		fprintf(f, "  fails to launch: %s\n\n", r1->why_not);
	else
		fputc('\n', f);
}

static void add_row(struct table *t, const struct occ_device *d, const struct occ_kernel *k,
		    unsigned long long g, const struct occ_result *r, enum occ_pct_style st)
{
	char c[10][160];
	const char *cells[10];

	snprintf(c[0], sizeof(c[0]), "%llu", g);
	snprintf(c[1], sizeof(c[1]), "%llu", g * k->wg_size);
	snprintf(c[2], sizeof(c[2]), "%u", k->wg_size);
	snprintf(c[3], sizeof(c[3]), "%u", r->sg_size);
	for (int i = 4; i < 10; i++)
		c[i][0] = '\0';
	if (!r->launchable) {
		snprintf(c[6], sizeof(c[6]), "fails to launch");
		snprintf(c[9], sizeof(c[9]), "%s", r->why_not);
	} else {
		snprintf(c[4], sizeof(c[4]), "%u", r->threads_per_wg);
		snprintf(c[5], sizeof(c[5]), "%llu", r->threads);
		occ_format_occupancy(r, st, c[6], sizeof(c[6]));
		occ_pct_str(r->cu_occupancy, st, c[7], sizeof(c[7]));
		snprintf(c[8], sizeof(c[8]), "%llu", r->waves);
		if (strcmp(r->limiter, r->cu_limiter) == 0)
			snprintf(c[9], sizeof(c[9]), "%s", r->limiter);
		else
			snprintf(c[9], sizeof(c[9]), "%s (%s: %s)", r->limiter, d->cu_word,
				 r->cu_limiter);
	}
	for (int i = 0; i < 10; i++)
		cells[i] = c[i];
	table_add(t, cells);
}

/* ---- the command -------------------------------------------------------------------------- */

/* A point of the results document: its params, then status ok (the model validates nothing). */
static json_t *model_point(json_t *params)
{
	return json_pack("{s:o, s:s, s:n, s:b}", "params", params, "status", "ok", "reason",
			 "validated", 0);
}

static json_t *point_json(const struct model_opts *o, const struct occ_device *d,
			  const struct occ_kernel *k, unsigned long long g, const struct occ_result *r)
{
	json_t *pt = model_point(json_pack(
		"{s:s, s:I, s:I, s:I, s:I, s:b, s:b, s:I}", "gpu", o->gpu, "wg_size",
		(json_int_t)k->wg_size, "sg_size", (json_int_t)r->sg_size, "groups", (json_int_t)g,
		"slm_bytes", (json_int_t)k->slm_bytes, "barrier", k->barrier, "grf_large", k->grf_large,
		"regs_per_thread", (json_int_t)k->regs_per_thread));

	json_object_set_new(pt, "model", occ_result_json(d, k, r));
	return pt;
}

/* One full wave when --groups is absent. */
static void default_groups(struct model_opts *o, const struct occ_result *r1)
{
	unsigned long long g = 1;

	if (r1->launchable && r1->threads_per_wg)
		g = (r1->wave_threads + r1->threads_per_wg - 1) / r1->threads_per_wg;
	o->groups.v = bench_alloc(sizeof(*o->groups.v));
	o->groups.v[0] = g;
	o->groups.n = 1;
}

static void run_table(struct model_opts *o, const struct model_dev *m, const struct occ_kernel *k,
		      json_t *doc)
{
	struct occ_result r;
	struct table t;
	char hd[3][48];
	const char *head[10] = { "Work-groups", "Work-items", "Work-group size", simd_word[m->d.vendor],
				 hd[0], hd[1], "Occupancy", hd[2], "GPU waves", "Limiter" };

	snprintf(hd[0], sizeof(hd[0]), "%s per work-group", thread_word[m->d.vendor]);
	snprintf(hd[1], sizeof(hd[1]), "%s", thread_word[m->d.vendor]);
	snprintf(hd[2], sizeof(hd[2]), "%s occupancy", m->d.cu_word);
	hd[2][0] = (char)toupper((unsigned char)hd[2][0]);
	occ_predict(&m->d, k, 1, &r);
	if (!o->co.quiet)
		print_header(&m->d, k, &r, stdout);
	if (!o->groups.n)
		default_groups(o, &r);
	table_init(&t, 10, head);
	for (size_t i = 0; i < o->groups.n; i++) {
		occ_predict(&m->d, k, o->groups.v[i], &r);
		add_row(&t, &m->d, k, o->groups.v[i], &r, (enum occ_pct_style)o->pct);
		if (doc)
			res_doc_add_point(doc, point_json(o, &m->d, k, o->groups.v[i], &r));
	}
	if (!o->co.quiet)
		table_print(&t, stdout);
	table_free(&t);
}

static void full_json(const struct model_opts *o, const struct model_dev *m, const struct occ_full *f,
		      json_t *doc)
{
	json_t *pt = model_point(json_pack("{s:s}", "gpu", o->gpu));

	json_object_set_new(pt, "full_occupancy",
			    json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "min_threads",
				      (json_int_t)f->min_threads, "max_threads",
				      (json_int_t)f->max_threads, "min_sg", (json_int_t)f->min_sg,
				      "max_sg", (json_int_t)f->max_sg, "max_wg", (json_int_t)f->max_wg,
				      "slots", (json_int_t)f->slots, "wg_cap", (json_int_t)f->wg_cap));
	json_object_set_new(pt, "choices", occ_choices_json(&m->d));
	res_doc_add_point(doc, pt);
}

/* The guide's "Configurations to ensure full occupancy" table, one line per column. */
static void run_full(const struct model_opts *o, const struct model_dev *m, const struct occ_full *f,
		     json_t *doc)
{
	const char *tw = slot_word[m->d.vendor], *sw = simd_word[m->d.vendor];
	char label[64];

	printf("Configurations that ensure full occupancy: %s (%s)\n", m->d.name, m->d.family);
	print_choices(&m->d, stdout);
	snprintf(label, sizeof(label), "Minimum %s per work-group", tw);
	printf("  %-30s %u  (%u slots per %s, at most %u work-groups on it)\n", label, f->min_threads,
	       f->slots, m->d.cu_word, f->wg_cap);
	snprintf(label, sizeof(label), "Maximum %s per work-group", tw);
	printf("  %-30s %u  (%u / %s %u)\n", label, f->max_threads, f->max_wg, sw, f->min_sg);
	printf("  %-30s %u\n  %-30s %u\n", "Minimum sub-group size", f->min_sg,
	       "Maximum sub-group size", f->max_sg);
	printf("  %-30s %u\n", "Maximum work-group size", f->max_wg);
	printf("  %-30s %s x sub-group size <= %u\n", "Constraint", tw, f->max_wg);
	printf("  %-30s", "Smallest full work-group");
	for (unsigned i = 0; i < m->d.n_sg; i++)
		printf("%s%u (%s %u)", i ? ", " : " ", f->min_threads * m->d.sg_sizes[i], sw,
		       m->d.sg_sizes[i]);
	printf("\n");
	if (doc)
		full_json(o, m, f, doc);
}

/* ---- --list ------------------------------------------------------------------------------- */

static void list_cell(char *buf, size_t len, const struct occ_device *d, enum occ_param_id id,
		      unsigned div)
{
	const struct occ_param *p = &d->p[id];

	if (p->origin == OCC_UNSET || (!p->value && id == OCC_P_BARRIER_WG_PER_CU))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%llu%s", p->value / div, p->disputed ? "*" : "");
}

static void list_all(void)
{
	static const char *const head[] = { "Name",     "Family",        "Vendor",     "CUs",
					    "Slots/CU", "Max WG",        "Widths",     "SLM/CU KiB",
					    "WG/CU",    "Barrier WG/CU", "Description" };
	struct table t;
	char c[11][192];
	const char *cells[11];

	table_init(&t, 11, head);
	for (size_t i = 0; i < occ_device_count(); i++) {
		const struct occ_device *d = occ_device_at(i);
		snprintf(c[0], sizeof(c[0]), "%s", d->name);
		snprintf(c[1], sizeof(c[1]), "%s", d->family);
		snprintf(c[2], sizeof(c[2]), "%s", occ_vendor_str(d->vendor));
		list_cell(c[3], sizeof(c[3]), d, OCC_P_CU_COUNT, 1);
		snprintf(c[4], sizeof(c[4]), "%llu",
			 d->p[OCC_P_EU_PER_CU].value * d->p[OCC_P_THREADS_PER_EU].value);
		list_cell(c[5], sizeof(c[5]), d, OCC_P_WG_MAX, 1);
		occ_sg_list(d, c[6], sizeof(c[6]));
		list_cell(c[7], sizeof(c[7]), d, OCC_P_SLM_PER_CU, 1024);
		list_cell(c[8], sizeof(c[8]), d, OCC_P_WG_PER_CU, 1);
		list_cell(c[9], sizeof(c[9]), d, OCC_P_BARRIER_WG_PER_CU, 1);
		snprintf(c[10], sizeof(c[10]), "%s", d->desc ? d->desc : "");
		for (int j = 0; j < 11; j++)
			cells[j] = c[j];
		table_add(&t, cells);
	}
	table_print(&t, stdout);
	table_free(&t);
	printf("\n* disputed between sources: 'bench model --list --gpu NAME' shows the alternatives;\n"
	       "  --param NAME=VALUE chooses another value.\n");
}

static void list_one(const struct occ_device *d)
{
	static const char *const origin[] = { "unset", "table", "live", "override" };
	char sg[64];

	printf("%s (%s, %s)%s%s\n", d->name, d->family, occ_vendor_str(d->vendor), d->desc ? ": " : "",
	       d->desc ? d->desc : "");
	printf("  widths (--sg): %s; compute unit: %s\n", occ_sg_list(d, sg, sizeof(sg)), d->cu_word);
	for (int i = 0; i < OCC_P_COUNT; i++) {
		const struct occ_param *p = &d->p[i];
		if (p->origin == OCC_UNSET)
			continue;
		printf("  %-18s %10llu %-5s %-8s %s\n", occ_param_name((enum occ_param_id)i), p->value,
		       occ_param_unit((enum occ_param_id)i), origin[p->origin], p->source);
		if (p->disputed)
			printf("  %-18s disputed: %s\n", "", p->disputed);
	}
	if (d->notes[0])
		printf("  note: %s\n", d->notes);
}

/* ---- main --------------------------------------------------------------------------------- */

/* Everything after the device is known; outputs are reserved before any computing. */
static int run(struct model_opts *o, const struct model_dev *m)
{
	struct occ_kernel k = { .wg_size = o->wg ? o->wg : (unsigned)m->d.p[OCC_P_WG_MAX].value,
				.sg_size = o->sg,
				.slm_bytes = (unsigned long)o->slm,
				.barrier = o->barrier,
				.grf_large = o->grf,
				.regs_per_thread = o->regs };
	struct occ_full full;
	struct model_kernel mk;
	struct conc_answer drv;
	struct occ_result one = { 0 };
	char why[256];
	json_t *doc = NULL;
	int rc;

	if (o->full && !occ_full_occupancy(&m->d, k.grf_large, &full, why, sizeof(why)))
		cli_usage_error("--full-occupancy on %s: %s", m->d.name, why);
	bench_outputs_open(&o->co);
	if (o->kernel) {   /* the kernel's inputs are the compiler's */
		model_kernel_compile(o->kernel, m->d.family, m->live, o->sg, o->grf, o->wg, &mk);
		k.wg_size = mk.wg;
		k.sg_size = mk.k.simd;
		k.slm_bytes = (unsigned long)mk.k.slm;
		k.barrier = mk.k.barriers > 0;
		k.grf_large = mk.k.grf > 128;
		model_kernel_driver(&mk, m->live, &drv);
		occ_predict(&m->d, &k, 1, &one);
		if (!o->co.quiet) {
			model_kernel_print(&mk, stdout);
			model_kernel_driver_print(&drv, m->live, one.resident_wg, one.launchable,
						  stdout);
		}
	}
	if (o->co.json_path || o->co.csv_path) {
		doc = res_doc_new(cli_argc, cli_argv, m->live, "model");
		json_object_set_new(doc, "model_device", occ_params_json(&m->d));
		json_object_set_new(doc, "model_choices", occ_choices_json(&m->d));
		if (o->kernel) {
			json_t *kj = model_kernel_json(&mk);
			model_kernel_driver_json(kj, &drv, one.resident_wg, one.launchable);
			json_object_set_new(doc, "kernel", kj);
		}
	}
	if (o->full)
		run_full(o, m, &full, doc);
	else
		run_table(o, m, &k, doc);
	rc = bench_outputs_write(&o->co, doc);
	json_decref(doc);
	return rc;
}

static int model_main(void *opts)
{
	struct model_opts *o = opts;
	struct model_dev m;
	int rc = EXIT_OK;

	if (o->list && !o->gpu) {
		list_all();
		return EXIT_OK;
	}
	resolve(o, &m); /* exits 2 (unknown name, bad --sg/--param) or 77 (no live device) */
	if (o->list)
		list_one(&m.d);
	else
		rc = run(o, &m);
	range_free(&o->groups);
	if (m.live)
		dev_list_free(&m.devs);
	return rc;
}

const struct bench_tool model_tool = {
	.cmd = {
		.name = "model",
		.summary = "analytic occupancy model: tables for known or live devices",
		.synopsis =
			"usage: bench model --gpu NAME|live [--wg N] [--sg N] [--groups RANGE] [--slm BYTES]\n"
			"                   [--barrier] [--grf small|large] [--regs N] [--param NAME=VALUE]...\n"
			"                   [--percent round|trunc|integer] [--json FILE] [--csv FILE]\n"
			"       bench model --gpu NAME|live --kernel ROW:VARIANT [--sg N] [--grf small|large]\n"
			"       bench model --gpu NAME|live --full-occupancy\n"
			"       bench model --list [--gpu NAME|live]\n"
			"  Predicts hardware threads, occupancy, waves and the limiting resource of a launch\n"
			"  (docs/model.md, 'The occupancy model'), as the published tables write them.\n"
			"  With --kernel, the kernel's SIMD width, register file, local memory and barriers\n"
			"  are what Intel's compiler (ocloc) builds of it for the device's target (a live\n"
			"  device without one: its own driver's build), and beside the model's resident\n"
			"  work-groups stands the driver's own count (cl_intel_concurrent_dispatch).\n"
			"  Exit codes: 0 ok, 1 the compiler refused --kernel, 2 bad usage or unknown device\n"
			"  name, 77 no OpenCL platform, a live device the model does not know, or no ocloc.\n",
		.opts = model_cli,
		.opts_size = sizeof(struct model_opts),
		.defaults = model_defaults,
		.check = model_check,
	},
	.main = model_main,
};
