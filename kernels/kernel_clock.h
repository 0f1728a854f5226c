/*
 * cl_khr_kernel_clock for the timed variants that read the clock (the host builds them
 * apart, only where the device offers the extension, so the kernels timed by events stay
 * as they are). The host picks the scope from CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR:
 *   KCLOCK_SCOPE 1  clock_read_device
 *                2  clock_read_work_group
 *                3  clock_read_sub_group
 * Intel's CPU runtime (driver 2026.22.10.0.01) offers the extension, reports all three
 * scopes and links the built-ins, but its compiler declares none of them and defines no
 * __opencl_c_kernel_clock_scope_* macro: where the macro is missing the built-in is
 * declared here (the name the runtime's library resolves, _Z20clock_read_sub_groupv).
 * Its clock ticks once a nanosecond (kernel_clock_ticks_per_ns reads 1.0 there).
 */
#ifndef BENCH_KERNEL_CLOCK_H
#define BENCH_KERNEL_CLOCK_H

#if KCLOCK_SCOPE == 1
#define KCLOCK_READ clock_read_device
#ifndef __opencl_c_kernel_clock_scope_device
ulong __attribute__((overloadable)) clock_read_device(void);
#endif
#elif KCLOCK_SCOPE == 2
#define KCLOCK_READ clock_read_work_group
#ifndef __opencl_c_kernel_clock_scope_work_group
ulong __attribute__((overloadable)) clock_read_work_group(void);
#endif
#elif KCLOCK_SCOPE == 3
#define KCLOCK_READ clock_read_sub_group
#ifndef __opencl_c_kernel_clock_scope_sub_group
ulong __attribute__((overloadable)) clock_read_sub_group(void);
#endif
#else
#error "kernel_clock.h: build with -DKCLOCK_SCOPE=1, 2 or 3"
#endif

#endif
