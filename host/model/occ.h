/*
 * Analytic occupancy model: how many hardware threads (Intel), warps (NVIDIA),
 * waves (AMD) or worker threads (CPU) a launch keeps resident, and what limits it.
 *
 * The parameters are data (host/model/occ_data.c), each number with its source; where
 * public sources disagree the value used is a named parameter that can be
 * overridden (occ_set_param), and every output says which value was used.
 * Formulas and sources: docs/model.md, "The occupancy model".
 * No OpenCL calls here; occ_live.c builds a device from a live dev_info.
 */
#ifndef BENCH_OCC_H
#define BENCH_OCC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct dev_info;

#define OCC_MAX_SG 8
#define OCC_MAX_PARAM_SET 6
#define OCC_MAX_PRODUCTS 64

enum occ_vendor { OCC_VENDOR_INTEL, OCC_VENDOR_NVIDIA, OCC_VENDOR_AMD, OCC_VENDOR_CPU };

/*
 * The named parameters. A compute unit (CU) is an Xe-core / sub-slice (Intel),
 * an SM (NVIDIA), a CU or, on RDNA in WGP mode, a WGP (AMD), one hardware
 * thread (CPU). An EU is what holds thread slots inside it: an XVE (Intel), an
 * SM sub-partition (NVIDIA), a SIMD (AMD), the thread itself (CPU).
 */
enum occ_param_id {
	OCC_P_CU_COUNT,          /* compute units of the device */
	OCC_P_EU_PER_CU,         /* EUs per compute unit */
	OCC_P_THREADS_PER_EU,    /* thread / warp / wave slots per EU (Intel: small GRF) */
	OCC_P_WG_MAX,            /* work-items per work-group */
	OCC_P_WG_PER_CU,         /* resident work-groups per CU, without barriers */
	OCC_P_BARRIER_WG_PER_CU, /* resident work-groups per CU that use barriers; 0: no extra limit */
	OCC_P_SLM_PER_CU,        /* bytes of SLM / shared memory / LDS per CU */
	OCC_P_SLM_PER_WG,        /* bytes one work-group may allocate */
	OCC_P_SLM_GRANULE,       /* allocation unit, bytes; 0: the Intel step table */
	OCC_P_SLM_RESERVED,      /* bytes the system reserves per work-group */
	OCC_P_REGS_PER_EU,       /* NVIDIA registers per sub-partition; AMD VGPRs per lane per SIMD */
	OCC_P_REG_GRANULE,       /* NVIDIA registers per warp allocation unit; AMD VGPR granule */
	OCC_P_REGS_MAX,          /* registers one work-item may use */
	OCC_P_COUNT
};

enum occ_origin { OCC_UNSET, OCC_FROM_TABLE, OCC_FROM_LIVE, OCC_FROM_OVERRIDE };

/* One parameter value with where it came from. */
struct occ_param {
	unsigned long long value;
	const char *source;   /* the publication, query or "override" */
	const char *disputed; /* NULL, or the other published values with their sources */
	enum occ_origin origin;
};

/* A parameter given by a product row on top of its family's. */
struct occ_param_set {
	enum occ_param_id id;
	unsigned long long value;
	const char *source;
	const char *disputed;
};

/* A family row of the table (occ_data.c): the architecture. */
struct occ_family {
	const char *name;              /* "Xe-LP" */
	const char *aliases;           /* comma-separated other names: "gen12,tgl" */
	enum occ_vendor vendor;
	const char *cu_word;           /* "Xe-core", "SM", "CU", "thread" */
	unsigned nv_cc;                /* NVIDIA compute capability x10 (90 = 9.0), else 0 */
	unsigned sg_sizes[OCC_MAX_SG]; /* SIMD / warp / wave widths, ascending, 0-terminated */
	const unsigned *slm_steps_kib; /* Intel SLM allocation steps (KiB), ascending; else NULL */
	unsigned n_slm_steps;
	bool grf_large_ok;             /* has a large-GRF mode that halves threads per XVE */
	struct occ_param p[OCC_P_COUNT];
};

/* A product row: a family plus its own counts. */
struct occ_product {
	const char *name;                            /* "TGL-96" */
	const char *aliases;                         /* "tgl,iris xe" */
	const char *family;                          /* family name */
	const char *desc;                            /* "Intel Iris Xe Graphics (Tiger Lake), 96 EUs" */
	const char *note;                            /* NULL or a caveat printed with results */
	struct occ_param_set set[OCC_MAX_PARAM_SET]; /* ends at the first with source NULL */
};

/* Resolved parameters of one device (a product of the table, or a live device). */
struct occ_device {
	char name[160];
	const struct occ_family *fam;
	const char *family;            /* fam->name */
	enum occ_vendor vendor;
	const char *cu_word;
	const char *desc;
	bool live;
	unsigned sg_sizes[OCC_MAX_SG]; /* ascending, 0-terminated */
	unsigned n_sg;
	struct occ_param p[OCC_P_COUNT];
	char notes[640];               /* what could not be known, "; "-separated; "" if none */
};

/* Per-launch inputs. */
struct occ_kernel {
	unsigned wg_size;         /* work-items per work-group */
	unsigned sg_size;         /* SIMD / sub-group / warp / wave width; 0 = model's default */
	unsigned long slm_bytes;  /* local memory per work-group */
	bool barrier;             /* kernel uses work-group barriers */
	bool grf_large;           /* Intel large-GRF mode */
	unsigned regs_per_thread; /* NVIDIA/AMD registers per work-item, 0 = unknown/no limit */
};

/* The model's answer for one launch of `groups` work-groups. */
struct occ_result {
	bool launchable;
	char why_not[128];
	unsigned sg_size;                 /* the width used (the default when the kernel gave 0) */
	unsigned threads_per_wg;          /* hardware threads (Intel) / warps / waves / 1 (CPU) */
	unsigned long long threads;       /* groups * threads_per_wg */
	unsigned long long capacity;      /* thread slots of the whole device (Intel: small GRF) */
	unsigned slots_per_cu;            /* slots one CU offers this kernel (halved by large GRF) */
	unsigned wg_per_cu;               /* resident work-groups per CU */
	unsigned long long resident_wg;   /* device-wide: wg_per_cu * cu count */
	bool splittable;                  /* threads of a work-group may spread over CUs
					     (Intel, no barrier, no SLM) */
	unsigned long long wave_threads;  /* threads resident in one full wave */
	unsigned long long first_threads; /* threads resident in the first wave */
	unsigned long long tail_threads;  /* threads of the last, partial wave; 0 if none */
	double cu_occupancy;              /* 0..1: min(groups, wg_per_cu) * threads_per_wg / slots */
	double gpu_occupancy;             /* first wave, 0..1 */
	double tail_occupancy;            /* last partial wave, 0 if none */
	unsigned long long waves;         /* full + partial waves */
	const char *limiter;              /* what bounds the first wave: "launch size" or cu_limiter */
	/*
	 * What bounds wg_per_cu: "threads", "work-group cap", "barriers", "SLM"
	 * (Intel); "warps", "blocks", "registers", "shared memory" (NVIDIA);
	 * "waves", "work-group cap", "barriers", "registers", "LDS" (AMD).
	 */
	const char *cu_limiter;
	char occupancy_str[64];           /* "16/672 = 2.4%" or "100% then 4.8%" */
};

/* Percent formats found in the published tables. */
enum occ_pct_style {
	OCC_PCT_ROUND1, /* rounded to 0.1, ".0" dropped: "2.4%", "19%" (the TGL VectorAdd2 table) */
	OCC_PCT_TRUNC1, /* truncated to 0.1, ".0" dropped: "14.2%", "38%" (the Gen9 vec_add table) */
	OCC_PCT_ROUND0  /* rounded to 1: "86%" (the barrier table) */
};

/* The "configurations that ensure full occupancy" summary of a device (GPU Optimization Guide, DPC++ edition). */
struct occ_full {
	unsigned min_threads;     /* smallest power of two whose capped work-groups fill a CU */
	unsigned max_threads;     /* max work-group / narrowest SIMD, at most the CU's slots */
	unsigned min_sg, max_sg;
	unsigned max_wg;
	unsigned slots;           /* thread slots of one CU */
	unsigned wg_cap;          /* work-group cap per CU used for min_threads */
};

/* Name of a parameter ("slm_per_cu") and its unit ("bytes" or ""). */
const char *occ_param_name(enum occ_param_id id);
const char *occ_param_unit(enum occ_param_id id);
/* The id of a parameter name, or -1. */
int occ_param_find(const char *name);
/* "intel", "nvidia", "amd", "cpu". */
const char *occ_vendor_str(enum occ_vendor v);

/* The table (occ_data.c). */
size_t occ_family_count(void);
const struct occ_family *occ_family_at(size_t i);
size_t occ_product_count(void);
const struct occ_product *occ_product_at(size_t i);

/* A family by name or alias, case-insensitive, ignoring '-', '_', '.' and spaces; NULL if unknown. */
const struct occ_family *occ_family_find(const char *name);
/* The NVIDIA family of compute capability cc (x10: 90 = 9.0); NULL if the table has none. */
const struct occ_family *occ_family_by_cc(unsigned cc);

/* Fills out from a family alone: cu_count stays unset (0) until the caller sets it. */
void occ_device_from_family(const struct occ_family *f, struct occ_device *out);

/*
 * A known device by product or family name (a family gives its first product),
 * case-insensitive, ignoring '-', '_', '.' and spaces; NULL if unknown. The
 * returned device is shared and read-only: copy it (occ_lookup) to override.
 */
const struct occ_device *occ_find(const char *name);
/* Like occ_find but copies into out; false if unknown. */
bool occ_lookup(const char *name, struct occ_device *out);
/* Number of table devices and the i-th, in table order (for listings). */
size_t occ_device_count(void);
const struct occ_device *occ_device_at(size_t i);
/* The known names, one line per vendor: products then families. */
void occ_list_names(FILE *f);

/*
 * Overrides a named parameter (origin becomes OCC_FROM_OVERRIDE; the disputed
 * alternatives stay recorded). False with a message for an unknown name or a
 * value the model cannot use (0 where 0 makes no sense).
 */
bool occ_set_param(struct occ_device *dev, const char *name, unsigned long long value, char *err,
		   size_t errlen);
/* Appends a note ("; "-separated) to dev->notes. */
void occ_add_note(struct occ_device *dev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Builds the model's device from a live OpenCL device (occ_live.c): Intel from
 * the device-attribute query, NVIDIA from compute capability and compute
 * units, CPUs from compute units. Returns false, with the reason in note,
 * when the device is unknown to the model; on success note holds what could
 * not be known (also in out->notes), or "".
 */
bool occ_device_from_live(const struct dev_info *d, struct occ_device *out, char *note, size_t notelen);

/* The width used when k->sg_size is 0: the family's widest. */
unsigned occ_default_sg(const struct occ_device *dev);
/* True when the device offers SIMD / warp / wave width sg. */
bool occ_sg_ok(const struct occ_device *dev, unsigned sg);
/* "8, 16, 32" into buf. */
const char *occ_sg_list(const struct occ_device *dev, char *buf, size_t len);

/* Predicts a launch of `groups` work-groups of kernel k on dev. Never fails: r->launchable says. */
void occ_predict(const struct occ_device *dev, const struct occ_kernel *k, unsigned long long groups,
		 struct occ_result *r);

/* A fraction (0..1) as a percent string in one of the published styles. */
const char *occ_pct_str(double frac, enum occ_pct_style style, char *buf, size_t len);
/* The occupancy string of r ("16/672 = 2.4%", "100% then 4.8%") in a style; r->occupancy_str is ROUND1. */
const char *occ_format_occupancy(const struct occ_result *r, enum occ_pct_style style, char *buf,
				 size_t len);

/* The full-occupancy summary; false with a reason (CPU devices, or nothing fits). */
bool occ_full_occupancy(const struct occ_device *dev, bool grf_large, struct occ_full *out, char *why,
			size_t whylen);

/* {name: value} of the parameters set on dev. */
json_t *occ_params_json(const struct occ_device *dev);
/* {name: {value, source, alternatives, origin}} of the disputed, overridden or live parameters. */
json_t *occ_choices_json(const struct occ_device *dev);
/*
 * The `model` object of a result point: device name, family, vendor, params
 * used (and which disputed values), kernel inputs, threads, capacity,
 * occupancy, limiter, waves, notes.
 */
json_t *occ_result_json(const struct occ_device *dev, const struct occ_kernel *k,
			const struct occ_result *r);

#endif
