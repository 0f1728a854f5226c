/*
 * Host memory for every part of bench: allocations that end the process naming the
 * bytes when the host has none, a growing array, and what the host has available.
 */
#ifndef BENCH_MEM_H
#define BENCH_MEM_H

#include <stddef.h>
#include <stdint.h>

/* malloc that exits 1 naming the bytes. */
void *bench_alloc(size_t bytes);
/* bench_alloc, zeroed. */
void *bench_zalloc(size_t bytes);
/*
 * Appends one zeroed element of `size` bytes to the array *v of *n (room for *cap, doubled
 * when full, first `first`) and returns it; exits 1 when the host has no memory for it.
 */
void *bench_push(void *v, size_t *n, size_t *cap, size_t size, size_t first);
/*
 * Host memory available, bytes (0: unknown): BENCH_HOST_MEMORY where set (exit 2 naming a
 * bad value), otherwise MemAvailable, capped by the cgroup's memory.max (a container sees
 * the host's meminfo).
 */
uint64_t bench_host_available(void);

#endif
