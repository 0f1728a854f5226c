/*
 * What the occupancy model's unit tests share (test_occ.c, test_occ_vendors.c): checks that
 * print the expected and the actual value, a device of the table, one prediction.
 */
#ifndef BENCH_TESTS_OCC_UNIT_H
#define BENCH_TESTS_OCC_UNIT_H

#include "occ.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;

static void check_u(const char *ctx, const char *what, unsigned long long exp, unsigned long long act,
		    const char *file, int line)
{
	checks++;
	if (exp == act)
		return;
	failures++;
	fprintf(stderr, "%s:%d: %s: %s: expected %llu, actual %llu\n", file, line, ctx, what, exp,
		act);
}

static void check_s(const char *ctx, const char *what, const char *exp, const char *act,
		    const char *file, int line)
{
	checks++;
	if (exp && act && strcmp(exp, act) == 0)
		return;
	failures++;
	fprintf(stderr, "%s:%d: %s: %s: expected \"%s\", actual \"%s\"\n", file, line, ctx, what,
		exp ? exp : "(null)", act ? act : "(null)");
}

#define CHECK_U(ctx, what, e, a) check_u((ctx), (what), (e), (a), __FILE__, __LINE__)
#define CHECK_S(ctx, what, e, a) check_s((ctx), (what), (e), (a), __FILE__, __LINE__)
#define CHECK(ctx, cond) check_u((ctx), #cond, 1, !!(cond), __FILE__, __LINE__)

static const char *pct(double frac, enum occ_pct_style st)
{
	static char buf[4][24];
	static int i;
	i = (i + 1) % 4;
	return occ_pct_str(frac, st, buf[i], sizeof(buf[i]));
}

static const struct occ_device *dev(const char *name)
{
	const struct occ_device *d = occ_find(name);
	if (!d) {
		fprintf(stderr, "%s: device '%s' missing from the table\n", __FILE__, name);
		exit(1);
	}
	return d;
}

static struct occ_result run(const struct occ_device *d, unsigned wg, unsigned sg, unsigned long slm,
			     bool barrier, unsigned regs, unsigned long long groups)
{
	struct occ_kernel k = { .wg_size = wg,
				.sg_size = sg,
				.slm_bytes = slm,
				.barrier = barrier,
				.regs_per_thread = regs };
	struct occ_result r;
	occ_predict(d, &k, groups, &r);
	return r;
}

/* The summary line and exit code of a test program. */
static int occ_unit_done(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, checks, failures);
	return failures ? 1 : 0;
}

#endif
