/* bench transpose's views: a point's parameters, the table, the report, bench validate's checks. */
#include "host.h"

#include <string.h>

/* ---- views ---- */

static void wg_shape(const struct tr_launch *l, char *buf, size_t len)
{
	if (!l->local[0])   /* guide16 without a known width */
		snprintf(buf, len, "-");
	else if (l->dims == 2)
		snprintf(buf, len, "%zu x %zu", l->local[0], l->local[1]);
	else
		snprintf(buf, len, "%zu", l->local[0]);
}

#define TA(pt) ((const struct tr_params *)(pt)->params)
#define CELL(name) static void name(const struct bench_run *r, const struct bench_point *pt, char *b, size_t n)

CELL(cell_n) { (void)r; snprintf(b, n, "%llu", (unsigned long long)TA(pt)->n); }
CELL(cell_variant) { (void)r; snprintf(b, n, "%s", tr_names[TA(pt)->variant]); }
CELL(cell_shape)
{
	(void)r;
	if (TA(pt)->sh)
		tr_shape_str(TA(pt)->sh, b, n);
	else
		snprintf(b, n, "-");
}
CELL(cell_sg)
{
	(void)r;
	snprintf(b, n, !TR_USES_SG(TA(pt)->variant) ? "-" : TA(pt)->c.width ? "%u" : "driver",
		 TA(pt)->c.width);
}
CELL(cell_wg) { (void)r; wg_shape(&TA(pt)->l, b, n); }
CELL(cell_vs)
{
	double vs = sgd_metric(pt, "vs_local");

	(void)r;
	snprintf(b, n, vs > 0 ? "%.3f" : "-", vs);
}

const struct bench_col tr_cols[] = {
	{ "n", cell_n }, { "variant", cell_variant }, { "shape", cell_shape },
	{ "backend", sgd_cell_backend }, { "SG", cell_sg },
	{ "WG", cell_wg }, { "Model occupancy", bench_cell_occupancy },
	{ "median us", bench_cell_median_us }, { "CV %", bench_cell_cv }, { "GB/s", bench_cell_gbps },
	{ "ceiling GB/s", bench_cell_ceiling_gbps }, { "of ceiling", bench_cell_of_ceiling },
	{ "vs local", cell_vs }, { "status", bench_cell_status }, { 0 } };

/* Progress: "n=8192 shuffle 32 v4 x1 butterfly". */
void tr_label(const struct bench_run *r, size_t i, char *buf, size_t len)
{
	const struct tr_state *p = r->state;
	const struct sgd_item *it = &p->d.items[i];
	int off = snprintf(buf, len, "n=%llu %s", (unsigned long long)it->size, tr_names[it->variant]);

	if (it->variant == TR_SHUFFLE && off > 0 && (size_t)off + 1 < len) {
		buf[off++] = ' ';
		tr_shape_str(&p->shape[it->shape], buf + off, len - (size_t)off);
	}
}

/* The fastest timed shuffle point of a set (NULL: none), and how many shapes the set has. */
static const struct bench_point *best_shuffle(const struct bench_run *r, unsigned set,
					      size_t *shapes)
{
	const struct tr_state *p = r->state;
	const struct bench_point *best = NULL;

	*shapes = 0;
	for (size_t i = 0; i < r->n_points; i++) {
		const struct bench_point *pt = &r->points[i];
		if (p->d.items[i].variant != TR_SHUFFLE || p->d.items[i].set != set)
			continue;
		++*shapes;
		if (bench_point_gbps(pt) && (!best || bench_point_gbps(pt) > bench_point_gbps(best)))
			best = pt;
	}
	return best;
}

/* The fastest shuffle shape at each n, against local memory and the ceiling: "best_shuffle". */
int tr_report(struct bench_run *r)
{
	const struct tr_opts *o = r->opts;
	json_t *all = json_array();
	char shape[64];
	size_t shapes;

	for (unsigned set = 1; set <= o->n.n; set++) {
		const struct bench_point *best = best_shuffle(r, set, &shapes);
		if (!best)
			continue;
		const struct tr_params *a = best->params;
		double gbps = bench_point_gbps(best), vs = sgd_metric(best, "vs_local");
		double of = gbps / bench_point_ceiling_gbps(best);
		tr_shape_str(a->sh, shape, sizeof(shape));
		json_array_append_new(all, json_pack("{sI si si si ss ss ss sf so sf}",
						     "n", (json_int_t)a->n, "tile", a->sh->tile,
						     "vec", a->sh->vec, "tiles_per_sg", a->sh->per_sg,
						     "exchange", exch_names[a->sh->exch],
						     "walk", walk_names[a->sh->walk], "shape", shape,
						     "gbps", gbps,
						     "vs_local", vs > 0 ? json_real(vs) : json_null(),
						     "fraction_of_ceiling", of));
		if (r->co->quiet || shapes < 2)
			continue;
		printf("n %llu: fastest shuffle shape %s, %.2f GB/s, %.3f of the ceiling (%s)",
		       (unsigned long long)a->n, shape, gbps, of, best->ceil_by);
		printf(vs > 0 ? ", %.3f x local\n" : "\n", vs);
	}
	json_object_set_new(r->doc, "best_shuffle", all);
	return EXIT_OK;
}

/* ---- bench validate ---- */

void tr_checks(struct bench_check_plan *p)
{
	sgd_checks_each(p, "transpose", false, "--sg-backend %s --sg %s --n 64",
			"the guide's 16 x 16 shuffle transpose and 64 x 64 transposes by shuffles, "
			"broadcasts, local memory and naive: every word checked");
}

#define VALUE(name) static json_t *name(const struct bench_run *r, const struct bench_point *pt)

VALUE(param_bytes) { (void)r; return json_integer((json_int_t)tr_matrix_bytes(TA(pt)->n)); }
VALUE(param_wg_size)
{
	(void)r;
	return json_integer((json_int_t)(TA(pt)->l.local[0] * TA(pt)->l.local[1]));
}
VALUE(param_wg_shape)
{
	char shape[32];

	(void)r;
	wg_shape(&TA(pt)->l, shape, sizeof(shape));
	return json_string(shape);
}
VALUE(param_uses_sg) { (void)r; return json_boolean(TR_USES_SG(TA(pt)->variant)); }
/* the shuffle variant's shape; null for the others */
VALUE(param_tile) { (void)r; return TA(pt)->sh ? json_integer(TA(pt)->sh->tile) : json_null(); }
VALUE(param_vec) { (void)r; return TA(pt)->sh ? json_integer(TA(pt)->sh->vec) : json_null(); }
VALUE(param_per_sg) { (void)r; return TA(pt)->sh ? json_integer(TA(pt)->sh->per_sg) : json_null(); }
VALUE(param_exch) { (void)r; return TA(pt)->sh ? json_string(exch_names[TA(pt)->sh->exch]) : json_null(); }
VALUE(param_walk) { (void)r; return TA(pt)->sh ? json_string(walk_names[TA(pt)->sh->walk]) : json_null(); }
VALUE(param_seed)
{
	(void)r;   /* guide16's input is fixed */
	return TA(pt)->variant == TR_GUIDE16 ? json_null() : json_integer((json_int_t)TA(pt)->seed);
}

#define AT(m) BENCH_AT(struct tr_params, m)
const struct bench_param tr_params[] = {
	{ "variant", .type = BENCH_PT_NAME, AT(variant), BENCH_NAMES(tr_names),
	  .help = "guide16, shuffle, shuffle-bcast, local or naive" },
	{ "n", .type = BENCH_PT_COUNT, AT(n), .help = "the matrix is n x n ints" },
	{ "bytes", .type = BENCH_PT_COUNT, .value = param_bytes, .unit = "bytes", .help = "of one matrix" },
	{ "wg_size", .type = BENCH_PT_COUNT, .value = param_wg_size, .unit = "work-items",
	  .help = "the work-group" },
	{ "wg_shape", .type = BENCH_PT_STR, .value = param_wg_shape, .help = "256, 32 x 8, ..." },
	{ "uses_sub_groups", .type = BENCH_PT_BOOL, .value = param_uses_sg,
	  .help = "the variant reads sub-groups" },
	BENCH_PARAMS_SG_LAYER(false, struct tr_params, c),
	{ "sg_size_kernel", .type = BENCH_PT_COUNT0, AT(seen), .unit = "work-items",
	  .help = "the largest sub-group size the kernel saw (null: not seen)" },
	{ "shuffles_per_lane_per_tile", .type = BENCH_PT_COUNT0, AT(shuffles),
	  .help = "null where the variant shuffles nothing" },
	{ "tile", .type = BENCH_PT_COUNT0, .value = param_tile, .unit = "ints",
	  .help = "shuffle: the side T of the tile a sub-group transposes (16, 32; null: other variants)" },
	{ "vec", .type = BENCH_PT_COUNT0, .value = param_vec, .unit = "ints",
	  .help = "shuffle: ints per global load and store (1, 2, 4)" },
	{ "tiles_per_sg", .type = BENCH_PT_COUNT0, .value = param_per_sg,
	  .help = "shuffle: tiles a sub-group transposes, stacked down the matrix (1..64)" },
	{ "exchange", .type = BENCH_PT_NAME0, .value = param_exch, BENCH_NAMES(exch_names),
	  .help = "shuffle: butterfly or xor" },
	{ "walk", .type = BENCH_PT_NAME0, .value = param_walk, BENCH_NAMES(walk_names),
	  .help = "shuffle: rows, consecutive sub-groups along the source's rows; cols, down its columns" },
	{ "seed", .type = BENCH_PT_COUNT0, .value = param_seed,
	  .help = "of the random input (null: guide16, whose input is fixed)" },
	{ 0 } };
