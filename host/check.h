/* Validation helpers: fresh random inputs, poisoned outputs, exact comparison. */
#ifndef BENCH_CHECK_H
#define BENCH_CHECK_H

#include "clerr.h"
#include <stddef.h>
#include <stdint.h>

/* The value every output buffer is filled with before a validated launch. */
#define CHECK_POISON 0xDEADBEEFu

/* A fresh seed from the system (getrandom), falling back to the clock. */
uint64_t check_fresh_seed(void);

/*
 * Pseudo-random words (xorshift64*): every block of CHECK_BLOCK words of seed's stream
 * starts from its own state (splitmix64 of the seed and the block's index), so any
 * piece can be made on its own, and the blocks of a piece are made in parallel.
 */
#define CHECK_BLOCK 65536u

/* Fills x[0..n) with words first..first+n-1 of seed's stream (first: a multiple of CHECK_BLOCK). */
void check_fill_stream(uint32_t *x, size_t n, uint64_t seed, uint64_t first);
/* Fills x[0..n) with the first n words of seed's stream. */
void check_fill_random(uint32_t *x, size_t n, uint64_t seed);

/* Fills a device buffer of `bytes` (a multiple of 4) with CHECK_POISON, waiting for it. */
cl_int check_poison(cl_command_queue q, cl_mem m, size_t bytes);

/*
 * Compares got to ref; returns the number of differing words (0: valid) and
 * describes the first ones in reason ("3 of 1048576 words differ; first at
 * 17: expected 0x..., got 0xdeadbeef (poison: never written)").
 */
size_t check_compare_u32(const uint32_t *got, const uint32_t *ref, size_t n, char *reason,
			 size_t len);

/* The same comparison over an output checked in pieces: tally each, then the reason. */
struct check_tally {
	uint64_t n, bad, first;
	uint32_t want, got;
};
/* Adds the piece got/ref of n words that starts at word `base` of the output. */
void check_tally_u32(struct check_tally *t, const uint32_t *got, const uint32_t *ref, size_t n,
		     uint64_t base);
/* The number of differing words (0: valid), described in reason as check_compare_u32 does. */
uint64_t check_tally_reason(const struct check_tally *t, char *reason, size_t len);

/*
 * One round of the dependent chains kernels/vecadd.cl and occupancy.cl spin (xorshift32 with
 * shifts 13, 17 and 5, then the round's index added), for the host's references of them.
 */
static inline uint32_t check_chain_round(uint32_t x, uint32_t j)
{
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x + j;
}

#endif
