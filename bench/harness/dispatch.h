/*
 * The harness's layer 9 of 9 (dispatch.c): one device or several, the one place that decides.
 * What it defines, the tools and rows call through tool.h; the top of the chain (layers.h).
 */
#ifndef BENCH_HARNESS_DISPATCH_H
#define BENCH_HARNESS_DISPATCH_H

#include "layers.h"
#if HARNESS_LAYER < HARNESS_LAYER_DISPATCH
#error "dispatch.h is the header of a layer above this file's (bench/harness/layers.h)"
#endif

#include "multi.h"

#endif
