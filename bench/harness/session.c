/*
 * The session: what one process keeps open across its runs (the device, its context and
 * queue, the model of the device, the time origin, the harness's own kernels).
 */
#define HARNESS_LAYER HARNESS_LAYER_SESSION
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void bench_check_kernels(const char *dir)
{
	struct stat st;
	struct dirent *e;
	DIR *d;

	if (!dir)
		return;
	if (stat(dir, &st) != 0)
		cli_usage_error("--kernels '%s' is not a readable folder: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		cli_usage_error("--kernels '%s' is not a readable folder: it is not a folder", dir);
	if (access(dir, R_OK | X_OK) != 0 || !(d = opendir(dir)))
		cli_usage_error("--kernels '%s' is not a readable folder: %s", dir, strerror(errno));
	while ((e = readdir(d))) {   /* its sources are inputs: no output may replace one */
		size_t n = strlen(e->d_name);
		char *path;
		if ((n > 3 && strcmp(e->d_name + n - 3, ".cl") == 0) ||
		    (n > 2 && strcmp(e->d_name + n - 2, ".h") == 0)) {
			if (asprintf(&path, "%s/%s", dir, e->d_name) < 0)
				cli_die(EXIT_FAIL, "out of host memory");
			bench_input("--kernels", path);
			free(path);
		}
	}
	closedir(d);
}

void harness_check_kernels(const struct common_opts *co)
{
	bench_check_kernels(co->kernels_dir);
}

void bench_session_open(struct bench_session *s, const struct common_opts *co)
{
	char err[4096];

	s->co = co;
	watch_start(s);   /* before any driver thread, which inherits the blocked signals */
	harness_check_kernels(co);
	if (harness_several(co, 0))
		cli_usage_error("bench %s runs on one device: --device all, gpu, cpu or a list, "
				"--sub-devices and --concurrent are for a benchmark's run", cli_cmd);
	s->dev = harness_pick_device(&s->devs, co);
	if (!prog_ctx_create(&s->pc, s->dev, co->kernels_dir, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: %s on '%s'", err, s->dev->name);
	occ_live_init(&s->model, s->dev);
}

void bench_session_close(struct bench_session *s)
{
	watch_stop();
	harness_own_free(s);
	harness_roof_free(s);
	harness_witness_free(s);
	prog_ctx_release(&s->pc);
	dev_list_free(&s->devs);
}

void harness_unit_open(struct bench_session *s, const struct common_opts *co,
		       const struct dev_info *d, const char *label)
{
	char err[4096];

	memset(s, 0, sizeof(*s));
	s->co = co;
	s->dev = d;
	s->label = label;
	if (!prog_ctx_create(&s->pc, d, co->kernels_dir, err, sizeof(err)))
		cli_die(EXIT_FAIL, "driver: %s on '%s'", err, label);
	occ_live_init(&s->model, d);
}

void harness_unit_close(struct bench_session *s)
{
	harness_roof_free(s);
	harness_witness_free(s);
	prog_ctx_release(&s->pc);
}
