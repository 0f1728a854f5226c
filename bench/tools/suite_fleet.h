/*
 * bench suite on several devices (suite_fleet.c): one process per device, in parallel, one
 * document per device, each in a folder of its own.
 */
#ifndef BENCH_SUITE_FLEET_H
#define BENCH_SUITE_FLEET_H

#include "tool.h"

/*
 * Where co names a set of devices (--device all, gpu, cpu or a list): with one device in it,
 * co->device becomes that device's spec and false is returned (the suite runs in this
 * process); with several, runs this command again once per device, all at once, each as
 * `--device P:D -o OUT/device-P.D` with its output in OUT/device-P.D.log, prints how each
 * ended, and returns true with *rc the worst exit code (a signal's, 2, 1, 77, then 0). Refuses
 * (exit 2) several devices without -o, or with --json, --csv or --baseline (one file is one
 * device's). Before any process starts, every path is checked on the one rule of outputs
 * (host/outfile.h): suite_file (NULL: a built-in suite) and the --kernels sources are inputs,
 * OUT and each device's folder are made as mkdir -p, each log is reserved and appears whole
 * once its process ended. Not a set: false, nothing done.
 */
bool suite_fleet(struct common_opts *co, const char *suite_file, const char *out_dir,
		 bool one_file_outputs, int *rc);

#endif
