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
 *
 * The event's timestamps (QUEUED, SUBMIT, START, END, COMPLETE) lie; the device timer of
 * clGetDeviceAndHostTimer and clGetHostTimer's host timer, where the real driver offers them,
 * follow the same clock (us-as-ns, wrap32, constant, half-rate), except for `offset`, whose
 * device timer stays the real one: only events placed on the host's timeline show it, as with
 * a driver whose events and timer query disagree on the domain. zero and reversed leave the
 * device timer true (one command's pair lies, not the clock).
 */
#ifndef BENCH_STUB_TIME_H
#define BENCH_STUB_TIME_H

#include <CL/cl_icd.h>
#include <stdbool.h>

/*
 * Reads BENCH_STUB_TIME and, where set, wraps the table's clGetEventProfilingInfo and (where
 * the driver has them) clGetDeviceAndHostTimer; the table is writable from its start to
 * clSetKernelExecInfo, and this makes the timer entries writable too. False with the reason on
 * stderr where the value names no fault.
 */
bool stub_time_setup(struct _cl_icd_dispatch *d);

#endif
