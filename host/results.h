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
 * An output file reserved before any work runs. What a path names decides how it is written:
 *   - a regular file, or a path that does not exist yet: a temporary file NAME.tmp.XXXXXX
 *     (mkstemp) is created beside it at open, filled at commit, synced and renamed over it;
 *     through a symbolic link, the link's target is replaced and the link stays;
 *   - "-" and "/dev/stdout": standard output, written as a stream (nothing created); likewise
 *     /dev/stderr, and /dev/fd/N or /proc/self/fd/N: descriptor N as it is (not reopened);
 *   - a character device, FIFO or socket (/dev/null, a pipe): opened (a socket: connected) at
 *     open, written as a stream at commit, never replaced;
 *   - a directory, a block device, a dangling link, a folder name ("x/") or "": refused at open.
 */
struct res_out {
	char *path;   /* as given, for messages */
	char *dest;   /* the file renamed over: the path with every link resolved; NULL for a stream */
	char *tmp;    /* the temporary beside dest; NULL for a stream */
	int fd;       /* -1 when closed */
	bool stream;  /* written in place: stdout, a device, a FIFO or a socket */
	bool own_fd;  /* fd was opened here (false for a descriptor named by the path) */
	unsigned mode; /* permissions the committed file gets */
};

/* Reserves path; false with a message naming the path and why ("is a directory", errno text). */
bool res_out_open(struct res_out *o, const char *path, char *err, size_t errlen);
/*
 * Writes len bytes; a file is synced and renamed into place, a stream is written whole (a full
 * device or a closed pipe fails with the system's reason). Frees o either way.
 */
bool res_out_commit(struct res_out *o, const char *data, size_t len, char *err, size_t errlen);
/* Drops the temporary file (on failure paths). Safe on a zeroed or committed struct. */
void res_out_abort(struct res_out *o);
/*
 * Unlinks every temporary file currently reserved by res_out_open, with nothing but unlink() on
 * paths stored at open: async-signal-safe, for a SIGINT/SIGTERM handler. The structs stay valid
 * (a later res_out_abort is harmless).
 */
void res_out_abort_all_signal(void);
/*
 * True when a and b name the same file: the same device and inode where both exist ("-" is
 * standard output, /dev/fd/N descriptor N), else the same path once the folder is resolved with
 * realpath. False when either is "" or NULL.
 */
bool res_out_same_file(const char *a, const char *b);

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
bool res_write_json(struct res_out *o, const json_t *doc, char *err, size_t errlen);
/* One CSV row per point: flattened params, status, time_ns stats, metrics, model. */
bool res_write_csv(struct res_out *o, const json_t *doc, char *err, size_t errlen);

/* Tool identity: "0.1.0" and `git describe` at build time. */
const char *res_tool_version(void);
const char *res_tool_describe(void);

#endif
