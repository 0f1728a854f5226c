/* Unit tests of host/chase.c: the chain builder, size lists and plateau detection. */
#include "chase.h"
#include "../unit.h"

#include <stdlib.h>

/* The builder: one cycle through every node, order[] walking it. */
static void test_build(void)
{
	static const uint32_t ns[] = { 1, 2, 3, 16, 1000, 100003 };
	char err[256];

	for (size_t t = 0; t < sizeof(ns) / sizeof(ns[0]); t++)
		for (uint64_t seed = 0; seed < 4; seed++) {
			uint32_t n = ns[t];
			uint32_t *next = malloc(n * 4), *order = malloc(n * 4);
			unsigned char *seen = calloc(n, 1);
			chase_build(next, order, n, seed * 0x1234567ull);
			CHECK(chase_is_one_cycle(next, n, err, sizeof(err)));
			CHECK_EQ_U(order[0], 0);
			for (uint32_t k = 0; k < n; k++) {
				CHECK(order[k] < n && !seen[order[k]]);
				if (order[k] < n)
					seen[order[k]] = 1;
				CHECK_EQ_U(next[order[k]], order[(k + 1) % n]);
			}
			free(next);
			free(order);
			free(seen);
		}
}

/* Different seeds give different chains, and neither is the sequential one. */
static void test_random(void)
{
	uint32_t a[4096], b[4096], oa[4096], ob[4096], same = 0, seq = 0;

	chase_build(a, oa, 4096, 1);
	chase_build(b, ob, 4096, 2);
	for (uint32_t k = 0; k < 4096; k++) {
		same += a[k] == b[k];
		seq += a[k] == (k + 1) % 4096;
	}
	CHECK(same < 64);
	CHECK(seq < 64);
}

/* The checker rejects two cycles, a pointer out of range and a tail into a loop. */
static void test_not_one_cycle(void)
{
	uint32_t two[] = { 1, 0, 3, 2 }, out[] = { 1, 7, 0 }, rho[] = { 1, 2, 1 };
	char err[256] = "";

	CHECK(!chase_is_one_cycle(two, 4, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "a cycle of 2 nodes");
	CHECK(!chase_is_one_cycle(out, 3, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "node 1 points to 7, outside 0..2");
	CHECK(!chase_is_one_cycle(rho, 3, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, "not back at node 0 after 3 steps");
}

static void test_lap_sum(void)
{
	uint32_t sum = 0;

	CHECK_EQ_U(chase_lap_sum(4, 32), 192);   /* (0 + 1 + 2 + 3) * 32 */
	CHECK_EQ_U(chase_lap_sum(1, 16), 0);
	for (uint32_t k = 0; k < 3000000; k++)
		sum += k * 32u;
	CHECK_EQ_U(chase_lap_sum(3000000, 32), sum);   /* wraps mod 2^32 like the kernel */
}

static void check_sizes(const char *spec, unsigned steps, const uint64_t *want, size_t nwant)
{
	uint64_t *v = NULL;
	size_t n = 0;
	char err[256] = "";

	CHECK(chase_sizes_parse(spec, steps, 64, 16ull << 30, &v, &n, err, sizeof(err)));
	CHECK_EQ_U(n, nwant);
	for (size_t i = 0; i < n && i < nwant; i++)
		CHECK_EQ_U(v[i], want[i]);
	free(v);
}

static void check_sizes_bad(const char *spec, const char *msg)
{
	uint64_t *v = NULL;
	size_t n = 0;
	char err[256] = "";

	CHECK(!chase_sizes_parse(spec, 4, 64, 16ull << 30, &v, &n, err, sizeof(err)));
	CHECK_STR_CONTAINS(err, msg);
}

static void test_sizes(void)
{
	static const uint64_t a[] = { 1024, 1280, 1536, 1792, 2048, 2560, 3072, 3584, 4096 };
	static const uint64_t b[] = { 3000, 3072, 4096, 5000 };
	static const uint64_t c[] = { 1024, 4096 };
	uint64_t *v = NULL;
	size_t n = 0;
	char err[256];

	check_sizes("1Ki..4Ki", 4, a, 9);
	check_sizes("3000..5000", 2, b, 4);
	check_sizes("4Ki,1Ki,4Ki", 4, c, 2);
	CHECK(chase_sizes_parse("1Ki..1Gi", 4, 64, 16ull << 30, &v, &n, err, sizeof(err)));
	CHECK_EQ_U(n, 81);   /* 20 octaves x 4 + the end */
	CHECK_EQ_U(v[80], 1ull << 30);
	free(v);
	check_sizes_bad("0", "'0' is out of range: allowed 64..17179869184");
	check_sizes_bad("5Ki..1Ki", "range '5Ki..1Ki' runs backwards");
	check_sizes_bad("abc", "'abc'");
	check_sizes_bad("1Ki..32Gi", "'32Gi' is out of range");
	check_sizes_bad("", "is empty");
}


/* ---- plateaus on synthetic curves ---- */

struct curve {
	uint64_t ws[128];
	double ns[128];
	size_t n;
};

/* Sizes 1 KiB .. 1 GiB, 4 per octave (81 points), latency from f. */
static void make_curve(struct curve *c, double (*f)(uint64_t, size_t))
{
	uint64_t *v = NULL;
	char err[64];

	chase_sizes_parse("1Ki..1Gi", 4, 64, 16ull << 30, &v, &c->n, err, sizeof(err));
	for (size_t i = 0; i < c->n; i++) {
		c->ws[i] = v[i];
		c->ns[i] = f(v[i], i);
	}
	free(v);
}

#define KI(x) ((uint64_t)(x) << 10)
#define MI(x) ((uint64_t)(x) << 20)

/* L1 up to 192 KiB, L2 from 320 KiB to 24 MiB, a ramp, memory from 56 MiB. */
static double gpu_like(uint64_t s, size_t i)
{
	(void)i;
	if (s <= KI(192)) return 20;
	if (s == KI(224)) return 60;
	if (s == KI(256)) return 110;
	if (s <= MI(24)) return 150;
	if (s <= MI(48)) return 150 + (double)(s - MI(24)) / (double)MI(24) * 150;   /* 28..48 MiB */
	return 400;
}

/* The same with +-4% noise, a spike at 1 MiB and a dip at 256 MiB. */
static double noisy(uint64_t s, size_t i)
{
	static const double wobble[] = { 1.04, 0.97, 1.02, 0.96, 1.0, 1.03, 0.98 };

	if (s == MI(1)) return 150 * 1.6;
	if (s == MI(256)) return 400 * 0.6;
	return gpu_like(s, i) * wobble[i % 7];
}

static double flat(uint64_t s, size_t i)
{
	(void)s;
	(void)i;
	return 33;
}

/* A near and a far L2 level before memory. */
static double four_levels(uint64_t s, size_t i)
{
	(void)i;
	if (s <= KI(128)) return 20;
	if (s <= KI(192)) return 100;
	if (s <= MI(20)) return 200;
	if (s <= MI(48)) return 280;
	if (s <= MI(56)) return 380;
	return 480;
}

/* gpu_like with two neighbouring spikes at 2 and 2.5 MiB inside the L2 plateau. */
static double burst(uint64_t s, size_t i)
{
	if (s == MI(2) || s == KI(2560)) return 150 * 1.5;
	return gpu_like(s, i);
}

static double ramp(uint64_t s, size_t i)
{
	(void)s;
	return 100 * pow(1.08, (double)i);
}

static void check_plateau(const struct chase_plateau *p, uint64_t first, uint64_t last,
			  double ns, const char *label)
{
	CHECK_EQ_U(p->first_bytes, first);
	CHECK_EQ_U(p->last_bytes, last);
	CHECK_NEAR(p->median, ns, ns * 0.05);
	CHECK(strcmp(p->label, label) == 0);
}

/* The cache sizes of the synthetic curves, as a device (or --l1, --llc) would give them. */
#define CACHES(l1, llc) (&(struct chase_caches){ (l1), (llc), "test", "test", false })
/* The same on a GPU: no cache level between its L1 and its last-level cache. */
#define GPU_CACHES(l1, llc) (&(struct chase_caches){ (l1), (llc), "test", "test", true })

static void test_plateaus(void)
{
	struct chase_rule r = CHASE_RULE_DEFAULT;
	struct chase_plateau p[16];
	struct curve c;
	size_t n;

	make_curve(&c, gpu_like);
	n = chase_plateaus(c.ws, c.ns, c.n, &r, p, 16);
	CHECK_EQ_U(n, 3);
	chase_label(p, n, CACHES(KI(192), MI(50)));
	check_plateau(&p[0], KI(1), KI(192), 20, "first-level cache");
	check_plateau(&p[1], KI(320), MI(24), 150, "last-level cache");
	check_plateau(&p[2], MI(56), 1ull << 30, 400, "device memory");

	make_curve(&c, noisy);
	n = chase_plateaus(c.ws, c.ns, c.n, &r, p, 16);
	CHECK_EQ_U(n, 3);
	chase_label(p, n, CACHES(KI(192), MI(50)));
	check_plateau(&p[0], KI(1), KI(192), 20, "first-level cache");
	check_plateau(&p[1], KI(320), MI(24), 150, "last-level cache");
	check_plateau(&p[2], MI(56), 1ull << 30, 400, "device memory");
	CHECK_EQ_U(p[1].outliers, 1);
	CHECK_EQ_U(p[2].outliers, 1);

	make_curve(&c, flat);   /* one plateau across both sizes: neither level */
	n = chase_plateaus(c.ws, c.ns, c.n, &r, p, 16);
	CHECK_EQ_U(n, 1);
	chase_label(p, n, CACHES(KI(192), MI(50)));
	check_plateau(&p[0], KI(1), 1ull << 30, 33, "plateau 1");
	CHECK_EQ_U(p[0].points, 81);

	make_curve(&c, four_levels);   /* every level, one of them between L1 and the LLC */
	n = chase_plateaus(c.ws, c.ns, c.n, &r, p, 16);
	CHECK_EQ_U(n, 4);
	chase_label(p, n, CACHES(KI(128), MI(50)));
	check_plateau(&p[0], KI(1), KI(128), 20, "first-level cache");
	check_plateau(&p[1], KI(224), MI(20), 200, "intermediate cache");
	check_plateau(&p[2], MI(24), MI(48), 280, "last-level cache");
	check_plateau(&p[3], MI(64), 1ull << 30, 480, "device memory");
	chase_label(p, n, GPU_CACHES(KI(128), MI(50)));   /* a GPU: near and far parts of its L2 */
	check_plateau(&p[1], KI(224), MI(20), 200, "last-level cache");
	check_plateau(&p[2], MI(24), MI(48), 280, "last-level cache (slower part)");
	check_plateau(&p[3], MI(64), 1ull << 30, 480, "device memory");

	make_curve(&c, burst);   /* two plateaus split by the burst, joined again */
	n = chase_plateaus(c.ws, c.ns, c.n, &r, p, 16);
	CHECK_EQ_U(n, 3);
	chase_label(p, n, CACHES(KI(192), MI(50)));
	check_plateau(&p[1], KI(320), MI(24), 150, "last-level cache");
	CHECK_EQ_U(p[1].outliers, 2);
	CHECK_EQ_U(p[1].points, 24);   /* 320 KiB .. 24 MiB: 26 sizes, 2 of them the burst */

	make_curve(&c, ramp);   /* 8% per step: never three sizes within 10% */
	CHECK_EQ_U(chase_plateaus(c.ws, c.ns, c.n, &r, p, 16), 0);
}

/* The sizes of a --sizes range at 4 per octave (at most 64). */
static void sweep(const char *range, uint64_t *ws, size_t *m)
{
	uint64_t *v = NULL;
	char err[64];

	CHECK(chase_sizes_parse(range, 4, 64, 16ull << 30, &v, m, err, sizeof(err)) && *m <= 64);
	memcpy(ws, v, *m * sizeof(*ws));
	free(v);
}

/*
 * An H100-like sweep from 1 MiB (issue 26): the first plateau is the L2, never the
 * first-level cache; with the sizes unknown, neutral names.
 */
static double h100_from_1mi(uint64_t s, size_t i)
{
	(void)i;
	if (s <= MI(16)) return 146.8;
	if (s <= MI(48)) return 146.8 + (double)(s - MI(16)) / (double)MI(32) * 300;
	return 620;
}

static void test_labels_above_l1(void)
{
	struct chase_rule r = CHASE_RULE_DEFAULT;
	struct chase_plateau p[16];
	uint64_t ws[64];
	double ns[64];
	size_t m = 0, n;

	sweep("1Mi..256Mi", ws, &m);
	for (size_t i = 0; i < m; i++)
		ns[i] = h100_from_1mi(ws[i], i);
	n = chase_plateaus(ws, ns, m, &r, p, 16);
	CHECK_EQ_U(n, 2);
	chase_label(p, n, CACHES(KI(256), MI(50)));
	check_plateau(&p[0], MI(1), MI(16), 146.8, "last-level cache");
	check_plateau(&p[1], MI(56), MI(256), 620, "device memory");
	chase_label(p, n, GPU_CACHES(KI(256), MI(50)));   /* one LLC plateau: the same on a GPU */
	check_plateau(&p[0], MI(1), MI(16), 146.8, "last-level cache");
	chase_label(p, n, CACHES(0, MI(50)));   /* L1 unknown: the LLC cannot be told from it */
	CHECK(strcmp(p[0].label, "plateau 1") == 0 && strcmp(p[1].label, "device memory") == 0);
	chase_label(p, n, CACHES(0, 0));        /* nothing known: neutral names alone */
	CHECK(strcmp(p[0].label, "plateau 1") == 0 && strcmp(p[1].label, "plateau 2") == 0);
	chase_label(p, n, CACHES(KI(256), 0));  /* L1 alone: above it, no level can be named */
	CHECK(strcmp(p[0].label, "plateau 1") == 0 && strcmp(p[1].label, "plateau 2") == 0);
	chase_label(p, n, CACHES(MI(64), MI(50)));   /* an L1 above the LLC is not used */
	CHECK(strcmp(p[0].label, "plateau 1") == 0 && strcmp(p[1].label, "device memory") == 0);
}

/* A sweep from above L1 that ends below the LLC: two cache levels, no memory. */
static void test_labels_within_llc(void)
{
	struct chase_rule r = CHASE_RULE_DEFAULT;
	struct chase_plateau p[16];
	uint64_t ws[64];
	double ns[64];
	size_t m = 0, n;

	sweep("512Ki..32Mi", ws, &m);
	for (size_t i = 0; i < m; i++)
		ns[i] = ws[i] <= MI(2) ? 40 : 90;   /* a private L2 to 2 MiB, then the shared L3 */
	n = chase_plateaus(ws, ns, m, &r, p, 16);
	CHECK_EQ_U(n, 2);
	chase_label(p, n, CACHES(KI(48), MI(48)));
	CHECK(strcmp(p[0].label, "intermediate cache") == 0);
	CHECK(strcmp(p[1].label, "last-level cache") == 0);
	CHECK_EQ_U(p[1].last_bytes, ws[m - 1]);
	CHECK(ws[m - 1] < MI(48));
}

int main(void)
{
	test_build();
	test_random();
	test_not_one_cycle();
	test_lap_sum();
	test_sizes();
	test_plateaus();
	test_labels_above_l1();
	test_labels_within_llc();
	return UNIT_RESULT();
}
