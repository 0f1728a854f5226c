/*
 * A cache of built programs across processes, for runs that build the same kernels again
 * (a test suite, a sweep repeated): with BENCH_PROGRAM_CACHE=DIR set, a program built from
 * source is kept in DIR as the driver's binary with its build log, and a later build of the
 * same source with the same options on the same driver loads that binary instead of
 * compiling. Unset (the default), every program is built from source.
 *
 * An entry is used only when its whole key equals the build's, byte for byte: the source
 * after its includes, the options, the platform's and device's names and versions, and the
 * driver library's file (path, size, modification time, inode), so a driver rebuilt under
 * the same version string compiles afresh. Where the driver's file cannot be known, nothing
 * is cached. NVIDIA's builds are never cached (prog.c: each one is new to the driver).
 */
#ifndef BENCH_PCACHE_H
#define BENCH_PCACHE_H

#include "dev.h"

/*
 * The whole key of a build of src with options on dev (heap, *len its length), or NULL where
 * the cache is off or the driver's file is not known: then nothing is loaded or kept.
 */
char *pcache_key(const struct dev_info *dev, const char *options, const char *src, size_t *len);
/*
 * The program of key's entry, built with options for dev in ctx, with the build log kept with
 * it in *log (caller frees); NULL where there is none or it cannot be used (the caller builds
 * from source).
 */
cl_program pcache_load(cl_context ctx, const struct dev_info *dev, const char *options,
		       const char *key, size_t klen, char **log);
/* Keeps program p, built for dev, under key with its build log. Quietly does nothing where it
 * cannot be written. */
void pcache_store(cl_program p, const struct dev_info *dev, const char *key, size_t klen,
		  const char *log);

#endif
