/*
 * Runs on several devices, written once for every benchmark row: --device all|gpu|cpu|LIST
 * and --sub-devices run the row on each device in turn; --concurrent then runs it on all of
 * them at once, a host thread each; a BENCH_PEERS row runs once across the devices of one
 * context. Each run is the harness's own (plan, point loop, views) on its device's session;
 * one document holds them all (bench/harness/multi_doc.c).
 */
#define HARNESS_LAYER HARNESS_LAYER_MULTI
#include "multi.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- writing what there is ---- */

static struct multi *live;

static int multi_write(struct multi *m, const struct bench_run *inflight, const char *by)
{
	json_t *doc = multi_doc(m, inflight, by);
	int rc = bench_outputs_write(m->co, doc);

	json_decref(doc);
	return rc;
}

/* The watchdog's writer (a second signal, a point past --timeout): r is a run in flight. */
static int write_now(struct bench_session *s, struct bench_run *r)
{
	struct multi *m = s->owner;

	m->running = false;
	return multi_write(m, r, NULL);
}

/*
 * At exit: a device's set-up that ended the process (a kernel that does not build, a size
 * it refuses) leaves the runs before it written, marked interrupted by "error".
 */
static void write_at_exit(void)
{
	struct multi *m = live;
	bool any = false;

	if (!m || !m->running)
		return;
	m->running = false;
	for (size_t i = 0; i < m->ds.n; i++)
		any |= m->u[i].doc[MULTI_ALONE] != NULL;
	if (!any)
		return;
	fprintf(stderr, "bench %s: stopped on a device's set-up: what the devices before it measured "
		"is written\n", cli_cmd);
	multi_write(m, NULL, "error");
}

/* ---- the runs ---- */

static void unit_open(struct multi *m, size_t i)
{
	struct multi_unit *u = &m->u[i];
	double t0 = time_now_ns();

	if (u->open)
		return;
	harness_unit_open(&u->s, m->co, m->ds.dev[i], m->ds.label[i]);
	u->s.open_ns = time_now_ns() - t0;
	u->s.concurrent = m->co->concurrent;
	u->open = true;
}

static void unit_close(struct multi_unit *u)
{
	if (u->open)
		harness_unit_close(&u->s);
	u->open = false;
}

/* The row's options parsed again for a run: a run may change its own (a fresh seed). */
static void parse(struct multi *m, struct multi_unit *u)
{
	bench_job_parse(&u->job, m->j->cmd, m->j->row, m->j->argc, m->j->argv);
}

static void header(const struct multi *m, size_t i, const char *what)
{
	if (m->co->quiet)
		return;
	printf("%s== %s %zu of %zu%s: %s\n", i || m->phase ? "\n" : "", what, i + 1, m->ds.n,
	       m->phase == MULTI_TOGETHER ? ", all at once" : "", m->ds.label[i]);
	fflush(stdout);
}

/* Each device in turn; false where a signal stopped it. */
static bool run_alone(struct multi *m)
{
	for (size_t i = 0; i < m->ds.n; i++) {
		struct multi_unit *u = &m->u[i];
		unit_open(m, i);
		parse(m, u);
		header(m, i, "device");
		u->rc[MULTI_ALONE] = bench_run_job(&u->s, &u->job, &u->doc[MULTI_ALONE]);
		bench_job_free(&u->job);
		if (!m->co->concurrent)
			unit_close(u);   /* its memory back before the next device */
		if (!watch_release_finish())
			return false;
	}
	return true;
}

static void *loop_main(void *arg)
{
	struct multi_unit *u = arg;

	u->done = bench_run_loop(u->run);
	return NULL;
}

/*
 * Every device at once: each run's set-up on this thread (a set-up may end the process),
 * the point loops on a thread each, starting each point together, then the views here.
 */
static void run_together(struct multi *m)
{
	struct bench_run *runs[BENCH_MAX_DEVICES];
	pthread_t th[BENCH_MAX_DEVICES];
	size_t n = m->ds.n;

	m->phase = MULTI_TOGETHER;
	sync_init(&m->sync, (unsigned)n);
	for (size_t i = 0; i < n; i++) {
		struct multi_unit *u = &m->u[i];
		unit_open(m, i);
		parse(m, u);
		runs[i] = u->run = bench_run_begin(&u->s, &u->job);
		u->run->h->sync = &m->sync;
		u->run->h->sync_index = (unsigned)i;
		u->run->h->together = true;
	}
	for (size_t i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, loop_main, &m->u[i]) != 0)
			cli_die(EXIT_FAIL, "cannot start a host thread for '%s'", m->ds.label[i]);
	for (size_t i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	m->together = multi_together_json(m, runs, n);
	for (size_t i = 0; i < n; i++) {
		struct multi_unit *u = &m->u[i];
		header(m, i, "device");
		u->rc[MULTI_TOGETHER] = bench_run_end(u->run, u->done, &u->doc[MULTI_TOGETHER]);
		u->run = NULL;
		bench_job_free(&u->job);
	}
	if (!m->co->quiet)
		multi_together_print(m, m->together);
	sync_done(&m->sync);
}

/* The worst exit code of the runs: a signal's, else 1 where any failed. */
static int worst(const struct multi *m)
{
	int rc = EXIT_OK;

	for (size_t i = 0; i < m->ds.n; i++)
		for (int p = 0; p < MULTI_PHASES; p++) {
			int c = m->u[i].doc[p] ? m->u[i].rc[p] : EXIT_OK;
			if (c != EXIT_OK && (rc == EXIT_OK || c > EXIT_FAIL))
				rc = c;
		}
	return rc;
}

/* A BENCH_PEERS run's document with its devices. */
static int peers_write(struct multi *m, json_t *doc)
{
	json_object_set(doc, "devices", m->peer_devices);
	return bench_outputs_write(m->co, doc);
}

/* The watchdog's writer of a BENCH_PEERS run. */
static int peers_write_now(struct bench_session *s, struct bench_run *r)
{
	return r ? peers_write(s->owner, r->doc) : EXIT_OK;
}

/*
 * One run of a BENCH_PEERS row across the devices of ds in one context (the first alone where
 * `alone` says why there is no second): each device's report and label appended to list.
 */
static int peers_run(const struct bench_devset *ds, const struct common_opts *co,
		     struct bench_job *j, const char *alone, json_t *list, json_t **doc)
{
	static struct bench_peers peers;
	struct bench_session s = { .co = co };
	size_t n = alone ? 1 : ds->n;
	char err[4096];
	double t0 = time_now_ns();
	int rc;

	if (!prog_ctx_create_group(peers.pc, n, ds->dev, co->kernels_dir, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: %s", err);
	peers.n = n;
	peers.alone = alone;
	for (size_t i = 0; i < n; i++) {
		json_t *d = dev_to_json(ds->dev[i]);
		peers.label[i] = ds->label[i];
		json_object_set_new(d, "label", json_string(ds->label[i]));
		json_array_append_new(list, d);
	}
	s.dev = ds->dev[0];
	s.pc = peers.pc[0];
	s.label = peers.label[0];
	s.peers = &peers;
	occ_live_init(&s.model, s.dev);
	s.open_ns = time_now_ns() - t0;
	rc = bench_run_job(&s, j, doc);
	for (size_t i = 0; i < peers.n; i++)
		prog_ctx_release(&peers.pc[i]);
	return rc;
}

/* A BENCH_PEERS row: one run across the devices of one context. */
static int run_peers(struct multi *m, const char *alone)
{
	json_t *doc = NULL;
	int rc, wrc;

	m->peer_devices = json_array();
	rc = peers_run(&m->ds, m->co, m->j, alone, m->peer_devices, &doc);
	wrc = peers_write(m, doc);
	json_decref(doc);
	return rc != EXIT_OK ? rc : wrc;
}

/*
 * The devices a BENCH_PEERS entry of a suite measures across, as a --device spec: the
 * session's device alone where it is to be partitioned (--sub-devices, or the NUMA domains
 * it offers: a GPU's stacks in COMPOSITE mode), else every device of its platform and type
 * (a GPU's stacks in FLAT mode).
 */
static void peers_spec(const struct bench_session *s, const struct common_opts *co, char *spec,
		       size_t len)
{
	const struct dev_info *d = s->dev;
	size_t off = 0;

	snprintf(spec, len, "%u:%u", d->platform_index, d->device_index);
	if (co->sub_devices || (d->part_domains & CL_DEVICE_AFFINITY_DOMAIN_NUMA))
		return;
	for (unsigned i = 0; i < s->devs.n && off < len; i++) {
		const struct dev_info *e = &s->devs.d[i];
		if (e->platform_index == d->platform_index && (e->type & d->type))
			off += (size_t)snprintf(spec + off, len - off, "%s%u:%u", off ? "," : "",
						e->platform_index, e->device_index);
	}
}

int bench_run_job_peers(struct bench_session *s, struct bench_job *j, json_t **doc)
{
	struct common_opts co = j->shared->co;
	struct bench_devset *ds = bench_zalloc(sizeof(*ds));
	char spec[512], why[2048];
	json_t *list = json_array();
	int rc;

	peers_spec(s, &co, spec, sizeof(spec));
	co.device = spec;
	co.kernels_dir = s->co->kernels_dir;
	bool two = bench_devset_open(ds, &co, true, why, sizeof(why));
	rc = peers_run(ds, &co, j, two ? NULL : why, list, doc);
	json_object_set_new(*doc, "devices", list);
	bench_devset_close(ds);
	free(ds);
	return rc;
}

int bench_multi_run(struct bench_job *j)
{
	struct multi *m = bench_alloc(sizeof(*m));
	char why[2048];
	time_t now = time(NULL);
	struct tm tm;
	int rc, wrc = EXIT_OK;

	memset(m, 0, sizeof(*m));
	m->j = j;
	m->co = &j->shared->co;
	gmtime_r(&now, &tm);
	strftime(m->started, sizeof(m->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if ((j->cmd->flags & BENCH_PEERS) && m->co->concurrent)
		cli_usage_error("--concurrent: bench %s measures across the devices of one context in "
				"one run; it has no devices alone to set beside", cli_cmd);
	bench_outputs_open(m->co);
	harness_check_kernels(m->co);
	m->top = (struct bench_session){ .co = m->co, .owner = m, .write_now =
					 j->cmd->flags & BENCH_PEERS ? peers_write_now : write_now };
	watch_start(&m->top);   /* before any driver thread, which inherits the blocked signals */
	bool two = bench_devset_open(&m->ds, m->co, j->cmd->flags & BENCH_PEERS, why, sizeof(why));
	if (j->cmd->flags & BENCH_PEERS) {
		rc = run_peers(m, two ? NULL : why);
	} else {
		if (m->co->concurrent && m->ds.n < 2)
			cli_die(EXIT_SKIP, "device: --concurrent needs two or more devices; --device %s%s "
				"selects one: %s", m->co->device ? m->co->device : "(default)",
				m->co->sub_devices ? " with --sub-devices" : "", m->ds.label[0]);
		live = m;
		atexit(write_at_exit);
		m->running = true;
		if (run_alone(m) && m->co->concurrent)
			run_together(m);
		watch_claim_finish();   /* the watchdog writes no more */
		m->running = false;
		rc = watch_signal() ? watch_exit_code(watch_signal()) : worst(m);
		wrc = multi_write(m, NULL, NULL);
		live = NULL;
	}
	watch_stop();
	for (size_t i = 0; i < m->ds.n; i++) {
		unit_close(&m->u[i]);
		for (int p = 0; p < MULTI_PHASES; p++)
			json_decref(m->u[i].doc[p]);
	}
	json_decref(m->together);
	json_decref(m->peer_devices);
	bench_devset_close(&m->ds);
	free(m);
	return rc != EXIT_OK ? rc : wrc;
}
