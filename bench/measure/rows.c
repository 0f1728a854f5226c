/*
 * The table of measurement rows, made from the list of rows in meson.build (bench_rows):
 * one line there adds a row's folder to the build, its kernel to the binary, its tests to
 * the suites and its row to this table (CONTRIBUTING.md, "Adding a benchmark"). The build
 * defines BENCH_ROWS(X) as X(vecadd) X(stream) ..., in bench list's order.
 */
#include "rows.h"

#include <getopt.h>
#include <string.h>

#define DECLARE(n) extern const struct bench_row n##_row;
BENCH_ROWS(DECLARE)
#define ENTRY(n) &n##_row,
static const struct bench_row *const rows[] = { BENCH_ROWS(ENTRY) };
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

/*
 * An alias: the command `name` with option `opt` given as `value` (NULL: a flag given)
 * runs `row`, with the same arguments (the row takes the option too).
 */
static const struct {
	const char *name, *opt, *value;
	const struct bench_row *row;
} aliases[] = {
	{ "vecadd", "variant", "5", &stream_row },   /* streaming was vecadd's variant 5 */
	{ "occupancy", "waves", NULL, &occupancy_waves_row },   /* and this occupancy's --waves */
};

const struct bench_row *bench_row_find(const char *name)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (strcmp(name, rows[i]->cmd.name) == 0)
			return rows[i];
	return NULL;
}

const struct bench_row *bench_row_at(size_t i)
{
	return i < N_ROWS ? rows[i] : NULL;
}

/*
 * Whether the command line gives option `opt` of row's table, as getopt_long would read it
 * (abbreviations and --opt=value included), and its value (NULL for a flag).
 */
static bool option_given(const struct bench_row *row, const char *opt, int argc, char **argv,
			 const char **value)
{
	struct option lo[CLI_MAX_OPTS + 1];
	bool given = false;
	size_t n = 0;
	int c;

	for (size_t i = 0; row->cmd.opts[i].kind != CLI_END && n < CLI_MAX_OPTS; i++, n++)
		lo[n] = (struct option){ row->cmd.opts[i].name,
					 row->cmd.opts[i].kind == CLI_FLAG ? no_argument : required_argument,
					 NULL, (int)(0x1000 + i) };
	lo[n] = (struct option){ 0 };
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+", lo, NULL)) != -1 || optind < argc) {
		if (c == -1) {   /* an operand or an option of another table: step over it */
			optind++;
			continue;
		}
		if (c >= 0x1000 && strcmp(row->cmd.opts[c - 0x1000].name, opt) == 0) {
			given = true;
			*value = optarg;
		}
	}
	optind = 0;
	return given;
}

/* Whether row's own table holds an option called name. */
static bool takes(const struct bench_row *row, const char *name)
{
	for (size_t i = 0; row->cmd.opts[i].kind != CLI_END; i++)
		if (strcmp(row->cmd.opts[i].name, name) == 0)
			return true;
	return false;
}

/*
 * An option of the command's own form that its alias does not take (bench occupancy --waves
 * --check-driver): refused naming the form it belongs to, where the alias's parser could only
 * call it unknown though the command's --help lists it.
 */
static void alien_options(const struct bench_row *row, size_t a, int argc, char **argv)
{
	for (size_t i = 0; row->cmd.opts[i].kind != CLI_END; i++) {
		const char *name = row->cmd.opts[i].name, *v = NULL;
		if (takes(aliases[a].row, name) || !option_given(row, name, argc, argv, &v))
			continue;
		if (aliases[a].value)
			cli_usage_error("--%s does not apply to --%s %s (bench %s): it is an option of "
					"bench %s's other forms", name, aliases[a].opt, aliases[a].value,
					aliases[a].row->cmd.name, row->cmd.name);
		cli_usage_error("--%s does not apply to --%s (bench %s): it is an option of bench %s "
				"without --%s", name, aliases[a].opt, aliases[a].row->cmd.name,
				row->cmd.name, aliases[a].opt);
	}
}

const struct bench_row *bench_row_resolve(int argc, char **argv)
{
	const struct bench_row *row = bench_row_find(argv[0]);

	for (size_t i = 0; row && i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		const char *v = NULL;
		if (strcmp(aliases[i].name, row->cmd.name) == 0 &&
		    option_given(row, aliases[i].opt, argc, argv, &v) &&
		    (!aliases[i].value || (v && strcmp(v, aliases[i].value) == 0))) {
			alien_options(row, i, argc, argv);
			return aliases[i].row;
		}
	}
	return row;
}
