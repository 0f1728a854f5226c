/* bench compile: rows' builds, compiled by ocloc in a session (compile.h). */
#include "rows.h"
#include "tool.h"
#include "compile.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the rows ---- */

bool compile_describe(const char *bench, const struct dev_info *dev, unsigned sg, bool grf_large,
		      struct bench_builds *b)
{
	const struct bench_row *row;

	memset(b, 0, sizeof(*b));
	b->dev = dev;
	b->sg = sg;
	b->grf_large = grf_large;
	if (strcmp(bench, COMPILE_CEILING) == 0) {
		b->bench = COMPILE_CEILING;
		bench_ceiling_builds(b);
		return true;
	}
	if (!(row = bench_row_find(bench)) || !row->builds)
		return false;
	b->bench = row->cmd.name;
	row->builds(b);
	return true;
}

const char *compile_row_names(char *buf, size_t len)
{
	const struct bench_row *row;
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; (row = bench_row_at(i)) && off < len; i++)
		if (row->builds)
			off += (size_t)snprintf(buf + off, len - off, "%s, ", row->cmd.name);
	if (off < len)
		snprintf(buf + off, len - off, "%s", COMPILE_CEILING);
	return buf;
}

/* ---- the session ---- */

struct compile_job_key {
	const char *target;
	char *file, *options;
};

bool compile_session_open(struct compile_session *s, const char *kernels_dir, char *err,
			  size_t len)
{
	const char *tmp = getenv("TMPDIR");
	char src[4200];

	memset(s, 0, sizeof(*s));
	s->kernels_dir = kernels_dir;
	if (!ocloc_find(&s->oc, err, len))
		cli_die(EXIT_SKIP, "%s", err);
	snprintf(s->work, sizeof(s->work), "%s/bench-compile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->work)) {
		snprintf(err, len, "cannot make a folder in %s: %s", tmp && *tmp ? tmp : "/tmp",
			 strerror(errno));
		s->work[0] = '\0';
		return false;
	}
	snprintf(src, sizeof(src), "%s/src", s->work);
	if (mkdir(src, 0700) != 0) {
		snprintf(err, len, "cannot make %s: %s", src, strerror(errno));
		return false;
	}
	return true;
}

/* work/src/FILE, written once from the kernel source with its includes expanded. */
static bool source_path(struct compile_session *s, const char *file, char *path, size_t plen,
			char *err, size_t len)
{
	char *text;
	FILE *f;
	bool ok;

	snprintf(path, plen, "%s/src/%s", s->work, file);
	for (size_t i = 0; i < s->n_sources; i++)
		if (strcmp(s->sources[i], file) == 0)
			return true;
	if (!(text = prog_source(s->kernels_dir, file, err, len)))
		return false;
	f = fopen(path, "w");
	ok = f && fputs(text, f) >= 0;
	if (f && fclose(f) != 0)
		ok = false;
	free(text);
	if (!ok) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(errno));
		return false;
	}
	char **v = realloc(s->sources, (s->n_sources + 1) * sizeof(*v));
	if (!v || !(v[s->n_sources] = strdup(file)))
		cli_die(EXIT_FAIL, "out of host memory");
	s->sources = v;
	s->n_sources++;
	return true;
}

static void grow(struct compile_session *s)
{
	size_t cap = s->cap ? 2 * s->cap : 64;
	struct ocloc_job *j = realloc(s->jobs, cap * sizeof(*j));
	struct compile_job_key *k = j ? realloc(s->keys, cap * sizeof(*k)) : NULL;

	if (j)
		s->jobs = j;
	if (!j || !k)
		cli_die(EXIT_FAIL, "out of host memory");
	s->keys = k;
	s->cap = cap;
}

size_t compile_session_add(struct compile_session *s, const struct igpu_target *t,
			   const struct bench_build *bb, char *err, size_t len)
{
	char path[4200];
	struct compile_job_key *k;
	struct ocloc_job *j;

	for (size_t i = 0; i < s->n_jobs; i++)
		if (s->keys[i].target == t->name && strcmp(s->keys[i].file, bb->file) == 0 &&
		    strcmp(s->keys[i].options, bb->options) == 0)
			return i;
	if (!source_path(s, bb->file, path, sizeof(path), err, len))
		return SIZE_MAX;
	if (s->n_jobs == s->cap)
		grow(s);
	k = &s->keys[s->n_jobs];
	j = &s->jobs[s->n_jobs];
	memset(j, 0, sizeof(*j));
	k->target = t->name;
	if (!(k->file = strdup(bb->file)) || !(k->options = strdup(bb->options)) ||
	    !(j->source = strdup(path)))
		cli_die(EXIT_FAIL, "out of host memory");
	j->target = t->name;
	j->options = k->options;
	j->status = -1;
	return s->n_jobs++;
}

bool compile_session_run(struct compile_session *s, unsigned parallel, char *err, size_t len)
{
	if (!(s->bins = calloc(s->n_jobs ? s->n_jobs : 1, sizeof(*s->bins))))
		cli_die(EXIT_FAIL, "out of host memory");
	if (!ocloc_run(&s->oc, s->jobs, s->n_jobs, parallel, s->work, err, len))
		return false;
	for (size_t i = 0; i < s->n_jobs; i++) {
		char why[512];
		if (s->jobs[i].binary[0] && !zebin_read(s->jobs[i].binary, &s->bins[i], why, sizeof(why))) {
			/* kept as the job's error: the binary is the compiler's, not the row's */
			free(s->jobs[i].log);
			s->jobs[i].log = strdup(why);
			s->jobs[i].binary[0] = '\0';
		}
	}
	return true;
}

const struct zebin_kernel *compile_session_kernel(const struct compile_session *s, size_t j,
						  const char *kernel, char *why, size_t len)
{
	const struct zebin_kernel *k;

	if (j >= s->n_jobs || !s->bins) {
		snprintf(why, len, "bench bug: job %zu was not run", j);
		return NULL;
	}
	if (!s->jobs[j].binary[0] && s->jobs[j].signal) {
		snprintf(why, len, "ocloc was ended by signal %d (%s)", s->jobs[j].signal,
			 strsignal(s->jobs[j].signal));
		return NULL;
	}
	if (!s->jobs[j].binary[0]) {
		ocloc_error(s->jobs[j].log, why, len);
		return NULL;
	}
	if (!(k = zebin_find(&s->bins[j], kernel)))
		snprintf(why, len, "the binary has no kernel %s (its build options leave it out)",
			 kernel);
	return k;
}

void compile_session_close(struct compile_session *s)
{
	for (size_t i = 0; i < s->n_jobs; i++) {
		ocloc_job_free(&s->jobs[i]);
		free((char *)s->jobs[i].source);
		free(s->keys[i].file);
		free(s->keys[i].options);
		if (s->bins)
			zebin_free(&s->bins[i]);
	}
	for (size_t i = 0; i < s->n_sources; i++)
		free(s->sources[i]);
	free(s->sources);
	free(s->jobs);
	free(s->keys);
	free(s->bins);
	if (s->work[0] && !getenv("BENCH_COMPILE_KEEP"))
		ocloc_rmtree(s->work);
	memset(s, 0, sizeof(*s));
}

json_t *compile_kernel_json(const struct zebin_kernel *k)
{
	json_t *o = json_object();

	json_object_set_new(o, "simd", json_integer(k->simd));
	json_object_set_new(o, "grf_count", json_integer(k->grf));
	json_object_set_new(o, "spill_mem_bytes", json_integer((json_int_t)k->scratch));
	json_object_set_new(o, "scratch_usage", k->scratch_usage[0] ? json_string(k->scratch_usage)
								     : json_null());
	json_object_set_new(o, "private_mem_bytes", json_integer((json_int_t)k->private_mem));
	json_object_set_new(o, "local_mem_bytes", json_integer((json_int_t)k->slm));
	json_object_set_new(o, "barrier_count", json_integer(k->barriers));
	json_object_set_new(o, "required_sg_size", k->required_sg ? json_integer(k->required_sg)
								 : json_null());
	json_object_set_new(o, "instructions", json_integer(k->instructions));
	json_object_set_new(o, "text_bytes", json_integer((json_int_t)k->text_bytes));
	return o;
}
