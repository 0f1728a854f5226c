/*
 * The occupancy model's parameter table: families (architectures) and named
 * products, each number with the source it comes from. Where public sources
 * disagree the row keeps the value used and names the alternatives in
 * `disputed`; occ_set_param() overrides any of them by name.
 *
 * Units: bytes for memory, counts otherwise (occ.c: occ_param_unit()).
 */
#include "occ.h"

#define KIB 1024ULL

/* ---- sources, written once ---------------------------------------------------------------- */

#define SRC_CALC                                                                                   \
	"Intel GPU Occupancy Calculator (oneapi-src/oneAPI-samples "                               \
	"Tools/GPU-Occupancy-Calculator/index.html, 2024 device table)"
#define SRC_GUIDE_TABLE                                                                            \
	"oneAPI GPU Optimization Guide, Thread Mapping and GPU Occupancy: parameter table "        \
	"(oneAPI samples notebook 'Thread Mapping and GPU Occupancy': Threads per XVE, XVEs per XC, XCs, Max Work Group Size)"
#define SRC_REF_XE2 "project reference occupancy-models.md, family table (Xe2 row)"
#define SRC_GRF                                                                                    \
	"oneAPI GPU Optimization Guide, Small Register Mode vs. Large Register Mode (Max Series: "  \
	"8 threads per EU, 4 in large GRF mode)"
#define SRC_CUDA                                                                                   \
	"CUDA C++ Programming Guide, Technical Specifications per Compute Capability (as "          \
	"tabulated in the project reference occupancy-models.md)"
#define SRC_CUDA_SUBPART                                                                           \
	"CUDA C++ Programming Guide (resident warps per SM) over the SM's 4 sub-partitions, as "    \
	"cuda_occupancy.h allocates registers"
#define SRC_CUDA_OCC                                                                               \
	"cuda_occupancy.h (CUDA Toolkit): registers allocated per warp in units of 256, 4 "         \
	"sub-partitions, shared memory in units of 128 B, 1 KiB reserved per block from cc 8.0"
#define SRC_NV_OCL                                                                                 \
	"NVIDIA OpenCL CL_DEVICE_LOCAL_MEM_SIZE = 48 KiB per work-group (project reference "         \
	"occupancy-models.md)"
#define SRC_LLVM                                                                                   \
	"LLVM AMDGPUBaseInfo.cpp: getEUsPerCU, getMaxWavesPerEU, getMaxWorkGroupsPerCU, "           \
	"getTotalNumVGPRs, getVGPRAllocGranule"
#define SRC_LLVM_LDS                                                                               \
	"LLVM AMDGPUUsage, COMPUTE_PGM_RSRC2.GRANULATED_LDS_SIZE: 128 dwords on GFX7-GFX10 (incl. "  \
	"gfx90a, gfx942)"
#define SRC_LLVM_LDS11                                                                             \
	"llvm-project PR 224852 (AMDGPU LDS encoding granularity): GFX10.3, GFX11 and GFX12.0 "     \
	"allocate LDS in 1024-byte blocks"
#define SRC_AMD_LDS                                                                                \
	"LLVM AMDGPUBaseInfo.cpp getLocalMemorySize (FeatureLocalMemorySize65536 on gfx90a, "       \
	"gfx942): 64 KiB LDS per CU"
#define SRC_RDNA_LDS                                                                               \
	"LLVM AMDGPUBaseInfo.cpp getLocalMemorySize: 64 KiB per CU, doubled in WGP mode on gfx10+"

/* Disputed values: what else has been published. */
#define DISP_XELP_SLM                                                                              \
	"64 KiB: Occupancy Calculator (SLM_Size_Per_Sub_Slice 64) and the guide's 2021 edition "    \
	"(GPU Optimization Guide, DPC++ edition 'a SubSlice's 64KB SLM'); 128 KiB: later guide editions ('an Xe-core's 128KB "  \
	"SLM capacity limit', GPU Optimization Guide, SYCL edition, oneAPI samples notebook 'Thread Mapping and GPU Occupancy')"
#define DISP_XELP_WGCAP                                                                            \
	"112: Occupancy Calculator (Max_Num_Of_Workgroups); 16: oneAPI GPU Optimization Guide "     \
	"2021, TGL table 'Maximum Work Groups, Each SubSlice 16' (GPU Optimization Guide, DPC++ edition), the value behind "    \
	"its 'minimum 8 threads' row; later editions drop both"
#define DISP_BARRIER_32                                                                            \
	"32: Occupancy Calculator before 2024 (Max_Num_Of_Barrier_Registers 32 for every family); " \
	"per-family values after"
#define DISP_AMD_WGMAX                                                                             \
	"1024: hardware and HIP limit; 256: what ROCm OpenCL reports as "                           \
	"CL_DEVICE_MAX_WORK_GROUP_SIZE by default in some releases (a live device reports its own)"

/* ---- parameter helpers -------------------------------------------------------------------- */

#define P(v, s) { .value = (v), .source = (s), .origin = OCC_FROM_TABLE }
#define PD(v, s, d) { .value = (v), .source = (s), .disputed = (d), .origin = OCC_FROM_TABLE }

/* Intel SLM allocation steps, KiB (Occupancy Calculator TG_SLM_Sizes). */
static const unsigned slm_steps_gen9[] = { 0, 1, 2, 4, 8, 16, 32, 64 };
static const unsigned slm_steps_hpc[] = { 0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128 };
#define STEPS(a) .slm_steps_kib = (a), .n_slm_steps = sizeof(a) / sizeof((a)[0])

/* Sub-group sizes: the calculator's Subgroup_Sizes (Xe2: SIMD16 XVEs, as Xe-HPC). */
#define SG_8_32 { 8, 16, 32 }
#define SG_16_32 { 16, 32 }

/* NVIDIA rows differ by compute capability only. */
#define NV_FAMILY(nm, al, cc, warps_per_part, blocks, smem)                                        \
	{                                                                                          \
		.name = nm, .aliases = al, .vendor = OCC_VENDOR_NVIDIA, .cu_word = "SM",           \
		.nv_cc = cc, .sg_sizes = { 32 },                                                   \
		.p = {                                                                             \
			[OCC_P_EU_PER_CU] = P(4, SRC_CUDA_OCC),                                    \
			[OCC_P_THREADS_PER_EU] = P(warps_per_part, SRC_CUDA_SUBPART),              \
			[OCC_P_WG_MAX] = P(1024, SRC_CUDA),                                        \
			[OCC_P_WG_PER_CU] = P(blocks, SRC_CUDA),                                   \
			[OCC_P_SLM_PER_CU] = P(smem, SRC_CUDA),                                    \
			[OCC_P_SLM_PER_WG] = P(48 * KIB, SRC_NV_OCL),                              \
			[OCC_P_SLM_GRANULE] = P(128, SRC_CUDA_OCC),                                \
			[OCC_P_SLM_RESERVED] = P(1 * KIB, SRC_CUDA_OCC),                           \
			[OCC_P_REGS_PER_EU] = P(65536 / 4, SRC_CUDA " (64K registers per SM)"),    \
			[OCC_P_REG_GRANULE] = P(256, SRC_CUDA_OCC),                                \
			[OCC_P_REGS_MAX] = P(255, SRC_CUDA),                                       \
		},                                                                                 \
	}

static const struct occ_family families[] = {
	/*
	 * Intel: Gen9 ... Xe2 (XVE = EU, Xe-core = sub-slice or dual sub-slice).
	 * Thread slots per Xe-core = eu_per_cu x threads_per_eu (the calculator's
	 * Max_Threads_Per_Sub_Slice: 56, 112, 128, 64).
	 */
	{
		.name = "Gen9", .aliases = "gen9,skl,kbl,cfl", .vendor = OCC_VENDOR_INTEL,
		.cu_word = "Xe-core", .sg_sizes = SG_8_32, STEPS(slm_steps_gen9),
		.p = {
			[OCC_P_EU_PER_CU] = P(8, SRC_CALC),
			[OCC_P_THREADS_PER_EU] = P(7, SRC_CALC),
			[OCC_P_WG_MAX] = P(256, SRC_CALC),
			[OCC_P_WG_PER_CU] = P(56, SRC_CALC),
			[OCC_P_BARRIER_WG_PER_CU] = P(32, SRC_CALC),
			[OCC_P_SLM_PER_CU] = P(64 * KIB, SRC_CALC),
			[OCC_P_SLM_PER_WG] = P(64 * KIB, SRC_CALC),
		},
	},
	{
		.name = "Gen11", .aliases = "gen11,icl", .vendor = OCC_VENDOR_INTEL,
		.cu_word = "Xe-core", .sg_sizes = SG_8_32, STEPS(slm_steps_gen9),
		.p = {
			[OCC_P_EU_PER_CU] = P(8, SRC_CALC),
			[OCC_P_THREADS_PER_EU] = P(7, SRC_CALC),
			[OCC_P_WG_MAX] = P(256, SRC_CALC),
			[OCC_P_WG_PER_CU] = P(56, SRC_CALC),
			[OCC_P_BARRIER_WG_PER_CU] = P(32, SRC_CALC),
			[OCC_P_SLM_PER_CU] = P(64 * KIB, SRC_CALC),
			[OCC_P_SLM_PER_WG] = P(64 * KIB, SRC_CALC),
		},
	},
	{
		.name = "Xe-LP", .aliases = "gen12,gen12lp,xelp,tgl", .vendor = OCC_VENDOR_INTEL,
		.cu_word = "Xe-core", .sg_sizes = SG_8_32, STEPS(slm_steps_gen9),
		.p = {
			[OCC_P_EU_PER_CU] = P(16, SRC_CALC),
			[OCC_P_THREADS_PER_EU] = P(7, SRC_CALC),
			[OCC_P_WG_MAX] = P(512, SRC_CALC),
			[OCC_P_WG_PER_CU] = PD(112, SRC_CALC, DISP_XELP_WGCAP),
			[OCC_P_BARRIER_WG_PER_CU] = PD(64, SRC_CALC, DISP_BARRIER_32),
			[OCC_P_SLM_PER_CU] = PD(64 * KIB, SRC_CALC, DISP_XELP_SLM),
			[OCC_P_SLM_PER_WG] = P(64 * KIB, SRC_CALC),
		},
	},
	{
		.name = "Xe-HPG", .aliases = "xehpg,dg2,alchemist,arc-a", .vendor = OCC_VENDOR_INTEL,
		.cu_word = "Xe-core", .sg_sizes = SG_8_32, STEPS(slm_steps_gen9),
		.p = {
			[OCC_P_EU_PER_CU] = P(16, SRC_CALC),
			[OCC_P_THREADS_PER_EU] = P(8, SRC_CALC),
			[OCC_P_WG_MAX] = P(1024, SRC_CALC),
			[OCC_P_WG_PER_CU] = P(128, SRC_CALC),
			[OCC_P_BARRIER_WG_PER_CU] = PD(128, SRC_CALC, DISP_BARRIER_32),
			[OCC_P_SLM_PER_CU] = P(128 * KIB, SRC_CALC),
			[OCC_P_SLM_PER_WG] = P(64 * KIB, SRC_CALC),
		},
	},
	{
		.name = "Xe-HPC", .aliases = "xehpc,pvc,ponte-vecchio", .vendor = OCC_VENDOR_INTEL,
		.cu_word = "Xe-core", .sg_sizes = SG_16_32, STEPS(slm_steps_hpc),
		.grf_large_ok = true,   /* SRC_GRF; the calculator's Large_GRF_Mode */
		.p = {
			[OCC_P_EU_PER_CU] = P(8, SRC_CALC),
			[OCC_P_THREADS_PER_EU] = P(8, SRC_GRF),
			[OCC_P_WG_MAX] = P(1024, SRC_CALC),
			[OCC_P_WG_PER_CU] = P(64, SRC_CALC),
			[OCC_P_BARRIER_WG_PER_CU] = PD(64, SRC_CALC, DISP_BARRIER_32),
			[OCC_P_SLM_PER_CU] = P(128 * KIB, SRC_CALC),
			[OCC_P_SLM_PER_WG] = P(128 * KIB, SRC_CALC),
		},
	},
	{
		/* large GRF mode is documented for Max Series only: not offered here */
		.name = "Xe2", .aliases = "xe2,xe2-lpg,xe2-hpg,lnl,bmg,battlemage",
		.vendor = OCC_VENDOR_INTEL, .cu_word = "Xe-core", .sg_sizes = SG_16_32,
		STEPS(slm_steps_hpc),
		.p = {
			[OCC_P_EU_PER_CU] = P(8, SRC_REF_XE2),
			[OCC_P_THREADS_PER_EU] = P(8, SRC_REF_XE2),
			[OCC_P_WG_MAX] = P(1024, SRC_REF_XE2),
			[OCC_P_WG_PER_CU] = P(64, SRC_REF_XE2),
			[OCC_P_BARRIER_WG_PER_CU] = P(64, SRC_REF_XE2),
			[OCC_P_SLM_PER_CU] = P(128 * KIB, SRC_REF_XE2),
			[OCC_P_SLM_PER_WG] = P(128 * KIB, "assumed equal to slm_per_cu: no public table "
							  "gives it (a live device reports "
							  "CL_DEVICE_LOCAL_MEM_SIZE)"),
		},
	},

	/* NVIDIA by compute capability (warps per SM = 4 sub-partitions x warps_per_part). */
	NV_FAMILY("sm_80", "cc8.0,ampere,ga100", 80, 16, 32, 164 * KIB),
	NV_FAMILY("sm_86", "cc8.6,ga102", 86, 12, 16, 100 * KIB),
	NV_FAMILY("sm_89", "cc8.9,ada,lovelace,ad102", 89, 12, 24, 100 * KIB),
	NV_FAMILY("sm_90", "cc9.0,hopper,gh100", 90, 16, 32, 228 * KIB),
	NV_FAMILY("sm_100", "cc10.0,blackwell,gb100", 100, 16, 32, 228 * KIB),
	NV_FAMILY("sm_120", "cc12.0,gb202", 120, 12, 24, 100 * KIB),

	/* AMD: waves per SIMD from VGPRs, LDS, barriers and the wave cap. */
	{
		.name = "CDNA2", .aliases = "gfx90a", .vendor = OCC_VENDOR_AMD, .cu_word = "CU",
		.sg_sizes = { 64 },
		.p = {
			[OCC_P_EU_PER_CU] = P(4, SRC_LLVM),
			[OCC_P_THREADS_PER_EU] = P(8, SRC_LLVM),
			[OCC_P_WG_MAX] = PD(1024, SRC_LLVM, DISP_AMD_WGMAX),
			[OCC_P_WG_PER_CU] = P(32, SRC_LLVM " (single-wave work-groups: the wave cap)"),
			[OCC_P_BARRIER_WG_PER_CU] = P(16, SRC_LLVM " (16 barriers per CU)"),
			[OCC_P_SLM_PER_CU] = P(64 * KIB, SRC_AMD_LDS),
			[OCC_P_SLM_PER_WG] = P(64 * KIB, SRC_AMD_LDS),
			[OCC_P_SLM_GRANULE] = P(512, SRC_LLVM_LDS),
			[OCC_P_REGS_PER_EU] = P(512, SRC_LLVM " (unified VGPR+AGPR file)"),
			[OCC_P_REG_GRANULE] = P(8, SRC_LLVM),
			[OCC_P_REGS_MAX] = P(512, SRC_LLVM),
		},
	},
	{
		.name = "CDNA3", .aliases = "gfx940,gfx941,gfx942", .vendor = OCC_VENDOR_AMD,
		.cu_word = "CU", .sg_sizes = { 64 },
		.p = {
			[OCC_P_EU_PER_CU] = P(4, SRC_LLVM),
			[OCC_P_THREADS_PER_EU] = P(8, SRC_LLVM " (gfx94x has the GFX90A features)"),
			[OCC_P_WG_MAX] = PD(1024, SRC_LLVM, DISP_AMD_WGMAX),
			[OCC_P_WG_PER_CU] = P(32, SRC_LLVM " (single-wave work-groups: the wave cap)"),
			[OCC_P_BARRIER_WG_PER_CU] = P(16, SRC_LLVM " (16 barriers per CU)"),
			[OCC_P_SLM_PER_CU] = P(64 * KIB, SRC_AMD_LDS),
			[OCC_P_SLM_PER_WG] = P(64 * KIB, SRC_AMD_LDS),
			[OCC_P_SLM_GRANULE] = P(512, SRC_LLVM_LDS),
			[OCC_P_REGS_PER_EU] = P(512, SRC_LLVM " (unified VGPR+AGPR file)"),
			[OCC_P_REG_GRANULE] = P(8, SRC_LLVM),
			[OCC_P_REGS_MAX] = P(512, SRC_LLVM),
		},
	},
	{
		/* WGP mode (the default for compute): the unit a work-group must share is the WGP. */
		.name = "RDNA3", .aliases = "gfx1100,gfx1101,gfx1102,navi31", .vendor = OCC_VENDOR_AMD,
		.cu_word = "WGP", .sg_sizes = { 32 },
		.p = {
			[OCC_P_EU_PER_CU] = P(4, SRC_LLVM " (WGP mode: 4 SIMD32)"),
			[OCC_P_THREADS_PER_EU] = P(16, SRC_LLVM),
			[OCC_P_WG_MAX] = P(1024, SRC_LLVM),
			[OCC_P_WG_PER_CU] = P(64, SRC_LLVM " (single-wave work-groups: the wave cap)"),
			[OCC_P_BARRIER_WG_PER_CU] = P(32, SRC_LLVM " (32 barriers in WGP mode)"),
			[OCC_P_SLM_PER_CU] = P(128 * KIB, SRC_RDNA_LDS),
			[OCC_P_SLM_PER_WG] = P(64 * KIB, SRC_RDNA_LDS),
			[OCC_P_SLM_GRANULE] = P(1024, SRC_LLVM_LDS11),
			[OCC_P_REGS_PER_EU] = P(1536, SRC_LLVM " (1.5x VGPR file, wave32)"),
			[OCC_P_REG_GRANULE] = P(24, SRC_LLVM " (1.5x VGPR file, wave32)"),
			[OCC_P_REGS_MAX] = P(256, SRC_LLVM),
		},
	},

	/*
	 * CPU: OpenCL CPU runtimes run one work-group at a time per worker thread
	 * (Intel CPU runtime guide; PoCL pthread driver).
	 */
	{
		.name = "CPU", .aliases = "generic-cpu,x86", .vendor = OCC_VENDOR_CPU,
		.cu_word = "thread", .sg_sizes = { 4, 8, 16, 32, 64 },
		.p = {
			[OCC_P_EU_PER_CU] = P(1, "one worker thread is one compute unit"),
			[OCC_P_THREADS_PER_EU] = P(1, "Intel CPU runtime: each work-group is assigned "
						      "to one thread"),
			[OCC_P_WG_MAX] = P(8192, "Intel CPU runtime CL_DEVICE_MAX_WORK_GROUP_SIZE"),
			[OCC_P_WG_PER_CU] = P(1, "one work-group at a time per worker thread"),
			[OCC_P_SLM_PER_CU] = P(32 * KIB, "Intel CPU runtime CL_DEVICE_LOCAL_MEM_SIZE"),
			[OCC_P_SLM_PER_WG] = P(32 * KIB, "Intel CPU runtime CL_DEVICE_LOCAL_MEM_SIZE"),
		},
	},
};

/* ---- products ----------------------------------------------------------------------------- */

#define CU(n, src) { .id = OCC_P_CU_COUNT, .value = (n), .source = (src) }

static const struct occ_product products[] = {
	{ "P630", "uhd-p630,uhd630,gen9-p630", "Gen9", "Intel UHD Graphics P630, 24 EUs",
	  NULL, { CU(3, SRC_GUIDE_TABLE) } },
	{ "ICL-64", "icl64,iris-plus-g7", "Gen11", "Intel Iris Plus Graphics (Ice Lake), 64 EUs",
	  NULL, { CU(8, SRC_GUIDE_TABLE) } },
	{ "TGL-96", "tgl,tgl96,iris-xe,iris-xe-96", "Xe-LP",
	  "Intel Iris Xe Graphics (Tiger Lake), 96 EUs", NULL, { CU(6, SRC_GUIDE_TABLE) } },
	{ "TGL-80", "tgl80,iris-xe-80", "Xe-LP", "Intel Iris Xe Graphics (Tiger Lake), 80 EUs",
	  NULL, { CU(5, SRC_CALC " (EU_Count 80 / 16 per Xe-core)") } },
	{ "A770", "arc-a770", "Xe-HPG", "Intel Arc A770, 512 XVEs", NULL,
	  { CU(32, SRC_CALC " (EU_Count 512 / 16)") } },
	{ "A750", "arc-a750", "Xe-HPG", "Intel Arc A750, 448 XVEs", NULL,
	  { CU(28, SRC_CALC " (EU_Count 448 / 16)") } },
	{ "A380", "arc-a380", "Xe-HPG", "Intel Arc A380, 128 XVEs", NULL,
	  { CU(8, SRC_CALC " (EU_Count 128 / 16)") } },
	{ "Flex-170", "flex170", "Xe-HPG", "Intel Data Center GPU Flex 170, 512 XVEs", NULL,
	  { CU(32, SRC_CALC " (Flex 170: EU_Count 512 / 16)") } },
	{ "Max-1100", "max1100,pvc-1100", "Xe-HPC", "Intel Data Center GPU Max 1100, 448 XVEs",
	  NULL, { CU(56, SRC_CALC " (EU_Count 448 / 8)") } },
	{ "Max-1550", "max1550,pvc-1550", "Xe-HPC",
	  "Intel Data Center GPU Max 1550, 1024 XVEs over 2 stacks",
	  "two stacks of 64 Xe-cores: in the default FLAT device hierarchy each stack is its own "
	  "device (--gpu Max-1550-stack, or --gpu live); this row is the card, as COMPOSITE mode's "
	  "root device shows it, whose work-groups implicit scaling splits over the stacks",
	  { CU(128, SRC_CALC " (EU_Count 1024 / 8)") } },
	{ "Max-1550-stack", "max1550-stack,pvc-1550-stack,max-1550-tile", "Xe-HPC",
	  "one stack of an Intel Data Center GPU Max 1550: 512 XVEs",
	  "a FLAT-mode device of a Max 1550, or a NUMA sub-device of its COMPOSITE root device "
	  "(--sub-devices numa); its HBM is local, the other stack's remote (bench locality)",
	  { CU(64, SRC_CALC " (Max 1550: EU_Count 1024 / 8 = 128 Xe-cores over 2 stacks; "
		   "Intel oneAPI GPU Optimization Guide, Multi-Stack GPU Architecture)") } },
	{ "LNL", "lunar-lake,arc-140v,140v", "Xe2", "Intel Arc 140V (Lunar Lake), 8 Xe2-cores",
	  NULL, { CU(8, "Intel product specification: Arc 140V GPU, 8 Xe-cores") } },
	{ "B580", "arc-b580", "Xe2", "Intel Arc B580, 20 Xe2-cores", NULL,
	  { CU(20, "Intel product specification: Arc B580, 20 Xe-cores") } },

	{ "A100", "a100-sxm,a100-pcie", "sm_80", "NVIDIA A100, 108 SMs", NULL,
	  { CU(108, "NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs") } },
	{ "RTX-3090", "3090", "sm_86", "NVIDIA GeForce RTX 3090, 82 SMs", NULL,
	  { CU(82, "NVIDIA Ampere GA102 whitepaper: RTX 3090, 82 SMs (10,496 CUDA cores)") } },
	{ "H100", "h100-sxm,h100-sxm5", "sm_90", "NVIDIA H100 SXM5, 132 SMs", NULL,
	  { CU(132, "NVIDIA H100 Tensor Core GPU Architecture whitepaper: H100 SXM5, 132 SMs") } },
	{ "H100-PCIe", "h100pcie", "sm_90", "NVIDIA H100 PCIe, 114 SMs", NULL,
	  { CU(114, "NVIDIA H100 Tensor Core GPU Architecture whitepaper: H100 PCIe, 114 SMs") } },
	{ "H200", "h200-sxm", "sm_90", "NVIDIA H200 SXM, 132 SMs", NULL,
	  { CU(132, "GH100 in the H100 SXM5 configuration (132 SMs); H200 changes the memory") } },
	{ "L40S", "l40s", "sm_89", "NVIDIA L40S, 142 SMs", NULL,
	  { CU(142, "NVIDIA L40S datasheet: 18,176 CUDA cores = 142 SMs x 128") } },
	{ "RTX-4090", "4090", "sm_89", "NVIDIA GeForce RTX 4090, 128 SMs", NULL,
	  { CU(128, "NVIDIA Ada Lovelace architecture whitepaper: RTX 4090, 128 SMs") } },
	{ "B200", "b200-sxm", "sm_100", "NVIDIA B200, 148 SMs", NULL,
	  { CU(148, "Chips and Cheese, 'Nvidia's B200: Keeping the CUDA Juggernaut Rolling' "
		    "(2025): 2 dies x 74 SMs") } },
	{ "RTX-5090", "5090", "sm_120", "NVIDIA GeForce RTX 5090, 170 SMs", NULL,
	  { CU(170, "NVIDIA RTX Blackwell GPU architecture whitepaper: RTX 5090, 170 SMs") } },

	{ "MI250X", "mi250x-gcd", "CDNA2", "AMD Instinct MI250X, one GCD (110 CUs)",
	  "an MI250X is 2 GCDs of 110 CUs; each GCD is its own OpenCL/HIP device",
	  { CU(110, "AMD Instinct MI250X datasheet: 220 CUs over 2 GCDs") } },
	{ "MI300X", "mi300x", "CDNA3", "AMD Instinct MI300X, 304 CUs", NULL,
	  { CU(304, "AMD Instinct MI300X datasheet: 304 CUs") } },
	{ "RX-7900XTX", "7900xtx,navi31-xtx", "RDNA3", "AMD Radeon RX 7900 XTX, 96 CUs = 48 WGPs",
	  "modelled in WGP mode; wave64 is not modelled", { CU(48, "AMD RX 7900 XTX specification: "
							       "96 CUs (48 WGPs)") } },

	{ "cpu", "generic", "CPU", "generic CPU device, 16 hardware threads",
	  "16 hardware threads is a placeholder: use --gpu live or --param cu_count=N",
	  { CU(16, "placeholder, not a product fact") } },
};

_Static_assert(sizeof(products) / sizeof(products[0]) <= OCC_MAX_PRODUCTS, "raise OCC_MAX_PRODUCTS");

size_t occ_family_count(void)
{
	return sizeof(families) / sizeof(families[0]);
}

const struct occ_family *occ_family_at(size_t i)
{
	return i < occ_family_count() ? &families[i] : NULL;
}

size_t occ_product_count(void)
{
	return sizeof(products) / sizeof(products[0]);
}

const struct occ_product *occ_product_at(size_t i)
{
	return i < occ_product_count() ? &products[i] : NULL;
}
