/*
 * What Intel's GPU compiler made of each kernel, read from the binary it wrote: a zebin (ELF,
 * machine 0xcd, `ocloc -format zebin`), whose `.ze_info` section is YAML describing each
 * kernel's execution environment and per-thread memory, and whose `.text.KERNEL` sections
 * hold the machine code. This is the description the GPU driver itself loads, so the figures
 * are the driver's: the spill size is what CL_KERNEL_SPILL_MEM_SIZE_INTEL reports.
 * No OpenCL here.
 */
#ifndef BENCH_ZEBIN_H
#define BENCH_ZEBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct zebin_kernel {
	char name[128];
	unsigned simd;               /* execution_env.simd_size */
	unsigned grf;                /* execution_env.grf_count: registers a hardware thread */
	unsigned barriers;           /* execution_env.barrier_count */
	uint64_t slm;                /* execution_env.slm_size, bytes a work-group */
	unsigned required_sg;        /* user_attributes.intel_reqd_sub_group_size, 0: none */
	/*
	 * per_thread_memory_buffers: scratch of slot 0, bytes a hardware thread (spills, and
	 * private variables where its usage is single_space): what compute-runtime 22.43
	 * reports as CL_KERNEL_SPILL_MEM_SIZE_INTEL; its usage ("spill_fill_space", ...).
	 */
	uint64_t scratch;
	char scratch_usage[32];
	/* private memory in global memory, bytes a hardware thread (CL_KERNEL_PRIVATE_MEM_SIZE) */
	uint64_t private_mem;
	/*
	 * Instructions in .text.NAME: walked by the compaction bit (bit 29: 8 bytes, else 16) up
	 * to the zero padding after the end of thread, as IGC's shader dumps count them.
	 */
	unsigned instructions;
	size_t text_bytes;
};

struct zebin {
	struct zebin_kernel *k;
	size_t n;
	char version[16];            /* the .ze_info version ("1.20") */
};

/* Reads the zebin at path; false with a message naming the path and what is wrong. */
bool zebin_read(const char *path, struct zebin *z, char *err, size_t len);
/* The same from memory (len bytes at data). */
bool zebin_parse(const uint8_t *data, size_t size, struct zebin *z, char *err, size_t len);
void zebin_free(struct zebin *z);
/* The kernel named name, or NULL. */
const struct zebin_kernel *zebin_find(const struct zebin *z, const char *name);

#endif
