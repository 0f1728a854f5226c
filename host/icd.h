/*
 * The ICD loader and the drivers behind its platforms: what a process that runs one device
 * needs to load (bench validate's child processes load the one driver under test).
 */
#ifndef BENCH_ICD_H
#define BENCH_ICD_H

#include "clerr.h"

/*
 * Whether this process's ICD loader is ocl-icd, whose OCL_ICD_VENDORS may name one driver
 * library instead of a folder of .icd files (the Khronos loader reads a folder only).
 */
bool icd_loader_is_ocl_icd(void);
/*
 * The file of the driver library behind platform p: where the code of its dispatch table
 * lies (every object of an ICD driver starts with a pointer to that table). False where the
 * loader is not ocl-icd (a platform may then be no ICD object) or the file is not known.
 */
bool icd_driver_file(cl_platform_id p, char *buf, size_t len);

#endif
