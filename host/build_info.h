/*
 * What bench was built with and what it runs on, for `bench --version`: the version and git
 * description, the OpenCL headers and ICD loader it was built against, the ICD loader it
 * loaded, and where it finds its own files.
 */
#ifndef BENCH_BUILD_INFO_H
#define BENCH_BUILD_INFO_H

#include <stdio.h>

/* Prints the lines; the first is "bench X.Y.Z (DESCRIBE)". */
void build_info_print(FILE *f);

#endif
