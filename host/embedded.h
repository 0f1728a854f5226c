/* Files built into the binary by scripts/embed.py: one table per set (kernel sources, suites, figures). */
#ifndef BENCH_EMBEDDED_H
#define BENCH_EMBEDDED_H

#include <stddef.h>

struct embedded_file {
	const char *name;   /* the file's base name */
	const char *data;   /* its bytes, not NUL-terminated */
	size_t len;
};

#endif
