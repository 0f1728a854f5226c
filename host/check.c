/* Validation helpers. */
#include "check.h"
#include "rng.h"

#include <stdio.h>
#include <string.h>
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

/* One block: n words from the block's own state. */
static void fill_block(uint32_t *x, size_t n, uint64_t seed, uint64_t block)
{
	uint64_t k = seed ^ (block * 0xD1B54A32D192ED03ull);
	uint64_t s = rng_splitmix64(&k) | 1;

	for (size_t i = 0; i < n; i++) {
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		x[i] = (uint32_t)((s * 0x2545F4914F6CDD1Dull) >> 32);
	}
}

void check_fill_stream(uint32_t *x, size_t n, uint64_t seed, uint64_t first)
{
	long long blocks = (long long)((n + CHECK_BLOCK - 1) / CHECK_BLOCK);

#pragma omp parallel for schedule(static)
	for (long long b = 0; b < blocks; b++) {
		size_t off = (size_t)b * CHECK_BLOCK;
		size_t m = n - off < CHECK_BLOCK ? n - off : CHECK_BLOCK;
		fill_block(x + off, m, seed, first / CHECK_BLOCK + (uint64_t)b);
	}
}

void check_fill_random(uint32_t *x, size_t n, uint64_t seed)
{
	check_fill_stream(x, n, seed, 0);
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
	if (memcmp(got, ref, n * sizeof(*got)) == 0) {   /* the common case, at memory speed */
		t->n += n;
		return;
	}
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
