/*
 * The suite's own streaming copy, one half of every copy ceiling (the other is the
 * driver's clEnqueueCopyBuffer of the same bytes): out = in over n words, 16-byte
 * vectors, one vector per work-item, then the n % 4 words left one per work-item.
 *
 * Counts per launch (host: the harness's ceiling): bytes = 2 * 4 * n (n words read,
 * n written), no operations.
 */
__kernel void stream_copy(__global const uint4 *restrict in, __global uint4 *restrict out, ulong n)
{
	size_t i = get_global_id(0);
	ulong n4 = n / 4;

	if (i < n4)
		out[i] = in[i];
	else if (i - n4 < n % 4)
		((__global uint *)out)[n4 * 4 + (i - n4)] = ((__global const uint *)in)[n4 * 4 + (i - n4)];
}
