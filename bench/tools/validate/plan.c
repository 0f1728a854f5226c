/*
 * bench validate's plan: the list of checks, and every row's checks for the device (each
 * row states its own configurations: struct bench_row's checks).
 */
#include "rows.h"
#include "validate.h"

#include <stdarg.h>

static bool val_set(struct val_check *c, enum val_res res, const char *fmt, va_list ap)
{
	c->res = res;
	vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	return res == VAL_PASS;
}

bool val_pass(struct val_check *c, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = val_set(c, VAL_PASS, fmt, ap);
	va_end(ap);
	return r;
}

bool val_fail(struct val_check *c, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = val_set(c, VAL_FAIL, fmt, ap);
	va_end(ap);
	return r;
}

struct val_check *val_add(struct val_ctx *v, const char *suite, const char *fmt, ...)
{
	va_list ap;
	struct val_check *c = bench_push(&v->c, &v->n, &v->cap, sizeof(*c), 64);

	snprintf(c->suite, sizeof(c->suite), "%s", suite);
	va_start(ap, fmt);
	vsnprintf(c->id, sizeof(c->id), fmt, ap);
	va_end(ap);
	return c;
}

/* What a row's checks are added to: the run's checks, and the row adding them. */
struct row_plan {
	struct bench_check_plan p;   /* first: the plan the row sees */
	struct val_ctx *v;
	const struct bench_row *row;
};

static void add_row_check(struct bench_check_plan *p, const struct bench_check *bc)
{
	struct row_plan *rp = (struct row_plan *)p;
	struct val_check *c = val_add(rp->v, rp->row->cmd.name, "%s", bc->id);

	c->row = rp->row;
	c->retries = bc->retries;
	c->beyond = bc->beyond;
	snprintf(c->args, sizeof(c->args), "%s", bc->args);
	snprintf(c->desc, sizeof(c->desc), "%s", bc->desc);
}

void val_plan_rows(struct val_ctx *v)
{
	const struct bench_row *row;

	for (size_t i = 0; (row = bench_row_at(i)); i++) {
		struct row_plan rp = { { v->dev, add_row_check, NULL }, v, row };
		if (row->checks)
			row->checks(&rp.p);
	}
}
