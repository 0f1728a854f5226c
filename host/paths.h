/*
 * Where bench finds its own files: the report's Python module, the known-issues files, the
 * suites and schemas, and (in a build tree) the project's .deps. An installed bench finds them
 * under its prefix, from its own location (/proc/self/exe: <bindir>/../share/
 * gpu-occupancy-bench), so that a tree installed with --destdir and moved elsewhere works; the
 * bench of a build tree (the executable in the build folder meson made) uses the source tree.
 */
#ifndef BENCH_PATHS_H
#define BENCH_PATHS_H

#include <stdbool.h>
#include <stddef.h>

enum paths_dir {
	PATHS_DATA,          /* <datadir>/gpu-occupancy-bench, or the source tree */
	PATHS_PYTHON,        /* report.py and benchreport/: DATA/python, or scripts/ */
	PATHS_KNOWN_ISSUES,  /* DATA/known-issues, or results/known-issues */
	PATHS_SUITES,        /* DATA/suites, or results/suites */
	PATHS_SCHEMA,        /* DATA/schema, or results/schema */
	PATHS_DEPS,          /* the source tree's .deps (scripts/setup.sh): a build tree's only */
};

/* Whether this bench runs from the build folder it was built in (the source tree's files). */
bool paths_build_tree(void);

/*
 * Writes the folder d into buf (no trailing '/'); false, with buf "", where there is none
 * (PATHS_DEPS for an installed bench) or the path does not fit.
 */
bool paths_dir(enum paths_dir d, char *buf, size_t len);

#endif
