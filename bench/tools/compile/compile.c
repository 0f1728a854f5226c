/*
 * bench compile: every kernel configuration the suite would build on an Intel GPU, compiled
 * for it without one. Each row of bench/main.c describes its builds (its builds hook: the
 * same option code its plan runs) on the dev_info of an offline target (host/igpu.c), ocloc
 * compiles them, and the zebin says what the compiler made of each kernel. One point per
 * kernel x target x configuration, in the results schema, so that bench compare sees a
 * compiler or option change (a new spill, another SIMD width, a build that fails).
 */
#include "rows.h"
#include "tool.h"
#include "compile.h"
#include "sgb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SG 8

struct compile_opts {
	struct common_opts co;   /* --json, --csv, --quiet, --kernels */
	bool target[8];          /* by igpu_target_at index */
	bool targets_given;
	const char *bench_arg;   /* --benchmark LIST ("all": every row) */
	unsigned sg[MAX_SG];     /* --sg: 0 auto */
	size_t n_sg;
	unsigned grf;            /* 0 small, 1 large */
	unsigned jobs;           /* --jobs, 0: the online CPUs */
	bool build_skipped;
};

/* One point: a kernel of a build, for a target, at an --sg. */
struct compile_point {
	const struct igpu_target *t;
	unsigned sg;
	const struct bench_build *bb;
	const struct bench_build_kernel *bk;
	size_t job;                  /* SIZE_MAX: not compiled */
	enum point_status status;
	char reason[1536];
	const struct zebin_kernel *k;   /* what the compiler made of it, NULL: nothing */
	bool forced;                 /* a skipped point compiled anyway (--build-skipped) */
	size_t note;
};

/* ---- options ---- */

static void parse_target(void *base, const char *arg)
{
	struct compile_opts *o = base;
	const char *names[8];
	size_t n = igpu_target_count();

	for (size_t i = 0; i < n && i < 8; i++)
		names[i] = igpu_target_at(i)->name;
	cli_names("target", arg, names, n, o->target);
	o->targets_given = true;
}

static void parse_sg(void *base, const char *arg)
{
	struct compile_opts *o = base;
	char *copy = strdup(arg), *save = NULL;

	o->n_sg = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (o->n_sg == MAX_SG)
			cli_usage_error("--sg lists more than %d sizes", MAX_SG);
		o->sg[o->n_sg++] = strcmp(t, "auto") == 0 ? 0 : (unsigned)cli_u64("sg", t, 1, 1024);
	}
	free(copy);
	if (!o->n_sg)
		cli_usage_error("--sg '%s': give auto or sizes, e.g. auto,8,16,32", arg);
}


#define CO(f) offsetof(struct compile_opts, f)
static const struct cli_opt compile_cli[] = {
	{ "target", "LIST", CLI_FN, 0, .fn = parse_target,
	  .help = "ocloc targets: tgllp (Xe-LP), acm-g10 (Xe-HPG), pvc (Xe-HPC), or all\n"
		  "(required)" },
	{ "benchmark", "LIST", CLI_STR, CO(bench_arg), .def = "all",
	  .help = "rows whose builds are compiled (bench list), the harness's own\n"
		  "kernels (ceiling), or all" },
	{ "sg", "LIST", CLI_FN, 0, .fn = parse_sg, .def = "auto,8,16,32",
	  .help = "--sg of each row: auto and sizes; rows without --sg build at auto" },
	{ "grf", "MODE", CLI_CHOICE, CO(grf), .names = sgb_grf_names, .n_names = 2, .def = "small",
	  .help = "--grf of the sub-group rows: small or large" },
	{ "build-skipped", NULL, CLI_FLAG, CO(build_skipped),
	  .help = "compile what the run path skips too (its rules checked against the\n"
		  "compiler): the point stays skipped, `forced` says what was built" },
	{ "jobs", "N", CLI_UINT, CO(jobs), 1, 1024, .def_note = "the online CPUs",
	  .help = "ocloc processes at once" },
	BENCH_OPT_KERNELS(CO(co.kernels_dir)),
	BENCH_OPT_JSON(CO(co.json_path)),
	BENCH_OPT_CSV(CO(co.csv_path)),
	BENCH_OPT_QUIET(CO(co.quiet)),
	{ 0 } };

static void compile_check(void *opts, const struct cli_set *given)
{
	struct compile_opts *o = opts;
	char names[128];

	(void)given;
	if (!o->targets_given)
		cli_usage_error("--target is required: %s or all",
				igpu_target_names(names, sizeof(names)));
	bench_check_kernels(o->co.kernels_dir);
}

/* The rows of --benchmark, checked: exits 2 naming an unknown one. */
static size_t rows_of(const char *arg, const char **rows, size_t max)
{
	char all[256], *copy, *save = NULL;
	size_t n = 0;

	compile_row_names(all, sizeof(all));
	copy = strdup(arg && strcmp(arg, "all") != 0 ? arg : all);
	for (char *t = strtok_r(copy, ", ", &save); t && n < max; t = strtok_r(NULL, ", ", &save)) {
		const struct bench_row *row = bench_row_find(t);
		rows[n] = row && row->builds ? row->cmd.name : NULL;
		if (strcmp(t, COMPILE_CEILING) == 0)
			rows[n] = COMPILE_CEILING;
		if (!rows[n])
			cli_usage_error("--benchmark '%s': allowed %s, or all", t, all);
		n++;
	}
	free(copy);
	return n;
}

/* ---- the points ---- */

struct compile_all {
	struct compile_point *p;
	size_t n, cap;
	struct bench_builds *b;      /* one list per (target, row, sg) */
	size_t nb;
	struct dev_info devs[8];
	size_t n_devs;
};

static struct compile_point *add_point(struct compile_all *a)
{
	return bench_push(&a->p, &a->n, &a->cap, sizeof(a->p[0]), 256);
}

/* Every build of the rows for the targets and sizes, and a job for each one compiled. */
static void describe(const struct compile_opts *o, struct compile_session *s,
		     struct compile_all *a, const char **rows, size_t n_rows)
{
	char err[2048];

	a->b = calloc(igpu_target_count() * n_rows * o->n_sg, sizeof(*a->b));
	if (!a->b)
		cli_die(EXIT_FAIL, "out of host memory");
	for (size_t ti = 0; ti < igpu_target_count(); ti++) {
		const struct igpu_target *t = igpu_target_at(ti);
		if (!o->target[ti])
			continue;
		struct dev_info *d = &a->devs[a->n_devs++];
		igpu_target_dev(t, s->oc.version, d);
		for (size_t r = 0; r < n_rows; r++)
			for (size_t g = 0; g < o->n_sg; g++) {
				struct bench_builds *b = &a->b[a->nb++];
				compile_describe(rows[r], d, o->sg[g], o->grf == 1, b);
				for (size_t i = 0; i < b->n; i++) {
					const struct bench_build *bb = &b->v[i];
					bool compile = !bb->skip[0] || (o->build_skipped && !bb->skip_options);
					size_t job = compile ? compile_session_add(s, t, bb, err, sizeof(err))
							     : SIZE_MAX;
					if (compile && job == SIZE_MAX)
						cli_die(EXIT_FAIL, "%s", err);
					for (size_t k = 0; k < bb->n_k; k++) {
						struct compile_point *p = add_point(a);
						p->t = t;
						p->sg = o->sg[g];
						p->bb = bb;
						p->bk = &bb->k[k];
						p->job = job;
					}
				}
			}
	}
}

/* The point's outcome from its build's record and the compiler's. */
static void judge(const struct compile_session *s, struct compile_point *p)
{
	char why[1024];

	if (p->job != SIZE_MAX)
		p->k = compile_session_kernel(s, p->job, p->bk->name, why, sizeof(why));
	if (p->bb->skip[0]) {
		p->status = POINT_SKIPPED;
		p->forced = p->job != SIZE_MAX;
		snprintf(p->reason, sizeof(p->reason), "%s", p->bb->skip);
		return;
	}
	if (!p->k && p->bb->on_failure[0]) {
		p->status = POINT_SKIPPED;
		snprintf(p->reason, sizeof(p->reason), "the compiler refused it (%s): %s", why,
			 p->bb->on_failure);
		return;
	}
	if (!p->k) {
		p->status = POINT_FAILED;
		snprintf(p->reason, sizeof(p->reason), "%s", why);
		return;
	}
	p->status = POINT_OK;
	if (p->k->required_sg && p->k->simd != p->k->required_sg) {
		p->status = POINT_FAILED;
		snprintf(p->reason, sizeof(p->reason), "required sub-group size %u, compiled SIMD%u",
			 p->k->required_sg, p->k->simd);
	} else if (p->k->scratch) {
		snprintf(p->reason, sizeof(p->reason), "spills: %llu bytes of scratch a hardware thread "
			 "(%s)%s", (unsigned long long)p->k->scratch, p->k->scratch_usage,
			 p->k->grf < 256 && p->t->arch != IGPU_XE_LP ? "; --grf large gives 256 registers"
								      : "");
	}
}

/* The point's forced compile (a skipped build): the compiler's verdict. */
static json_t *forced_json(const struct compile_session *s, const struct compile_point *p)
{
	char why[1024];
	const struct zebin_kernel *k = compile_session_kernel(s, p->job, p->bk->name, why, sizeof(why));
	json_t *o = json_object();

	json_object_set_new(o, "builds", json_boolean(k != NULL));
	json_object_set_new(o, "error", k ? json_null() : json_string(why));
	if (k)
		json_object_set_new(o, "compiled", compile_kernel_json(k));
	return o;
}

static json_t *point_json(const struct compile_opts *o, const struct compile_session *s,
			  const struct compile_point *p)
{
	json_t *j = json_object(), *pa = json_object(), *b = json_object();

	json_object_set_new(pa, "target", json_string(p->t->name));
	json_object_set_new(pa, "benchmark", json_string(p->bb->bench));
	json_object_set_new(pa, "variant", json_string(p->bk->variant));
	json_object_set_new(pa, "kernel", json_string(p->bk->name));
	json_object_set_new(pa, "sg_size_requested", p->sg ? json_integer(p->sg) : json_null());
	json_object_set_new(pa, "grf", json_string(sgb_grf_names[o->grf]));
	json_object_set_new(j, "params", pa);
	json_object_set_new(j, "status", json_string(bench_status_names[p->status]));
	json_object_set_new(j, "reason", p->reason[0] ? json_string(p->reason) : json_null());
	json_object_set_new(j, "validated", json_boolean(p->status == POINT_OK));
	json_object_set_new(b, "file", json_string(p->bb->file));
	json_object_set_new(b, "options", p->bb->skip_options ? json_null()
							      : json_string(p->bb->options));
	json_object_set_new(b, "wg_size", p->bk->wg ? json_integer(p->bk->wg) : json_null());
	json_object_set_new(b, "wg_source", json_string(p->bk->wg_source ? p->bk->wg_source : ""));
	if (p->bb->build)
		json_object_update(b, p->bb->build);
	json_object_set_new(j, "build", b);
	if (p->status == POINT_OK)
		json_object_set_new(j, "compiled", compile_kernel_json(p->k));
	if (p->forced)
		json_object_set_new(j, "forced", forced_json(s, p));
	return j;
}

/* ---- the table ---- */

/* Numbers the distinct reasons 1, 2, ... in order of appearance. */
static size_t number_notes(struct compile_all *a)
{
	size_t k = 0;

	for (size_t i = 0; i < a->n; i++) {
		struct compile_point *p = &a->p[i];
		for (size_t j = 0; j < i && p->reason[0] && !p->note; j++)
			if (a->p[j].note && strcmp(a->p[j].reason, p->reason) == 0)
				p->note = a->p[j].note;
		if (p->reason[0] && !p->note)
			p->note = ++k;
	}
	return k;
}

static void cell_u(char *b, size_t n, bool have, unsigned long long v)
{
	snprintf(b, n, have ? "%llu" : "-", v);
}

static void print_table(const struct compile_opts *o, const struct compile_session *s,
			struct compile_all *a)
{
	static const char *const head[] = { "Target", "Benchmark", "Variant", "Kernel", "SG",
					    "Builds", "SIMD", "GRF", "Spill B", "Private B",
					    "SLM B", "Barriers", "Instr", "Status" };
	struct table t;
	char c[14][160], why[64];
	const char *cells[14];
	size_t notes = number_notes(a);

	table_init(&t, 14, head);
	for (size_t i = 0; i < a->n; i++) {
		const struct compile_point *p = &a->p[i];
		const struct zebin_kernel *k = p->status == POINT_OK ? p->k : NULL;
		if (p->forced)
			k = compile_session_kernel(s, p->job, p->bk->name, why, sizeof(why));
		snprintf(c[0], sizeof(c[0]), "%s", p->t->name);
		snprintf(c[1], sizeof(c[1]), "%s", p->bb->bench);
		snprintf(c[2], sizeof(c[2]), "%s", p->bk->variant);
		snprintf(c[3], sizeof(c[3]), "%s", p->bk->name);
		snprintf(c[4], sizeof(c[4]), p->sg ? "%u" : "auto", p->sg);
		snprintf(c[5], sizeof(c[5]), "%s%s", p->job == SIZE_MAX ? "-" : k ? "yes" : "no",
			 p->forced ? " (forced)" : "");
		cell_u(c[6], sizeof(c[6]), k, k ? k->simd : 0);
		cell_u(c[7], sizeof(c[7]), k, k ? k->grf : 0);
		cell_u(c[8], sizeof(c[8]), k, k ? k->scratch : 0);
		cell_u(c[9], sizeof(c[9]), k, k ? k->private_mem : 0);
		cell_u(c[10], sizeof(c[10]), k, k ? k->slm : 0);
		cell_u(c[11], sizeof(c[11]), k, k ? k->barriers : 0);
		cell_u(c[12], sizeof(c[12]), k, k ? k->instructions : 0);
		snprintf(c[13], sizeof(c[13]), p->note ? "%s (%zu)" : "%s", bench_status_names[p->status],
			 p->note);
		for (int j = 0; j < 14; j++)
			cells[j] = c[j];
		table_add(&t, cells);
	}
	printf("compiled by %s (%s, found by %s), --grf %s; from each zebin's .ze_info and "
	       ".text sections\n", s->oc.path, s->oc.version, s->oc.found_by, sgb_grf_names[o->grf]);
	table_print(&t, stdout);
	table_free(&t);
	for (size_t k = 1; k <= notes; k++)
		for (size_t i = 0; i < a->n; i++)
			if (a->p[i].note == k) {
				printf("%s  (%zu) %s\n", k == 1 ? "reasons:\n" : "", k, a->p[i].reason);
				break;
			}
}

/* ---- the document ---- */

static json_t *device_json(const struct compile_opts *o, const struct compile_session *s)
{
	json_t *d = json_object(), *ts = json_array();
	char name[256] = "ocloc:";

	for (size_t i = 0, k = 0; i < igpu_target_count(); i++) {
		const struct igpu_target *t = igpu_target_at(i);
		if (!o->target[i])
			continue;
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s%s", k++ ? ", " : " ",
			 t->name);
		json_array_append_new(ts, json_pack("{s:s, s:s, s:s, s:s, s:I, s:I}", "name", t->name,
						    "arch", igpu_arch_name(t->arch), "device", t->device,
						    "model", t->model, "ip_version",
						    (json_int_t)t->ip_version, "device_id",
						    (json_int_t)t->device_id));
	}
	json_object_set_new(d, "name", json_string(name));
	json_object_set_new(d, "platform", json_string("Intel offline compiler (ocloc)"));
	json_object_set_new(d, "driver_version", json_string(s->oc.version));
	json_object_set_new(d, "type", json_string("offline"));
	json_object_set_new(d, "ocloc", json_string(s->oc.path));
	json_object_set_new(d, "ocloc_found_by", json_string(s->oc.found_by));
	json_object_set_new(d, "targets", ts);
	return d;
}

static json_t *make_doc(const struct compile_opts *o, const struct compile_session *s,
			const struct compile_all *a)
{
	json_t *doc = res_doc_new(cli_argc, cli_argv, NULL, "compile"), *sg = json_array();

	json_object_set_new(doc, "device", device_json(o, s));
	for (size_t i = 0; i < o->n_sg; i++)
		json_array_append_new(sg, o->sg[i] ? json_integer(o->sg[i]) : json_string("auto"));
	json_object_set_new(doc, "compile", json_pack("{s:o, s:s, s:b, s:s}", "sg", sg, "grf",
						      sgb_grf_names[o->grf], "build_skipped",
						      o->build_skipped, "source",
						      "each zebin's .ze_info (execution_env, "
						      "per_thread_memory_buffers) and .text.KERNEL "
						      "(instructions)"));
	for (size_t i = 0; i < a->n; i++)
		res_doc_add_point(doc, point_json(o, s, &a->p[i]));
	return doc;
}

static int compile_main(void *opts)
{
	struct compile_opts *o = opts;
	struct compile_session s;
	struct compile_all a = { 0 };
	const char *rows[32];
	size_t n_rows = rows_of(o->bench_arg, rows, 32), failed = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char err[2048];
	json_t *doc;
	int rc;

	bench_outputs_open(&o->co);
	if (!compile_session_open(&s, o->co.kernels_dir, err, sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	describe(o, &s, &a, rows, n_rows);
	if (!compile_session_run(&s, o->jobs ? o->jobs : cpus > 0 ? (unsigned)cpus : 1, err,
				 sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	for (size_t i = 0; i < a.n; i++) {
		judge(&s, &a.p[i]);
		failed += a.p[i].status == POINT_FAILED;
	}
	if (!o->co.quiet)
		print_table(o, &s, &a);
	doc = make_doc(o, &s, &a);
	rc = bench_outputs_write(&o->co, doc);
	json_decref(doc);
	if (failed)
		fprintf(stderr, "bench compile: %zu of %zu kernels failed to build (see their reason)\n",
			failed, a.n);
	for (size_t i = 0; i < a.nb; i++)
		bench_builds_free(&a.b[i]);
	for (size_t i = 0; i < a.n_devs; i++)
		igpu_target_dev_free(&a.devs[i]);
	free(a.b);
	free(a.p);
	compile_session_close(&s);
	return rc != EXIT_OK ? rc : failed ? EXIT_FAIL : EXIT_OK;
}

const struct bench_tool compile_tool = {
	.cmd = {
		.name = "compile",
		.summary = "compile every kernel for Intel GPUs with ocloc: SIMD, registers, spills",
		.synopsis =
			"usage: bench compile --target tgllp,acm-g10,pvc|all [--benchmark LIST] [--sg LIST]\n"
			"                     [--grf small|large] [--build-skipped] [--json FILE]\n"
			"  Builds every kernel configuration the suite would build on each Intel GPU target,\n"
			"  with the rows' own option code, through Intel's offline compiler (ocloc: on PATH,\n"
			"  $BENCH_OCLOC, or .deps/intel-gpu from scripts/setup.sh --intel-gpu-icd; no GPU\n"
			"  needed), and reads from each binary (zebin: .ze_info and .text) what the compiler\n"
			"  made of every kernel: SIMD width, registers, spill and private bytes, local\n"
			"  memory, barriers, instructions. What the run path skips on that device is\n"
			"  skipped here, with its reason. Exit: 0 every kernel built or was skipped, 1 one\n"
			"  failed to build, 2 bad usage, 77 no ocloc.\n",
		.opts = compile_cli,
		.opts_size = sizeof(struct compile_opts),
		.check = compile_check,
	},
	.main = compile_main,
};
