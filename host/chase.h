/*
 * Pointer-chase support for `bench latency` (and the cache sizes `bench atomics`
 * flushes): random cyclic chains, working-set size lists, and the detection
 * of latency plateaus. Pure C apart from chase_llc, which reads a dev_info.
 */
#ifndef BENCH_CHASE_H
#define BENCH_CHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dev_info;

/*
 * A random cyclic permutation of n >= 1 nodes (a shuffled order, each node
 * pointing to the next: every one of the (n-1)! single cycles is equally
 * likely), so following next[]
 * from any node visits all n nodes once before coming back. next[] and
 * order[] have n entries each; order[k] is the node reached after k steps
 * from node 0 (order[0] = 0). seed: any value.
 */
void chase_build(uint32_t *next, uint32_t *order, uint32_t n, uint64_t seed);

/*
 * Checks that next[] is one cycle through all n nodes: following it from
 * node 0 returns to 0 after exactly n steps and never leaves 0..n-1. On
 * failure describes the first problem in err.
 */
bool chase_is_one_cycle(const uint32_t *next, uint32_t n, char *err, size_t errlen);

/*
 * The chain's content as kernels/latency.cl's chase_sum reads it: the sum (mod 2^32) over
 * the n nodes of chase_mix(k, words[k * stride_words]), node k's word mixed with its index
 * (murmur3's finaliser), so a word read wrong or from another node changes it.
 */
uint32_t chase_mix(uint32_t k, uint32_t word);
uint32_t chase_content_sum(const uint32_t *words, uint32_t n, uint32_t stride_words);

/* Sum (mod 2^32) of the word indices k * stride_words of all n nodes: one lap's checksum. */
uint32_t chase_lap_sum(uint32_t n, uint32_t stride_words);

/*
 * Expands a size list: comma-separated items, each SIZE or A..B (sizes take
 * K/M/G/T and Ki/Mi/Gi/Ti suffixes). A..B gives A, B and every size
 * 2^k * (1 + m / steps) between them (m = 0..steps-1: `steps` per octave).
 * The result is sorted ascending without duplicates, every value in
 * [min, max]. On failure err names the bad item and the allowed range.
 * *out is heap-allocated (free it).
 */
bool chase_sizes_parse(const char *s, unsigned steps, uint64_t min, uint64_t max,
		       uint64_t **out, size_t *n, char *err, size_t errlen);

/*
 * Plateau rule (documented in bench latency --help and the results document):
 * points are taken in order of size; a point joins the current cluster when
 * its latency lies within `tol` (relative) of the cluster's median and the
 * cluster's max/min stays within 1 + 2 * tol; one point that fails while the
 * point after it passes is kept as an outlier (it neither breaks the cluster
 * nor enters its median). A cluster of at least `min_points` points
 * (outliers not counted) is a plateau; shorter clusters are transitions.
 * Neighbouring plateaus whose medians lie within `tol` of each other are
 * one level split by a burst of noise: they are joined (median over the
 * whole range, points off it by more than tol counted as outliers).
 */
struct chase_rule {
	double tol;           /* relative, e.g. 0.10 */
	unsigned min_points;  /* e.g. 3 */
};
#define CHASE_RULE_DEFAULT ((struct chase_rule){ 0.10, 3 })

struct chase_plateau {
	size_t first, last;      /* indices into the curve, inclusive */
	uint64_t first_bytes, last_bytes;
	double median;           /* latency, the curve's unit */
	unsigned points, outliers;
	char label[32];          /* see chase_label */
};

/*
 * Finds the plateaus of the curve lat[i] at sizes[i] (ascending), at most
 * max of them; returns how many.
 */
size_t chase_plateaus(const uint64_t *sizes, const double *lat, size_t n,
		      const struct chase_rule *rule, struct chase_plateau *out, size_t max);

/* The cache sizes the labels follow (bytes, 0: unknown) and where each comes from. */
struct chase_caches {
	uint64_t l1, llc;
	const char *l1_source, *llc_source;
	bool gpu;   /* a GPU: no cache level between its L1 and its last-level cache */
};

/*
 * Labels plateaus in place from the cache sizes and the working sets each spans, never
 * from their order (a sweep may start above the first-level cache):
 *   every working set within l1                            "first-level cache"
 *   every one above l1 and within llc: the last such       "last-level cache"
 *                                      the others          "intermediate cache"
 *     on a GPU (gpu), where nothing lies between: the first "last-level cache", the
 *     others "last-level cache (slower part)" (an H100's far L2 partition)
 *   every one above llc                                    "device memory"
 *   otherwise (a size unknown, or the plateau spans one)   "plateau N" (N from 1, in order)
 * An l1 at or above a known llc is not used (it cannot be the first level of that cache).
 */
void chase_label(struct chase_plateau *p, size_t n, const struct chase_caches *c);

/*
 * The first-level cache of one compute unit in bytes and its source; 0 where unknown
 * (OpenCL has no query for it): the published L1 (with shared memory, the most either can
 * hold) of NVIDIA GPUs by compute capability and of Intel's Data Center GPU Max per
 * Xe-core, and for a CPU device the host's L1 data cache (sysconf).
 */
uint64_t chase_l1(const struct dev_info *d, const char **source);

/*
 * The device's last-level cache size in bytes and where that figure comes
 * from: CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, raised to the published L2 size on
 * NVIDIA GPUs whose driver reports less (compute capability 8.0: A100, 40 MB;
 * 9.0: GH100 (H100, H200), 50 MB, NVIDIA's Hopper architecture blog).
 */
uint64_t chase_llc(const struct dev_info *d, const char **source);

#endif
