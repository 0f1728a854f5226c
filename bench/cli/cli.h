/*
 * The command line: messages and exit codes, strict value parsers that exit 2
 * naming the option, and option tables parsed by one getopt_long loop.
 */
#ifndef BENCH_CLI_H
#define BENCH_CLI_H

#include "range.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdnoreturn.h>

/* A macro's value as a string literal: CLI_XSTR(256) is "256" (one number for code and help). */
#define CLI_XSTR_(x) #x
#define CLI_XSTR(x) CLI_XSTR_(x)

/* Exit codes (CONTRIBUTING.md). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_SKIP = 77 };

/* Subcommand name for messages ("vecadd"). */
extern const char *cli_cmd;
/* Where the command runs, after its name in usage errors and fatal messages
 * (" (suite quick, entry 3)"; "" when it runs on its own). */
extern const char *cli_where;
/* Every command's name, NULL-ended: set by main, read where a message names what exists. */
extern const char *const *cli_commands;
/* Whether name is one of cli_commands. */
bool cli_is_command(const char *name);
/* The whole command line, for the results document. */
extern int cli_argc;
extern char **cli_argv;

/*
 * At exit (atexit, first thing in main): standard output flushed and closed; where that fails
 * (a full disk, /dev/full) the process exits 1 saying so, never 0 with its output lost.
 */
void cli_close_stdout(void);
/*
 * Writes text with what is not text escaped: a byte of no valid UTF-8 sequence and a control
 * character (but a line break or a tab) as \xNN, so a value echoed in a message is readable.
 */
void cli_put_escaped(FILE *f, const char *text);
/* Prints "bench CMD: usage: ..." and "(see 'bench CMD --help')", exits 2 (cli_put_escaped). */
noreturn void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "bench CMD: ..." and exits with code. */
noreturn void cli_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Strict parsers around host/range.c that exit 2 naming the option (without its dashes). */
uint64_t cli_u64(const char *opt, const char *arg, uint64_t min, uint64_t max);
uint64_t cli_size(const char *opt, const char *arg, uint64_t min, uint64_t max);
void cli_range(const char *opt, const char *arg, uint64_t min, uint64_t max, struct range *r);
void cli_size_range(const char *opt, const char *arg, uint64_t min, uint64_t max, struct range *r);
/*
 * A comma-separated choice among names ("all" for every one): flags[i] is set for each
 * name given; an unknown name exits 2 listing the allowed ones.
 */
void cli_names(const char *opt, const char *arg, const char *const *names, size_t n, bool *flags);
/* A real number in [min, max], strictly (no trailing characters, no NaN), or exit 2 naming
 * --opt, the value and the range. */
double cli_real(const char *opt, const char *arg, double min, double max);

/* Index of arg in names, or exit 2 listing them. */
unsigned cli_choice(const char *opt, const char *arg, const char *const *names, size_t n);

/* How an option's value is parsed and where it is stored (an offset into a struct). */
enum cli_kind {
	CLI_END = 0,
	CLI_FLAG,        /* bool */
	CLI_STR,         /* const char * (argv's string) */
	CLI_U64,         /* uint64_t in min..max */
	CLI_UINT,        /* unsigned in min..max */
	CLI_SIZE,        /* uint64_t with K/M/G/Ki/Mi/Gi suffixes, min..max */
	CLI_RANGE,       /* struct range of integers in min..max */
	CLI_SIZE_RANGE,  /* struct range of sizes in min..max */
	CLI_NAMES,       /* bool[n_names]: a comma-separated subset of names, or all */
	CLI_CHOICE,      /* unsigned: the index of one of names */
	CLI_SG,          /* unsigned sub-group size 1..1024, or 0 for "auto" */
	CLI_FN,          /* fn(base, arg) parses it */
};

/* One option of a table; tables end with an entry of kind CLI_END. */
struct cli_opt {
	const char *name;        /* long name, without dashes */
	const char *metavar;     /* "N", "RANGE"; NULL for a flag */
	enum cli_kind kind;
	size_t off;              /* where the value goes in the options struct */
	uint64_t min, max;
	const char *const *names;
	size_t n_names;
	void (*fn)(void *base, const char *arg);
	/*
	 * Lines after the first start with '\n' and are indented; the allowed range of a number
	 * and the default are added from min, max, def and def_note, never typed here. NULL: the
	 * option is not listed (a spelling kept so that older command lines get a clear answer).
	 */
	const char *help;
	char short_name;         /* a one-letter alias ('o' for -o), 0: none */
	/* the default in the option's own syntax: stored before the command line is read */
	const char *def;
	/* a default the code applies (one that depends on other options), in words */
	const char *def_note;
};

/* One table of options and the struct its offsets point into. */
struct cli_set {
	const struct cli_opt *opts;
	void *base;
	bool *given;             /* per option: named on the command line (caller's array) */
};

#define CLI_MAX_SETS 4
#define CLI_MAX_OPTS 64

/* Stores the defaults of a table (each option's def) into base, as the parser does first. */
void cli_set_defaults(const struct cli_opt *opts, void *base);
/* A command's operands, the arguments that are not options (bench compare BASE NEW). */
struct cli_operands {
	const char **v;          /* argv's strings, in order (allocated; free it) */
	size_t n;
};

/*
 * Parses argv[1..] (argv[0] is the command) against the sets with one getopt_long loop,
 * each set's defaults stored first; --help prints usage and exits 0; unknown options and
 * missing values exit 2. Operands go to ops: options may come before, between or after
 * them, and "--" makes the rest operands; with ops NULL an operand exits 2.
 */
void cli_parse_operands(int argc, char **argv, const struct cli_set *sets, size_t n_sets,
			void (*usage)(FILE *f), struct cli_operands *ops);
/*
 * Prints the options of a table, aligned, one per line (with continuation lines), each
 * with its range and default.
 */
void cli_print_opts(FILE *f, const struct cli_opt *opts);
/* What --help adds to an option's help: "1..100000, default 10" ("" when nothing). */
void cli_opt_facts(const struct cli_opt *o, char *buf, size_t len);
/* Whether option `name` of set s was given (false when no such option). */
bool cli_given(const struct cli_set *s, const char *name);

#endif
