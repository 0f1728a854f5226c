/*
 * The memory roof's candidates (bench/harness/roof.c): a copy, a read (a sum) and a write (a
 * fill) of nvec vectors of W uints (W = 1, 2, 4, 8, 16), each work-item taking P vectors
 * (P = 1, 4, 16). Work-group g owns the vectors g*L*P .. (g+1)*L*P - 1 (L its size) and its
 * work-items step through them L apart, so every step of a work-group reads or writes L
 * adjacent vectors: the layout of clpeak's global bandwidth kernels (16 fetches a work-item,
 * each local_size apart), here for copies and writes too. P is a constant of each kernel, so
 * the compiler unrolls the loop and issues a work-item's P accesses before it needs the first.
 *
 * Counts per launch (host: bench/harness/roof.c, roof_bytes), n = nvec * W words, G groups:
 *   roof_copy_W_P: bytes = 2 * 4 * n (read and written), no operations;
 *   roof_read_W_P: bytes = 4 * n + 4 * G (one sum a work-group written), n additions;
 *   roof_fill_W_P: bytes = 4 * n written, no operations.
 * The sum of work-group g is the sum, modulo 2^32, of the words of its vectors; the fill writes
 * seed + v in every word of vector v. The host checks both against its own reference.
 */
#define ROOF_WG_MAX 256   /* the host launches at most 256 work-items a group, a power of 2 */

#define ROOF_H1(v) (v)
#define ROOF_H2(v) ((v).s0 + (v).s1)
#define ROOF_H4(v) (ROOF_H2((v).lo) + ROOF_H2((v).hi))
#define ROOF_H8(v) (ROOF_H4((v).lo) + ROOF_H4((v).hi))
#define ROOF_H16(v) (ROOF_H8((v).lo) + ROOF_H8((v).hi))

/* The first vector of this work-item, and whether its group's P * L vectors all exist. */
#define ROOF_START(P) \
	ulong l = get_local_size(0); \
	ulong first = (ulong)get_group_id(0) * l * (P); \
	ulong at = first + get_local_id(0); \
	bool whole = first + l * (P) <= nvec;

/* Sums v over the work-group into sums[its group] (L a power of 2 up to ROOF_WG_MAX). */
void roof_group_sum(__local uint *part, uint v, __global uint *sums)
{
	uint lid = get_local_id(0);

	part[lid] = v;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint h = get_local_size(0) / 2; h > 0; h /= 2) {
		if (lid < h)
			part[lid] += part[lid + h];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		sums[get_group_id(0)] = part[0];
}

#define ROOF_KERNELS(T, W, P) \
__kernel void roof_copy_##W##_##P(__global const T *restrict in, __global T *restrict out, \
				  ulong nvec, uint seed) \
{ \
	ROOF_START(P) \
	if (whole) { \
		for (uint j = 0; j < (P); j++) \
			out[at + j * l] = in[at + j * l]; \
	} else { \
		for (uint j = 0; j < (P); j++) \
			if (at + j * l < nvec) \
				out[at + j * l] = in[at + j * l]; \
	} \
} \
__kernel void roof_read_##W##_##P(__global const T *restrict in, __global uint *restrict sums, \
				  ulong nvec, uint seed) \
{ \
	__local uint part[ROOF_WG_MAX]; \
	T s = (T)(0); \
	ROOF_START(P) \
	if (whole) { \
		for (uint j = 0; j < (P); j++) \
			s += in[at + j * l]; \
	} else { \
		for (uint j = 0; j < (P); j++) \
			if (at + j * l < nvec) \
				s += in[at + j * l]; \
	} \
	roof_group_sum(part, ROOF_H##W(s), sums); \
} \
__kernel void roof_fill_##W##_##P(__global T *restrict out, __global uint *restrict unused, \
				  ulong nvec, uint seed) \
{ \
	ROOF_START(P) \
	if (whole) { \
		for (uint j = 0; j < (P); j++) \
			out[at + j * l] = (T)(seed + (uint)(at + j * l)); \
	} else { \
		for (uint j = 0; j < (P); j++) \
			if (at + j * l < nvec) \
				out[at + j * l] = (T)(seed + (uint)(at + j * l)); \
	} \
}

/*
 * ROOF_FEW (the host's choice on a CPU device): 4 shapes a kind, vectors of 4 or 16 uints, 1 or
 * 16 a work-item, for a CPU's drivers compile each kernel slowly (PoCL at its first launch) and
 * a CPU's caches, not its memory's width, decide which shape is fastest.
 */
#ifdef ROOF_FEW
ROOF_KERNELS(uint4, 4, 1) ROOF_KERNELS(uint4, 4, 16)
ROOF_KERNELS(uint16, 16, 1) ROOF_KERNELS(uint16, 16, 16)
#else
#define ROOF_WIDTH(T, W) ROOF_KERNELS(T, W, 1) ROOF_KERNELS(T, W, 4) ROOF_KERNELS(T, W, 16)
ROOF_WIDTH(uint, 1)
ROOF_WIDTH(uint2, 2)
ROOF_WIDTH(uint4, 4)
ROOF_WIDTH(uint8, 8)
ROOF_WIDTH(uint16, 16)
#endif
