/* Validation helpers. */
#include "check.h"
#include "rng.h"

#include <stdio.h>
#include <sys/random.h>
#include <time.h>

uint64_t check_fresh_seed(void)
{
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		s = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec;
	}
	return s;
}

void check_rng_init(struct check_rng *g, uint64_t seed)
{
	g->s = rng_splitmix64(&seed) | 1;
}

void check_rng_fill(struct check_rng *g, uint32_t *x, size_t n)
{
	uint64_t s = g->s;

	for (size_t i = 0; i < n; i++) {
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		x[i] = (uint32_t)((s * 0x2545F4914F6CDD1Dull) >> 32);
	}
	g->s = s;
}

void check_fill_random(uint32_t *x, size_t n, uint64_t seed)
{
	struct check_rng g;

	check_rng_init(&g, seed);
	check_rng_fill(&g, x, n);
}

cl_int check_poison(cl_command_queue q, cl_mem m, size_t bytes)
{
	cl_uint pattern = CHECK_POISON;
	cl_int e = clEnqueueFillBuffer(q, m, &pattern, sizeof(pattern), 0, bytes, 0, NULL, NULL);

	return e == CL_SUCCESS ? clFinish(q) : e;
}

void check_tally_u32(struct check_tally *t, const uint32_t *got, const uint32_t *ref, size_t n,
		     uint64_t base)
{
	for (size_t i = 0; i < n; i++)
		if (got[i] != ref[i] && t->bad++ == 0) {
			t->first = base + i;
			t->want = ref[i];
			t->got = got[i];
		}
	t->n += n;
}

uint64_t check_tally_reason(const struct check_tally *t, char *reason, size_t len)
{
	if (t->bad)
		snprintf(reason, len, "%llu of %llu words differ; first at %llu: expected 0x%08x, got "
			 "0x%08x%s", (unsigned long long)t->bad, (unsigned long long)t->n,
			 (unsigned long long)t->first, t->want, t->got,
			 t->got == CHECK_POISON ? " (poison: never written)" : "");
	else if (len)
		reason[0] = '\0';
	return t->bad;
}

size_t check_compare_u32(const uint32_t *got, const uint32_t *ref, size_t n, char *reason,
			 size_t len)
{
	struct check_tally t = { 0 };

	check_tally_u32(&t, got, ref, n, 0);
	return (size_t)check_tally_reason(&t, reason, len);
}
