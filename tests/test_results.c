/*
 * Unit tests of results documents: JSON round trip, atomic replacement, the CSV view (what
 * each kind of output path is written as: test_outfile.c).
 */
#include "results.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

static json_t *sample_doc(void)
{
	char *argv[] = { "bench", "vecadd", "--groups", "1..2" };
	const double t[] = { 1000, 1200, 1100 };
	json_t *doc = res_doc_new(4, argv, NULL, "vecadd");
	struct stats st;

	for (int g = 1; g <= 2; g++) {
		json_t *p = json_object(), *pa = json_object(), *m = json_object();
		json_object_set_new(pa, "groups", json_integer(g));
		json_object_set_new(pa, "sg_size_requested", g == 1 ? json_integer(32) : json_null());
		json_object_set_new(p, "params", pa);
		json_object_set_new(p, "status", json_string(g == 1 ? "ok" : "failed"));
		json_object_set_new(p, "reason", g == 1 ? json_null() : json_string("a, \"quoted\" reason"));
		json_object_set_new(p, "validated", json_boolean(g == 1));
		stats_compute(t, 3, &st);
		json_object_set_new(p, "time_ns", res_stats_json(&st, t, 3));
		json_object_set_new(m, "gbps", json_real(12.5));
		json_object_set_new(p, "metrics", m);
		res_doc_add_point(doc, p);
	}
	return doc;
}

static void test_json_round_trip(const char *dir)
{
	char path[512], err[512];
	struct outf o;
	json_t *doc = sample_doc(), *back;
	json_error_t je;

	snprintf(path, sizeof(path), "%s/r.json", dir);
	CHECK(outf_open(&o, "--json", path, err, sizeof(err)));
	CHECK(access(path, F_OK) != 0);   /* nothing at the destination before commit */
	CHECK(res_write_json(&o, doc, err, sizeof(err)));
	back = json_load_file(path, 0, &je);
	CHECK(back != NULL);
	CHECK(json_equal(doc, back));
	CHECK_EQ_U(json_integer_value(json_object_get(back, "schema_version")), RESULTS_SCHEMA_VERSION);
	CHECK(json_is_string(json_object_get(json_object_get(back, "tool"), "git_describe")));
	CHECK_NEAR(json_real_value(json_object_get(json_object_get(json_array_get(
			   json_object_get(back, "points"), 0), "time_ns"), "median")), 1100, 0);
	CHECK_EQ_U(unit_count_entries(dir), 1);   /* no temporary left */
	json_decref(back);

	/* a second write replaces the file whole; an aborted one leaves it untouched */
	CHECK(outf_open(&o, "--json", path, err, sizeof(err)));
	outf_abort(&o);
	back = json_load_file(path, 0, &je);
	CHECK(back && json_equal(doc, back));
	json_decref(back);
	CHECK_EQ_U(unit_count_entries(dir), 1);
	json_decref(doc);
}

static void test_csv(const char *dir)
{
	char path[512], err[512], line[2048];
	struct outf o;
	json_t *doc = sample_doc();
	FILE *f;

	snprintf(path, sizeof(path), "%s/r.csv", dir);
	CHECK(outf_open(&o, "--json", path, err, sizeof(err)));
	CHECK(res_write_csv(&o, doc, err, sizeof(err)));
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f && fgets(line, sizeof(line), f))
		CHECK_STR_CONTAINS(line, "status,reason,validated,params.groups,params.sg_size_requested,"
					 "time_ns.min,time_ns.median");
	if (f && fgets(line, sizeof(line), f))
		CHECK_STR_CONTAINS(line, "\"ok\",,true,1,32,1000,1100,");
	if (f && fgets(line, sizeof(line), f))
		CHECK_STR_CONTAINS(line, "\"failed\",\"a, \"\"quoted\"\" reason\",false,2,,");
	if (f)
		fclose(f);
	json_decref(doc);
}
















/* Keys are data too: a comma, quote or line break in one is quoted, a long one kept whole. */
static void test_csv_odd_keys(const char *dir)
{
	char path[512], err[512], text[2048], want[400], longkey[301];
	struct outf o;
	json_t *doc = json_object(), *pts = json_array(), *p = json_object(), *pa = json_object();

	memset(longkey, 'k', 300);
	longkey[300] = '\0';
	json_object_set_new(pa, "a,b", json_integer(1));
	json_object_set_new(pa, "say \"x\"\n", json_integer(2));
	json_object_set_new(pa, longkey, json_integer(3));
	json_object_set_new(p, "params", pa);
	json_array_append_new(pts, p);
	json_object_set_new(doc, "points", pts);
	snprintf(path, sizeof(path), "%s/k.csv", dir);
	CHECK(outf_open(&o, "--json", path, err, sizeof(err)));
	CHECK(res_write_csv(&o, doc, err, sizeof(err)));
	snprintf(want, sizeof(want), "status,reason,validated,\"params.a,b\",\"params.say \"\"x\"\" \","
		 "params.%s\n,,,1,2,3\n", longkey);
	CHECK(strcmp(unit_slurp(path, text, sizeof(text)), want) == 0);
	unlink(path);
	json_decref(doc);
}

int main(void)
{
	char dir[] = "/tmp/bench-test-results-XXXXXX";
	char cmd[128];

	if (!mkdtemp(dir))
		return 1;
	test_json_round_trip(dir);
	test_csv(dir);
	test_csv_odd_keys(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		unit_failures++;
	return UNIT_RESULT();
}
