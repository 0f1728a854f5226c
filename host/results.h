/* Results documents: versioned JSON written atomically, and CSV views of them. */
#ifndef BENCH_RESULTS_H
#define BENCH_RESULTS_H

#include "outfile.h"
#include "stats.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define RESULTS_SCHEMA_VERSION 1

struct dev_info;

/* New document: schema_version, tool, timestamp, command, host, device, benchmark, points = []. */
json_t *res_doc_new(int argc, char **argv, const struct dev_info *dev, const char *benchmark);
/*
 * The environment variables set in this process that change what the ICD loader or a
 * driver does (OCL_ICD_*, ZE_*, ZEX_*, NEO*, IGC_*, SYCL_*, POCL_*, CUDA_*, CL_CONFIG_*,
 * ...; the list is in results.c), name: value, sorted by name.
 */
json_t *res_environment_json(void);
/*
 * The variables that decide what a device is on Intel's GPU runtime (ZE_FLAT_DEVICE_HIERARCHY,
 * ZE_AFFINITY_MASK, ZEX_NUMBER_OF_CCS): the mode they give, which were unset, and what they
 * mean (the values are in res_environment_json's record).
 */
json_t *res_hierarchy_json(void);
/* Stamps the document's end_timestamp (UTC, ISO 8601), just before it is written. */
void res_doc_finish(json_t *doc);
/* Appends a point (steals the reference). */
void res_doc_add_point(json_t *doc, json_t *point);

/*
 * {min, median, mean, stddev, cv, p5, p95, max, n, median_ci95 ([lo, hi] or null),
 * median_ci95_level, samples[]} of a sample set.
 */
json_t *res_stats_json(const struct stats *s, const double *samples, size_t n);

/* Serialises doc (indented, keys in insertion order) and commits it to o. */
bool res_write_json(struct outf *o, const json_t *doc, char *err, size_t errlen);
/* One CSV row per point: flattened params, status, time_ns stats, metrics, model. */
bool res_write_csv(struct outf *o, const json_t *doc, char *err, size_t errlen);

/* Tool identity: "0.1.0" and `git describe` at build time. */
const char *res_tool_version(void);
const char *res_tool_describe(void);

#endif
