/*
 * Evicts a cache before a cold timed launch (--cache cold): reads n 16-byte vectors of a
 * zero-filled scratch buffer twice the size of the last-level cache the driver reports, so
 * the benchmark's data is no longer cached and the lines left behind are clean (a fill
 * would leave dirty lines, whose write-back would then fall inside the timed launch).
 * The sink is written only if the sum is not zero, which the zeros never give, but the
 * compiler cannot know that and must keep every load.
 */
__kernel void cache_flush(__global const uint4 *restrict scratch, __global uint *restrict sink,
			  ulong n)
{
	uint4 acc = (uint4)(0);

	for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
		acc ^= scratch[i];
	if ((acc.x | acc.y | acc.z | acc.w) != 0)
		sink[0] = acc.x ^ acc.y ^ acc.z ^ acc.w;
}
