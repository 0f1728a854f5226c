/*
 * bench model --kernel ROW:VARIANT: the kernel's SIMD width, register file, local memory and
 * barriers taken from what Intel's compiler built for the model's device, through the same
 * builds hook and ocloc path as bench compile, not from the command line.
 */
#include "rows.h"
#include "tool.h"
#include "device.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The ocloc target of the model's device: the live Intel GPU's, or its family's. */
static const struct igpu_target *target_of(const char *family, const struct dev_info *live)
{
	enum igpu_arch a = live ? igpu_arch(live) : igpu_arch_of_family(family);
	const struct igpu_target *t = igpu_target_for_arch(a);
	char names[128];

	if (!t)
		cli_usage_error("--kernel: %s has no Intel GPU compiler target (%s are Xe-LP, Xe-HPG "
				"and Xe-HPC: a TGL, Arc A or Flex, Max device)",
				live ? live->name : family, igpu_target_names(names, sizeof(names)));
	return t;
}

/* The build and kernel of spec among the row's builds; exits 2 naming the variants. */
static const struct bench_build *find(const struct bench_builds *b, const char *variant,
				      const struct bench_build_kernel **bk)
{
	char all[512] = "";

	for (size_t i = 0; i < b->n; i++)
		for (size_t k = 0; k < b->v[i].n_k; k++) {
			if (strcmp(b->v[i].k[k].variant, variant) == 0) {
				*bk = &b->v[i].k[k];
				return &b->v[i];
			}
			if (strlen(all) + strlen(b->v[i].k[k].variant) + 3 < sizeof(all))
				snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s",
					 all[0] ? ", " : "", b->v[i].k[k].variant);
		}
	cli_usage_error("--kernel %s:%s: %s builds %s at this --sg", b->bench, variant, b->bench,
			all[0] ? all : "nothing");
}

/* The row's builds of the kernel's row for dev; exits 2 for an unknown row. */
static const struct bench_build *describe(const char *spec, const char *row, const char *variant,
					  const struct dev_info *dev, unsigned sg, bool grf_large,
					  struct bench_builds *b, const struct bench_build_kernel **bk)
{
	char rows[256];
	const struct bench_build *bb;

	if (!compile_describe(row, dev, sg, grf_large, b))
		cli_usage_error("--kernel %s: no row '%s' builds kernels: %s", spec, row,
				compile_row_names(rows, sizeof(rows)));
	bb = find(b, variant, bk);
	if (bb->skip[0])
		cli_usage_error("--kernel %s on %s: the run path does not build it: %s", spec, dev->name,
				bb->skip);
	return bb;
}

/* What the build and its kernel give mk, and the work-group it is launched with. */
static void take_build(struct model_kernel *mk, const struct bench_build *bb,
		       const struct bench_build_kernel *bk, unsigned wg)
{
	mk->file = bb->file;
	snprintf(mk->kernel, sizeof(mk->kernel), "%s", bk->name);
	snprintf(mk->options, sizeof(mk->options), "%s", bb->options);
	mk->wg = wg ? wg : bk->wg;
	snprintf(mk->wg_source, sizeof(mk->wg_source), "%s", wg ? "--wg"
		 : bk->wg_source ? bk->wg_source : "the row's launch");
	if (!mk->wg)
		cli_usage_error("--kernel %s: the row launches it with work-groups of every size (%s): "
				"give --wg", mk->spec, mk->wg_source);
}

/* Built by Intel's compiler (ocloc) for the target of the model's device. */
static void ocloc_compile(struct model_kernel *mk, const char *row, const char *variant,
			  const char *family, const struct dev_info *live, unsigned sg,
			  bool grf_large, unsigned wg)
{
	char err[2048], why[1024];
	struct bench_builds b;
	struct compile_session s;
	struct dev_info d;
	const struct bench_build *bb;
	const struct bench_build_kernel *bk;
	const struct zebin_kernel *k;
	size_t job;

	mk->t = target_of(family, live);
	if (!compile_session_open(&s, NULL, err, sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	igpu_target_dev(mk->t, s.oc.version, &d);
	bb = describe(mk->spec, row, variant, &d, sg, grf_large, &b, &bk);
	if ((job = compile_session_add(&s, mk->t, bb, err, sizeof(err))) == SIZE_MAX ||
	    !compile_session_run(&s, 1, err, sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	if (!(k = compile_session_kernel(&s, job, bk->name, why, sizeof(why))))
		cli_die(EXIT_FAIL, "--kernel %s: ocloc %s for %s refused it (%s): %s", mk->spec,
			s.oc.version, mk->t->name, bb->options, why);
	mk->k = *k;
	snprintf(mk->compiler, sizeof(mk->compiler), "ocloc %s", s.oc.version);
	take_build(mk, bb, bk, wg);
	bench_builds_free(&b);
	igpu_target_dev_free(&d);
	compile_session_close(&s);
}

/*
 * A live device without an Intel GPU compiler target (a CPU runtime, another vendor's GPU):
 * built by its own driver, which reports the local memory and the sub-group size at the
 * launch's work-group, never barriers or registers (the model of a CPU device needs neither:
 * one work-group on each hardware thread).
 */
static void live_compile(struct model_kernel *mk, const char *row, const char *variant,
			 const struct dev_info *live, unsigned sg, unsigned wg)
{
	struct bench_builds b;
	const struct bench_build *bb;
	const struct bench_build_kernel *bk;
	struct kernel_res res;
	struct prog_ctx c;
	cl_program prog;
	cl_kernel k;
	char *log = NULL, err[16384];

	bb = describe(mk->spec, row, variant, live, sg, false, &b, &bk);
	take_build(mk, bb, bk, wg);
	if (!prog_ctx_create(&c, live, NULL, err, sizeof(err)))
		cli_die(EXIT_FAIL, "--kernel %s: %s", mk->spec, err);
	if (!(prog = prog_build(&c, mk->file, mk->options, &log, err, sizeof(err))))
		cli_die(EXIT_FAIL, "--kernel %s: the driver of '%s' refused it: %s", mk->spec,
			live->name, err);
	if (!(k = prog_kernel(prog, mk->kernel, err, sizeof(err))))
		cli_die(EXIT_FAIL, "--kernel %s: %s", mk->spec, err);
	prog_kernel_res(&c, k, mk->wg, log, &res);
	snprintf(mk->k.name, sizeof(mk->k.name), "%s", mk->kernel);
	mk->k.simd = res.compiled_sg ? res.compiled_sg : res.max_sg_for_local;
	mk->k.slm = res.local_mem;
	mk->k.private_mem = res.private_mem;
	snprintf(mk->compiler, sizeof(mk->compiler), "the driver of '%s' (%s)", live->name,
		 live->platform_name);
	mk->from_driver = true;
	free(log);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	prog_ctx_release(&c);
	bench_builds_free(&b);
}

void model_kernel_compile(const char *spec, const char *family, const struct dev_info *live,
			  unsigned sg, bool grf_large, unsigned wg, struct model_kernel *mk)
{
	const char *colon = strchr(spec, ':');
	char row[64];

	memset(mk, 0, sizeof(*mk));
	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(row) || !colon[1])
		cli_usage_error("--kernel '%s': ROW:VARIANT, e.g. transpose:shuffle", spec);
	snprintf(row, sizeof(row), "%.*s", (int)(colon - spec), spec);
	snprintf(mk->spec, sizeof(mk->spec), "%s", spec);
	if (live && !igpu_target_for_arch(igpu_arch(live)))
		live_compile(mk, row, colon + 1, live, sg, wg);
	else
		ocloc_compile(mk, row, colon + 1, family, live, sg, grf_large, wg);
}

/* The inputs of a kernel its live driver built: what a driver reports, and what it does not. */
static void driver_inputs_print(const struct model_kernel *mk, FILE *f)
{
	fprintf(f, "Kernel %s: %s of %s, built by %s with \"%s\"\n", mk->spec, mk->kernel, mk->file,
		mk->compiler, mk->options);
	if (mk->k.simd)
		fprintf(f, "  SIMD %u: the driver's sub-group size at work-group %u\n", mk->k.simd,
			mk->wg);
	else
		fprintf(f, "  SIMD: not reported (the driver offers no sub-groups)\n");
	fprintf(f, "  local memory %llu B: the driver's (CL_KERNEL_LOCAL_MEM_SIZE)\n",
		(unsigned long long)mk->k.slm);
	fprintf(f, "  barrier, registers: not reported by a driver (taken as none; the model of a CPU "
		"device holds one work-group on each hardware thread either way)\n");
	fprintf(f, "  work-group %u: %s\n", mk->wg, mk->wg_source);
}

void model_kernel_print(const struct model_kernel *mk, FILE *f)
{
	const struct zebin_kernel *k = &mk->k;

	if (mk->from_driver) {
		driver_inputs_print(mk, f);
		return;
	}
	fprintf(f, "Kernel %s: %s of %s, built by %s for %s (%s) with \"%s\"\n", mk->spec, mk->kernel,
		mk->file, mk->compiler, mk->t->name, igpu_arch_name(mk->t->arch), mk->options);
	fprintf(f, "  SIMD %u: compiled (.ze_info execution_env.simd_size)\n", k->simd);
	fprintf(f, "  GRF %s: compiled (grf_count %u)\n", k->grf > 128 ? "large" : "small", k->grf);
	fprintf(f, "  local memory %llu B: compiled (slm_size; __local arguments excluded)\n",
		(unsigned long long)k->slm);
	fprintf(f, "  barrier %s: compiled (barrier_count %u)\n", k->barriers ? "yes" : "no",
		k->barriers);
	fprintf(f, "  work-group %u: %s\n", mk->wg, mk->wg_source);
	if (k->scratch)
		fprintf(f, "  spills: %llu B of scratch a hardware thread (%s)\n",
			(unsigned long long)k->scratch, k->scratch_usage);
}

/* Where each input of the model comes from. */
static json_t *sources_json(const struct model_kernel *mk)
{
	json_t *src = json_object();
	bool drv = mk->from_driver;

	json_object_set_new(src, "sg_size", json_string(drv ? "the driver: sub-group size at the "
							 "work-group" : "compiled: .ze_info simd_size"));
	json_object_set_new(src, "grf_large", json_string(drv ? "not reported by a driver: small"
							   : "compiled: grf_count > 128"));
	json_object_set_new(src, "slm_bytes", json_string(drv ? "the driver: CL_KERNEL_LOCAL_MEM_SIZE"
							   : "compiled: slm_size"));
	json_object_set_new(src, "barrier", json_string(drv ? "not reported by a driver: none"
							 : "compiled: barrier_count > 0"));
	json_object_set_new(src, "wg_size", json_string(mk->wg_source));
	return src;
}

json_t *model_kernel_json(const struct model_kernel *mk)
{
	json_t *o = json_object(), *c;

	json_object_set_new(o, "spec", json_string(mk->spec));
	json_object_set_new(o, "file", json_string(mk->file));
	json_object_set_new(o, "kernel", json_string(mk->kernel));
	json_object_set_new(o, "target", mk->t ? json_string(mk->t->name) : json_null());
	json_object_set_new(o, "compiler", json_string(mk->compiler));
	json_object_set_new(o, "options", json_string(mk->options));
	if (mk->from_driver) {
		c = json_object();
		json_object_set_new(c, "sg_size", json_integer(mk->k.simd));
		json_object_set_new(c, "local_mem_bytes", json_integer((json_int_t)mk->k.slm));
	} else {
		c = compile_kernel_json(&mk->k);
	}
	json_object_set_new(o, mk->from_driver ? "driver_built" : "compiled", c);
	json_object_set_new(o, "sources", sources_json(mk));
	return o;
}

/* ---- the driver's count (cl_intel_concurrent_dispatch) beside the model's ---- */

void model_kernel_driver(const struct model_kernel *mk, const struct dev_info *live,
			 struct conc_answer *a)
{
	struct prog_ctx c;
	cl_program prog;
	cl_kernel k;
	char err[16384];

	memset(a, 0, sizeof(*a));
	if (!live) {
		snprintf(a->note, sizeof(a->note), "not asked: --gpu names a device of the table (the "
			 "driver's count needs --gpu live on a device offering %s)", CONC_EXTENSION);
		return;
	}
	if (!conc_offered(live)) {
		snprintf(a->note, sizeof(a->note), "not offered: '%s' does not list %s", live->name,
			 CONC_EXTENSION);
		return;
	}
	if (!prog_ctx_create(&c, live, NULL, err, sizeof(err)))
		cli_die(EXIT_FAIL, "--kernel %s: %s", mk->spec, err);
	if (!(prog = prog_build(&c, mk->file, mk->options, NULL, err, sizeof(err))))
		cli_die(EXIT_FAIL, "--kernel %s on '%s': %s", mk->spec, live->name, err);
	if (!(k = prog_kernel(prog, mk->kernel, err, sizeof(err))))
		cli_die(EXIT_FAIL, "--kernel %s: %s", mk->spec, err);
	conc_query(&c, k, mk->wg, a);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	prog_ctx_release(&c);
}

void model_kernel_driver_print(const struct conc_answer *a, const struct dev_info *live,
			       unsigned long long model, bool known, FILE *f)
{
	char w[512];

	fprintf(f, "Resident work-groups, three answers:\n");
	if (known)
		fprintf(f, "  model: %llu work-groups at once (the table below)\n", model);
	else
		fprintf(f, "  model: no answer (the kernel cannot be launched at this work-group)\n");
	if (a->known)
		fprintf(f, "  driver: %llu work-groups at once (%s)\n", (unsigned long long)a->groups,
			CONC_SOURCE);
	else
		fprintf(f, "  driver: %s\n", a->note);
	fprintf(f, "  measured: not here (no kernel runs): bench occupancy --check-driver%s\n",
		live ? "" : " on the device");
	if (a->known && known && model != a->groups)
		fprintf(f, "  the driver's count and the model's differ: driver %llu, model %llu (%s)\n",
			(unsigned long long)a->groups, model,
			conc_explain(live, a->groups, model, CONC_MODEL, w, sizeof(w)));
}

void model_kernel_driver_json(json_t *kernel, const struct conc_answer *a,
			      unsigned long long model, bool known)
{
	json_t *d = conc_json(a);

	json_object_set_new(d, "model_resident_wg", known ? json_integer((json_int_t)model)
							  : json_null());
	json_object_set_new(kernel, "driver", d);
}
