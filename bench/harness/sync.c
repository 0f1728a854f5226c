/* The rendezvous of runs measured at once (--concurrent): launch.h says how it works. */
#define HARNESS_LAYER HARNESS_LAYER_LAUNCH
#include "launch.h"

#include <string.h>

void sync_init(struct bench_sync *s, unsigned n)
{
	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	atomic_init(&s->measuring, 0);
	s->parties = n;
	for (unsigned i = 0; i < n; i++)
		s->looping[i] = s->in_point[i] = true;
}

void sync_done(struct bench_sync *s)
{
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
}

/* Releases the runs waiting at the start of a point once every run still looping is there. */
static void release_if_all(struct bench_sync *s)
{
	if (!s->parties || s->arrived < s->parties)
		return;
	s->arrived = 0;
	s->round++;
	for (size_t i = 0; i < BENCH_MAX_DEVICES; i++) {
		s->in_point[i] = s->looping[i];
		s->calls[i] = 0;
	}
	pthread_cond_broadcast(&s->cv);
}

void sync_point(struct bench_sync *s)
{
	unsigned long round;

	pthread_mutex_lock(&s->mu);
	round = s->round;
	s->arrived++;
	release_if_all(s);
	while (round == s->round)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

void sync_point_done(struct bench_sync *s, unsigned me)
{
	pthread_mutex_lock(&s->mu);
	s->in_point[me] = false;   /* none waits for its timings in this point any more */
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

void sync_leave(struct bench_sync *s, unsigned me)
{
	pthread_mutex_lock(&s->mu);
	s->looping[me] = s->in_point[me] = false;
	s->parties--;
	release_if_all(s);
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

/* Whether another run still in the point has begun fewer than k timings. */
static bool behind(const struct bench_sync *s, unsigned me, unsigned k)
{
	for (unsigned i = 0; i < BENCH_MAX_DEVICES; i++)
		if (i != me && s->in_point[i] && s->calls[i] < k)
			return true;
	return false;
}

void sync_timing(struct bench_sync *s, unsigned me)
{
	unsigned k;

	pthread_mutex_lock(&s->mu);
	k = ++s->calls[me];
	/* short of its targets from now: a run already timing keeps its load on for this one */
	atomic_fetch_add(&s->measuring, 1);
	pthread_cond_broadcast(&s->cv);
	/* the run with the fewest timings begun never waits: no cycle */
	while (behind(s, me, k) && !watch_signal())
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

void sync_satisfied(struct bench_sync *s)
{
	atomic_fetch_sub(&s->measuring, 1);
}

bool sync_others_measuring(struct bench_sync *s)
{
	return atomic_load(&s->measuring) > 0;
}
