/*
 * bench fill, the contributing guide's worked example (CONTRIBUTING.md): work-item i writes
 * value + i to out[i].
 *
 * Counts per launch (host: fill_bytes): bytes = 4 * n (one 4-byte write per work-item).
 */
__kernel void fill(__global uint *out, uint value)
{
	size_t i = get_global_id(0);

	out[i] = value + (uint)i;
}
