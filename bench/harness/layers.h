/*
 * The harness's layers, from the bottom up. Each file of bench/harness/ names its layer before
 * its one include (`#define HARNESS_LAYER HARNESS_LAYER_RUN`, then `#include "run.h"`); each
 * layer's header includes the one below it and refuses, with #error, a file of a lower layer.
 * A file calls only its own layer and those below; a lower layer that must reach a higher one
 * takes a callback the higher one hands it (tests/layers.py holds every include and call).
 * row.h and tool.h, the faces the rows and the tools see, stand below every layer.
 */
#ifndef BENCH_HARNESS_LAYERS_H
#define BENCH_HARNESS_LAYERS_H

#ifndef HARNESS_LAYER
/* a row includes row.h, a tool tool.h */
#error "only a file of bench/harness/ includes a layer's header, its layer named first"
#endif

#define HARNESS_LAYER_POINT 1     /* point.c, builds.c, figures.c */
#define HARNESS_LAYER_JOB 2       /* watch.c, job.c */
#define HARNESS_LAYER_LAUNCH 3    /* launch.c, guard.c, sync.c */
#define HARNESS_LAYER_MEASURE 4   /* measure.c, own.c, witness.c, ceiling.c, roof.c */
#define HARNESS_LAYER_VIEWS 5     /* views.c */
#define HARNESS_LAYER_RUN 6       /* run.c */
#define HARNESS_LAYER_SESSION 7   /* session.c, select.c, outputs.c */
#define HARNESS_LAYER_MULTI 8     /* multi.c, multi_doc.c, fleet.c */
#define HARNESS_LAYER_DISPATCH 9  /* dispatch.c */

#endif
