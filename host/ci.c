/* CI systems' own channels (ci.h): GitHub's annotations and job summary, GitLab's metrics. */
#include "ci.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* s on f escaped as GitHub's workflow commands want it: data, or a property's value (prop). */
static void gh_escaped(FILE *f, const char *s, bool prop)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': fputs("%25", f); break;
		case '\r': fputs("%0D", f); break;
		case '\n': fputs("%0A", f); break;
		case ':': fputs(prop ? "%3A" : ":", f); break;
		case ',': fputs(prop ? "%2C" : ",", f); break;
		default: fputc(*s, f);
		}
	}
}

void ci_annotation(FILE *f, const char *level, const char *file, unsigned line, const char *title,
		   const char *msg)
{
	const char *sep = " ";

	fprintf(f, "::%s", level);
	if (file) {
		fprintf(f, "%sfile=", sep);
		gh_escaped(f, file, true);
		sep = ",";
	}
	if (file && line) {
		fprintf(f, "%sline=%u", sep, line);
		sep = ",";
	}
	if (title) {
		fprintf(f, "%stitle=", sep);
		gh_escaped(f, title, true);
	}
	fputs("::", f);
	gh_escaped(f, msg, false);
	fputc('\n', f);
	fflush(f);
}

const char *ci_step_summary_path(void)
{
	const char *p = getenv("GITHUB_STEP_SUMMARY");

	return p && *p ? p : NULL;
}

bool ci_step_summary_append(const char *path, const char *text, char *err, size_t len)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	size_t n = strlen(text);
	ssize_t w;
	bool ok;

	if (fd < 0) {
		snprintf(err, len, "GITHUB_STEP_SUMMARY %s: %s", path, strerror(errno));
		return false;
	}
	w = write(fd, text, n);
	ok = w == (ssize_t)n;
	if (!ok)
		snprintf(err, len, "GITHUB_STEP_SUMMARY %s: %s", path,
			 w < 0 ? strerror(errno) : "written in part");
	if (close(fd) != 0 && ok) {
		snprintf(err, len, "GITHUB_STEP_SUMMARY %s: %s", path, strerror(errno));
		ok = false;
	}
	return ok;
}

void ci_metric(FILE *f, const char *name, const char *label, const char *value, double v)
{
	fputs(name, f);
	if (label) {
		fprintf(f, "{%s=\"", label);
		for (const char *s = value; *s; s++) {
			if (*s == '\\' || *s == '"')
				fputc('\\', f);
			if (*s == '\n')
				fputs("\\n", f);
			else
				fputc(*s, f);
		}
		fputs("\"}", f);
	}
	if (isfinite(v))
		fprintf(f, " %.10g\n", v);
	else
		fprintf(f, " %s\n", isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
}
