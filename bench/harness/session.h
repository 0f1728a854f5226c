/*
 * The harness's layer 7 of 9 (session.c, select.c, outputs.c): the session (device, context,
 * queue, model), choosing devices, --json and --csv reserved before any work. Its files include
 * this header alone, which includes the layer below (layers.h).
 */
#ifndef BENCH_HARNESS_SESSION_H
#define BENCH_HARNESS_SESSION_H

#include "layers.h"
#if HARNESS_LAYER < HARNESS_LAYER_SESSION
#error "session.h is the header of a layer above this file's (bench/harness/layers.h)"
#endif

#include "run.h"

/* ---- select.c: the devices of a run ---- */
/* The devices a run on several measures on: roots, or the sub-devices made of them. */
struct bench_devset {
	struct dev_list devs;                        /* every device found */
	struct dev_info subs[BENCH_MAX_DEVICES];     /* --sub-devices: the parts */
	size_t n_subs;
	const struct dev_info *dev[BENCH_MAX_DEVICES];
	char label[BENCH_MAX_DEVICES][BENCH_LABEL_LEN];
	size_t n;
};
/*
 * Selects the devices of co (--device all|gpu|cpu|LIST or one, --require-device,
 * --sub-devices); peers: the devices of one platform a BENCH_PEERS row needs, at least two
 * (false, with why, where there are none: the set as selected). Exits 2 for a bad spec or a
 * partition a device does not offer, 77 where there is no such device.
 */
bool bench_devset_open(struct bench_devset *ds, const struct common_opts *co, bool peers, char *why,
		       size_t len);
void bench_devset_close(struct bench_devset *ds);
/* The one device of co: --device (an empty BENCH_DEVICE is none), held to --require-device. */
const struct dev_info *harness_pick_device(struct dev_list *l, const struct common_opts *co);

/* ---- session.c ---- */
/* Opens a session on one device of a set: context, queue, model (the watchdog runs). */
void harness_unit_open(struct bench_session *s, const struct common_opts *co,
		       const struct dev_info *d, const char *label);
void harness_unit_close(struct bench_session *s);
/* Refuses (exit 2) a --kernels folder that cannot be read. */
void harness_check_kernels(const struct common_opts *co);

#endif
