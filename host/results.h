/* Results documents: versioned JSON written atomically, and CSV views of them. */
#ifndef BENCH_RESULTS_H
#define BENCH_RESULTS_H

#include "stats.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define RESULTS_SCHEMA_VERSION 1

struct dev_info;

/*
 * An output file reserved before any work runs: the temporary file is created
 * in the destination's folder at open (so an unwritable path fails at once),
 * filled at commit, then renamed over the destination.
 */
struct res_out {
	char *path;   /* destination */
	char *tmp;    /* temporary beside it */
	int fd;
};

/* Reserves path; false with a message naming the path and the system error. */
bool res_out_open(struct res_out *o, const char *path, char *err, size_t errlen);
/* Writes len bytes, fsyncs, renames into place. Frees o. */
bool res_out_commit(struct res_out *o, const char *data, size_t len, char *err, size_t errlen);
/* Drops the temporary file (on failure paths). Safe on a zeroed or committed struct. */
void res_out_abort(struct res_out *o);

/* New document: schema_version, tool, timestamp, command, host, device, benchmark, points = []. */
json_t *res_doc_new(int argc, char **argv, const struct dev_info *dev, const char *benchmark);
/*
 * The environment variables set in this process that change what the ICD loader or a
 * driver does (OCL_ICD_*, ZE_*, ZEX_*, NEO*, IGC_*, SYCL_*, POCL_*, CUDA_*, CL_CONFIG_*,
 * ...; the list is in results.c), name: value, sorted by name.
 */
json_t *res_environment_json(void);
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
bool res_write_json(struct res_out *o, const json_t *doc, char *err, size_t errlen);
/* One CSV row per point: flattened params, status, time_ns stats, metrics, model. */
bool res_write_csv(struct res_out *o, const json_t *doc, char *err, size_t errlen);

/* Tool identity: "0.1.0" and `git describe` at build time. */
const char *res_tool_version(void);
const char *res_tool_describe(void);

#endif
