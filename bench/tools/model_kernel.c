/*
 * bench model --kernel ROW:VARIANT: the kernel's SIMD width, register file, local memory and
 * barriers taken from what Intel's compiler built for the model's device, through the same
 * builds hook and ocloc path as bench compile, not from the command line.
 */
#include "rows.h"
#include "tool.h"
#include "compile_run.h"

#include <stdint.h>
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

void model_kernel_compile(const char *spec, const char *family, const struct dev_info *live,
			  unsigned sg, bool grf_large, unsigned wg, struct model_kernel *mk)
{
	const char *colon = strchr(spec, ':');
	char row[64], rows[256], err[2048], why[1024];
	struct bench_builds b;
	struct compile_session s;
	struct dev_info d;
	const struct bench_build *bb;
	const struct bench_build_kernel *bk;
	const struct zebin_kernel *k;
	size_t job;

	memset(mk, 0, sizeof(*mk));
	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(row) || !colon[1])
		cli_usage_error("--kernel '%s': ROW:VARIANT, e.g. transpose:shuffle", spec);
	snprintf(row, sizeof(row), "%.*s", (int)(colon - spec), spec);
	snprintf(mk->spec, sizeof(mk->spec), "%s", spec);
	mk->t = target_of(family, live);
	if (!compile_session_open(&s, NULL, err, sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	igpu_target_dev(mk->t, s.oc.version, &d);
	if (!compile_describe(row, &d, sg, grf_large, &b))
		cli_usage_error("--kernel %s: no row '%s' builds kernels: %s", spec, row,
				compile_row_names(rows, sizeof(rows)));
	bb = find(&b, colon + 1, &bk);
	if (bb->skip[0])
		cli_usage_error("--kernel %s on %s: the run path does not build it: %s", spec,
				mk->t->name, bb->skip);
	if ((job = compile_session_add(&s, mk->t, bb, err, sizeof(err))) == SIZE_MAX ||
	    !compile_session_run(&s, 1, err, sizeof(err)))
		cli_die(EXIT_FAIL, "%s", err);
	if (!(k = compile_session_kernel(&s, job, bk->name, why, sizeof(why))))
		cli_die(EXIT_FAIL, "--kernel %s: ocloc %s for %s refused it (%s): %s", spec,
			s.oc.version, mk->t->name, bb->options, why);
	mk->k = *k;
	mk->file = bb->file;
	snprintf(mk->kernel, sizeof(mk->kernel), "%s", bk->name);
	snprintf(mk->options, sizeof(mk->options), "%s", bb->options);
	snprintf(mk->compiler, sizeof(mk->compiler), "ocloc %s", s.oc.version);
	mk->wg = wg ? wg : bk->wg;
	snprintf(mk->wg_source, sizeof(mk->wg_source), "%s", wg ? "--wg"
		 : bk->wg_source ? bk->wg_source : "the row's launch");
	if (!mk->wg)
		cli_usage_error("--kernel %s: the row launches it with work-groups of every size (%s): "
				"give --wg", spec, mk->wg_source);
	bench_builds_free(&b);
	igpu_target_dev_free(&d);
	compile_session_close(&s);
}

void model_kernel_print(const struct model_kernel *mk, FILE *f)
{
	const struct zebin_kernel *k = &mk->k;

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

json_t *model_kernel_json(const struct model_kernel *mk)
{
	json_t *o = json_object(), *src = json_object();

	json_object_set_new(o, "spec", json_string(mk->spec));
	json_object_set_new(o, "file", json_string(mk->file));
	json_object_set_new(o, "kernel", json_string(mk->kernel));
	json_object_set_new(o, "target", json_string(mk->t->name));
	json_object_set_new(o, "compiler", json_string(mk->compiler));
	json_object_set_new(o, "options", json_string(mk->options));
	json_object_set_new(o, "compiled", compile_kernel_json(&mk->k));
	json_object_set_new(src, "sg_size", json_string("compiled: .ze_info simd_size"));
	json_object_set_new(src, "grf_large", json_string("compiled: grf_count > 128"));
	json_object_set_new(src, "slm_bytes", json_string("compiled: slm_size"));
	json_object_set_new(src, "barrier", json_string("compiled: barrier_count > 0"));
	json_object_set_new(src, "wg_size", json_string(mk->wg_source));
	json_object_set_new(o, "sources", src);
	return o;
}
