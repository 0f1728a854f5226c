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

void check_fill_random(uint32_t *x, size_t n, uint64_t seed)
{
	uint64_t s = rng_splitmix64(&seed) | 1;

	for (size_t i = 0; i < n; i++) {
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		x[i] = (uint32_t)((s * 0x2545F4914F6CDD1Dull) >> 32);
	}
}

cl_int check_poison(cl_command_queue q, cl_mem m, size_t bytes)
{
	cl_uint pattern = CHECK_POISON;
	cl_int e = clEnqueueFillBuffer(q, m, &pattern, sizeof(pattern), 0, bytes, 0, NULL, NULL);

	return e == CL_SUCCESS ? clFinish(q) : e;
}

size_t check_compare_u32(const uint32_t *got, const uint32_t *ref, size_t n, char *reason,
			 size_t len)
{
	size_t bad = 0, first = 0;

	for (size_t i = 0; i < n; i++)
		if (got[i] != ref[i] && bad++ == 0)
			first = i;
	if (bad)
		snprintf(reason, len, "%zu of %zu words differ; first at %zu: expected 0x%08x, got 0x%08x%s",
			 bad, n, first, ref[first], got[first],
			 got[first] == CHECK_POISON ? " (poison: never written)" : "");
	else if (len)
		reason[0] = '\0';
	return bad;
}
