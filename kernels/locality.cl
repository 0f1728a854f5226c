/*
 * Stack-local against remote memory (bench locality): a buffer that lives on one device of
 * a context (its owner) read by a kernel on another device of the same context (its
 * reader), beside the owner reading it itself. The pointer chase of the same buffer is
 * latency.cl's `chase`.
 *
 * locality_read: every work-item adds the 16-byte vectors k = i, i + G, i + 2G, ... (G the
 *                global size) of the n4 vectors and writes the sum of its four lanes to
 *                out[i]; the host checks that the sums add up to the sum of the buffer.
 *
 * Counts per launch: bytes = 16 * n4 read + 4 * G written; no operations counted.
 */
__kernel void locality_read(__global const uint4 *restrict buf, __global uint *restrict out, ulong n4)
{
	size_t i = get_global_id(0), g = get_global_size(0);
	uint4 acc = (uint4)(0);

	for (ulong k = i; k < n4; k += g)
		acc += buf[k];
	out[i] = acc.x + acc.y + acc.z + acc.w;
}
