/* splitmix64 (Steele, Lea and Flood 2014): a full-period 64-bit generator, for seeding and shuffles. */
#ifndef BENCH_RNG_H
#define BENCH_RNG_H

#include <stdint.h>

/* Advances *s and returns the next value. */
static inline uint64_t rng_splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

#endif
