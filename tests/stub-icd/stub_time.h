/*
 * The stub driver's lies about time (stub_time.c), where BENCH_STUB_TIME names one:
 *
 *   zero        END == START for every command (a driver that times nothing: 0 ns)
 *   reversed    START and END swapped (END - START negative; as unsigned, some 1.8e19 ns)
 *   us-as-ns    every profiling timestamp divided by 1000 (microseconds sold as nanoseconds)
 *   wrap32[:B]  timestamps modulo 2^B ns (default 32: a 32-bit counter, a wrap every 4.29 s;
 *               a smaller B wraps often enough for a test to see it)
 *   constant    every timestamp the same value
 *   half-rate   a timer at half rate: first + (t - first) / 2, first the first timestamp read
 *   offset      2^62 ns added (another clock domain): durations stay true
 *   coarse[:NS] timestamps rounded down to a multiple of NS ns (default 1000: a timer that ticks
 *               every microsecond, while the driver declares the real timer's resolution)
 *
 * What a real broken driver would do, per lie, decides what else follows it:
 *
 *   - The events' timestamps (QUEUED, SUBMIT, START, END, COMPLETE of clGetEventProfilingInfo)
 *     lie in every case.
 *   - clGetDeviceAndHostTimer's device timer, where the real driver offers the pair (Intel's CPU
 *     runtime does; PoCL 3.1 answers CL_INVALID_OPERATION), reads the same broken clock for the
 *     lies of a clock (us-as-ns, wrap32, constant, half-rate, coarse): one counter serves both.
 *   - It stays true for zero and reversed (a bug in how one command's pair is stamped, not in
 *     the clock) and for offset (events stamped in another domain than the timer query answers
 *     from): only a launch placed on the host's timeline through the pair shows an offset.
 *   - clGetDeviceAndHostTimer's host timer and clGetHostTimer are never touched: they read the
 *     host's clock, the witness; a driver that breaks the host's clock too leaves no witness.
 *
 * BENCH_STUB_TIME_KERNEL=TEXT restricts the lie to the events of clEnqueueNDRangeKernel launches
 * whose kernel's function name contains TEXT (as BENCH_STUB_KERNEL does for launch faults): every
 * other event, and the device timer, tell the truth (one kernel's path misstamped, the clock
 * sound). Set without BENCH_STUB_TIME, or empty, it is a bad configuration.
 *
 * A value that names no lie, a BITS outside 8..63 or NS outside 2..10^9, or a bad BENCH_STUB_TIME_KERNEL prints why on
 * stderr, and the stub presents no platform.
 */
#ifndef BENCH_STUB_TIME_H
#define BENCH_STUB_TIME_H

#include <CL/cl_icd.h>
#include <stdbool.h>

/*
 * Reads BENCH_STUB_TIME and, where set, wraps the table's clGetEventProfilingInfo and (where
 * the driver has them) clGetDeviceAndHostTimer; with BENCH_STUB_TIME_KERNEL, also
 * clEnqueueNDRangeKernel (over the stub's own wrapper) and clReleaseEvent. The table is writable
 * from its start to clSetKernelExecInfo; this makes the timer entries writable too. False, with
 * the reason on stderr, for a bad configuration.
 */
bool stub_time_setup(struct _cl_icd_dispatch *d);

#endif
