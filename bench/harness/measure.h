/*
 * The harness's layer 4 of 9 (measure.c, own.c, witness.c, ceiling.c, roof.c): warm-up, timed
 * launches and adaptive repetitions; the harness's own kernels; the host's clock against the
 * driver's; the copy ceiling and the memory roof. Its files include this header alone, which
 * includes the layer below (layers.h).
 */
#ifndef BENCH_HARNESS_MEASURE_H
#define BENCH_HARNESS_MEASURE_H

#include "layers.h"
#if HARNESS_LAYER < HARNESS_LAYER_MEASURE
#error "measure.h is the header of a layer above this file's (bench/harness/layers.h)"
#endif

#include "launch.h"

/* ---- own.c: the harness's own kernels ---- */
/*
 * --cache cold: evicts the cache of q's device (of the run's context) before a timed
 * command, waiting for it where wait (exit 1 naming the driver's error). The flush kernel
 * and its scratch buffer are made at the first call.
 */
void harness_cache_flush(struct bench_run *r, cl_command_queue q, bool wait);
/* A time_enqueue_fn that flushes the cache, then enqueues inner (whose event it returns). */
struct harness_cold_cmd {
	struct bench_run *r;
	time_enqueue_fn inner;
	void *arg;
};
cl_int harness_enqueue_cold(void *arg, cl_command_queue q, cl_event *ev);
/*
 * The clock probe on q: HARNESS_PROBE_LAUNCHES timed launches of one work-item, their times
 * in ns to dev, after warmup untimed ones. Exit 1 naming the driver's error where it fails.
 */
void harness_clock_probe(struct bench_run *r, cl_command_queue q, unsigned warmup, double *dev);
/*
 * The clock probe of `rounds` rounds on q, n timed launches (no warm-up): event and host
 * times in ns. False with the driver's error in err.
 */
bool harness_probe_times(struct bench_run *r, cl_command_queue q, cl_uint rounds, unsigned n,
			 double *dev, double *wall, char *err, size_t len);
/* Releases the harness's own kernels of the session and their buffers. */
void harness_own_free(struct bench_session *s);

/* ---- witness.c: the host's clock against the driver's ---- */
/*
 * Holds a measured ok point's event times against the host's waits (and the session's check
 * of the driver's profiling clock, made at the first call): a point whose clocks disagree is
 * suspect, the reason naming what disagreed. pt->clock records the finding either way.
 */
void harness_witness_point(struct bench_run *r, struct bench_point *pt);
/*
 * The same rules for other timed samples (a ceiling's copies): "" in why where event and
 * host agree, else what disagreed.
 */
void harness_witness_samples(struct bench_run *r, const double *dev, const double *wall, size_t n,
			     char *why, size_t len);
/* The session's check of the driver's profiling clock (null where none was made). */
json_t *harness_clock_check_json(const struct bench_session *s);
/* A point's `clock` member (NULL where it was not timed). */
json_t *harness_clock_json(const struct bench_point *pt);
/* Frees the session's check. */
void harness_witness_free(struct bench_session *s);

/* ---- measure.c ---- */
/* The point's `repetitions` (taken, min, max, stop, targets, timed_s), NULL: not the harness's loop. */
json_t *harness_reps_json(const struct bench_run *r, const struct bench_point *pt);

/* ---- roof.c: the memory roof's own kernels ---- */
/*
 * Host copies of a device's words for validation, through two pinned staging buffers
 * (CL_MEM_ALLOC_HOST_PTR, mapped once a run: the ceiling opens it at its first size and
 * closes it with the run) where the driver gives them: a read into pageable
 * memory goes through the driver's own staging at a fraction of the link's speed. Where it
 * gives none, plain host memory.
 */
#define HARNESS_READER_WORDS (1u << 20)   /* words a slot holds, read at a time */
struct harness_reader {
	struct bench_run *r;
	cl_mem stage[2];      /* NULL: slot p[i] is plain host memory */
	uint32_t *p[2];
};
void harness_reader_open(struct bench_run *r, struct harness_reader *rd);
/* Reads n <= HARNESS_READER_WORDS words at word off of m into slot i; NULL with err on failure. */
const uint32_t *harness_reader_get(struct harness_reader *rd, unsigned i, cl_mem m, size_t off,
				   size_t n, char *err, size_t len);
/* Whether words [0, words) of dst equal src's, read piece by piece; false with why in err. */
bool harness_reader_copied(struct harness_reader *rd, cl_mem src, cl_mem dst, size_t words,
			   char *err, size_t len);
void harness_reader_close(struct harness_reader *rd);

enum { ROOF_COPY, ROOF_READ, ROOF_FILL, ROOF_KINDS };
/* The roof of one size: the best of its validated kernels (kernels/roof.cl). */
struct harness_roof {
	double gbps;          /* the best validated candidate's figure, 0: none */
	const char *by;       /* its kernel: "roof_copy", "roof_read" or "roof_fill" */
	char shape[32];       /* its shape: "uint16 x16" (16 uints a vector, 16 vectors a work-item) */
	json_t *stats;        /* owned: its times */
	json_t *doc;          /* owned: every candidate's record, the shapes refused, the ranking */
};
/*
 * Ranks every shape of each kind over `bytes` at src and dst (src is read, dst written), then
 * validates each kind's shapes fastest first and times the first that is right into out.
 * A refused shape is a note and a record; a driver failure while timing is fatal (exit 1).
 */
void harness_roof_measure(struct bench_run *r, struct harness_reader *rd, cl_mem src, cl_mem dst,
			  size_t bytes, struct harness_roof *out);
void harness_roof_clear(struct harness_roof *h);
/*
 * Times fn (a ceiling's or the roof's command) --reps times after the warm-up, from an evicted
 * cache under --cache cold, into statistics *stats; returns the median (exit 1 on a driver
 * failure), and in why what the host's clock found against the events ("": they agreed).
 */
double harness_time_stats(struct bench_run *r, time_enqueue_fn fn, void *arg, size_t bytes,
			  const char *what, json_t **stats, char *why, size_t wlen);
/* The roof's build, for bench compile (beside bench_ceiling_builds'). */
void harness_roof_builds(struct bench_builds *b);
/* Releases the session's roof program (built once a session, at the first ceiling). */
void harness_roof_free(struct bench_session *s);

/* ---- ceiling.c ---- */
/* The document's `roof` (every size's roof and its candidates), NULL where none was measured. */
json_t *harness_roof_json(const struct bench_run *r);
/* The document's `roof_findings` (kernels above the roof by more than the noise), or NULL. */
json_t *harness_roof_findings(const struct bench_run *r);
/* Records a finding: a point above its roof by more than the run's noise (f owned). */
void harness_roof_finding(struct bench_run *r, json_t *f);
/*
 * The ceiling of a point that moves pt->ceil_bytes each way: the memory roof, the fastest of
 * the driver's clEnqueueCopyBuffer, the suite's own stream_copy kernel (kernels/stream_copy.cl,
 * validated) and the roof's kernels (roof.c), over the same bytes from ceil_src to ceil_dst;
 * points of the same bytes share one measurement. A driver failure is fatal (exit 1).
 */
void bench_ceiling_measure(struct bench_run *r, struct bench_point *pt);
void bench_ceiling_free(struct bench_run *r);

#endif
