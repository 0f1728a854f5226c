/*
 * CI systems' own channels, written the same way by bench compare and bench validate:
 *   - GitHub Actions' workflow commands (docs.github.com, "Workflow commands for GitHub
 *     Actions": `::error file=F,line=L,title=T::MESSAGE` on stdout annotates the run, the file
 *     and line where given; data escapes % CR LF as %25 %0D %0A, a property's value also : and
 *     , as %3A %2C), and its job summary: Markdown appended to the file $GITHUB_STEP_SUMMARY
 *     names for the step;
 *   - GitLab's metrics report (`artifacts:reports:metrics`): the OpenMetrics text format,
 *     a line `name{label="value"} number` each (a label value escapes \ " and newline as \\
 *     \" \n), which GitLab shows in a merge request beside the target branch's.
 */
#ifndef BENCH_CI_H
#define BENCH_CI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * One GitHub annotation of level ("error", "warning", "notice") on f: file and title where
 * not NULL, line where not 0; every value escaped. Flushed, as the runner reads it as it comes.
 */
void ci_annotation(FILE *f, const char *level, const char *file, unsigned line, const char *title,
		   const char *msg);

/* The path in $GITHUB_STEP_SUMMARY, or NULL where it is unset or empty (the caller refuses its
 * option before any work, as every output is checked). */
const char *ci_step_summary_path(void);
/* Why --github-summary is refused without it: a format, %s the option to give instead. */
#define CI_STEP_SUMMARY_UNSET "--github-summary: GITHUB_STEP_SUMMARY is not set (the file GitHub " \
			      "Actions gives a step for its summary): run it in a workflow's step, or write %s"

/* Appends text to the step summary file at path in one write (O_APPEND: a summary another step
 * wrote stays); false with the reason in err. */
bool ci_step_summary_append(const char *path, const char *text, char *err, size_t len);

/* One OpenMetrics line on f: name, one label (NULL: none) and its value escaped, the number. */
void ci_metric(FILE *f, const char *name, const char *label, const char *value, double v);

#endif
