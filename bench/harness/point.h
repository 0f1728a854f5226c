/*
 * The harness's layer 1 of 9 (point.c, builds.c, figures.c): a point's record, the builds a
 * row describes, the guide's published figures. Its declarations are all in the faces the rows
 * and the tools see (row.h, tool.h); this header starts the chain of layers (layers.h).
 */
#ifndef BENCH_HARNESS_POINT_H
#define BENCH_HARNESS_POINT_H

#include "layers.h"
#if HARNESS_LAYER < HARNESS_LAYER_POINT
#error "point.h is the header of a layer above this file's (bench/harness/layers.h)"
#endif

#include "tool.h"

#endif
